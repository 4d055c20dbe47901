// Servers with several URLs (replicas behind one entry, as AIPerf's repeated --url): in-flight
// requests spread evenly, hooks once per unique origin, and a profiler start that fails on one
// origin closes the windows already opened, newest first. Also SGLang's num_steps auto-stop.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "hooks/ControlClient.h"
#include "engine/HookPreflight.h"
#include "hooks/HookRunner.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace sb;
using namespace sbtest;

namespace {
QStringList calls(const MockServer &mock)
{
    QStringList out;
    for (const auto &e : mock.controlEvents())
        out << QString::fromLatin1(e.target);
    return out;
}

QString origin(const MockServer &mock)
{
    return QStringLiteral("http://127.0.0.1:%1").arg(mock.port());
}

std::unique_ptr<MockServer> startMock(MockConfig cfg)
{
    QString error;
    auto mock = MockServer::start(cfg, &error);
    if (!mock)
        qFatal("mock: %s", qPrintable(error));
    return mock;
}
} // namespace

class TestHookOrigins : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void requestsSpreadAndHooksOncePerOrigin()
    {
        auto a = startMock(timedMock(Flavor::Vllm));
        auto b = startMock(timedMock(Flavor::Vllm));
        ServerSpec server = serverFor(QStringLiteral("replicas"), *a, Flavor::Vllm);
        // The third URL is a second base path on a's origin: it shares a's hooks.
        server.urls = {a->url().toString(), b->url().toString(), a->url().toString() + QStringLiteral("/v1")};
        server.reset.enabled = true;
        server.profiler.enabled = true;
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {6}, 60), out.path());
        QCOMPARE(r.exitCode, 0);
        const CellResult &cell = r.results.cells[0];
        QCOMPARE(cell.status, sb::CellStatus::Completed);
        QCOMPARE(cell.completed, 60);
        QCOMPARE(cell.origin, origin(*a) + QStringLiteral(", ") + origin(*b));

        // Connections 0..5 go to URLs 0,1,2,0,1,2: four in flight on a, two on b.
        QCOMPARE(a->stats().maxInFlight, 4);
        QCOMPARE(b->stats().maxInFlight, 2);
        QVERIFY(a->stats().requests > 0 && b->stats().requests > 0);
        QCOMPARE(a->stats().requests + b->stats().requests, 60);

        // One reset and one window per origin, bracketed per origin: start a, start b, stop b, stop a.
        QCOMPARE(calls(*a), QStringList({"/reset_prefix_cache", "/start_profile", "/stop_profile"}));
        QCOMPARE(calls(*b), QStringList({"/reset_prefix_cache", "/start_profile", "/stop_profile"}));
        QStringList seen;
        for (const HookOutcome &h : cell.hooks)
            seen << hookKindName(h.hook) + QLatin1Char('@') + h.origin;
        QCOMPARE(seen, QStringList({"reset_kv_cache@" + origin(*a), "reset_kv_cache@" + origin(*b),
                                    "profiler_start@" + origin(*a), "profiler_start@" + origin(*b),
                                    "profiler_stop@" + origin(*b), "profiler_stop@" + origin(*a)}));
        QVERIFY(a->controlEvents()[1].receivedNs < b->controlEvents()[1].receivedNs);
        QVERIFY(b->controlEvents()[2].receivedNs < a->controlEvents()[2].receivedNs);
        for (const MockServer *m : {a.get(), b.get()})
            for (const auto &e : m->controlEvents())
                QCOMPARE(e.inFlightAtReceive, 0);

        // Each record says which origin served it.
        const QByteArray records = sbtest::readFile(out.path() + QLatin1Char('/') + cell.recordsPath);
        QCOMPARE(records.count("\"origin\":\"" + origin(*a).toUtf8() + '"') + records.count("\"origin\":\"" + origin(*b).toUtf8() + '"'), 60);
        QCOMPARE(qint64(records.count("\"origin\":\"" + origin(*b).toUtf8() + '"')), b->stats().requests);
    }

    void failedStartClosesStartedWindowsInReverseOrder()
    {
        auto a = startMock(timedMock(Flavor::Vllm));
        auto b = startMock(timedMock(Flavor::Vllm));
        MockConfig noProfiler = timedMock(Flavor::Vllm);
        noProfiler.profiler = false; // /start_profile is 404, like vLLM started without a profiler
        auto c = startMock(noProfiler);
        ServerSpec server = serverFor(QStringLiteral("replicas"), *a, Flavor::Vllm);
        server.urls = {a->url().toString(), b->url().toString(), c->url().toString()};
        server.profiler.enabled = true;
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {3}, 12), out.path());
        QCOMPARE(r.exitCode, 1);
        const CellResult &cell = r.results.cells[0];
        QCOMPARE(cell.status, sb::CellStatus::Failed); // skip_cell: no measured traffic anywhere
        QCOMPARE(cell.completed, 0);
        for (const MockServer *m : {a.get(), b.get(), c.get()})
            QCOMPARE(m->stats().requests, 0);
        QVERIFY2(cell.reason.contains(QStringLiteral("profiler_start route_missing")), qPrintable(cell.reason));

        QCOMPARE(cell.hooks.size(), 5);
        QCOMPARE(cell.hooks[2].origin, origin(*c));
        QCOMPARE(cell.hooks[2].status, 404);
        QCOMPARE(cell.hooks[2].verdict, std::optional(HookVerdict::RouteMissing));
        // The rollback: b (started last) first, then a; both recorded as rollback stops.
        QCOMPARE(cell.hooks[3].hook, HookKind::ProfilerStop);
        QCOMPARE(cell.hooks[3].origin, origin(*b));
        QCOMPARE(cell.hooks[4].origin, origin(*a));
        for (int i : {3, 4}) {
            QVERIFY(cell.hooks[i].ok);
            QCOMPARE(hookPlacementName(cell.hooks[i].placement), QStringLiteral("rollback"));
            QVERIFY(cell.hooks[i].message.contains(QStringLiteral("rolled back")));
        }
        QCOMPARE(calls(*a), QStringList({"/start_profile", "/stop_profile"}));
        QCOMPARE(calls(*b), QStringList({"/start_profile", "/stop_profile"}));
        QVERIFY(b->controlEvents()[1].receivedNs < a->controlEvents()[1].receivedNs);
        QCOMPARE(r.hookSignals.size(), 5);
        // Each signal names its cell, so a view need not rebuild it from progress snapshots.
        for (const CellKey &k : r.hookCells) {
            QCOMPARE(k.index, cell.index);
            QCOMPARE(k.server, cell.server);
            QCOMPARE(k.concurrency, cell.concurrency);
        }
    }

    void failedResetOnOneOriginSkipsTheCell()
    {
        auto a = startMock(timedMock(Flavor::Vllm));
        MockConfig noDev = timedMock(Flavor::Vllm);
        noDev.devMode = false; // /reset_prefix_cache is 404 without VLLM_SERVER_DEV_MODE
        auto b = startMock(noDev);
        ServerSpec server = serverFor(QStringLiteral("replicas"), *a, Flavor::Vllm);
        server.urls = {a->url().toString(), b->url().toString()};
        server.reset.enabled = true;
        server.profiler.enabled = true;
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({server}, {2}, 8), out.path());
        const CellResult &cell = r.results.cells[0];
        QCOMPARE(cell.status, sb::CellStatus::Failed);
        QCOMPARE(cell.hooks.size(), 2); // no profiler window for a cell that is not measured
        QCOMPARE(cell.hooks[1].origin, origin(*b));
        QCOMPARE(cell.hooks[1].verdict, std::optional(HookVerdict::RouteMissing));
        QCOMPARE(a->stats().requests + b->stats().requests, 0);
    }

    void preflightChecksEveryOrigin()
    {
        auto a = startMock(timedMock(Flavor::Vllm));
        MockConfig noDev = timedMock(Flavor::Vllm);
        noDev.devMode = false;
        auto b = startMock(noDev);
        ServerSpec server = serverFor(QStringLiteral("replicas"), *a, Flavor::Vllm);
        server.urls = {a->url().toString(), b->url().toString()};
        server.reset.enabled = true;
        HookPreflight preflight(smallSpec({server}, {2}, 1));
        QSignalSpy checked(&preflight, &HookPreflight::serverChecked);
        QSignalSpy finished(&preflight, &HookPreflight::finished);
        preflight.start();
        QVERIFY(sbtest::waitForSignal(finished, 20000));
        const auto outcomes = checked.value(0).value(1).value<QList<HookOutcome>>();
        QCOMPARE(outcomes.size(), 2); // the healthy replica does not hide the misconfigured one
        QCOMPARE(outcomes[0].origin, origin(*a));
        QVERIFY(outcomes[0].ok);
        QCOMPARE(outcomes[1].origin, origin(*b));
        QCOMPARE(outcomes[1].verdict, std::optional(HookVerdict::RouteMissing));
        QVERIFY(checked.value(0).value(2).toStringList().join(' ').contains(QStringLiteral("VLLM_SERVER_DEV_MODE=1")));
    }

    void sglangWindowThatClosedItselfIsNoFailure()
    {
        MockConfig cfg = timedMock(Flavor::Sglang);
        auto mock = startMock(cfg);
        QTemporaryDir out;
        ServerSpec server = serverFor(QStringLiteral("sglang"), *mock, Flavor::Sglang);
        server.profiler.enabled = true;
        server.profiler.traceDir = out.filePath(QStringLiteral("traces"));
        server.profiler.startBody = QJsonObject{{"num_steps", 2}}; // closes after 2 of the ~9 steps per request
        const RunResult r = runSweep(smallSpec({server}, {1}, 4), out.path());
        QCOMPARE(r.exitCode, 0);
        const CellResult &cell = r.results.cells[0];
        QCOMPARE(cell.status, sb::CellStatus::Completed);
        const HookOutcome stop = cell.hooks.last();
        QCOMPARE(stop.hook, HookKind::ProfilerStop);
        QCOMPARE(stop.status, 400); // "Profiling is not in progress": the window closed itself
        QVERIFY(stop.ok);
        QCOMPARE(stop.verdict, std::optional(HookVerdict::Ok));
        QVERIFY2(stop.message.contains(QStringLiteral("already closed itself")), qPrintable(stop.message));
        for (const QString &w : cell.warnings)
            QVERIFY2(!w.contains(QStringLiteral("profiler stop failed")), qPrintable(w));
        QVERIFY(!cell.traces.isEmpty()); // the auto-stopped window still wrote its trace

        // Without num_steps the same 400 is a real failure: the window should have been open.
        ServerSpec plain = server;
        plain.profiler.startBody = QJsonObject{{"activities", QJsonArray{"CPU"}}};
        ControlClient client;
        HookRunner hooks(client, nullptr);
        const HookTarget target = hookTargetsFor(plain, plain.urls).first();
        const HookOutcome orphanStop = hooks.profilerStop(target);
        QCOMPARE(orphanStop.status, 400);
        QVERIFY(!orphanStop.ok);
    }
};

QTEST_GUILESS_MAIN(TestHookOrigins)
#include "tst_hook_origins.moc"
