// The panes beside the results table, on the real ResultsView: the Server tab (a cell's scraped
// series combined over label sets, bounded loading, the reset's metrics verdict, per-server
// aggregates), Over time (time slices), the distribution read from records.jsonl, and the cell
// detail (requested vs measured lengths, open-loop rate and lag).
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/InteractiveChartView.h"
#include "charts/MetricFormat.h"
#include "metrics/MetricCatalogue.h"
#include "results/CellDetail.h"
#include "results/DistributionPane.h"
#include "results/ResultsView.h"
#include "results/ServerMetricsPane.h"
#include "results/TimeSlicesPane.h"
#include <QChart>
#include <QComboBox>
#include <QLegend>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QXYSeries>

using namespace sb;
using namespace sb::ui;

class TestResultsPanes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // The Server tab: the selected cell's scraped series (key metrics combined over label sets
    // and listed first, other series by key, buckets left out), its reset's metrics verdict, and
    // a key aggregate per server against the sweep point.
    void serverTabShowsSeriesAndAggregates()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("cells/000")));
        QFile file(dir.filePath(QStringLiteral("cells/000/server_metrics.jsonl")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QString origin = QStringLiteral("http://127.0.0.1:8000");
        const int scrapes = 7;
        for (int i = 0; i < scrapes; ++i) {
            QJsonObject samples{
                {QStringLiteral("vllm:num_requests_running{engine=\"0\",model_name=\"m\"}"), i},
                {QStringLiteral("vllm:num_requests_running{engine=\"1\",model_name=\"m\"}"), 1},
                {QStringLiteral("vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"}"), 0.1 * i},
                {QStringLiteral("vllm:kv_cache_usage_perc{engine=\"1\",model_name=\"m\"}"), 0.3},
                {QStringLiteral("vllm:e2e_request_latency_seconds_bucket{le=\"1.0\"}"), 3},
                {QStringLiteral("vllm:e2e_request_latency_seconds_count"), i * 2},
                {QStringLiteral("process_cpu_seconds_total"), QStringLiteral("NaN")},
            };
            QJsonObject line{{QStringLiteral("t_ns"), qint64(i) * 500000000 - 1000000}, {QStringLiteral("origin"), origin},
                             {QStringLiteral("samples"), samples}};
            QVERIFY(file.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n') > 0);
        }
        QVERIFY(file.write("{\"t_ns\":4000000000,\"origin\":\"http://127.0.0.1:8000\",\"error\":\"no answer within 1 s\"}\n") > 0);
        file.close();

        SweepResults r = sbtest::makeSweepResults();
        r.cells[0].serverMetricsInfo.series = QStringLiteral("cells/000/server_metrics.jsonl");
        HookOutcome reset = sbtest::hook(QStringLiteral("reset_kv_cache"), true, 1, 200, QStringLiteral("ok"));
        reset.metricsVerdict = MetricsVerdict::Confirmed;
        reset.metricsCachedTokens = 0;
        r.cells[0].hooks = {reset};
        int measured = 0;
        for (CellResult &c : r.cells) {
            c.serverMetrics.insert(QStringLiteral("vllm:num_requests_running"),
                                   serverMetricAggregateFromJson(QJsonObject{{QStringLiteral("type"), QStringLiteral("gauge")}, {QStringLiteral("unit"), QStringLiteral("requests")},
                                               {QStringLiteral("label"), QStringLiteral("running requests")}, {QStringLiteral("avg"), c.concurrency * 0.9}}));
            measured += hasMeasurements(c.status);
        }
        r.cells[1].status = sb::CellStatus::Failed; // not plotted
        --measured;

        ResultsView view;
        view.resize(1400, 900);
        view.setResults(r, dir.path());
        auto *pane = view.findChild<ServerMetricsPane *>(QStringLiteral("serverPane"));
        QVERIFY(pane);
        QCOMPARE(pane->aggregateKeys(), QStringList{QStringLiteral("vllm:num_requests_running")});
        QCOMPARE(pane->plottedAggregatePoints(), qsizetype(measured));
        view.selectCell(0);
        QTRY_VERIFY_WITH_TIMEOUT(!pane->isLoading(), 20000);

        auto *picker = pane->findChild<QComboBox *>(QStringLiteral("serverMetric"));
        QStringList keys;
        for (int i = 0; i < picker->count(); ++i)
            keys << picker->itemData(i).toString();
        QCOMPARE(keys, (QStringList{QStringLiteral("vllm:num_requests_running"), QStringLiteral("vllm:kv_cache_usage_perc"),
                                    QStringLiteral("vllm:e2e_request_latency_seconds_count")}));
        QVERIFY2(picker->itemText(0).contains(QLatin1String("running requests")), qPrintable(picker->itemText(0)));
        QCOMPARE(picker->currentIndex(), 0);
        QCOMPARE(pane->plottedSeriesPoints(), qsizetype(scrapes));
        const QList<QPointF> running = pane->series().points.value(QStringLiteral("vllm:num_requests_running")).value(origin);
        QCOMPARE(running.size(), scrapes);
        QCOMPARE(running[3], QPointF(1.499, 4)); // summed over the two engines, seconds from the phase start
        QCOMPARE(pane->series().points.value(QStringLiteral("vllm:kv_cache_usage_perc")).value(origin)[2].y(), 0.25); // averaged
        QCOMPARE(pane->series().failedScrapes, 1);
        picker->setCurrentIndex(2);
        QCOMPARE(pane->plottedSeriesPoints(), qsizetype(scrapes));
        const QString verdict = pane->findChild<QLabel *>(QStringLiteral("serverResetVerdict"))->text();
        QVERIFY2(verdict.contains(QLatin1String("confirmed by metrics")), qPrintable(verdict));

        // A cell without a series says so and plots nothing.
        view.selectCell(2);
        QTRY_VERIFY_WITH_TIMEOUT(!pane->isLoading(), 20000);
        QCOMPARE(pane->plottedSeriesPoints(), 0);
        QVERIFY(pane->findChild<QLabel *>(QStringLiteral("serverResetVerdict"))->text().contains(QLatin1String("No server metrics")));
    }

    // What is loaded from a series file is bounded, and the pane says what was left out.
    // With an SGLang cell selected, "Per point" shows a metric SGLang exports, not a vLLM
    // counter; each line is named by its server, even a single one.
    void perPointFollowsTheSelectedServer()
    {
        SweepResults r = sbtest::makeSweepResults(2);
        for (CellResult &c : r.cells) {
            const bool vllm = c.server == QLatin1String("server-a");
            ServerMetricAggregate running;
            running.type = MetricType::Gauge;
            running.avg = c.concurrency * 0.9;
            c.serverMetrics.insert(vllm ? QStringLiteral("vllm:num_requests_running") : QStringLiteral("sglang:num_running_reqs"), running);
        }
        ResultsView view;
        view.resize(1400, 900);
        view.setResults(r, QString());
        auto *pane = view.findChild<ServerMetricsPane *>(QStringLiteral("serverPane"));
        auto *aggregate = pane->findChild<QComboBox *>(QStringLiteral("serverAggregate"));
        view.selectCell(2); // server-a: vLLM
        QCOMPARE(aggregate->currentData().toString(), QStringLiteral("vllm:num_requests_running"));
        view.selectCell(7); // server-b: SGLang
        QCOMPARE(aggregate->currentData().toString(), QStringLiteral("sglang:num_running_reqs"));
        QChart *chart = pane->findChild<InteractiveChartView *>(QStringLiteral("serverAggregateChart"))->chart();
        QCOMPARE(chart->series().size(), 1);
        QCOMPARE(chart->series().first()->name(), QStringLiteral("server-b"));
        QVERIFY(chart->legend()->isVisible());
        view.selectCell(2); // back to server-a
        QCOMPARE(aggregate->currentData().toString(), QStringLiteral("vllm:num_requests_running"));
    }

    void serverSeriesIsBounded()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("server_metrics.jsonl")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QJsonObject samples{{QStringLiteral("sglang:num_running_reqs"), 2}};
        for (int i = 0; i < ServerSeriesData::kMaxOtherSeries + 25; ++i)
            samples.insert(QStringLiteral("other_metric{i=\"%1\"}").arg(i), i);
        QVERIFY(file.write(QJsonDocument(QJsonObject{{QStringLiteral("t_ns"), 0}, {QStringLiteral("origin"), QStringLiteral("o")},
                                                     {QStringLiteral("samples"), samples}}).toJson(QJsonDocument::Compact) + "\nnot json\n") > 0);
        file.close();
        const ServerSeriesData data = readServerSeries(file.fileName());
        QCOMPARE(data.entries.size(), ServerSeriesData::kMaxOtherSeries + 1);
        QCOMPARE(data.entries.first().key, QStringLiteral("sglang:num_running_reqs"));
        QCOMPARE(data.badLines, 1);
        QCOMPARE(data.limits.size(), 1);
        QVERIFY(data.limits.first().contains(QLatin1String("25 more series")));
        QVERIFY(!readServerSeries(dir.filePath(QStringLiteral("missing.jsonl"))).error.isEmpty());
    }

    void distributionOfSelectedCell()
    {
        QTemporaryDir dir;
        const SweepResults r = sbtest::makeSweepResults();
        QVERIFY(sbtest::writeRecords(dir.path(), r.cells.at(4).recordsPath, 500));
        ResultsView view;
        view.setResults(r, dir.path());
        auto *pane = view.findChild<DistributionPane *>();
        QSignalSpy loaded(pane, &DistributionPane::loaded);
        view.selectCell(4);
        QTRY_VERIFY(!pane->isLoading());
        QVERIFY(loaded.size() >= 1);
        QCOMPARE(pane->samples().records, 500);
        QCOMPARE(pane->samples().ttftMs.size(), 450);
        QVERIFY(pane->chartView()->chart()->title().contains(QStringLiteral("450 requests")));
        // a cell without a records file: an error message, no crash, no stale samples
        view.selectCell(5);
        QTRY_VERIFY(!pane->isLoading());
        QCOMPARE(pane->samples().records, 0);
        QVERIFY(!pane->samples().error.isEmpty());
        // quick reselects: the last one wins
        view.selectCell(6);
        view.selectCell(4);
        QTRY_VERIFY(!pane->isLoading());
        QCOMPARE(pane->samples().records, 500);
    }

    void detailPaneContent()
    {
        CellResult c = sbtest::makeSweepResults().cells.at(10);
        c.errors.insert(QStringLiteral("http_500"), 2);
        c.errorSamples.insert(QStringLiteral("http_500"), QStringLiteral("Internal <error>"));
        c.warnings << QStringLiteral("prefix cache was warm");
        QTemporaryDir tmp; // a trace on disk is linked (a missing one is marked: tst_trace_links)
        const QString trace = tmp.filePath(QStringLiteral("x.json"));
        QFile traceFile(trace);
        QVERIFY(traceFile.open(QIODevice::WriteOnly));
        traceFile.close();
        c.traces << trace;
        c.hooks.first().path = QStringLiteral("/flush_cache?timeout=%20");
        const QString html = cellDetailHtml(c, QStringLiteral("/tmp/out"));
        QVERIFY(html.contains(QStringLiteral("Internal &lt;error&gt;")));
        QVERIFY(html.contains(QStringLiteral("prefix cache was warm")));
        QVERIFY(html.contains(QUrl::fromLocalFile(trace).toString()));
        QVERIFY(html.contains(QStringLiteral("/flush_cache?timeout=%20")));
        QVERIFY(html.contains(QStringLiteral("profiler_stop")));
        QVERIFY(html.contains(QStringLiteral("/tmp/out/cells/010/records.jsonl")));
    }

    // Requested vs measured ISL/OSL with the token source named; more than 2 % off is marked.
    void detailShowsRequestedVsMeasuredLengths()
    {
        CellResult c = sbtest::makeSweepResults().cells.at(0);
        auto lengths = [](double avg, double min, double max) {
            MetricStats s;
            s.count = 100, s.avg = avg, s.min = min, s.max = max;
            return s;
        };
        c.metrics.insert(tag::requestedInputLength, lengths(256, 256, 256));
        c.metrics.insert(tag::inputLength, lengths(299.8, 290, 310)); // +17.1 %: a warning
        c.metrics.insert(tag::requestedOutputLength, lengths(64, 64, 64));
        c.metrics.insert(tag::outputLength, lengths(63.5, 60, 64)); // -0.8 %: fine
        c.tokenSource = sb::TokenSource::Usage;
        const QString html = cellDetailHtml(c, QString());
        QVERIFY2(html.contains(QStringLiteral("requested avg 256 (min 256, max 256) · measured avg 299.8 (min 290, max 310)")), qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("⚠ +17.1 %, more than 2 % off")));
        QVERIFY(html.contains(QStringLiteral("requested avg 64 (min 64, max 64) · measured avg 63.5 (min 60, max 64) · -0.8 %</li>")));
        QCOMPARE(html.count(QStringLiteral("% off</b>")), 1); // (other ⚠ mark traces missing from disk)
        QVERIFY(html.contains(QStringLiteral("counted by the server (<i>usage</i>)")));
        c.tokenSource = sb::TokenSource::Counted;
        QVERIFY(cellDetailHtml(c, QString()).contains(QStringLiteral("counted by the client")));
        // OSL short by more than 2 %: the server stopped early.
        c.metrics.insert(tag::outputLength, lengths(40, 10, 64));
        QCOMPARE(cellDetailHtml(c, QString()).count(QStringLiteral("% off</b>")), 2);
        // Without lengths recorded, no section.
        QVERIFY(!cellDetailHtml(sbtest::makeSweepResults().cells.at(0), QString()).contains(QStringLiteral("Lengths")));
    }

    // An open-loop cell says what rate it achieved against its target and how late it sent.
    void detailShowsOpenLoopRateAndLag()
    {
        CellResult c = sbtest::makeSweepResults().cells.at(0);
        OpenLoopResult o;
        o.targetRate = 8;
        o.achievedRate = 7.5;
        o.arrival = QStringLiteral("poisson");
        o.lagP50Ms = 0.2, o.lagP99Ms = 1.5, o.lagMaxMs = 3;
        o.maxConcurrency = 64;
        c.openLoop = o;
        const QString html = cellDetailHtml(c, QString());
        QVERIFY2(html.contains(QStringLiteral("target 8 req/s, achieved 7.5 req/s (93.8 %)")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("schedule lag: p50 %1, p99 %2, max %3")
                                   .arg(formatWithUnit(0.2, unit::ms), formatWithUnit(1.5, unit::ms), formatWithUnit(3, unit::ms))),
                 qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("max_concurrency 64: never reached")));
        QVERIFY(html.contains(QStringLiteral("<h3>server-a · 8 req/s</h3>")));
    }

    // The "Over time" tab plots one point per slice: throughput, and TTFT where requests streamed.
    void overTimeTabPlotsSlices()
    {
        SweepResults r = sbtest::makeSweepResults();
        QJsonArray slices;
        for (int i = 0; i < 9; ++i)
            slices.append(QJsonObject{{QStringLiteral("t_s"), i}, {QStringLiteral("length_s"), 1}, {QStringLiteral("output_tokens"), 100 + i},
                                      {QStringLiteral("ttft_p50_ms"), i == 4 ? QJsonValue(QJsonValue::Null) : QJsonValue(20.0 + i)}});
        r.cells[3].timeSlices = timeSlicesFromJson(slices);
        ResultsView view;
        view.setResults(r, QString());
        auto *pane = view.findChild<TimeSlicesPane *>(QStringLiteral("timeSlicesPane"));
        QVERIFY(pane);
        QCOMPARE(pane->throughputPoints(), 0);
        view.selectCell(3);
        QCOMPARE(pane->throughputPoints(), 9);
        QCOMPARE(pane->ttftPoints(), 8); // a slice where nothing streamed has no TTFT
        auto *chart = pane->findChild<InteractiveChartView *>(QStringLiteral("timeSlicesChart"))->chart();
        QCOMPARE(chart->series().size(), 2);
        QCOMPARE(static_cast<QXYSeries *>(chart->series().first())->points().at(8), QPointF(8, 108));
        QVERIFY(pane->findChild<QLabel *>(QStringLiteral("timeSlicesStatus"))->text().contains(QLatin1String("9 slices")));
        view.selectCell(2);
        QCOMPARE(pane->throughputPoints(), 0);
        QVERIFY(pane->findChild<QLabel *>(QStringLiteral("timeSlicesStatus"))->text().contains(QLatin1String("No time slices")));
    }

    // The Distribution tab's width does not follow its status text (a long path while reading).
    void distributionWidthIsStable()
    {
        DistributionPane pane;
        pane.setRecordsFile(QString(), QString());
        const int before = pane.minimumSizeHint().width();
        const int hintBefore = pane.sizeHint().width();
        pane.setRecordsFile(QStringLiteral("/a/very/long/path/that/goes/on/and/on/and/on/for/a/while/cells/000-server-c8/records.jsonl"),
                            QStringLiteral("x"));
        QCOMPARE(pane.minimumSizeHint().width(), before);
        QCOMPARE(pane.sizeHint().width(), hintBefore);
        QTRY_VERIFY(!pane.isLoading());
    }
};

QTEST_MAIN(TestResultsPanes)
#include "tst_results_panes.moc"
