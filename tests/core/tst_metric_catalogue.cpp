// The metric catalogue is the one source of metric names, units and headings
// (docs/ARCHITECTURE.md §7): every metric the engine computes is in it with the unit the engine
// stores, and the CSV, the CLI summary and report.html take their headings from it.
#include "../fixtures/ReportTestData.h"
#include "TestSupport.h"
#include "engine/CellMetrics.h"
#include "metrics/LogHistogram.h"
#include "metrics/MetricCatalogue.h"
#include "report/ReportHtml.h"
#include "report/ResultsCsv.h"
#include "report/SummaryCommand.h"
#include <QSet>
#include <QTest>
#include <cmath>

using namespace sb;

namespace {
constexpr std::int64_t kMs = 1'000'000;
RequestRecord rec(std::int64_t sendMs, std::int64_t firstMs, std::int64_t endMs, int outTokens)
{
    RequestRecord r;
    r.sendNs = 1000 * kMs + sendMs * kMs;
    r.firstTokenNs = 1000 * kMs + firstMs * kMs;
    r.endNs = 1000 * kMs + endMs * kMs;
    r.status = 200;
    r.outputTokens = outTokens;
    r.inputTokens = 100;
    r.usageTokens = true;
    return r;
}
} // namespace

class TestMetricCatalogue : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void everyComputedMetricIsCatalogued()
    {
        // A streaming cell with SLOs and chunk gaps produces every metric the engine knows.
        std::vector<RequestRecord> records{rec(0, 50, 200, 16), rec(100, 160, 300, 8)};
        LogHistogram gaps;
        gaps.add(1000);
        CellMetricsInput in;
        in.records = &records;
        in.interChunkUs = &gaps;
        in.slo.ttftMs = 55;
        const CellMetricsOutput out = computeCellMetrics(in);
        QVERIFY(out.metrics.size() >= 10); // requested lengths only when the records carry them
        CellResult cell;
        cell.metrics = out.metrics;
        for (auto it = out.metrics.cbegin(); it != out.metrics.cend(); ++it) {
            const MetricInfo *m = findMetric(it.key());
            QVERIFY2(m, qPrintable(it.key()));
            QCOMPARE(it->unit, m->unit);
            QCOMPARE(it->onlyAvg, m->singleValued);
            // What a view offers exists in what the engine stored.
            for (const Stat stat : metricStats(*m))
                QVERIFY2(std::isfinite(cellValue(cell, m->key, stat)) || it->count == 0,
                         qPrintable(it.key() + QLatin1Char('.') + statName(stat)));
        }
    }

    void entriesAreWhole()
    {
        QSet<QString> keys, stems, labels;
        for (const MetricInfo &m : allMetrics()) {
            QVERIFY(!m.label.isEmpty() && !m.shortLabel.isEmpty() && !m.unit.isEmpty() && !m.description.isEmpty());
            keys.insert(m.key);
            stems.insert(m.csvStem);
            labels.insert(m.label);
            QCOMPARE(findMetric(m.key), &m);
            QCOMPARE(metricStats(m).size(), m.singleValued ? 1 : m.stats.isEmpty() ? distributionStats().size() : m.stats.size());
        }
        // One entry per key; no two CSV columns or menu entries could read the same.
        QCOMPARE(keys.size(), allMetrics().size());
        QCOMPARE(stems.size(), allMetrics().size());
        QCOMPARE(labels.size(), allMetrics().size());
    }

    void unknownKeysReadAsThemselves()
    {
        // Imports carry metrics SweepBench does not show (vLLM's total_token_throughput).
        QCOMPARE(findMetric(u"total_token_throughput"), nullptr);
        QCOMPARE(metricLabel(u"total_token_throughput"), QStringLiteral("total_token_throughput"));
        QVERIFY(std::isnan(cellValue(CellResult{}, tag::ttft, Stat::P50)));
        // A single value has no percentiles.
        CellResult c;
        MetricStats s;
        s.onlyAvg = true;
        s.avg = 5;
        c.metrics.insert(tag::outputThroughput, s);
        QCOMPARE(cellValue(c, tag::outputThroughput, Stat::Avg), 5.0);
        QVERIFY(std::isnan(cellValue(c, tag::outputThroughput, Stat::P99)));
    }

    // Figures results.json keeps beside `metrics` (error rate, the open-loop ones) are metrics
    // like the others: one entry, one reader, NaN where a cell has no such figure.
    void cellFieldsReadAsMetrics()
    {
        CellResult closed;
        QVERIFY(std::isnan(cellValue(closed, tag::errorRate, Stat::Avg))); // measured nothing
        closed.completed = 3;
        closed.failed = 1;
        closed.errorRate = 0.25;
        QCOMPARE(cellValue(closed, tag::errorRate, Stat::Avg), 0.25);
        QVERIFY(std::isnan(cellValue(closed, tag::errorRate, Stat::P99)));
        for (const QString &key : {tag::achievedRate, tag::scheduleLag, tag::queueTime}) {
            QVERIFY(findMetric(key) && findMetric(key)->openLoopOnly);
            for (const Stat stat : metricStats(*findMetric(key)))
                QVERIFY2(std::isnan(cellValue(closed, key, stat)), qPrintable(key + QLatin1Char('.') + statName(stat)));
        }
        CellResult open = closed;
        open.openLoop = OpenLoopResult();
        open.openLoop->achievedRate = 7.5;
        open.openLoop->lagP50Ms = 0.1, open.openLoop->lagP99Ms = 0.9, open.openLoop->lagMaxMs = 4;
        open.openLoop->queueP50Ms = 2, open.openLoop->queueP99Ms = 20, open.openLoop->queueMaxMs = 30;
        QCOMPARE(metricStats(*findMetric(tag::scheduleLag)), (QList<Stat>{Stat::P50, Stat::P99, Stat::Max}));
        QCOMPARE(cellValue(open, tag::achievedRate, Stat::Avg), 7.5);
        QCOMPARE(cellValue(open, tag::scheduleLag, Stat::P99), 0.9);
        QCOMPARE(cellValue(open, tag::scheduleLag, Stat::Max), 4.0);
        QCOMPARE(cellValue(open, tag::queueTime, Stat::P50), 2.0);
        QVERIFY(std::isnan(cellValue(open, tag::queueTime, Stat::Avg))); // not a stat it has
        QCOMPARE(metricCsvHeader(*findMetric(tag::scheduleLag), Stat::P99), QStringLiteral("schedule_lag_p99_ms"));
        QCOMPARE(metricCsvHeader(*findMetric(tag::achievedRate), Stat::Avg), QStringLiteral("achieved_rate_req_s"));
        // In results.csv: the open-loop columns of a closed-loop cell are empty, its error rate is not.
        SweepResults r;
        r.cells = {closed, open};
        const QStringList lines = QString::fromUtf8(resultsCsv(r)).split(QStringLiteral("\r\n"));
        const QStringList header = lines[0].split(QLatin1Char(','));
        const int lag = int(header.indexOf(QStringLiteral("schedule_lag_p99_ms"))), err = int(header.indexOf(QStringLiteral("error_rate")));
        QVERIFY(lag > 0 && err > 0);
        QCOMPARE(lines[1].split(QLatin1Char(','))[lag], QString());
        QCOMPARE(lines[2].split(QLatin1Char(','))[lag], QStringLiteral("0.900"));
        QCOMPARE(lines[1].split(QLatin1Char(','))[err], QStringLiteral("0.250"));
    }

    void headingsFollowTheEntry()
    {
        const MetricInfo &ttft = *findMetric(tag::ttft);
        QCOMPARE(metricColumnTitle(ttft, Stat::P50, false), ttft.shortLabel + QStringLiteral(" p50"));
        QCOMPARE(metricColumnTitle(ttft, Stat::P50, true), ttft.shortLabel + QStringLiteral(" p50 ") + ttft.unit);
        QCOMPARE(metricCsvHeader(ttft, Stat::P99), ttft.csvStem + QStringLiteral("_p99_ms"));
        const MetricInfo &out = *findMetric(tag::outputThroughput);
        QCOMPARE(metricColumnTitle(out, Stat::Avg, true), out.shortLabel);
        QCOMPARE(metricCsvHeader(out, Stat::Avg), out.csvStem + QStringLiteral("_tok_s"));
        QVERIFY(metricColumnToolTip(ttft, Stat::P50).contains(QStringLiteral("median")));
        QCOMPARE(shortUnit(unit::requestsPerS), QStringLiteral("req/s"));
    }

    void everyReportHeadingComesFromTheCatalogue()
    {
        const SweepResults results = sbtest::sampleResults();
        // results.csv: every metric column is a catalogue heading.
        const QStringList csvHeader = QString::fromUtf8(resultsCsv(results)).section(QStringLiteral("\r\n"), 0, 0).split(QLatin1Char(','));
        int metricColumns = 0;
        for (const QString &h : csvHeader)
            for (const MetricInfo &m : allMetrics())
                for (const Stat stat : metricStats(m))
                    metricColumns += h == metricCsvHeader(m, stat);
        // TTFT, ITL, latency x 4 stats; three rates; achieved rate, lag p99, queue p99, error rate;
        // energy per output token and per request, GPU power, cost per million input and output tokens.
        QCOMPARE(metricColumns, 24);
        // The CLI summary and report.html name their columns the catalogue's way.
        const QString summary = formatSummaryTable(results);
        ReportHtmlInput in;
        in.results = results;
        const QString html = QString::fromUtf8(reportHtml(in));
        for (const QString &key : {tag::ttft, tag::outputThroughput, tag::requestThroughput}) {
            const MetricInfo &m = *findMetric(key);
            QVERIFY2(summary.section(QLatin1Char('\n'), 0, 0).contains(metricColumnTitle(m, Stat::P50, true)), qPrintable(key));
            QVERIFY2(html.contains(QStringLiteral("<th>%1").arg(m.shortLabel)), qPrintable(key));
        }
    }
};

QTEST_GUILESS_MAIN(TestMetricCatalogue)
#include "tst_metric_catalogue.moc"
