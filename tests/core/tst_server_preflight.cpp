// The preflight's checks of the server itself (engine/ServerPreflight.h): with
// every hook off, `hooks check` and the designer's Check button still find a server that is not
// there, and a server that does not serve the spec's model. Real loopback peers: a closed port,
// the mock server serving another model, a peer without /v1/models.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "engine/HookPreflight.h"
#include <algorithm>
#include <QDir>
#include <QTemporaryDir>
#include "engine/ServerPreflight.h"
#include "results/HookSeverity.h"

using namespace sb;
using namespace sbtest;

namespace {

struct Checked {
    QList<HookOutcome> checks;
    QStringList hints;
    int hookSignals = 0;
};

Checked preflight(const ServerSpec &server)
{
    HookPreflight p(smallSpec({server}, {1}, 1));
    QSignalSpy reached(&p, &HookPreflight::serverReached);
    QSignalSpy checked(&p, &HookPreflight::serverChecked);
    QSignalSpy finished(&p, &HookPreflight::finished);
    p.start();
    if (!sbtest::waitForSignal(finished, 30000) || reached.size() != 1)
        return {};
    return {reached[0][1].value<QList<HookOutcome>>(), reached[0][2].toStringList(), int(checked.size())};
}

const HookOutcome *find(const Checked &c, HookKind kind)
{
    for (const HookOutcome &o : c.checks)
        if (o.hook == kind)
            return &o;
    return nullptr;
}


} // namespace

class TestServerPreflight : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void vocabularyNamesTheNewChecks()
    {
        for (HookKind k : {HookKind::Reachability, HookKind::ModelList})
            QCOMPARE(hookKindFromString(hookKindName(k)), std::optional(k));
        QCOMPARE(hookKindName(HookKind::Reachability), QStringLiteral("reachability"));
        QCOMPARE(hookKindName(HookKind::ModelList), QStringLiteral("model_list"));
    }

    void aClosedPortFailsWithAdvice()
    {
        const quint16 port = sbtest::freePort();
        QVERIFY(port);
        ServerSpec server;
        server.name = QStringLiteral("gone");
        server.urls = {QStringLiteral("http://127.0.0.1:%1").arg(port)};
        server.model = QStringLiteral("m"); // every hook off
        const Checked c = preflight(server);
        QCOMPARE(c.hookSignals, 1);
        QCOMPARE(c.checks.size(), 1); // no model list asked of a server that is not there
        const HookOutcome *reach = find(c, HookKind::Reachability);
        QVERIFY(reach);
        QVERIFY(!reach->ok);
        QCOMPARE(reach->status, 0);
        QCOMPARE(hookSeverity(*reach), HookSeverity::Failed);
        QVERIFY2(reach->message.contains(QStringLiteral("TCP connect")), qPrintable(reach->message));
        QVERIFY2(c.hints.join(' ').contains(QStringLiteral("is the server running there")), qPrintable(c.hints.join(' ')));
    }

    void aServerOfAnotherModelFailsNamingItsModels()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.model = QStringLiteral("served/other-model");
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec server = serverFor(QStringLiteral("wrong-model"), *mock, Flavor::Vllm);
        server.model = QStringLiteral("wanted-model");
        const Checked c = preflight(server);
        const HookOutcome *reach = find(c, HookKind::Reachability);
        QVERIFY(reach && reach->ok);
        QCOMPARE(reach->status, 200);
        const HookOutcome *model = find(c, HookKind::ModelList);
        QVERIFY(model);
        QVERIFY(!model->ok);
        QCOMPARE(model->verdict, std::optional(HookVerdict::Refused));
        QCOMPARE(hookSeverity(*model), HookSeverity::Failed);
        QVERIFY2(model->message.contains(QStringLiteral("wanted-model")) && model->message.contains(QStringLiteral("served/other-model")),
                 qPrintable(model->message));
        QVERIFY(c.hints.join(' ').contains(QStringLiteral("served/other-model")));
    }

    void theServedModelPasses()
    {
        QString error;
        auto mock = MockServer::start(mockDefaults(Flavor::Sglang), &error);
        QVERIFY2(mock, qPrintable(error));
        const Checked c = preflight(serverFor(QStringLiteral("fine"), *mock, Flavor::Sglang)); // model demo-model
        QCOMPARE(c.checks.size(), 2);
        for (const HookOutcome &o : c.checks) {
            QVERIFY2(o.ok, qPrintable(o.message));
            QCOMPARE(hookSeverity(o), HookSeverity::Ok);
        }
        QVERIFY(c.hints.isEmpty());
    }

    // The check opens and closes one profiler window on each embedded mock: its trace goes to a
    // scratch folder, never into the user's trace_dir, which only real cells fill.
    void checkingAMockLeavesTheTraceDirAlone()
    {
        const QList<QPair<Flavor, QString>> mocks{{Flavor::Vllm, QStringLiteral("vllm")}, {Flavor::Sglang, QStringLiteral("sglang")},
                                                  {Flavor::Trtllm, QStringLiteral("trtllm")}};
        for (const auto &[flavor, mockName] : mocks) {
            QTemporaryDir dir;
            ServerSpec server;
            server.name = QStringLiteral("m");
            server.mock = mockName;
            server.flavor = flavor;
            server.model = QStringLiteral("demo-model");
            server.profiler.enabled = true;
            server.profiler.traceDir = dir.filePath(QStringLiteral("traces"));
            HookPreflight p(smallSpec({server}, {1}, 1));
            QSignalSpy checked(&p, &HookPreflight::serverChecked);
            QSignalSpy finished(&p, &HookPreflight::finished);
            p.start();
            QVERIFY(sbtest::waitForSignal(finished, 30000));
            QCOMPARE(checked.size(), 1);
            const auto outcomes = checked[0][1].value<QList<HookOutcome>>();
            QVERIFY(std::any_of(outcomes.cbegin(), outcomes.cend(), [](const HookOutcome &o) { return o.hook == HookKind::ProfilerStop && o.ok; }));
            QVERIFY2(!QDir(server.profiler.traceDir).exists() || QDir(server.profiler.traceDir).isEmpty(),
                     qPrintable(QDir(server.profiler.traceDir).entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot).join(' ')));
        }
    }

    void aServerWithoutModelListWarns()
    {
        BlockingHttpPeer peer([](BlockingHttpPeer &, int fd, const BlockingHttpPeer::Request &) {
            BlockingHttpPeer::send(fd, BlockingHttpPeer::response(404, "application/json", R"({"detail":"Not Found"})"));
        });
        ServerSpec server;
        server.name = QStringLiteral("no-list");
        server.urls = {peer.url()};
        server.model = QStringLiteral("m");
        const Checked c = preflight(server);
        const HookOutcome *reach = find(c, HookKind::Reachability);
        QVERIFY(reach && reach->ok); // an HTTP answer, if a 404
        const HookOutcome *model = find(c, HookKind::ModelList);
        QVERIFY(model);
        QCOMPARE(model->status, 404);
        QCOMPARE(model->verdict, std::optional(HookVerdict::RouteMissing));
        QCOMPARE(hookSeverity(*model), HookSeverity::Warning);
        QVERIFY2(model->message.contains(QStringLiteral("not verified")), qPrintable(model->message));
        QCOMPARE(peer.requests().value(0).target, QByteArray("/v1/models"));
    }

    void aPeerThatConnectsButNeverAnswersFails()
    {
        BlockingHttpPeer peer([](BlockingHttpPeer &, int, const BlockingHttpPeer::Request &) {
            // Closes without a status line.
        });
        ServerSpec server;
        server.name = QStringLiteral("mute");
        server.urls = {peer.url()};
        server.model = QStringLiteral("m");
        const Checked c = preflight(server);
        const HookOutcome *reach = find(c, HookKind::Reachability);
        QVERIFY(reach);
        QVERIFY(!reach->ok);
        QCOMPARE(hookSeverity(*reach), HookSeverity::Failed);
        QVERIFY2(reach->message.contains(QStringLiteral("no HTTP answer")), qPrintable(reach->message));
        QVERIFY(!find(c, HookKind::ModelList));
    }

    void modelListParsingAndUrl()
    {
        QCOMPARE(modelListUrl(QStringLiteral("http://h:8000")).toString(), QStringLiteral("http://h:8000/v1/models"));
        QCOMPARE(modelListUrl(QStringLiteral("http://h:8000/v1/")).toString(), QStringLiteral("http://h:8000/v1/models"));
        QCOMPARE(modelListUrl(QStringLiteral("https://h/api")).toString(), QStringLiteral("https://h/api/v1/models"));
        QCOMPARE(servedModels(R"({"data":[{"id":"a"},{"id":"b"},{"x":1}]})"), std::optional(QStringList{"a", "b"}));
        QVERIFY(!servedModels("not json"));
        QVERIFY(!servedModels(R"({"models":[]})"));
    }
};

QTEST_GUILESS_MAIN(TestServerPreflight)
#include "tst_server_preflight.moc"
