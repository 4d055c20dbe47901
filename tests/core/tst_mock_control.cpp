// Control routes of the three personalities, exactly as docs/ARCHITECTURE.md §6 describes the real servers,
// and the Chrome trace files the profiler windows leave behind.
#include "TestSupport.h"
#include "mock/MockServer.h"
#include "tst_mock_client.h"
#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace mocktest;

namespace {
std::unique_ptr<sb::MockServer> startMock(sb::Flavor f, const std::function<void(sb::MockConfig &)> &tweak = {})
{
    sb::MockConfig cfg = sb::mockDefaults(f);
    cfg.stepBaseMs = 2;
    if (tweak)
        tweak(cfg);
    QString error;
    auto s = sb::MockServer::start(cfg, &error);
    if (!s)
        qFatal("mock did not start: %s", qPrintable(error));
    return s;
}

// Starts a long streaming request on its own socket (not read until the caller is done) and
// waits until the server counts it in flight.
std::unique_ptr<QTcpSocket> startLongRequest(sb::MockServer &server, int maxTokens)
{
    auto s = std::make_unique<QTcpSocket>();
    s->connectToHost(QStringLiteral("127.0.0.1"), server.port());
    if (!s->waitForConnected(5000))
        return nullptr;
    s->write(requestBytes("POST", "/v1/chat/completions", chatBody(QStringLiteral("long one"), maxTokens, true)));
    s->flush();
    QElapsedTimer t;
    t.start();
    while (server.stats().inFlight == 0 && t.elapsed() < 5000)
        QTest::qWait(2);
    return s;
}

QJsonObject readTrace(const QString &path)
{
    return QJsonDocument::fromJson(sbtest::readFile(path)).object();
}

int stepEvents(const QJsonObject &trace)
{
    int n = 0;
    for (const QJsonValue &e : trace.value("traceEvents").toArray())
        if (e.toObject().value("ph").toString() == QLatin1String("X")) {
            const QJsonObject args = e.toObject().value("args").toObject();
            if (!args.contains("batch_size") || !args.contains("prefill_tokens") || !args.contains("decode_tokens"))
                return -1;
            ++n;
        }
    return n;
}
} // namespace

class TestMockControl : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void vllmResetPrefixCache()
    {
        auto server = startMock(sb::Flavor::Vllm);
        Client c(server->port());
        Response r = c.call("POST", "/reset_prefix_cache");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value("success").toBool(), true);
        QCOMPARE(c.call("GET", "/reset_prefix_cache").status, 405);

        auto busy = startLongRequest(*server, 300);
        QVERIFY(busy);
        r = c.call("POST", "/reset_prefix_cache");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value("success").toBool(), false); // running requests hold blocks
        r = c.call("POST", "/reset_prefix_cache?reset_running_requests=true");
        QCOMPARE(r.json().value("success").toBool(), true);
        const sb::MockStats st = server->stats();
        QCOMPARE(st.resetsDone, 2);
        QCOMPARE(st.resetsRefused, 1);

        // Every control call is logged in order, with the in-flight count it saw.
        const QList<sb::MockControlEvent> ev = server->controlEvents();
        QCOMPARE(ev.size(), 4);
        QCOMPARE(ev[0].inFlightAtReceive, 0);
        QCOMPARE(ev[0].status, 200);
        QCOMPARE(ev[1].status, 405);
        QCOMPARE(ev[2].inFlightAtReceive, 1);
        QCOMPARE(ev[2].body, QByteArray(R"({"success":false})"));
        QCOMPARE(ev[3].target, QByteArray("/reset_prefix_cache?reset_running_requests=true"));
        QVERIFY(ev[3].receivedNs >= ev[2].answeredNs);
        QCOMPARE(c.call("GET", "/mock/events").json().value("events").toArray().size(), 4);
    }

    void vllmGates()
    {
        auto server = startMock(sb::Flavor::Vllm, [](sb::MockConfig &c) { c.devMode = false; c.profiler = false; });
        Client c(server->port());
        QCOMPARE(c.call("POST", "/reset_prefix_cache").status, 404);
        QCOMPARE(c.call("POST", "/start_profile").status, 404);
        QCOMPARE(c.call("POST", "/stop_profile").status, 404);
        QCOMPARE(c.call("POST", "/flush_cache").status, 404);
        QCOMPARE(server->controlEvents().size(), 4);
    }

    void vllmProfilerWritesTrace()
    {
        QTemporaryDir dir;
        auto server = startMock(sb::Flavor::Vllm, [&](sb::MockConfig &c) { c.traceDir = dir.path() + "/vllm"; });
        Client c(server->port());
        Response r = c.call("POST", "/start_profile");
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.isEmpty());
        QCOMPARE(c.call("POST", "/v1/completions", R"({"prompt":"a b c","max_tokens":5})").status, 200);
        r = c.call("POST", "/stop_profile");
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.isEmpty());
        const QStringList files = QDir(dir.path() + "/vllm").entryList({"*.pt.trace.json"});
        QCOMPARE(files.size(), 1);
        QCOMPARE(stepEvents(readTrace(dir.path() + "/vllm/" + files[0])), 5);
        QCOMPARE(server->stats().profileWindows, 1);
    }

    void sglangFlushCache()
    {
        auto server = startMock(sb::Flavor::Sglang);
        Client c(server->port());
        Response r = c.call("GET", "/flush_cache?timeout=0");
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.startsWith("Cache flushed"));
        QCOMPARE(c.call("POST", "/flush_cache").status, 200);
        QCOMPARE(c.call("POST", "/reset_prefix_cache").status, 404);

        auto busy = startLongRequest(*server, 300); // ~0.6 s at 2 ms a step
        QVERIFY(busy);
        r = c.call("POST", "/flush_cache?timeout=0");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.body, QByteArray("Flush cache failed.\n"));
        r = c.call("POST", "/flush_cache?timeout=0.05"); // still busy after 50 ms
        QCOMPARE(r.status, 400);
        // A timeout long enough for the request to finish: answered once idle, without blocking
        // the server (the stream keeps flowing meanwhile).
        QElapsedTimer t;
        t.start();
        r = c.call("POST", "/flush_cache?timeout=10");
        QCOMPARE(r.status, 200);
        QVERIFY(t.elapsed() < 8000);
        QCOMPARE(server->stats().inFlight, 0);
        const QList<sb::MockControlEvent> ev = server->controlEvents();
        QCOMPARE(ev.last().inFlightAtReceive, 1);
        QCOMPARE(ev.last().inFlightAtAnswer, 0);
        QCOMPARE(server->stats().resetsDone, 3);
        QCOMPARE(server->stats().resetsRefused, 2);
        // The long stream completed normally while the flush waited.
        QByteArray all;
        while (!all.contains("[DONE]") && busy->waitForReadyRead(2000))
            all += busy->readAll();
        all += busy->readAll();
        QVERIFY(all.contains("data: [DONE]"));
    }

    void sglangProfilerBody()
    {
        QTemporaryDir dir;
        auto server = startMock(sb::Flavor::Sglang);
        Client c(server->port());
        const QByteArray body = QJsonDocument(QJsonObject{{"output_dir", dir.path()}, {"num_steps", 3},
                                                          {"activities", QJsonArray{"CPU", "GPU"}},
                                                          {"profile_prefix", "cell7"}}).toJson();
        Response r = c.call("POST", "/start_profile", body);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("Start profiling.\n"));
        QCOMPARE(c.call("POST", "/start_profile", "{}").status, 400); // already in progress
        QCOMPARE(c.call("POST", "/v1/completions", R"({"prompt":"a","max_tokens":10})").status, 200);
        // num_steps auto-stopped the window after 3 steps.
        const QStringList files = QDir(dir.path()).entryList({"cell7-*-TP-0.trace.json"});
        QCOMPARE(files.size(), 1);
        const QJsonObject trace = readTrace(dir.path() + "/" + files[0]);
        QCOMPARE(stepEvents(trace), 3);
        QCOMPARE(trace.value("otherData").toObject().value("activities").toArray().size(), 2);
        QCOMPARE(c.call("POST", "/stop_profile").status, 400); // not in progress any more

        QCOMPARE(c.call("POST", "/start_profile", QJsonDocument(QJsonObject{{"output_dir", dir.path()}}).toJson()).status, 200);
        QCOMPARE(c.call("POST", "/v1/completions", R"({"prompt":"a","max_tokens":2})").status, 200);
        r = c.call("POST", "/stop_profile");
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.startsWith("Stop profiling."));
        QCOMPARE(QDir(dir.path()).entryList({"*-TP-0.trace.json"}).size(), 2);
    }

    void trtllmRoutes()
    {
        QTemporaryDir dir;
        auto server = startMock(sb::Flavor::Trtllm);
        Client c(server->port());
        QCOMPARE(c.call("POST", "/reset_prefix_cache").status, 404);
        QCOMPARE(c.call("POST", "/start_profile", R"({"activities":["CPU","TPU"]})").status, 422);
        QCOMPARE(c.call("POST", "/start_profile", R"({"num_steps":0})").status, 422);
        QCOMPARE(c.call("POST", "/start_profile", R"({"start_step":-1})").status, 422);
        QCOMPARE(c.call("POST", "/start_profile", R"({"bogus":1})").status, 422);
        QCOMPARE(c.call("POST", "/start_profile", "[1]").status, 422);
        QCOMPARE(c.call("POST", "/stop_profile").status, 409); // nothing to stop

        const QByteArray body = QJsonDocument(QJsonObject{{"output_dir", dir.path()},
                                                          {"activities", QJsonArray{"CPU", "CUDA_PROFILER"}}}).toJson();
        Response r = c.call("POST", "/start_profile", body);
        QCOMPARE(r.status, 200);
        QCOMPARE(c.call("POST", "/start_profile", body).status, 409); // a window is active
        QCOMPARE(c.call("POST", "/v1/chat/completions", chatBody("x y", 4, true)).status, 200);
        r = c.call("POST", "/stop_profile");
        QCOMPARE(r.status, 200);
        // Answered only once the trace is on disk.
        const QStringList files = QDir(dir.path()).entryList({"trtllm-trace-*-rank-0.json"});
        QCOMPARE(files.size(), 1);
        QCOMPARE(r.json().value("trace_files").toArray().at(0).toString(), dir.path() + "/" + files[0]);
        const QJsonObject trace = readTrace(dir.path() + "/" + files[0]);
        QVERIFY(trace.value("traceEvents").isArray());
        QCOMPARE(stepEvents(trace), 4);

        // start_step delays the window ("pending" also answers 409); num_steps closes it.
        QCOMPARE(c.call("POST", "/start_profile",
                        QJsonDocument(QJsonObject{{"output_dir", dir.path()}, {"start_step", 2}, {"num_steps", 2}}).toJson()).status, 200);
        QCOMPARE(c.call("POST", "/start_profile", "{}").status, 409);
        QCOMPARE(c.call("POST", "/v1/completions", R"({"prompt":"a","max_tokens":6})").status, 200);
        r = c.call("POST", "/stop_profile");
        QCOMPARE(r.status, 200);
        const QString second = r.json().value("trace_files").toArray().at(0).toString();
        QVERIFY(second.endsWith("-rank-0.json"));
        QCOMPARE(stepEvents(readTrace(second)), 2);
        QCOMPARE(server->stats().profileWindows, 2);
    }
};

QTEST_MAIN(TestMockControl)
#include "tst_mock_control.moc"
