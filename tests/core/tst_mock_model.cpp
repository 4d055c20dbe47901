// The mock's performance model against its acceptance figures: the prefix cache effect on
// TTFT, and batching that speeds up throughput, grows latency and saturates.
#include "TestSupport.h"
#include "mock/MockServer.h"
#include "tst_mock_client.h"
#include <QTest>

using namespace mocktest;

class TestMockModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void prefixCacheAndReset()
    {
        QString error;
        auto server = sb::MockServer::start(sb::mockDefaults(sb::Flavor::Vllm), &error);
        QVERIFY2(server, qPrintable(error));
        Client c(server->port());
        const QByteArray body = chatBody(words(3000, 42), 4, true);
        const Response first = c.call("POST", "/v1/chat/completions", body);
        const Response second = c.call("POST", "/v1/chat/completions", body);
        const Response reset = c.call("POST", "/reset_prefix_cache");
        QCOMPARE(reset.status, 200);
        QCOMPARE(reset.json().value("success").toBool(), true);
        const Response third = c.call("POST", "/v1/chat/completions", body);
        QVERIFY(first.complete && second.complete && third.complete);
        qInfo("TTFT ms: first %.1f, second %.1f, after reset %.1f", first.ttftMs(), second.ttftMs(), third.ttftMs());
        QVERIFY(second.ttftMs() < 0.7 * first.ttftMs());
        QVERIFY(third.ttftMs() > 0.8 * first.ttftMs());
        const sb::MockStats st = server->stats();
        QCOMPARE(st.cacheHitBlocks, qint64(3000 / 16));
        QCOMPARE(st.cacheMissBlocks, qint64(2 * (3000 / 16)));
    }

    void batchingSaturates()
    {
        QString error;
        auto server = sb::MockServer::start(sb::mockDefaults(sb::Flavor::Vllm), &error);
        QVERIFY2(server, qPrintable(error));
        // Unique 64-word prompts, 64 output tokens, non-streaming.
        auto body = [](int n) {
            return chatBody(words(64, n), 64, false);
        };
        const LoadResult at1 = runClosedLoop(server->port(), 1, 6, body);
        const LoadResult at16 = runClosedLoop(server->port(), 16, 64, body);
        const LoadResult at256 = runClosedLoop(server->port(), 256, 512, body);
        QCOMPARE(at1.failures(), 0);
        QCOMPARE(at16.failures(), 0);
        QCOMPARE(at256.failures(), 0);
        qInfo("req/s: 1 -> %.1f, 16 -> %.1f, 256 -> %.1f; median latency ms: 1 -> %.0f, 256 -> %.0f",
              at1.requestsPerS(), at16.requestsPerS(), at256.requestsPerS(), at1.medianLatencyMs(),
              at256.medianLatencyMs());
        QVERIFY(at16.requestsPerS() > 4 * at1.requestsPerS());
        QVERIFY(at256.medianLatencyMs() > 1.5 * at1.medianLatencyMs());
        QVERIFY(at256.requestsPerS() < 10 * at16.requestsPerS());
        QCOMPARE(server->stats().maxInFlight, 256);
    }

    void personalitiesDiffer()
    {
        // The demo's three curves: per-step cost and batch limits differ per personality.
        const sb::MockConfig v = sb::mockDefaults(sb::Flavor::Vllm);
        const sb::MockConfig s = sb::mockDefaults(sb::Flavor::Sglang);
        const sb::MockConfig t = sb::mockDefaults(sb::Flavor::Trtllm);
        QVERIFY(t.stepBaseMs < v.stepBaseMs);
        QVERIFY(s.stepPerSeqMs < v.stepPerSeqMs);
        QVERIFY(t.maxBatch < v.maxBatch && v.maxBatch < s.maxBatch);
        QCOMPARE(sb::mockDefaults(sb::Flavor::Openai).stepBaseMs, v.stepBaseMs);
    }
};

QTEST_MAIN(TestMockModel)
#include "tst_mock_model.moc"
