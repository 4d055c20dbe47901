#include "results/SweepAxis.h"
#include "report/ResultsCsv.h"
#include "report/CsvField.h"
#include "report/ReportText.h"
#include <QStringList>

namespace sb {

namespace {
// results.csv is a data file: every metric at 3 decimals (0.001 ms, 0.001 req/s).
constexpr int kCsvDecimals = 3;

struct Column {
    const MetricInfo *metric;
    Stat stat;
};

QList<Column> metricColumns()
{
    QList<Column> cols;
    for (const QString &key : {tag::ttft, tag::itl, tag::latency})
        for (const Stat stat : {Stat::Avg, Stat::P50, Stat::P90, Stat::P99})
            cols.append({findMetric(key), stat});
    for (const QString &key : {tag::outputThroughput, tag::requestThroughput, tag::goodput})
        cols.append({findMetric(key), Stat::Avg});
    return cols;
}
} // namespace

QByteArray resultsCsv(const SweepResults &results)
{
    const QList<Column> cols = metricColumns();
    QStringList header{QStringLiteral("cell"), QStringLiteral("server"), QStringLiteral("origin"), QStringLiteral("concurrency"),
                       QStringLiteral("status"), QStringLiteral("reason"), QStringLiteral("completed"), QStringLiteral("failed"),
                       QStringLiteral("duration_s")};
    for (const Column &c : cols)
        header.append(metricCsvHeader(*c.metric, c.stat));
    header << QStringLiteral("token_source") << QStringLiteral("hook_verdicts") << QStringLiteral("source_tool");
    // Open-loop (request-rate) cells; empty for closed-loop ones. Last, so older readers' columns stay put.
    const QList<Column> openLoopCols{{findMetric(tag::achievedRate), Stat::Avg},
                                     {findMetric(tag::scheduleLag), Stat::P99},
                                     {findMetric(tag::queueTime), Stat::P99}};
    header << QStringLiteral("request_rate");
    for (const Column &c : openLoopCols)
        header.append(metricCsvHeader(*c.metric, c.stat));
    header << QStringLiteral("cap_hit") << metricCsvHeader(*findMetric(tag::errorRate), Stat::Avg);
    // GPU telemetry and cost (empty without them); after the rest, so older readers' columns stay put.
    const QList<Column> energyCols{{findMetric(tag::energyPerOutputToken), Stat::Avg},
                                   {findMetric(tag::energyPerRequest), Stat::Avg},
                                   {findMetric(tag::gpuPower), Stat::Avg},
                                   {findMetric(tag::costPerMillionInput), Stat::Avg},
                                   {findMetric(tag::costPerMillionOutput), Stat::Avg}};
    for (const Column &c : energyCols)
        header.append(metricCsvHeader(*c.metric, c.stat));

    QString out = header.join(QLatin1Char(',')) + QLatin1String("\r\n");
    for (const CellResult &cell : results.cells) {
        QStringList row{QString::number(cell.index),    csvField(cell.server),          csvField(cell.origin),
                        QString::number(cell.concurrency), csvField(cellStatusName(cell.status)),       csvField(cell.reason),
                        QString::number(cell.completed), QString::number(cell.failed), formatFixed(cell.durationS, 3)};
        for (const Column &c : cols)
            row.append(formatFixed(cellValue(cell, c.metric->key, c.stat), kCsvDecimals));
        row << csvField(tokenSourceName(cell.tokenSource)) << csvField(hookVerdicts(cell)) << csvField(results.sourceTool);
        row << (cell.openLoop ? formatRate(cell.openLoop->targetRate) : QString());
        for (const Column &c : openLoopCols)
            row.append(formatFixed(cellValue(cell, c.metric->key, c.stat), kCsvDecimals));
        row << (cell.openLoop ? (cell.openLoop->capHit ? QStringLiteral("true") : QStringLiteral("false")) : QString())
            << formatFixed(cellValue(cell, tag::errorRate, Stat::Avg), kCsvDecimals);
        for (const Column &c : energyCols)
            row.append(formatFixed(cellValue(cell, c.metric->key, c.stat), kCsvDecimals));
        out += row.join(QLatin1Char(',')) + QLatin1String("\r\n");
    }
    return out.toUtf8();
}

} // namespace sb
