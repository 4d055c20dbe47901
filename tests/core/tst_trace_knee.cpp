// The knee explained from the profiler traces (report/TraceKnee.h): the engine_* catalogue
// figures read from a cell's trace_summary, the sentence that names where the batch stops
// growing while the step time keeps rising (or says there is no knee), and report.html and the
// comparison page printing it escaped.
#include "TestSupport.h"
#include "metrics/MetricCatalogue.h"
#include "metrics/Stats.h"
#include "report/ComparisonHtml.h"
#include "report/ReportHtml.h"
#include "report/TraceKnee.h"
#include <QTest>
#include <cmath>

using namespace sb;

namespace {

// A profiled cell: `decodeSteps` decode steps of p50 `stepMs` (batch `batch`, -1 = unlabelled)
// and a handful of prefill steps, in a worker file spanning 1 s and an API-server file without steps.
CellResult profiledCell(const QString &server, int concurrency, double stepMs, double batch, double throughput, int repeat = 0)
{
    CellResult c;
    c.server = server;
    c.concurrency = concurrency;
    c.repeat = repeat;
    c.completed = 10;
    c.metrics.insert(tag::outputThroughput, singleValue(throughput, unit::tokensPerS));
    TraceSummary t;
    StepKindStats prefill;
    prefill.kind = StepKind::Prefill;
    prefill.count = 5;
    prefill.p50Ms = stepMs * 4;
    StepKindStats decode;
    decode.kind = StepKind::Decode;
    decode.count = 200;
    decode.p50Ms = stepMs;
    decode.p90Ms = stepMs * 1.2;
    decode.p99Ms = stepMs * 1.5;
    decode.maxMs = stepMs * 2;
    decode.batchMean = batch;
    t.merged.stepKinds = {prefill, decode};
    t.merged.steps = 205;
    TraceFileSummary worker;
    worker.stats.steps = 205;
    worker.stats.spanMs = 1000;
    TraceFileSummary api;
    api.stats.spanMs = 1500;
    t.files = {worker, api};
    c.traceSummary = t;
    return c;
}

SweepResults curve(const QString &server, const QList<double> &batches, const QList<double> &steps, const QList<double> &thr)
{
    SweepResults r;
    const QList<int> points{1, 2, 4, 8, 16};
    for (int i = 0; i < batches.size(); ++i)
        r.cells.append(profiledCell(server, points[i], steps[i], batches[i], thr[i]));
    return r;
}

} // namespace

class TstTraceKnee : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void catalogueReadsTheDominantStepKind()
    {
        const CellResult c = profiledCell(QStringLiteral("vllm"), 4, 12, 3.5, 100);
        QCOMPARE(cellValue(c, tag::engineStepTime, Stat::P50), 12.0); // decode (200 steps), not prefill (5)
        QCOMPARE(cellValue(c, tag::engineStepTime, Stat::P99), 18.0);
        QCOMPARE(cellValue(c, tag::engineBatchSize, Stat::Avg), 3.5);
        QCOMPARE(cellValue(c, tag::engineStepRate, Stat::Avg), 205.0); // the busiest file: 205 steps over 1 s
        QVERIFY(std::isnan(cellValue(c, tag::engineStepTime, Stat::Avg)));
        const CellResult unlabelled = profiledCell(QStringLiteral("vllm"), 4, 12, -1, 100);
        QVERIFY(std::isnan(cellValue(unlabelled, tag::engineBatchSize, Stat::Avg)));
        CellResult unprofiled;
        unprofiled.completed = 3;
        for (const QString &key : {tag::engineStepTime, tag::engineBatchSize, tag::engineStepRate})
            QVERIFY(std::isnan(cellValue(unprofiled, key, key == tag::engineStepTime ? Stat::P50 : Stat::Avg)));
        QVERIFY(findMetric(tag::engineStepTime)->traceOnly);
    }

    void batchStopsGrowingWhileStepsSlowDown()
    {
        const SweepResults r = curve(QStringLiteral("vllm"), {1, 2, 3.9, 7.6, 7.8}, {10, 11, 12, 14, 20}, {100, 190, 350, 600, 610});
        const QList<TraceKnee> knees = traceKnees(r);
        QCOMPARE(knees.size(), 1);
        QVERIFY(knees[0].byBatch);
        QCOMPARE(knees[0].kneeIndex, 3);
        QCOMPARE(knees[0].points[3].point, 8.0);
        const QString s = knees[0].sentence;
        QVERIFY2(s.startsWith(QStringLiteral("vllm: the batch stops growing at concurrency 8 (7.6 requests per step there, 7.8 at concurrency 16)")), qPrintable(s));
        QVERIFY2(s.contains(QStringLiteral("p50 14.00 → 20.00 ms")), qPrintable(s));
    }

    void noKneeWhileTheBatchKeepsGrowing()
    {
        const SweepResults r = curve(QStringLiteral("sglang"), {1, 2, 4, 8, 15}, {10, 10.5, 11, 12, 14}, {100, 200, 390, 760, 1400});
        const QList<TraceKnee> knees = traceKnees(r);
        QCOMPARE(knees.size(), 1);
        QCOMPARE(knees[0].kneeIndex, -1);
        QVERIFY2(knees[0].sentence.contains(QStringLiteral("no knee within the sweep")), qPrintable(knees[0].sentence));
    }

    // The mock's scheduler (and a server at its max batch): the batch is full at 4, the step
    // time stays flat, and the queue shows in TTFT; the knee is where the batch filled.
    void fullBatchWithFlatStepsIsAKnee()
    {
        SweepResults r = curve(QStringLiteral("sglang"), {1, 2, 4, 4, 4}, {5.1, 5.2, 5.24, 5.24, 5.24}, {190, 366, 700, 714, 712});
        const QList<double> ttft{7.5, 13.5, 19.3, 190.3, 544.3};
        for (int i = 0; i < r.cells.size(); ++i) {
            MetricStats t;
            t.p50 = ttft[i];
            r.cells[i].metrics.insert(tag::ttft, t);
        }
        const QList<TraceKnee> knees = traceKnees(r);
        QCOMPARE(knees.size(), 1);
        QCOMPARE(knees[0].kneeIndex, 2);
        QVERIFY(!knees[0].stepsRising);
        const QString s = knees[0].sentence;
        QVERIFY2(s.startsWith(QStringLiteral("sglang: the batch stops growing at concurrency 4 (4.0 requests per step there, 4.0 at concurrency 16) "
                                             "while the step time stays near 5.24 ms")), qPrintable(s));
        QVERIFY2(s.contains(QStringLiteral("(TTFT p50 19.3 → 544.3 ms)")), qPrintable(s));
    }

    void withoutBatchLabelsThroughputJudges()
    {
        const SweepResults r = curve(QStringLiteral("vllm"), {-1, -1, -1, -1}, {10, 12, 16, 30}, {100, 180, 300, 305});
        const QList<TraceKnee> knees = traceKnees(r);
        QCOMPARE(knees.size(), 1);
        QVERIFY(!knees[0].byBatch);
        QCOMPARE(knees[0].kneeIndex, 2);
        QVERIFY2(knees[0].sentence.contains(QStringLiteral("output throughput stops growing at concurrency 4")), qPrintable(knees[0].sentence));
        QVERIFY(knees[0].sentence.contains(QStringLiteral("detailed_trace_annotation")));
    }

    void repeatsAreAveragedAndShortCurvesLeftOut()
    {
        SweepResults r = curve(QStringLiteral("a"), {1, 2, 3.9, 7.6, 7.8}, {10, 11, 12, 14, 20}, {1, 2, 3, 4, 5});
        // A second run of point 8 with batch 8.4 (mean 8.0) and step 16 (mean 15).
        r.cells.append(profiledCell(QStringLiteral("a"), 8, 16, 8.4, 4, 1));
        r.cells.append(profiledCell(QStringLiteral("b"), 1, 10, 1, 1));
        r.cells.append(profiledCell(QStringLiteral("b"), 2, 12, 2, 2)); // two points: not a curve
        CellResult unprofiled;
        unprofiled.server = QStringLiteral("a");
        unprofiled.concurrency = 32;
        r.cells.append(unprofiled); // no trace: not a point of the curve
        const QList<TraceKnee> knees = traceKnees(r);
        QCOMPARE(knees.size(), 1);
        QCOMPARE(knees[0].server, QStringLiteral("a"));
        QCOMPARE(knees[0].points.size(), 5);
        QCOMPARE(knees[0].points[3].batch, 8.0);
        QCOMPARE(knees[0].points[3].stepP50Ms, 15.0);
    }

    void reportAndComparisonPagesPrintItEscaped()
    {
        const QString hostile = QStringLiteral("<img src=x onerror=alert(1)>");
        ReportHtmlInput in;
        in.results = curve(hostile, {1, 2, 3.9, 7.6, 7.8}, {10, 11, 12, 14, 20}, {100, 190, 350, 600, 610});
        const QString html = QString::fromUtf8(reportHtml(in));
        QVERIFY(html.contains(QStringLiteral("<h2>Engine steps</h2>")));
        QVERIFY(html.contains(QStringLiteral("the batch stops growing at concurrency 8")));
        QVERIFY(!html.contains(hostile));
        QVERIFY(html.contains(QStringLiteral("&lt;img src=x onerror=alert(1)&gt;")));
        ComparisonHtmlInput cmp;
        cmp.sets = {ComparisonSetInfo{QStringLiteral("base"), QStringLiteral("a/"), in.results}};
        const QString page = QString::fromUtf8(comparisonHtml(cmp));
        QVERIFY(page.contains(QStringLiteral("the batch stops growing at concurrency 8")));
        QVERIFY(!page.contains(hostile));
        // One row per profiled cell: the step kinds with their times and batch, the step rate,
        // the top CPU op (a server-provided name, escaped) and the notes.
        in.results.cells[0].traceSummary->merged.topCpuOps = {OpTime{QStringLiteral("aten::mm<script>"), 42.5, 3}};
        in.results.cells[0].traceSummary->files[0].error = QStringLiteral("truncated at byte 9 <x>");
        const QString withRows = QString::fromUtf8(reportHtml(in));
        QVERIFY(withRows.contains(QStringLiteral("decode 200 &middot; p50 10.00 &middot; p99 15.00 ms &middot; batch 1.0")));
        QVERIFY(withRows.contains(QStringLiteral("aten::mm&lt;script&gt; (42.5 ms)")));
        QVERIFY(withRows.contains(QStringLiteral("truncated at byte 9 &lt;x&gt;")));
        QVERIFY(!withRows.contains(QStringLiteral("<script>")));
        QCOMPARE(withRows.count(QStringLiteral("<td class=\"n\">205.0</td>")), 5); // steps/s of each cell's busiest file
        // A set without traces gets no section.
        ReportHtmlInput plain;
        plain.results.cells.append(CellResult());
        QVERIFY(!QString::fromUtf8(reportHtml(plain)).contains(QStringLiteral("Engine steps")));
    }
};

QTEST_GUILESS_MAIN(TstTraceKnee)
#include "tst_trace_knee.moc"
