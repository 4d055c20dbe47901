#include "charts/MetricFormat.h"
#include "results/SweepAxis.h"
#include <QLocale>
#include <cmath>
#include <limits>

namespace sb {

QString formatNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("—");
    const double a = std::abs(v);
    const QLocale c = QLocale::c();
    // Group thousands for large values; keep three significant digits for small ones.
    if (a >= 1000) {
        QLocale grouped(QLocale::English);
        return grouped.toString(v, 'f', 0);
    }
    if (a >= 100)
        return c.toString(v, 'f', 0);
    if (a >= 10)
        return c.toString(v, 'f', 1);
    if (a >= 1 || a == 0)
        return c.toString(v, 'f', 2);
    return c.toString(v, 'g', 3);
}

QString shortUnit(const QString &unit)
{
    if (unit == QLatin1String("tokens/s") || unit == QLatin1String("tokens/sec"))
        return QStringLiteral("tok/s");
    if (unit == QLatin1String("requests/s") || unit == QLatin1String("requests/sec"))
        return QStringLiteral("req/s");
    return unit;
}

QString formatWithUnit(double v, const QString &unit)
{
    const QString u = shortUnit(unit);
    return u.isEmpty() || std::isnan(v) ? formatNumber(v) : formatNumber(v) + QLatin1Char(' ') + u;
}

double cellMetric(const CellResult &cell, const QString &metric, const QString &stat)
{
    const auto it = cell.metrics.constFind(metric);
    return it == cell.metrics.cend() ? std::numeric_limits<double>::quiet_NaN() : it->value(stat);
}

QString cellSummaryText(const CellResult &cell)
{
    auto stat = [&](const char *metric, const char *s) {
        const auto it = cell.metrics.constFind(QLatin1String(metric));
        const QString unit = it == cell.metrics.cend() ? QString() : it->unit;
        return formatWithUnit(cellMetric(cell, QLatin1String(metric), QLatin1String(s)), unit);
    };
    QStringList lines;
    lines << QStringLiteral("%1 · %2 · %3").arg(cell.server, pointLabel(cell), cellStatusName(cell.status));
    lines << (cell.failed > 0 ? QStringLiteral("requests: %1 ok, %2 failed (%3 %)").arg(cell.completed).arg(cell.failed).arg(cell.errorRate * 100, 0, 'f', 1)
                              : QStringLiteral("requests: %1 ok, 0 failed").arg(cell.completed));
    if (cell.status == CellStatus::Degraded && !cell.reason.isEmpty())
        lines << cell.reason;
    lines << QStringLiteral("TTFT p50 %1 · p90 %2 · p99 %3")
                 .arg(stat("time_to_first_token", "p50"), stat("time_to_first_token", "p90"),
                      stat("time_to_first_token", "p99"));
    lines << QStringLiteral("ITL avg %1 · p99 %2").arg(stat("inter_token_latency", "avg"), stat("inter_token_latency", "p99"));
    lines << QStringLiteral("latency p50 %1 · p99 %2").arg(stat("request_latency", "p50"), stat("request_latency", "p99"));
    lines << QStringLiteral("output %1 · %2").arg(stat("output_token_throughput", "avg"), stat("request_throughput", "avg"));
    if (const auto &o = cell.openLoop)
        lines << QStringLiteral("open loop: achieved %1 req/s · schedule lag p99 %2 ms%3")
                     .arg(formatRate(o->achievedRate))
                     .arg(o->lagP99Ms, 0, 'f', 2)
                     .arg(o->capHit ? QStringLiteral(" · max_concurrency %1 reached, %2 queued").arg(o->maxConcurrency).arg(o->queued) : QString());
    return lines.join(QLatin1Char('\n'));
}

} // namespace sb
