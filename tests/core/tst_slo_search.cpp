// SLO search (metrics/SloSearch.h, engine/SloSearchCells.h): the bracket, the bisection steps and
// the sentence on synthetic results; then the real engine against a mock whose timing model has a
// knee: with 8 batch slots, a 9th request in flight waits a whole request for a slot, so TTFT p99
// stays near one 20 ms step up to 8 concurrent and jumps past the 90 ms SLO beyond. The search must land
// on 8 from the points 1, 4, 16, 32.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "report/SummaryCommand.h"
#include "metrics/SloSearch.h"
#include "spec/SpecIO.h"
#include <QJsonArray>
#include <QTemporaryDir>

using namespace sb;
using namespace sbtest;

namespace {
CellResult cellAt(int c, double ttftP99, CellStatus status = CellStatus::Completed)
{
    CellResult r;
    r.index = c;
    r.server = QStringLiteral("a");
    r.concurrency = c;
    r.status = status;
    MetricStats s;
    s.unit = QStringLiteral("ms");
    s.p99 = s.p90 = s.p50 = s.avg = ttftP99;
    r.metrics.insert(QStringLiteral("time_to_first_token"), s);
    return r;
}
} // namespace

class TstSloSearch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void bracketAndBisection()
    {
        SloSpec slo;
        slo.ttftMs = 50;
        SloSearchSpec search;
        search.enabled = true;
        SweepResults r;
        r.cells << cellAt(1, 10) << cellAt(4, 12) << cellAt(16, 120) << cellAt(32, 20); // 32 meets by noise: above the first miss, ignored
        SloFinding f = findSlo(r, QStringLiteral("a"), slo, 99);
        QCOMPARE(*f.sustained, 4.0);
        QCOMPARE(*f.firstMiss, 16.0);
        QCOMPARE(*nextSloPoint(f, search), 10.0);
        r.cells << cellAt(10, 90);
        QCOMPARE(*nextSloPoint(findSlo(r, QStringLiteral("a"), slo, 99), search), 7.0);
        r.cells << cellAt(7, 14) << cellAt(8, 15);
        QCOMPARE(*nextSloPoint(findSlo(r, QStringLiteral("a"), slo, 99), search), 9.0);
        r.cells << cellAt(9, 70);
        f = findSlo(r, QStringLiteral("a"), slo, 99);
        QVERIFY(!nextSloPoint(f, search)); // 8 and 9 are the resolution apart
        QCOMPARE(f.sentence, QStringLiteral("a sustains 8 concurrent at TTFT p99 ≤ 50 ms"));
        // A degraded cell does not meet the SLOs, whatever its percentiles say.
        QVERIFY(!meetsSlo(cellAt(2, 1, CellStatus::Degraded), slo, 99));
        // A coarser resolution stops earlier: 4 and 16 are within 12 of each other.
        search.resolution = 12;
        SweepResults coarse;
        coarse.cells << cellAt(4, 12) << cellAt(16, 120);
        QVERIFY(!nextSloPoint(findSlo(coarse, QStringLiteral("a"), slo, 99), search));
        SweepResults allMiss;
        allMiss.cells << cellAt(1, 80);
        QCOMPARE(findSlo(allMiss, QStringLiteral("a"), slo, 99).sentence, QStringLiteral("a misses TTFT p99 ≤ 50 ms even at 1 concurrent"));
    }

    // The designer's summary promises at most this many search cells; the bisection never needs more.
    void searchCellsAreBounded()
    {
        SweepSpec spec;
        spec.concurrency = {1, 4, 16, 32};
        spec.sloSearch.enabled = true;
        QCOMPARE(sloSearchCellsAtMost(spec), 0); // no SLO to judge: no search
        spec.workload.slo.ttftMs = 50;
        QCOMPARE(sloSearchCellsAtMost(spec), 4); // 16..32: 16 -> 8 -> 4 -> 2 -> 1
        spec.sloSearch.resolution = 12;
        QCOMPARE(sloSearchCellsAtMost(spec), 1); // 16 -> 8
        spec.sloSearch.resolution = 1;
        spec.concurrency = {8, 3};
        QCOMPARE(sloSearchCellsAtMost(spec), 3); // 3..8 tries 5, then 6 of 5..8, then 7 of 6..8
        spec.concurrency = {8};
        QCOMPARE(sloSearchCellsAtMost(spec), 0);
        spec.concurrency.clear();
        spec.openLoop.rates = {2, 8};
        spec.sloSearch.resolution = 0.5;
        QCOMPARE(sloSearchCellsAtMost(spec), 4); // 6 -> 3 -> 1.5 -> 0.75 -> 0.375
        spec.sloSearch.enabled = false;
        QCOMPARE(sloSearchCellsAtMost(spec), 0);
    }

    // results.json's slo_search reads back to the findings that wrote it (the charts mark them).
    void findingsReadBack()
    {
        SweepSpec spec;
        spec.workload.slo.ttftMs = 50;
        spec.sloSearch.enabled = true;
        SweepResults r;
        r.cells << cellAt(1, 10) << cellAt(4, 12) << cellAt(16, 120);
        const QList<SloFinding> back = sloSearchResultFromJson(toJson(sloSearchResult(r, spec))).findings;
        QCOMPARE(back.size(), 1);
        const SloFinding f = findSlo(r, QStringLiteral("a"), spec.workload.slo, spec.sloSearch.percentile);
        QCOMPARE(back[0].server, QStringLiteral("a"));
        QCOMPARE(back[0].axis, SweepAxis::Concurrency);
        QCOMPARE(back[0].sustained, f.sustained);
        QCOMPARE(back[0].firstMiss, f.firstMiss);
        QCOMPARE(back[0].sentence, f.sentence);
        QVERIFY(sloSearchResultFromJson(QJsonObject{{"servers", QJsonArray{QJsonObject{{"sustained", 4}}}}}).findings.isEmpty());
        QVERIFY(sloSearchResultFromJson({}).findings.isEmpty());
    }

    void findsTheMocksKnee()
    {
        MockConfig cfg = timedMock(Flavor::Vllm);
        // TTFT = one 20 ms step when a slot is free, ~180 ms for a request that waits for one (a
        // slot is held 8 steps): the 90 ms SLO sits 70 ms from either, so a stall of the host
        // (tens of ms on a busy VM) does not move the knee.
        cfg.stepBaseMs = 20;
        cfg.prefillPerTokenMs = 0;
        cfg.maxBatch = 8;
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = smallSpec({serverFor("a", *mock, Flavor::Vllm)}, {1, 4, 16, 32}, 48);
        spec.workload.slo.ttftMs = 90;
        spec.sloSearch.enabled = true;
        spec.sloSearch.percentile = 99;
        spec.sloSearch.resolution = 1;
        QVERIFY(!hasErrors(validateSpec(spec)));
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.exitCode, 0);
        QList<int> searched;
        for (const CellResult &c : r.results.cells)
            if (c.sloSearch)
                searched.append(c.concurrency);
        QCOMPARE(searched, (QList<int>{10, 7, 8, 9})); // bisection between 4 (met) and 16 (missed)
        QVERIFY(searched.size() <= sloSearchCellsAtMost(spec));
        QCOMPARE(r.results.cells.last().recordsPath, QStringLiteral("cells/007-a-c9-slo/records.jsonl"));
        const QJsonObject found = toJson(r.results.sloSearch.value_or(SloSearchResult())).value("servers").toArray().first().toObject();
        QCOMPARE(found.value("sustained").toDouble(), 8.0);
        QCOMPARE(found.value("first_miss").toDouble(), 9.0);
        QCOMPARE(found.value("sentence").toString(), QStringLiteral("a sustains 8 concurrent at TTFT p99 ≤ 90 ms"));
        QVERIFY(formatSummaryTable(r.results).contains(QStringLiteral("a sustains 8 concurrent at TTFT p99 ≤ 90 ms")));
        // Goodput per cell: at 8 every request met the SLO, at 9 not all did.
        for (const CellResult &c : r.results.cells) {
            if (c.concurrency == 8)
                QCOMPARE(c.metrics.value("good_request_fraction").avg, 1.0);
            if (c.concurrency == 16)
                QVERIFY(c.metrics.value("good_request_fraction").avg < 1.0);
        }
    }
};

QTEST_GUILESS_MAIN(TstSloSearch)
#include "tst_slo_search.moc"
