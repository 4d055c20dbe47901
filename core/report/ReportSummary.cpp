#include "report/ReportSummary.h"
#include "metrics/MetricCatalogue.h"
#include "results/HookSeverity.h"
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
// The figures ranked: the ones a reader compares servers by.
struct Headline {
    const QString &metric;
    Stat stat;
};
const Headline kHeadlines[] = {
    {tag::outputThroughput, Stat::Avg}, {tag::requestThroughput, Stat::Avg}, {tag::goodput, Stat::Avg},
    {tag::ttft, Stat::P99},             {tag::itl, Stat::Avg},               {tag::latency, Stat::P99},
};

QString headlineLabel(const MetricInfo &m, Stat stat)
{
    return m.singleValued ? m.label : QStringLiteral("%1 %2").arg(m.label, statName(stat));
}

// Per point the server with the best mean over its runs; a point counts when two servers or
// more measured it.
QString bestSentence(const SweepResults &r, const MetricInfo &m, Stat stat)
{
    // point -> server -> run values
    QMap<double, QMap<QString, std::vector<double>>> values;
    const SweepAxis axis = axisOf(r);
    for (const CellResult &c : r.cells) {
        if (!hasMeasurements(c.status) || axisOf(c) != axis)
            continue;
        if (const double v = cellValue(c, m.key, stat); std::isfinite(v))
            values[pointValue(c)][c.server].push_back(v);
    }
    QMap<QString, int> wins;
    int contested = 0;
    for (const auto &byServer : std::as_const(values)) {
        if (byServer.size() < 2)
            continue;
        ++contested;
        QString winner;
        double best = 0;
        for (auto it = byServer.cbegin(); it != byServer.cend(); ++it) {
            double mean = 0;
            for (double v : it.value())
                mean += v;
            mean /= double(it.value().size());
            const bool better = m.better == Better::Lower ? mean < best : mean > best;
            if (winner.isEmpty() || better) {
                winner = it.key();
                best = mean;
            }
        }
        ++wins[winner];
    }
    if (contested == 0)
        return {};
    QList<QPair<QString, int>> ranked;
    for (auto it = wins.cbegin(); it != wins.cend(); ++it)
        ranked.append({it.key(), it.value()});
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    QString s = QStringLiteral("%1 (%2 is better): %3 is best at %4 of %5 points")
                    .arg(headlineLabel(m, stat), m.better == Better::Lower ? QStringLiteral("lower") : QStringLiteral("higher"),
                         ranked.first().first)
                    .arg(ranked.first().second)
                    .arg(contested);
    for (int i = 1; i < ranked.size(); ++i)
        s += QStringLiteral(", %1 at %2").arg(ranked.at(i).first).arg(ranked.at(i).second);
    return s;
}

QString cellName(const CellResult &c)
{
    return QStringLiteral("cell #%1 (%2, %3)").arg(c.index).arg(c.server, pointLabel(c));
}
} // namespace

QString ReportSummary::pointsText() const
{
    QStringList out;
    for (double p : points)
        out.append(formatPoint(axis, p));
    return out.join(QStringLiteral(", "));
}

QString ReportSummary::cellsText() const
{
    QStringList parts;
    for (auto it = cellsByStatus.cbegin(); it != cellsByStatus.cend(); ++it)
        parts.append(QStringLiteral("%1 %2").arg(it.value()).arg(it.key()));
    return QStringLiteral("%1 cells: %2").arg(cells).arg(parts.join(QStringLiteral(", ")));
}

ReportSummary summarizeReport(const SweepResults &r)
{
    ReportSummary s;
    s.servers = r.serverNames();
    s.axis = axisOf(r);
    s.cells = int(r.cells.size());
    for (const CellResult &c : r.cells) {
        ++s.cellsByStatus[cellStatusName(c.status)];
        if (axisOf(c) == s.axis && !s.points.contains(pointValue(c)))
            s.points.append(pointValue(c));
    }
    std::sort(s.points.begin(), s.points.end());

    if (s.servers.size() >= 2)
        for (const Headline &h : kHeadlines)
            if (const MetricInfo *m = findMetric(h.metric); m && m->better != Better::Neither)
                if (const QString b = bestSentence(r, *m, h.stat); !b.isEmpty())
                    s.best.append(b);

    if (r.sloSearch)
        for (const SloFinding &f : r.sloSearch->findings)
            if (!f.sentence.isEmpty())
                s.slo.append(f.sentence);

    // Warnings: cells that did not measure cleanly, hooks that did not do their job, and the
    // validity warnings cells carry (each distinct text once, with how many cells said it).
    QMap<QString, int> validity;
    QMap<QString, int> hookProblems; // "server: profiler_stop failed" -> cells
    for (const CellResult &c : r.cells) {
        if (c.status == CellStatus::Degraded || c.status == CellStatus::Failed || c.status == CellStatus::Cancelled)
            s.warnings.append(QStringLiteral("%1 %2%3").arg(cellName(c), cellStatusName(c.status),
                                                             c.reason.isEmpty() ? QString() : QStringLiteral(": ") + c.reason));
        for (const HookOutcome &h : c.hooks) {
            const HookSeverity sev = hookSeverity(h);
            if (sev == HookSeverity::Failed || sev == HookSeverity::Warning)
                ++hookProblems[QStringLiteral("%1: %2 %3 (%4)").arg(c.server, hookKindName(h.hook), hookSeverityName(sev), hookVerdictText(h))];
        }
        for (const QString &w : c.warnings)
            ++validity[w];
    }
    if (const int skipped = s.cellsByStatus.value(cellStatusName(CellStatus::Skipped)); skipped > 0)
        s.warnings.append(QStringLiteral("%1 cell(s) skipped: not run after an earlier cell aborted the sweep").arg(skipped));
    for (auto it = hookProblems.cbegin(); it != hookProblems.cend(); ++it)
        s.warnings.append(QStringLiteral("hook %1 in %2 cell(s)").arg(it.key()).arg(it.value()));
    for (auto it = validity.cbegin(); it != validity.cend(); ++it)
        s.warnings.append(it.value() > 1 ? QStringLiteral("%1 (%2 cells)").arg(it.key()).arg(it.value()) : it.key());
    return s;
}

} // namespace sb
