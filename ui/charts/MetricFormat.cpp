#include "charts/MetricFormat.h"
#include "results/SweepAxis.h"
#include <QLocale>
#include <cmath>
#include <limits>

namespace sb::ui {

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

QString formatWithUnit(double v, const QString &unit)
{
    const QString u = shortUnit(unit);
    return u.isEmpty() || std::isnan(v) ? formatNumber(v) : formatNumber(v) + QLatin1Char(' ') + u;
}

QString cellSummaryText(const CellResult &cell)
{
    auto stat = [&](const QString &metric, Stat s) {
        const MetricInfo *m = findMetric(metric);
        return formatWithUnit(cellValue(cell, metric, s), m ? m->unit : QString());
    };
    QStringList lines;
    lines << QStringLiteral("%1 · %2 · %3").arg(cell.server, pointLabel(cell), cellStatusName(cell.status));
    lines << (cell.failed > 0 ? QStringLiteral("requests: %1 ok, %2 failed (%3 %)").arg(cell.completed).arg(cell.failed).arg(cell.errorRate * 100, 0, 'f', 1)
                              : QStringLiteral("requests: %1 ok, 0 failed").arg(cell.completed));
    if (cell.status == CellStatus::Degraded && !cell.reason.isEmpty())
        lines << cell.reason;
    // One line per latency with its stats, then the rates: labels and units from the catalogue.
    const auto statsLine = [&](const QString &metric, std::initializer_list<Stat> stats) {
        QStringList parts;
        for (const Stat s : stats)
            parts << QStringLiteral("%1 %2").arg(statName(s), stat(metric, s));
        return metricLabel(metric) + QLatin1Char(' ') + parts.join(QStringLiteral(" · "));
    };
    lines << statsLine(tag::ttft, {Stat::P50, Stat::P90, Stat::P99});
    lines << statsLine(tag::itl, {Stat::Avg, Stat::P99});
    lines << statsLine(tag::latency, {Stat::P50, Stat::P99});
    lines << QStringLiteral("output %1 · %2").arg(stat(tag::outputThroughput, Stat::Avg), stat(tag::requestThroughput, Stat::Avg));
    if (const auto &o = cell.openLoop)
        lines << QStringLiteral("open loop: achieved %1 req/s · schedule lag p99 %2 ms%3")
                     .arg(formatRate(o->achievedRate))
                     .arg(o->lagP99Ms, 0, 'f', 2)
                     .arg(o->capHit ? QStringLiteral(" · max_concurrency %1 reached, %2 queued").arg(o->maxConcurrency).arg(o->queued) : QString());
    return lines.join(QLatin1Char('\n'));
}

} // namespace sb::ui
