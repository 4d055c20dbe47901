// flavor: llamacpp end to end: the spec (parse, write, validate), the slot-erase reset against
// the mock's llamacpp personality and against a server that answers wrongly, `hooks check`
// (props and the host-RAM prompt cache measured), and a sweep of `mock: llamacpp`.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "hooks/ControlClient.h"
#include "engine/HookPreflight.h"
#include "hooks/HookPresets.h"
#include "hooks/HookRunner.h"
#include "spec/SpecIO.h"
#include "tst_mock_client.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>

using namespace sb;
using namespace sbtest;
using mocktest::Client;

namespace {
// A server that answers each route with a fixed response: for answers no mock would give.
// Lives in the test thread; the control client's local event loop serves it.
class CannedServer : public QObject
{
public:
    QMap<QByteArray, QPair<int, QByteArray>> answers; // "METHOD /path?query" -> status, body
    QStringList seen;

    CannedServer()
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onRead(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }

private:
    void onRead(QTcpSocket *s)
    {
        QByteArray &buf = m_buffers[s];
        buf += s->readAll();
        const qsizetype end = buf.indexOf("\r\n\r\n");
        if (end < 0)
            return; // the hooks send no bodies
        const QList<QByteArray> line = buf.left(buf.indexOf("\r\n")).split(' ');
        buf.remove(0, end + 4);
        const QByteArray key = line.value(0) + ' ' + line.value(1);
        seen << QString::fromLatin1(key);
        const auto a = answers.value(key, {404, R"({"error":{"code":404,"message":"File Not Found","type":"not_found_error"}})"});
        s->write("HTTP/1.1 " + QByteArray::number(a.first) + " X\r\nContent-Type: application/json\r\nContent-Length: "
                 + QByteArray::number(a.second.size()) + "\r\n\r\n" + a.second);
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

ServerSpec llamaServer(const QString &url)
{
    ServerSpec s;
    s.name = QStringLiteral("llama");
    s.urls = {url};
    s.model = QStringLiteral("demo-model");
    s.flavor = Flavor::Llamacpp;
    s.reset.enabled = true;
    s.reset.maxRetryS = 0;
    s.reset.timeoutS = 10;
    return s;
}

HookOutcome resetOnce(const ServerSpec &server)
{
    ControlClient client;
    HookRunner runner(client, nullptr);
    runner.setBackoffScale(0.01);
    return runner.reset(hookTargetsFor(server, server.urls).first(), HookPlacement::BeforeWarmup);
}

std::unique_ptr<MockServer> startLlama(const std::function<void(MockConfig &)> &tweak = {})
{
    MockConfig cfg = mockDefaults(Flavor::Llamacpp);
    cfg.stepBaseMs = 1;
    if (tweak)
        tweak(cfg);
    QString error;
    auto s = MockServer::start(cfg, &error);
    if (!s)
        qFatal("mock did not start: %s", qPrintable(error));
    return s;
}

struct Preflight {
    QList<HookOutcome> outcomes;
    QStringList hints;
};

Preflight runPreflight(const ServerSpec &server)
{
    HookPreflight preflight(smallSpec({server}, {1}, 1));
    QSignalSpy checked(&preflight, &HookPreflight::serverChecked);
    QSignalSpy finished(&preflight, &HookPreflight::finished);
    preflight.start();
    if (!sbtest::waitForSignal(finished, 60000) || checked.size() != 1)
        return {};
    return {checked[0][1].value<QList<HookOutcome>>(), checked[0][2].toStringList()};
}
} // namespace

class TestLlamacppHooks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void specParsesWritesAndValidates()
    {
        const SpecLoadResult r = loadSpecText("servers:\n"
                                              "  - name: l\n    url: http://127.0.0.1:8080\n    model: tiny\n"
                                              "    flavor: llamacpp\n    reset_kv_cache: true\n"
                                              "  - name: m\n    mock: llamacpp\n"
                                              "sweep: {concurrency: [1]}\n");
        QVERIFY2(r.ok(), qPrintable(r.diagnostics.isEmpty() ? QString() : r.diagnostics.first().toString()));
        QVERIFY(r.spec->servers[0].flavor == Flavor::Llamacpp);
        QVERIFY(r.spec->servers[1].flavor == Flavor::Llamacpp); // a mock's personality is its flavor
        QCOMPARE(effectiveResetPath(r.spec->servers[0]), QStringLiteral("/slots"));
        QVERIFY(isSlotEraseReset(r.spec->servers[0]));
        // Written back and read again: the same flavor, the reset still the preset.
        const SpecLoadResult again = loadSpecText(saveSpecYaml(*r.spec));
        QVERIFY(again.ok());
        QVERIFY(again.spec->servers[0].flavor == Flavor::Llamacpp);
        QVERIFY(again.spec->servers[0].reset.path.isEmpty());
        QCOMPARE(again.spec->servers[1].mock, QStringLiteral("llamacpp"));
        QVERIFY(saveSpecYaml(*r.spec).contains("flavor: llamacpp"));
        // A custom reset route on this flavor is a plain POST, not the slot procedure.
        ServerSpec custom = r.spec->servers[0];
        custom.reset.path = QStringLiteral("/my_reset");
        QVERIFY(!isSlotEraseReset(custom));

        // No profiler routes: a warning with a hint, not an error.
        SweepSpec spec = *r.spec;
        spec.servers[0].profiler.enabled = true;
        const QList<SpecDiagnostic> diags = validateSpec(spec);
        QVERIFY(!hasErrors(diags));
        bool warned = false;
        for (const auto &d : diags)
            warned = warned || (!d.isError() && d.keyPath == QLatin1String("servers[0].server_profiler")
                                && d.message.contains(QLatin1String("no profiler routes")));
        QVERIFY(warned);
        // The vocabulary of flavors and mocks comes from one list.
        const SpecLoadResult bad = loadSpecText("servers:\n  - name: x\n    mock: llamacp\nsweep: {concurrency: [1]}\n");
        QVERIFY(!bad.ok());
        QVERIFY(bad.diagnostics.first().message.contains(QLatin1String("llamacpp")));
    }

    void resetErasesEverySlotVerified()
    {
        auto mock = startLlama();
        // Fill two slots so the erase has something to count (non-streamed: the connection stays).
        Client c(mock->port());
        for (const char *prompt : {"fill one slot with these words", "and another slot with other words"}) {
            const QByteArray body = QJsonDocument(QJsonObject{{"model", "demo-model"}, {"prompt", prompt}, {"max_tokens", 3}})
                                        .toJson(QJsonDocument::Compact);
            QCOMPARE(c.call("POST", "/v1/completions", body).status, 200);
        }
        mock->clearControlEvents();
        const HookOutcome o = resetOnce(llamaServer(mock->url().toString()));
        QVERIFY2(o.ok, qPrintable(o.message));
        QCOMPARE(o.verdict, std::optional(HookVerdict::Ok));
        QCOMPARE(o.attempts, 9); // the list, then eight erases
        QCOMPARE(o.path, QStringLiteral("/slots/{id}?action=erase"));
        QVERIFY2(o.message.startsWith(QStringLiteral("erased 8 slots (16 tokens)")), qPrintable(o.message)); // (6 + 3 - 1) * 2
        QStringList calls;
        for (const auto &e : mock->controlEvents())
            calls << QString::fromLatin1(e.method + ' ' + e.target);
        QCOMPARE(calls.first(), QStringLiteral("GET /slots"));
        for (int i = 0; i < 8; ++i)
            QCOMPARE(calls[i + 1], QStringLiteral("POST /slots/%1?action=erase").arg(i));
        // Every slot is empty now.
        for (const QJsonValue &slot : QJsonDocument::fromJson(c.call("GET", "/slots").body).array())
            QCOMPARE(slot.toObject().value("n_prompt_tokens").toInt(0), 0);
    }

    void eraseWithoutSlotSavePathIsRouteMissingWithHint()
    {
        auto mock = startLlama([](MockConfig &c) { c.slotSavePath = false; });
        const HookOutcome o = resetOnce(llamaServer(mock->url().toString()));
        QVERIFY(!o.ok);
        QCOMPARE(o.status, 501);
        QCOMPARE(o.verdict, std::optional(HookVerdict::RouteMissing));
        QVERIFY2(o.message.contains(QStringLiteral("--slot-save-path")), qPrintable(o.message));
        QCOMPARE(o.attempts, 2); // the list, then the first erase: no point erasing the rest
        QVERIFY2(!o.message.contains(QStringLiteral("gave up")), qPrintable(o.message)); // nothing was retried
    }

    void malformedAnswersAreNotOk()
    {
        struct Case {
            const char *what;
            QByteArray slotList;
            QByteArray erase0;
            const char *expect;
        };
        const Case cases[] = {
            {"not a list", R"({"slots":[{"id":0}]})", R"({"id_slot":0,"n_erased":1})", "expected a JSON array"},
            {"id not an integer", R"([{"id":"0"}])", R"({"id_slot":0,"n_erased":1})", "without an integer"},
            {"empty list", "[]", R"({"id_slot":0,"n_erased":1})", "no slots listed"},
            {"duplicate id", R"([{"id":0},{"id":0}])", R"({"id_slot":0,"n_erased":1})", "listed twice"},
            {"another slot answered", R"([{"id":0}])", R"({"id_slot":1,"n_erased":1})", "without {\"id_slot\": 0"},
            {"no count", R"([{"id":0}])", R"({"id_slot":0})", "without {\"id_slot\": 0"},
            {"negative count", R"([{"id":0}])", R"({"id_slot":0,"n_erased":-4})", "without {\"id_slot\": 0"},
            {"not JSON", R"([{"id":0}])", "erased!", "without {\"id_slot\": 0"},
        };
        for (const Case &c : cases) {
            CannedServer server;
            server.answers.insert("GET /slots", {200, c.slotList});
            server.answers.insert("POST /slots/0?action=erase", {200, c.erase0});
            const HookOutcome o = resetOnce(llamaServer(server.url()));
            QVERIFY2(!o.ok, c.what);
            QCOMPARE(o.verdict, std::optional(HookVerdict::Error));
            QVERIFY2(o.message.contains(QLatin1String(c.expect)), qPrintable(QStringLiteral("%1: %2").arg(c.what, o.message)));
        }
        // A second slot's wrong answer fails the reset too, after the first one was erased.
        CannedServer server;
        server.answers.insert("GET /slots", {200, R"([{"id":0},{"id":3}])"});
        server.answers.insert("POST /slots/0?action=erase", {200, R"({"id_slot":0,"n_erased":5})"});
        server.answers.insert("POST /slots/3?action=erase", {200, R"({"id_slot":0,"n_erased":5})"});
        const HookOutcome o = resetOnce(llamaServer(server.url()));
        QVERIFY(!o.ok);
        QVERIFY2(o.message.contains(QLatin1String("/slots/3?action=erase")), qPrintable(o.message));
        // Slots disabled on the server (501 on the list): its own hint.
        CannedServer noSlots;
        noSlots.answers.insert("GET /slots", {501, R"({"error":{"code":501,"message":"This server does not support slots endpoint. Start it with `--slots`","type":"not_supported_error"}})"});
        const HookOutcome list = resetOnce(llamaServer(noSlots.url()));
        QCOMPARE(list.verdict, std::optional(HookVerdict::RouteMissing));
        QVERIFY2(list.message.contains(llamacppNotSupportedHint(true)), qPrintable(list.message));
    }

    void busySlotIsRetriedWithinTheBudget()
    {
        // 503 (llama-server while loading) is retried; the outcome sums the attempts.
        CannedServer server;
        server.answers.insert("GET /slots", {503, R"({"error":{"code":503,"message":"Loading model","type":"unavailable_error"}})"});
        ServerSpec spec = llamaServer(server.url());
        spec.reset.maxRetryS = 0.5;
        const HookOutcome o = resetOnce(spec);
        QVERIFY(!o.ok);
        QVERIFY2(o.attempts > 1, qPrintable(o.message));
        QVERIFY(o.message.startsWith(QStringLiteral("gave up after")));
        QCOMPARE(o.verdict, std::optional(HookVerdict::Busy));
    }

    void preflightMeasuresTheHostPromptCache()
    {
        // --cache-ram 0: erasing the slots is a full reset; hooks check says nothing about it.
        auto clean = startLlama();
        const Preflight a = runPreflight(llamaServer(clean->url().toString()));
        QCOMPARE(a.outcomes.size(), 1);
        QVERIFY2(a.outcomes[0].ok, qPrintable(a.outcomes[0].message));
        QVERIFY2(!a.hints.join(' ').contains(QStringLiteral("--cache-ram")), qPrintable(a.hints.join('\n')));
        QCOMPARE(clean->stats().requests, 3); // the probe: prompt, another prompt, prompt again

        // The default host-RAM cache: the erased prompt comes back; hooks check warns.
        auto cached = startLlama([](MockConfig &c) { c.cacheRamMiB = 8192; });
        const Preflight b = runPreflight(llamaServer(cached->url().toString()));
        QCOMPARE(b.outcomes.size(), 1);
        QVERIFY(b.outcomes[0].ok);
        const QString hints = b.hints.join('\n');
        QVERIFY2(hints.contains(QStringLiteral("still had")) && hints.contains(QStringLiteral("--cache-ram 0")), qPrintable(hints));

        // Without --slot-save-path: the reset fails with the hint, and nothing is claimed.
        auto noSave = startLlama([](MockConfig &c) { c.slotSavePath = false; });
        const Preflight d = runPreflight(llamaServer(noSave->url().toString()));
        QCOMPARE(d.outcomes[0].verdict, std::optional(HookVerdict::RouteMissing));
        QVERIFY(d.hints.contains(llamacppNotSupportedHint(false)));
        QVERIFY(!d.hints.join(' ').contains(QStringLiteral("still had")));

        // A server that is not a llama-server: /props says so.
        CannedServer other;
        const Preflight e = runPreflight(llamaServer(other.url()));
        QVERIFY2(e.hints.join(' ').contains(QStringLiteral("GET /props answered HTTP 404")), qPrintable(e.hints.join('\n')));

        // A profiler on this flavor: the hint says there are no such routes.
        ServerSpec prof = llamaServer(clean->url().toString());
        prof.reset.enabled = false;
        prof.profiler.enabled = true;
        const Preflight f = runPreflight(prof);
        QVERIFY(f.hints.contains(routeMissingHint(Flavor::Llamacpp, HookKind::ProfilerStart)));
    }

    void sweepOfTheLlamacppMockCompletes()
    {
        // The mock closes the connection after every stream, as llama-server does: the client
        // must notice before reusing it. Needs the client's keep-alive fix.
        SweepSpec spec;
        spec.name = QStringLiteral("llama");
        ServerSpec s;
        s.name = QStringLiteral("llama-mock");
        s.mock = QStringLiteral("llamacpp");
        s.model = QStringLiteral("demo-model");
        s.flavor = Flavor::Llamacpp;
        s.reset.enabled = true;
        spec.servers = {s};
        spec.concurrency = {1, 4};
        spec.workload.requestsPerCell = 12;
        spec.workload.warmupRequests = 2;
        spec.workload.inputTokens = 32;
        spec.workload.outputTokens = 6;
        spec.workload.requestTimeoutS = 30;
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.results.cells.size(), 2);
        for (const CellResult &cell : r.results.cells) {
            QVERIFY2(cell.failed == 0, qPrintable(QStringLiteral("c=%1: %2 failed: %3").arg(cell.concurrency).arg(cell.failed)
                                                      .arg(QStringList(cell.errorSamples.values()).join("; "))));
            QCOMPARE(cell.completed, 12);
            QVERIFY(!cell.hooks.isEmpty());
            QVERIFY2(cell.hooks[0].ok, qPrintable(cell.hooks[0].message));
            QVERIFY(cell.hooks[0].message.startsWith(QStringLiteral("erased 8 slots")));
        }
    }
};

QTEST_GUILESS_MAIN(TestLlamacppHooks)
#include "tst_llamacpp_hooks.moc"
