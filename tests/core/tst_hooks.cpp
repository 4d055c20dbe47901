// Control hooks against mock servers shaped like vLLM, SGLang and trtllm-serve: verification,
// retries, placement, failure policy, JSON bodies, trace links and the preflight.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "hooks/ControlClient.h"
#include "engine/HookPreflight.h"
#include "hooks/HookPresets.h"
#include "spec/HookPath.h"
#include "spec/SecretSet.h"
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <thread>

using namespace sb;
using namespace sbtest;

namespace {
// Another client's long streaming request, holding the server busy for `tokens` steps.
std::thread busyClient(quint16 port, int tokens)
{
    return std::thread([port, tokens] {
        QTcpSocket s;
        s.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (!s.waitForConnected(5000))
            return;
        const QByteArray body = "{\"model\":\"m\",\"prompt\":\"hold the server\",\"max_tokens\":" + QByteArray::number(tokens)
                                + ",\"ignore_eos\":true,\"stream\":true}";
        s.write("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        s.flush();
        while (s.state() == QAbstractSocket::ConnectedState && s.waitForReadyRead(30000))
            s.readAll();
    });
}

QStringList targets(const MockServer &mock)
{
    QStringList out;
    for (const auto &e : mock.controlEvents())
        out << QString::fromLatin1(e.method + ' ' + e.target);
    return out;
}
} // namespace

class TestHooks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void presetsAndPaths()
    {
        ServerSpec s;
        s.flavor = Flavor::Sglang;
        s.reset.timeoutS = 30;
        QCOMPARE(effectiveResetPath(s), QStringLiteral("/flush_cache?timeout=15"));
        s.flavor = Flavor::Vllm;
        QCOMPARE(effectiveResetPath(s), QStringLiteral("/reset_prefix_cache"));
        s.reset.path = QStringLiteral("/flush_cache?timeout=30");
        QCOMPARE(effectiveResetPath(s), QStringLiteral("/flush_cache?timeout=30"));
        QVERIFY(!checkHookPath(QStringLiteral("http://evil/x")).isEmpty());
        QVERIFY(!checkHookPath(QStringLiteral("reset")).isEmpty());
        QVERIFY(checkHookPath(QStringLiteral("/reset?x=1")).isEmpty());
        s.flavor = Flavor::Trtllm;
        s.profiler.traceDir = QStringLiteral("/tmp/t");
        QCOMPARE(effectiveProfilerStartBody(s)->value("output_dir").toString(), QStringLiteral("/tmp/t"));
        s.flavor = Flavor::Vllm; // vLLM takes no body: its trace folder is server configuration
        QVERIFY(!effectiveProfilerStartBody(s));
    }

    void vllmFalseIsRetriedUntilTrue()
    {
        QString error;
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.stepBaseMs = 10; // the busy request lasts ~2.5 s
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("vllm", *mock, Flavor::Vllm);
        server.reset.enabled = true;
        std::thread busy = busyClient(mock->port(), 250);
        QTRY_COMPARE_WITH_TIMEOUT(mock->stats().inFlight, 1, 5000);
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {1}, 4), out.path());
        busy.join();
        QCOMPARE(r.exitCode, 0);
        const HookOutcome reset = r.results.cells[0].hooks.value(0);
        QCOMPARE(reset.hook, HookKind::Reset);
        QVERIFY(reset.ok);
        QVERIFY2(reset.attempts >= 2, qPrintable(QString::number(reset.attempts))); // not "ok after 1 attempt"
        QVERIFY(mock->stats().resetsRefused >= 1);
        QCOMPARE(r.hookSignals.size(), 1);
    }

    void vllmFalseBeyondBudgetFailsTheCell()
    {
        QString error;
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.stepBaseMs = 20; // busy for ~8 s
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("vllm", *mock, Flavor::Vllm);
        server.reset.enabled = true;
        server.reset.maxRetryS = 2.5; // attempts at 0, 1, 3 s... the third wait would overrun
        std::thread busy = busyClient(mock->port(), 400);
        QTRY_COMPARE_WITH_TIMEOUT(mock->stats().inFlight, 1, 5000);
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {1, 2}, 4), out.path());
        const CellResult &cell = r.results.cells[0];
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(cell.status, sb::CellStatus::Failed); // skip_cell: no measured traffic
        QCOMPARE(cell.completed, 0);
        QCOMPARE(cell.hooks[0].verdict, std::optional(HookVerdict::Refused));
        QVERIFY(!cell.hooks[0].ok);
        QCOMPARE(cell.hooks[0].attempts, 2);
        QCOMPARE(cell.hooks[0].status, 200);
        QVERIFY(cell.reason.contains(QStringLiteral("refused")));
        busy.join();
    }

    void sglangBusyIsRetriedUntilIdle()
    {
        QString error;
        MockConfig cfg = mockDefaults(Flavor::Sglang);
        cfg.stepBaseMs = 10; // the other client's request lasts ~2.5 s
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("sglang", *mock, Flavor::Sglang);
        server.reset.enabled = true;
        server.reset.path = QStringLiteral("/flush_cache?timeout=0"); // answer 400 at once while busy
        std::thread busy = busyClient(mock->port(), 250);
        QTRY_COMPARE_WITH_TIMEOUT(mock->stats().inFlight, 1, 5000);
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {1}, 4), out.path());
        busy.join();
        QCOMPARE(r.exitCode, 0);
        const HookOutcome reset = r.results.cells[0].hooks.value(0);
        QVERIFY(reset.ok);
        QVERIFY2(reset.attempts >= 2, qPrintable(QString::number(reset.attempts)));
        QCOMPARE(reset.status, 200);
        QVERIFY(mock->stats().resetsRefused >= 1); // the 400s the retries went through
    }

    void unansweredCallIsATimeout()
    {
        QString error;
        MockConfig cfg = mockDefaults(Flavor::Sglang);
        cfg.stepBaseMs = 20;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("sglang", *mock, Flavor::Sglang);
        server.reset.enabled = true;
        server.reset.path = QStringLiteral("/flush_cache?timeout=5"); // the server waits 5 s for idle...
        server.reset.timeoutS = 0.5;                                   // ...we wait 0.5 s
        server.reset.maxRetryS = 2.0; // room for exactly one retry after a 1 s backoff
        std::thread busy = busyClient(mock->port(), 200);
        QTRY_COMPARE_WITH_TIMEOUT(mock->stats().inFlight, 1, 5000);
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {1}, 2), out.path());
        busy.join();
        const HookOutcome reset = r.results.cells[0].hooks.value(0);
        QCOMPARE(reset.verdict, std::optional(HookVerdict::Timeout));
        QCOMPARE(reset.status, 0);
        QVERIFY(!reset.ok);
        QCOMPARE(reset.attempts, 2); // timeouts are retried within the budget
        QCOMPARE(r.results.cells[0].status, sb::CellStatus::Failed);
    }

    void sglangQueryBodyAndTraces()
    {
        QString error;
        QTemporaryDir traces;
        auto mock = MockServer::start(mockDefaults(Flavor::Sglang), &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("sglang", *mock, Flavor::Sglang);
        server.reset.enabled = true;
        server.reset.path = QStringLiteral("/flush_cache?timeout=30");
        server.profiler.enabled = true;
        server.profiler.startBody = QJsonObject{{"output_dir", traces.path()}, {"activities", QJsonArray{"CPU"}}};
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {1, 2}, 4), out.path());
        QCOMPARE(r.exitCode, 0);
        const QStringList calls = targets(*mock);
        QCOMPARE(calls.size(), 6);
        QCOMPARE(calls[0], QStringLiteral("POST /flush_cache?timeout=30"));
        for (const CellResult &cell : r.results.cells) {
            QCOMPARE(cell.hooks.size(), 3);
            QCOMPARE(cell.hooks[0].path, QStringLiteral("/flush_cache?timeout=30"));
            QVERIFY(!cell.traces.isEmpty());
            for (const QString &t : cell.traces) {
                QVERIFY(QFileInfo(t).isAbsolute());
                QVERIFY(QFileInfo::exists(t));
                QVERIFY(t.startsWith(traces.path())); // written where start_body.output_dir said
            }
        }
    }

    void orderPerCellAndNeverWhileBusy()
    {
        QString error;
        QTemporaryDir traces;
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.traceDir = traces.path();
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("vllm", *mock, Flavor::Vllm);
        server.reset.enabled = true;
        server.reset.placement = ResetPlacement::Both;
        server.profiler.enabled = true;
        server.profiler.traceDir = traces.path();
        SweepSpec spec = smallSpec({server}, {4, 8}, 16);
        spec.workload.warmupRequests = 8;
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.exitCode, 0);
        const QString reset = QStringLiteral("POST /reset_prefix_cache");
        QCOMPARE(targets(*mock), (QStringList{reset, reset, "POST /start_profile", "POST /stop_profile", reset, reset,
                                              "POST /start_profile", "POST /stop_profile"}));
        for (const auto &e : mock->controlEvents()) {
            if (e.target != "/stop_profile")
                QCOMPARE(e.inFlightAtReceive, 0); // resets and starts only when idle
        }
        QCOMPARE(hookPlacementName(r.results.cells[0].hooks[0].placement), QStringLiteral("before_warmup"));
        QCOMPARE(hookPlacementName(r.results.cells[0].hooks[1].placement), QStringLiteral("after_warmup"));
        QVERIFY(!r.results.cells[0].traces.isEmpty());
    }

    void trtllmResetIsRouteMissing()
    {
        QString error;
        auto mock = MockServer::start(mockDefaults(Flavor::Trtllm), &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("trt", *mock, Flavor::Trtllm);
        server.reset.enabled = true;
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {1}, 4), out.path());
        const CellResult &cell = r.results.cells[0];
        QCOMPARE(cell.hooks[0].status, 404);
        QVERIFY(!cell.hooks[0].ok);
        QCOMPARE(cell.hooks[0].verdict, std::optional(HookVerdict::RouteMissing));
        QCOMPARE(cell.hooks[0].attempts, 1); // not retried
        QVERIFY(cell.hooks[0].message.contains(QStringLiteral("enable_block_reuse")));
        QVERIFY(cell.status != sb::CellStatus::Completed);
        QCOMPARE(mock->stats().requests, 0);
    }

    void trtllmProfilerOnlyLinksTraces()
    {
        QString error;
        QTemporaryDir traces;
        auto mock = MockServer::start(mockDefaults(Flavor::Trtllm), &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("trt", *mock, Flavor::Trtllm);
        server.profiler.enabled = true;
        server.profiler.traceDir = traces.path(); // sent as start_body.output_dir
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {1, 2, 4}, 4), out.path());
        QCOMPARE(r.exitCode, 0);
        for (const CellResult &cell : r.results.cells) {
            QCOMPARE(cell.status, sb::CellStatus::Completed);
            QCOMPARE(cell.traces.size(), 1);
            QVERIFY(QFileInfo(cell.traces[0]).fileName().startsWith(QStringLiteral("trtllm-trace-")));
        }
    }

    void policiesAbortAndContinue()
    {
        QString error;
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.devMode = false; // reset route 404, like a server without VLLM_SERVER_DEV_MODE=1
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("vllm", *mock, Flavor::Vllm);
        server.reset.enabled = true;
        QTemporaryDir out1, out2;
        SweepSpec spec = smallSpec({server}, {1, 2, 4}, 4);
        spec.onHookFailure = HookFailurePolicy::Abort;
        RunResult aborted = runSweep(spec, out1.path());
        QCOMPARE(aborted.exitCode, 1);
        QCOMPARE(aborted.results.cells[0].status, sb::CellStatus::Failed);
        QCOMPARE(aborted.results.cells[1].status, sb::CellStatus::Skipped);
        QCOMPARE(aborted.results.cells[2].status, sb::CellStatus::Skipped);
        QVERIFY(aborted.results.cells[0].hooks[0].message.contains(QStringLiteral("VLLM_SERVER_DEV_MODE=1")));

        spec.onHookFailure = HookFailurePolicy::Continue;
        RunResult cont = runSweep(spec, out2.path());
        QCOMPARE(cont.exitCode, 0);
        for (const CellResult &cell : cont.results.cells) {
            QCOMPARE(cell.status, sb::CellStatus::Completed);
            QCOMPARE(cell.completed, 4);
            QVERIFY(cell.warnings.join(' ').contains(QStringLiteral("on_hook_failure: continue")));
        }
    }

    void failedStopIsAWarning()
    {
        QString error;
        auto mock = MockServer::start(mockDefaults(Flavor::Vllm), &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("vllm", *mock, Flavor::Vllm);
        server.profiler.enabled = true;
        server.profiler.stopPath = QStringLiteral("/no_such_stop");
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {1}, 4), out.path());
        const CellResult &cell = r.results.cells[0];
        QCOMPARE(cell.status, sb::CellStatus::Completed); // its data is kept
        QCOMPARE(cell.completed, 4);
        QCOMPARE(cell.hooks[1].verdict, std::optional(HookVerdict::RouteMissing));
        QVERIFY(cell.warnings.join(' ').contains(QStringLiteral("profiler stop failed")));
    }

    void secretsRedactedFromMessages()
    {
        SecretSet secrets;
        secrets.add(QStringLiteral("sk-abcdef"));
        QCOMPARE(secrets.scrub(QStringLiteral("GET http://user:pw@host/x key sk-abcdef")),
                 QStringLiteral("GET http://***@host/x key [redacted]"));
    }

    void preflightReportsMissingGates()
    {
        QString error;
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.devMode = false;
        cfg.profiler = false;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("vllm", *mock, Flavor::Vllm);
        server.reset.enabled = true;
        server.profiler.enabled = true;
        SweepSpec spec = smallSpec({server}, {1}, 1);
        HookPreflight preflight(spec);
        QSignalSpy checked(&preflight, &HookPreflight::serverChecked);
        QSignalSpy finished(&preflight, &HookPreflight::finished);
        preflight.start();
        QVERIFY(sbtest::waitForSignal(finished, 20000));
        QCOMPARE(checked.size(), 1);
        const auto outcomes = checked[0][1].value<QList<HookOutcome>>();
        const auto hints = checked[0][2].toStringList();
        QCOMPARE(outcomes.size(), 2); // reset and start; no stop after a failed start
        QCOMPARE(outcomes[0].verdict, std::optional(HookVerdict::RouteMissing));
        QCOMPARE(outcomes[1].verdict, std::optional(HookVerdict::RouteMissing));
        QVERIFY(hints.join(' ').contains(QStringLiteral("VLLM_SERVER_DEV_MODE=1")));
        QVERIFY(hints.join(' ').contains(QStringLiteral("profiler")));
    }
};

QTEST_GUILESS_MAIN(TestHooks)
#include "tst_hooks.moc"
