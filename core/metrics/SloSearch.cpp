#include "metrics/SloSearch.h"
#include "metrics/MetricCatalogue.h"
#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <map>

namespace sb {

namespace {
struct Limit {
    const QString &metric; // catalogue key; its shortLabel names it in sentences
    const std::optional<double> SloSpec::*limit;
};
const Limit kLimits[] = {{tag::ttft, &SloSpec::ttftMs}, {tag::itl, &SloSpec::itlMs}, {tag::latency, &SloSpec::latencyMs}};

QString pointWords(SweepAxis axis, double v)
{
    return axis == SweepAxis::RequestRate ? formatPoint(axis, v) : QStringLiteral("%1 concurrent").arg(qRound64(v));
}
} // namespace

bool meetsSlo(const CellResult &cell, const SloSpec &slo, int percentile)
{
    if (cell.status != CellStatus::Completed)
        return false;
    const QString stat = QStringLiteral("p%1").arg(percentile);
    for (const Limit &l : kLimits) {
        if (!(slo.*l.limit))
            continue;
        const double v = cellValue(cell, l.metric, stat);
        if (!std::isfinite(v) || v > *(slo.*l.limit))
            return false;
    }
    return true;
}

QString sloText(const SloSpec &slo, int percentile)
{
    QStringList parts;
    for (const Limit &l : kLimits)
        if (slo.*l.limit)
            parts.append(QStringLiteral("%1 p%2 ≤ %3 %4").arg(findMetric(l.metric)->shortLabel).arg(percentile).arg(*(slo.*l.limit)).arg(unit::ms));
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

QJsonObject sloSearchJson(const SweepResults &results, const SweepSpec &spec)
{
    const SloSpec &slo = spec.workload.slo;
    QJsonObject o{{QStringLiteral("percentile"), spec.sloSearch.percentile},
                  {QStringLiteral("resolution"), spec.sloSearch.resolution},
                  {QStringLiteral("slo"), sloText(slo, spec.sloSearch.percentile)}};
    QJsonArray servers;
    for (const QString &name : results.serverNames()) {
        const SloFinding f = findSlo(results, name, slo, spec.sloSearch.percentile);
        const auto num = [](const std::optional<double> &v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); };
        servers.append(QJsonObject{{QStringLiteral("server"), name},
                                   {QStringLiteral("axis"), axisKey(f.axis)},
                                   {QStringLiteral("sustained"), num(f.sustained)},
                                   {QStringLiteral("first_miss"), num(f.firstMiss)},
                                   {QStringLiteral("sentence"), f.sentence}});
    }
    o.insert(QStringLiteral("servers"), servers);
    return o;
}

QList<SloFinding> sloFindingsFromJson(const QJsonObject &sloSearch)
{
    QList<SloFinding> out;
    const auto num = [](const QJsonValue &v) { return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt; };
    for (const QJsonValue &v : sloSearch.value(QStringLiteral("servers")).toArray()) {
        const QJsonObject o = v.toObject();
        SloFinding f;
        f.server = o.value(QStringLiteral("server")).toString();
        if (f.server.isEmpty())
            continue;
        f.axis = o.value(QStringLiteral("axis")).toString() == axisKey(SweepAxis::RequestRate) ? SweepAxis::RequestRate : SweepAxis::Concurrency;
        f.sustained = num(o.value(QStringLiteral("sustained")));
        f.firstMiss = num(o.value(QStringLiteral("first_miss")));
        f.sentence = o.value(QStringLiteral("sentence")).toString();
        out.append(f);
    }
    return out;
}

} // namespace sb
