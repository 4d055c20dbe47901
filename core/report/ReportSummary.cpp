#include "report/ReportSummary.h"
#include "report/BestSeries.h"
#include "metrics/MetricCatalogue.h"
#include "metrics/SloSearch.h"
#include "results/HookSeverity.h"
#include "spec/SweepSpec.h"
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

// The SLO limits the run was measured against, from its spec fingerprint (results/SweepFacts.h),
// in the SLO search's words (metrics/SloSearch sloText) as each request must meet them.
QString sloLimitsOf(const SweepResults &r)
{
    SloSpec slo;
    for (const SloLimit &l : kSloLimits)
        if (const QVariant v = r.specFingerprint.workload.value(QStringLiteral("slo.") + QLatin1String(l.key)); v.isValid())
            slo.*l.limit = v.toDouble();
    return sloText(slo, 0);
}

QString headlineLabel(const MetricInfo &m, Stat stat)
{
    return m.singleValued ? m.label : QStringLiteral("%1 %2").arg(m.label, statName(stat));
}

// Per point the server with the best mean over its runs, called best only where the runs show
// it (report/BestSeries.h decides); a point counts when two servers or more measured it.
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
    QMap<QString, int> wins;       // significantly best
    QMap<QString, int> untestedLead; // better mean where no test was possible (one run)
    int contested = 0, notSignificant = 0, untested = 0;
    for (const auto &byServer : std::as_const(values)) {
        const PointBest best = bestAtPoint(byServer, m.better == Better::Lower);
        if (best.series.isEmpty())
            continue;
        ++contested;
        switch (best.verdict) {
        case BestVerdict::Significant: ++wins[best.series]; break;
        case BestVerdict::NotSignificant: ++notSignificant; break;
        case BestVerdict::NotTestable:
            ++untested;
            ++untestedLead[best.series];
            break;
        }
    }
    if (contested == 0)
        return {};
    const auto ranked = [](const QMap<QString, int> &counts) {
        QList<QPair<QString, int>> out;
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
            out.append({it.key(), it.value()});
        std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
        return out;
    };
    const auto points = [](int n) { return n == 1 ? QStringLiteral("1 point") : QStringLiteral("%1 points").arg(n); };
    QStringList parts;
    if (const auto w = ranked(wins); !w.isEmpty()) {
        QString s = QStringLiteral("%1 is significantly best at %2 of %3").arg(w.first().first).arg(w.first().second).arg(points(contested));
        for (int i = 1; i < w.size(); ++i)
            s += QStringLiteral(", %1 at %2").arg(w.at(i).first).arg(w.at(i).second);
        parts.append(s);
    }
    if (notSignificant > 0)
        parts.append(QStringLiteral("no significant difference at %1 of %2").arg(notSignificant).arg(points(contested)));
    if (untested > 0) {
        QStringList leads;
        for (const auto &[server, n] : ranked(untestedLead))
            leads.append(QStringLiteral("%1 at %2").arg(server).arg(n));
        parts.append(QStringLiteral("not testable at %1 of %2 (one run each; better value: %3)")
                         .arg(untested)
                         .arg(points(contested), leads.join(QStringLiteral(", "))));
    }
    return QStringLiteral("%1 (%2 is better): %3")
        .arg(headlineLabel(m, stat), m.better == Better::Lower ? QStringLiteral("lower") : QStringLiteral("higher"), parts.join(QStringLiteral("; ")));
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

    s.sloLimits = sloLimitsOf(r);
    if (s.servers.size() >= 2)
        for (const Headline &h : kHeadlines)
            if (const MetricInfo *m = findMetric(h.metric); m && m->better != Better::Neither)
                if (QString b = bestSentence(r, *m, h.stat); !b.isEmpty()) {
                    if (h.metric == tag::goodput && !s.sloLimits.isEmpty()) // goodput means nothing without its SLO
                        b += QStringLiteral(" (requests meeting %1)").arg(s.sloLimits);
                    s.best.append(b);
                }

    if (r.sloSearch)
        for (const SloFinding &f : r.sloSearch->findings)
            if (!f.sentence.isEmpty())
                s.slo.append(f.sentence);

    // Warnings: cells that did not measure cleanly, hooks that did not do their job, and the
    // validity warnings cells carry (each distinct text once, with how many cells said it).
    QMap<QString, QStringList> validity; // warning -> the cells that gave it
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
            validity[w].append(cellName(c));
    }
    if (const int skipped = s.cellsByStatus.value(cellStatusName(CellStatus::Skipped)); skipped > 0)
        s.warnings.append(QStringLiteral("%1 cell(s) skipped: not run after an earlier cell aborted the sweep").arg(skipped));
    for (auto it = hookProblems.cbegin(); it != hookProblems.cend(); ++it)
        s.warnings.append(QStringLiteral("hook %1 in %2 cell(s)").arg(it.key()).arg(it.value()));
    // Each names its cells, so a reader can find them (the first few, when many said the same).
    constexpr int kNamed = 4;
    for (auto it = validity.cbegin(); it != validity.cend(); ++it) {
        const QStringList &cells = it.value();
        QString where;
        if (cells.size() > kNamed)
            where = cells.mid(0, kNamed).join(QStringLiteral(", ")) + QStringLiteral(" and %1 more").arg(cells.size() - kNamed);
        else if (cells.size() > 1)
            where = cells.mid(0, cells.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") + cells.last();
        else
            where = cells.first();
        s.warnings.append(QStringLiteral("%1: %2").arg(where, it.key()));
    }
    return s;
}

} // namespace sb
