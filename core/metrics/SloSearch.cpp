#include "metrics/SloSearch.h"
#include "metrics/MetricCatalogue.h"
#include <algorithm>
#include <cmath>
#include <map>

namespace sb {

namespace {
QString pointWords(SweepAxis axis, double v)
{
    return axis == SweepAxis::RequestRate ? formatPoint(axis, v) : QStringLiteral("%1 concurrent").arg(qRound64(v));
}
} // namespace

bool meetsSlo(const CellResult &cell, const SloSpec &slo, int percentile)
{
    if (cell.status != CellStatus::Completed)
        return false;
    const std::optional<Stat> stat = percentileStat(percentile); // the spec allows only those it has
    if (!stat)
        return false;
    for (const SloLimit &l : kSloLimits) { // each key names the metric it limits
        if (!(slo.*l.limit))
            continue;
        const double v = cellValue(cell, QLatin1String(l.key), *stat);
        if (!std::isfinite(v) || v > *(slo.*l.limit))
            return false;
    }
    return true;
}

QString sloText(const SloSpec &slo, int percentile)
{
    QStringList parts;
    for (const SloLimit &l : kSloLimits)
        if (slo.*l.limit)
            parts.append(QStringLiteral("%1%2 ≤ %3 %4")
                             .arg(findMetric(QString::fromLatin1(l.key))->shortLabel,
                                  percentile > 0 ? QStringLiteral(" p%1").arg(percentile) : QString())
                             .arg(*(slo.*l.limit))
                             .arg(unit::ms));
    return parts.join(QStringLiteral(" and "));
}

SloFinding findSlo(const SweepResults &results, const QString &server, const SloSpec &slo, int percentile)
{
    SloFinding f;
    f.server = server;
    std::map<double, bool> meets; // point -> met (a point measured twice must meet both times)
    for (const CellResult &c : results.cells) {
        if (c.server != server || !hasMeasurements(c.status))
            continue;
        f.axis = axisOf(c);
        const double at = pointValue(c);
        const bool ok = meetsSlo(c, slo, percentile);
        const auto it = meets.find(at);
        meets[at] = it == meets.end() ? ok : (it->second && ok);
    }
    for (const auto &[at, ok] : meets) {
        f.highestTested = at;
        if (!ok && !f.firstMiss)
            f.firstMiss = at;
        if (ok && !f.firstMiss)
            f.sustained = at;
    }
    const QString what = sloText(slo, percentile);
    if (meets.empty())
        f.sentence = QStringLiteral("%1: no measured point").arg(server);
    else if (!f.sustained)
        f.sentence = QStringLiteral("%1 misses %2 even at %3").arg(server, what, pointWords(f.axis, *f.firstMiss));
    else if (!f.firstMiss)
        f.sentence = QStringLiteral("%1 sustains %2 at %3 (every tested point; none higher was tried)").arg(server, pointWords(f.axis, *f.sustained), what);
    else
        f.sentence = QStringLiteral("%1 sustains %2 at %3").arg(server, pointWords(f.axis, *f.sustained), what);
    return f;
}

std::optional<double> nextSloPoint(const SloFinding &f, const SloSearchSpec &search)
{
    if (!search.enabled || !f.sustained || !f.firstMiss)
        return std::nullopt;
    const double lo = *f.sustained, hi = *f.firstMiss;
    if (hi - lo <= search.resolution)
        return std::nullopt;
    double mid = lo + (hi - lo) / 2;
    if (f.axis == SweepAxis::Concurrency)
        mid = std::floor(mid);
    if (mid <= lo || mid >= hi)
        return std::nullopt;
    return mid;
}

int sloSearchCellsAtMost(const SweepSpec &spec)
{
    if (!spec.sloSearch.enabled || !spec.workload.slo.any() || !(spec.sloSearch.resolution > 0))
        return 0;
    const bool open = spec.openLoop.active();
    QList<double> points;
    if (open)
        points = spec.openLoop.rates;
    else
        for (int c : spec.concurrency)
            points.append(c);
    std::sort(points.begin(), points.end());
    double gap = 0;
    for (qsizetype i = 1; i < points.size(); ++i)
        gap = std::max(gap, points[i] - points[i - 1]);
    int cells = 0;
    // nextSloPoint's bisection, taking the wider half each time.
    while (gap > spec.sloSearch.resolution) {
        if (!open && gap < 2)
            break;
        gap = open ? gap / 2 : std::ceil(gap / 2);
        ++cells;
    }
    return cells;
}

SloSearchResult sloSearchResult(const SweepResults &results, const SweepSpec &spec)
{
    const SloSpec &slo = spec.workload.slo;
    SloSearchResult out;
    out.percentile = spec.sloSearch.percentile;
    out.resolution = spec.sloSearch.resolution;
    out.slo = sloText(slo, spec.sloSearch.percentile);
    for (const QString &name : results.serverNames())
        out.findings.append(findSlo(results, name, slo, spec.sloSearch.percentile));
    return out;
}

} // namespace sb
