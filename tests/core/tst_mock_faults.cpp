// Fault injection: each fault flag does what it says, and one seed gives one fault pattern.
#include "TestSupport.h"
#include "mock/MockServer.h"
#include "tst_mock_client.h"
#include <QTest>

using namespace mocktest;

namespace {
std::unique_ptr<sb::MockServer> startMock(const std::function<void(sb::MockConfig &)> &tweak)
{
    sb::MockConfig cfg = sb::mockDefaults(sb::Flavor::Vllm);
    cfg.stepBaseMs = 1;
    tweak(cfg);
    QString error;
    auto s = sb::MockServer::start(cfg, &error);
    if (!s)
        qFatal("mock did not start: %s", qPrintable(error));
    return s;
}
bool allValidJson(const Response &r)
{
    for (const QByteArray &d : r.sseData())
        if (d != "[DONE]" && QJsonDocument::fromJson(d).isNull())
            return false;
    return true;
}
} // namespace

class TestMockFaults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void errorRate()
    {
        auto server = startMock([](sb::MockConfig &c) { c.errorRate = 1; });
        Client c(server->port());
        const Response r = c.call("POST", "/v1/chat/completions", chatBody("a b", 8, true));
        QCOMPARE(r.status, 500);
        QCOMPARE(r.json().value("code").toInt(), 500);
        QCOMPARE(c.call("GET", "/health").status, 200); // keep-alive survives a 500
        QCOMPARE(server->stats().inFlight, 0);
        QCOMPARE(server->stats().requests, qint64(1));
    }

    void disconnectRate()
    {
        auto server = startMock([](sb::MockConfig &c) { c.disconnectRate = 1; });
        Client c(server->port());
        const Response r = c.call("POST", "/v1/chat/completions", chatBody("a b", 10, true), {}, 5000);
        QCOMPARE(r.status, 200);
        QVERIFY(!r.complete);                 // no terminating chunk
        QVERIFY(!r.body.contains("[DONE]"));
        QCOMPARE(r.contentEvents, 5);         // closed half way
        QTRY_COMPARE(c.socket().state(), QAbstractSocket::UnconnectedState);
        const Response plain = c.call("POST", "/v1/completions", R"({"prompt":"a","max_tokens":10})", {}, 5000);
        QCOMPARE(plain.status, 0);            // closed before any answer
        QTRY_COMPARE(server->stats().inFlight, 0);
    }

    void malformedRate()
    {
        auto server = startMock([](sb::MockConfig &c) { c.malformedRate = 1; });
        Client c(server->port());
        const Response r = c.call("POST", "/v1/chat/completions", chatBody("a b", 10, true));
        QCOMPARE(r.status, 200);
        QVERIFY(r.complete);
        QVERIFY(r.body.contains("data: [DONE]")); // the stream goes on after the broken frame
        QVERIFY(!allValidJson(r));
        QCOMPARE(r.sseData().size(), 1 + 10 + 1 + 1 + 1); // role, tokens, broken frame, usage, [DONE]
        const Response plain = c.call("POST", "/v1/completions", R"({"prompt":"a","max_tokens":4})");
        QCOMPARE(plain.status, 200);
        QVERIFY(QJsonDocument::fromJson(plain.body).isNull());
    }

    void stallMs()
    {
        auto server = startMock([](sb::MockConfig &c) { c.stallMs = 300; });
        Client c(server->port());
        const Response r = c.call("POST", "/v1/chat/completions", chatBody("a b", 10, true));
        QVERIFY(r.complete);
        QCOMPARE(r.contentEvents, 10);
        QVERIFY2(r.latencyMs() >= 300, qPrintable(QString::number(r.latencyMs())));
        QVERIFY(r.ttftMs() < 200); // the silence is mid-stream, not before the first token
        // Other streams keep flowing while one is stalled.
        QTcpSocket stalled;
        stalled.connectToHost(QStringLiteral("127.0.0.1"), server->port());
        QVERIFY(stalled.waitForConnected(5000));
        stalled.write(requestBytes("POST", "/v1/chat/completions", chatBody("x", 10, true)));
        QTest::qWait(100);
        const Response plain = c.call("POST", "/v1/completions", R"({"prompt":"a","max_tokens":10})");
        QVERIFY(plain.latencyMs() < 200); // non-streaming answers are not stalled
    }

    void firstByteDelayMs()
    {
        auto server = startMock([](sb::MockConfig &c) { c.firstByteDelayMs = 200; });
        Client c(server->port());
        const Response r = c.call("POST", "/v1/chat/completions", chatBody("a b", 3, true));
        QVERIFY(r.complete);
        QVERIFY(r.ttftMs() >= 200);
        QCOMPARE(server->stats().inFlight, 0);
    }

    void loopBlockMs()
    {
        auto server = startMock([](sb::MockConfig &c) { c.loopBlockMs = 300; });
        Client c(server->port());
        const Response r = c.call("POST", "/v1/chat/completions", chatBody("a b", 3, true));
        QVERIFY(r.complete);
        QCOMPARE(r.contentEvents, 3);
        QVERIFY2(r.ttftMs() >= 300, qPrintable(QString::number(r.ttftMs()))); // blocked before its first token
        QCOMPARE(c.call("GET", "/health").status, 200); // the connection goes on
        QCOMPARE(server->stats().inFlight, 0);
    }

    void deterministicWithSeed()
    {
        auto pattern = [](quint64 seed) {
            auto server = startMock([seed](sb::MockConfig &c) { c.errorRate = 0.5; c.seed = seed; });
            Client c(server->port());
            QByteArray out;
            for (int i = 0; i < 24; ++i)
                out += c.call("POST", "/v1/completions", R"({"prompt":"a","max_tokens":1})").status == 500 ? 'E' : '.';
            return out;
        };
        const QByteArray a = pattern(7);
        QCOMPARE(pattern(7), a);
        QVERIFY(a.contains('E') && a.contains('.'));
        QVERIFY(pattern(8) != a);
    }
};

QTEST_MAIN(TestMockFaults)
#include "tst_mock_faults.moc"
