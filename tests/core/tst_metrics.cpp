// Metric math against hand-computed values (docs/ARCHITECTURE.md §7 definitions).
#include "TestSupport.h"
#include "engine/CellValidity.h"
#include "engine/CellMetrics.h"
#include "metrics/LogHistogram.h"
#include "metrics/Stats.h"
#include <QTest>
#include <cmath>

using namespace sb;

namespace {
constexpr std::int64_t ms = 1'000'000;
RequestRecord rec(std::int64_t sendMs, std::int64_t firstMs, std::int64_t endMs, int outTokens, bool usage = true)
{
    RequestRecord r;
    r.sendNs = 1000 * ms + sendMs * ms;
    r.firstTokenNs = firstMs < 0 ? -1 : 1000 * ms + firstMs * ms;
    r.endNs = 1000 * ms + endMs * ms;
    r.status = 200;
    r.outputTokens = outTokens;
    r.inputTokens = 100;
    r.usageTokens = usage;
    return r;
}
} // namespace

class TestMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void percentilesInterpolateLikeNumpy()
    {
        std::vector<double> v{4, 1, 3, 2, 5};
        const MetricStats s = computeStats(v, QStringLiteral("ms"));
        QCOMPARE(s.count, 5);
        QCOMPARE(s.avg, 3.0);
        QCOMPARE(s.min, 1.0);
        QCOMPARE(s.max, 5.0);
        QCOMPARE(s.p50, 3.0);
        QCOMPARE(s.p25, 2.0);
        QVERIFY(std::abs(s.p90 - 4.6) < 1e-9);   // numpy.percentile([1..5], 90) = 4.6
        QVERIFY(std::abs(s.p99 - 4.96) < 1e-9);
        QVERIFY(std::abs(s.std - std::sqrt(2.0)) < 1e-9); // population std
    }

    void histogramPercentilesWithinHalfPercent()
    {
        LogHistogram h;
        std::vector<double> exact;
        for (int i = 1; i <= 10000; ++i) {
            const double v = 100.0 + (i * 7919 % 10000); // 100 .. 10099 µs, scrambled
            h.add(v);
            exact.push_back(v);
        }
        std::sort(exact.begin(), exact.end());
        for (double q : {1.0, 10.0, 50.0, 90.0, 99.0}) {
            const double want = percentileSorted(exact, q);
            QVERIFY2(std::abs(h.percentile(q) - want) / want < 0.006, qPrintable(QString::number(q)));
        }
        QCOMPARE(h.min(), 100.0);
        QCOMPARE(h.max(), 10099.0);
        const MetricStats s = statsFromHistogramMs(h);
        QVERIFY(std::abs(s.avg - 5.0995) < 1e-6); // exact mean, in ms
    }

    void cellMetricsHandComputed()
    {
        // Two requests over 0..300 ms:
        //  A: send 0, first token 50, end 200, 16 tokens -> TTFT 50, latency 200, ITL 150/15 = 10
        //  B: send 100, first token 160, end 300, 8 tokens -> TTFT 60, latency 200, ITL 140/7 = 20
        //  C: failed (HTTP 500), not counted in latency metrics
        std::vector<RequestRecord> records{rec(0, 50, 200, 16), rec(100, 160, 300, 8)};
        RequestRecord failed = rec(10, -1, 20, 0);
        failed.status = 500;
        failed.error = ErrorKind::Http;
        records.push_back(failed);
        LogHistogram gaps;
        CellMetricsInput in;
        in.records = &records;
        in.interChunkUs = &gaps;
        in.slo.ttftMs = 55; // only A meets it
        const CellMetricsOutput out = computeCellMetrics(in);
        QCOMPARE(out.completed, 2);
        QCOMPARE(out.failed, 1);
        QCOMPARE(out.durationS, 0.3);
        QCOMPARE(out.metrics.value("time_to_first_token").avg, 55.0);
        QCOMPARE(out.metrics.value("request_latency").p50, 200.0);
        QCOMPARE(out.metrics.value("inter_token_latency").avg, 15.0);
        QCOMPARE(out.metrics.value("output_sequence_length").avg, 12.0);
        QVERIFY(std::abs(out.metrics.value("output_token_throughput").avg - 24 / 0.3) < 1e-9);
        QVERIFY(std::abs(out.metrics.value("request_throughput").avg - 2 / 0.3) < 1e-9);
        QVERIFY(std::abs(out.metrics.value("goodput").avg - 1 / 0.3) < 1e-9);
        QCOMPARE(out.metrics.value("good_request_fraction").avg, 0.5);
        QCOMPARE(tokenSourceName(out.tokenSource), QStringLiteral("usage"));
        // In flight: A alone, then A+B and the failed one (10..20 overlaps A), max 2.
        QCOMPARE(out.maxInFlight, 2);
        // busy time 200 + 200 + 10 = 410 ms over 300 ms
        QVERIFY(std::abs(out.meanInFlight - 410.0 / 300.0) < 1e-9);
    }

    void itlNeedsTwoTokens()
    {
        QVERIFY(std::isnan(rec(0, 10, 20, 1).itlMs()));
        QCOMPARE(rec(0, 10, 30, 3).itlMs(), 10.0);
    }

    void handOverIsNotTwoInFlight()
    {
        // B starts exactly when A ends: one slot handed on, never two in flight.
        std::vector<RequestRecord> records{rec(0, 5, 100, 4), rec(100, 105, 200, 4)};
        CellMetricsInput in;
        in.records = &records;
        QCOMPARE(computeCellMetrics(in).maxInFlight, 1);
    }

    void steadyInFlightExcludesRampAndDrain()
    {
        // C = 2. Slot 1: 0-100, 100-200, 200-300. Slot 2: 10-110, then the client idles 40 ms
        // before 150-250. Steady span = 2nd send (10) .. last send (200): 190 ms, of which slot 2
        // was empty 110..150 -> mean (190 * 2 - 40) / 190.
        std::vector<RequestRecord> records{rec(0, 5, 100, 4), rec(100, 105, 200, 4), rec(200, 205, 300, 4),
                                           rec(10, 15, 110, 4), rec(150, 155, 250, 4)};
        CellMetricsInput in;
        in.records = &records;
        in.concurrency = 2;
        const CellMetricsOutput out = computeCellMetrics(in);
        QVERIFY2(std::abs(out.steadyMeanInFlight - (190.0 * 2 - 40) / 190.0) < 1e-9, qPrintable(QString::number(out.steadyMeanInFlight)));
        QCOMPARE(out.maxInFlight, 2);

        // A perfect closed loop holds exactly C over the span, however long ramp and drain are.
        std::vector<RequestRecord> tight{rec(0, 5, 100, 4), rec(100, 105, 200, 4), rec(50, 55, 150, 4), rec(150, 155, 400, 4)};
        in.records = &tight;
        QVERIFY(std::abs(computeCellMetrics(in).steadyMeanInFlight - 2.0) < 1e-9);

        // No span after the ramp (no more sends than C): unknown, not zero.
        std::vector<RequestRecord> few{rec(0, 5, 100, 4), rec(10, 15, 110, 4)};
        in.records = &few;
        QCOMPARE(computeCellMetrics(in).steadyMeanInFlight, -1.0);
    }

    void validityWarningsNameTheProblem()
    {
        PhaseOutcome phase;
        phase.records = {rec(0, 5, 100, 4), rec(100, 105, 200, 4), rec(200, 205, 300, 4), rec(10, 15, 110, 4), rec(150, 155, 250, 4)};
        CellMetricsInput in;
        in.records = &phase.records;
        in.concurrency = 2;
        const CellMetricsOutput lagging = computeCellMetrics(in); // steady mean 1.79 of 2
        QStringList w = validityWarnings(phase, lagging, 2);
        QCOMPARE(w.size(), 1);
        QVERIFY2(w[0].startsWith(QStringLiteral("only 1.8 requests in flight on average (target 2)")), qPrintable(w[0]));
        QVERIFY2(w[0].contains(QStringLiteral("the client did not keep up")), qPrintable(w[0]));
        // A server that closed its connections left the slots empty while the client connected
        // again: the warning names that, not the client. 3 of the 3 requests after each slot's
        // first needed a new connection; one of three is not enough to blame.
        phase.reconnects = 3;
        w = validityWarnings(phase, lagging, 2);
        QCOMPARE(w.size(), 1);
        QVERIFY2(w[0].startsWith(QStringLiteral("only 1.8 requests in flight on average (target 2)")), qPrintable(w[0]));
        QVERIFY2(w[0].contains(QStringLiteral("the server closed its connections, so 3 of 5 requests waited for a new connection")), qPrintable(w[0]));
        QVERIFY2(!w[0].contains(QStringLiteral("did not keep up")), qPrintable(w[0]));
        phase.reconnects = 1;
        QVERIFY(validityWarnings(phase, lagging, 2).value(0).contains(QStringLiteral("the client did not keep up")));
        phase.reconnects = 0;

        phase.records = {rec(0, 5, 100, 4), rec(100, 105, 200, 4), rec(50, 55, 150, 4), rec(150, 155, 400, 4)};
        const CellMetricsOutput tight = computeCellMetrics(in);
        QVERIFY(validityWarnings(phase, tight, 2).isEmpty());
        QCOMPARE(validityWarnings(phase, tight, 3).value(0), QStringLiteral("achieved concurrency 2 is below the target 3"));

        phase.maxThreadWait = 0.25; // runnable but not running a quarter of the time
        phase.maxThreadCpu = 0.95;
        w = validityWarnings(phase, tight, 2);
        QCOMPARE(w.size(), 2);
        QVERIFY2(w[0].contains(QStringLiteral("waited for a CPU 25% of the time")), qPrintable(w[0]));
        QVERIFY2(w[1].contains(QStringLiteral("CPU-bound (95%)")), qPrintable(w[1]));
        phase.maxThreadWait = phase.maxThreadCpu = 0;
        // Too few descriptors for C connections (the hard limit: the soft one is raised).
        phase.descriptorLimit = 1000;
        QVERIFY(validityWarnings(phase, tight, 2).isEmpty());
        w = validityWarnings(phase, tight, 1024);
        QVERIFY2(w.size() == 2 && w[1].startsWith(QStringLiteral("the process may open only 1000 files and sockets")), qPrintable(w.join('|')));
        phase.descriptorLimit = -1;
        phase.cancelled = true; // a cancelled phase ends early: its in-flight figures prove nothing
        QVERIFY(validityWarnings(phase, lagging, 2).isEmpty());
    }

    void countedTokensAreReported()
    {
        std::vector<RequestRecord> records{rec(0, 5, 100, 4, false), rec(0, 5, 100, 4, true)};
        CellMetricsInput in;
        in.records = &records;
        QCOMPARE(tokenSourceName(computeCellMetrics(in).tokenSource), QStringLiteral("mixed"));
    }
};

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
