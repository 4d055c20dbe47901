#include "report/ReportCharts.h"
#include "charts/ChartExport.h"
#include "charts/ChartFactory.h"
#include "charts/ParetoChart.h"
#include "metrics/MetricCatalogue.h"
#include "report/ReportPareto.h"
#include <QChart>
#include <algorithm>
#include <cmath>
#include <QFile>
#include <QTemporaryDir>
#include <functional>
#include <memory>

namespace sb::ui {

namespace {
struct ChartJob {
    QString name;   // file stem
    QString title;  // caption in report.html
    std::function<QChart *(const QList<ChartSeriesInput> &)> build;
};

bool anyCellHas(const SweepResults &results, const QString &metric, Stat stat)
{
    return std::any_of(results.cells.cbegin(), results.cells.cend(),
                       [&](const CellResult &c) { return std::isfinite(cellValue(c, metric, stat)); });
}

QList<ChartJob> jobs(const SweepResults &results)
{
    // Captions name the sweep's own axis: a rate sweep's charts are "vs request rate".
    const QString load = axisOf(results) == SweepAxis::RequestRate ? QStringLiteral("request rate") : QStringLiteral("concurrency");
    QList<ChartJob> out = {
        {QStringLiteral("throughput_vs_ttft_p99"), QStringLiteral("Output token throughput vs TTFT p99"),
         [](const QList<ChartSeriesInput> &s) { return makeThroughputVsLatencyChart(s, LatencyChoice::TtftP99); }},
        {QStringLiteral("throughput_vs_itl_avg"), QStringLiteral("Output token throughput vs ITL avg"),
         [](const QList<ChartSeriesInput> &s) { return makeThroughputVsLatencyChart(s, LatencyChoice::ItlAvg); }},
        {QStringLiteral("ttft_p99_vs_concurrency"), QStringLiteral("TTFT p99 vs %1").arg(load),
         [](const QList<ChartSeriesInput> &s) { return makeMetricVsConcurrencyChart(s, tag::ttft, Stat::P99); }},
        {QStringLiteral("output_throughput_vs_concurrency"), QStringLiteral("Output token throughput vs %1").arg(load),
         [](const QList<ChartSeriesInput> &s) { return makeMetricVsConcurrencyChart(s, tag::outputThroughput, Stat::Avg); }},
    };
    // The Pareto view (report/ParetoFrontier.h), one chart per x axis report.html has a part
    // for (energy and cost only where the set has them), beside the sentences naming the frontier.
    for (const ParetoX x : reportParetoXs(results)) {
        if (paretoAnyPoint(paretoSeries(results, x)))
            out.append({paretoChartStem(x), paretoChartTitle(x), [x](const QList<ChartSeriesInput> &s) { return makeParetoChart(s, x); }});
    }
    // The knee from the profiler traces (report/TraceKnee), beside the sentence report.html prints.
    if (anyCellHas(results, tag::engineStepTime, Stat::P50))
        out.append({QStringLiteral("engine_step_time_p50_vs_load"), QStringLiteral("Engine step time p50 vs load (profiler traces)"),
                    [](const QList<ChartSeriesInput> &s) { return makeMetricVsConcurrencyChart(s, tag::engineStepTime, Stat::P50); }});
    if (anyCellHas(results, tag::engineBatchSize, Stat::Avg))
        out.append({QStringLiteral("engine_batch_size_vs_load"), QStringLiteral("Engine batch size vs load (profiler traces)"),
                    [](const QList<ChartSeriesInput> &s) { return makeMetricVsConcurrencyChart(s, tag::engineBatchSize, Stat::Avg); }});
    return out;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

RenderedCharts renderReportCharts(const SweepResults &results)
{
    RenderedCharts out;
    QTemporaryDir tmp;
    if (!tmp.isValid()) {
        out.warnings.append(QStringLiteral("charts left out: no temporary folder (%1)").arg(tmp.errorString()));
        return out;
    }
    const QList<ChartSeriesInput> sets{ChartSeriesInput{QString(), results, 0}};
    const QSize size(1000, 640);
    for (const ChartJob &job : jobs(results)) {
        const std::unique_ptr<QChart> chart(job.build(sets));
        if (chart)
            styleChartForDocument(chart.get());
        ReportChart rc{job.title, QStringLiteral("charts/%1.svg").arg(job.name), QStringLiteral("charts/%1.png").arg(job.name)};
        bool ok = true;
        for (const QString &rel : {rc.svgPath, rc.pngPath}) {
            const QString file = tmp.filePath(rel.section(QLatin1Char('/'), 1));
            QString err;
            if (!chart || !saveChart(chart.get(), file, size, &err)) {
                out.warnings.append(QStringLiteral("chart %1 left out: %2").arg(rel, chart ? err : QStringLiteral("no data")));
                ok = false;
                break;
            }
            out.files.append({rel, readAll(file)});
        }
        if (ok)
            out.charts.append(rc);
        else if (!out.files.isEmpty() && out.files.last().path == rc.svgPath)
            out.files.removeLast(); // the SVG without its PNG: drop both
    }
    return out;
}

} // namespace sb::ui
