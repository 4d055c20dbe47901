// The mock must never be the bottleneck: 1024 concurrent streams and at least
// 100k SSE events/s on a 2-core machine. This test checks the functional half (every stream of
// 1024 completes with every event, all 1024 in flight at once) and prints the rate; the rate is
// measured properly, beside a reference, by tests/bench/mock_bench.cpp. No timed assertion: on
// a shared 2-core box the wall-clock figure mostly measures the other load.
#include "TestSupport.h"
#include "mock/MockServer.h"
#include "tst_mock_rawclient.h"
#include <QTest>
#include <thread>

class TestMockPerf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void thousandStreams()
    {
#ifndef Q_OS_LINUX
        QSKIP("the raw client is Linux-only");
#else
        // Near-zero step cost, so the figure measures the server's own CPU cost (plus this
        // test's client, which shares the cores).
        sb::MockConfig cfg = sb::mockDefaults(sb::Flavor::Vllm);
        cfg.stepBaseMs = 0.5;
        cfg.stepPerSeqMs = 0;
        cfg.prefillPerTokenMs = 0;
        cfg.maxBatch = 1024;
        QString error;
        auto server = sb::MockServer::start(cfg, &error);
        QVERIFY2(server, qPrintable(error));
        constexpr int kStreams = 1024;
        constexpr int kTokens = 200;
        mocktest::RawResult r;
        std::thread client([&] { r = mocktest::runRawStreams(server->port(), kStreams, kTokens); });
        client.join();
        QCOMPARE(r.failed, 0);
        QCOMPARE(r.completed, kStreams);
        QCOMPARE(r.events, qint64(kStreams) * kTokens);
        const sb::MockStats s = server->stats();
        QCOMPARE(s.maxInFlight, kStreams);
        QCOMPARE(s.streamEvents, r.events); // the server's count of what it streamed agrees
        QVERIFY(s.socketWrites > 0);
        qInfo("%d concurrent streams, %lld content events in %.2f s = %.0f events/s, %.2f events per socket write",
              kStreams, r.events, (r.lastEndNs - r.firstSendNs) / 1e9, r.eventsPerSecond(),
              double(s.streamEvents) / double(s.socketWrites));
#endif
    }
};

QTEST_MAIN(TestMockPerf)
#include "tst_mock_perf.moc"
