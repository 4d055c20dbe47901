#include "report/ParetoFrontier.h"
#include "results/PointSummary.h"
#include <QHash>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
ParetoAxis axisOfMetric(const QString &metric, Stat stat)
{
    const MetricInfo &m = *findMetric(metric);
    return {metric, stat, m.better != Better::Lower, m.singleValued ? m.label : m.label + QLatin1Char(' ') + statName(stat),
            shortUnit(m.unit)};
}

// `a` is at least as good as `b` on both and strictly better on one.
bool dominates(const QPointF &a, const QPointF &b, bool higherX)
{
    const double ax = higherX ? a.x() : -a.x(), bx = higherX ? b.x() : -b.x();
    return ax >= bx && a.y() >= b.y() && (ax > bx || a.y() > b.y());
}

bool finite(const QPointF &p) { return std::isfinite(p.x()) && std::isfinite(p.y()); }

// Why a run is no point; empty when it is one.
QString exclusionReason(const CellResult &cell, const ParetoAxis &x, const ParetoAxis &y)
{
    if (cell.status != CellStatus::Completed)
        return cellStatusName(cell.status);
    if (!std::isfinite(cellValue(cell, y.metric, y.stat)))
        return QStringLiteral("no ") + y.label;
    if (!std::isfinite(cellValue(cell, x.metric, x.stat)))
        // tok/s/user comes from ITL, which needs answers of two tokens or more.
        return QStringLiteral("no ") + (x.metric == tag::tokensPerUser ? metricLabel(tag::itl) : x.label);
    return {};
}

QString joinLabels(const QStringList &labels)
{
    if (labels.size() < 2)
        return labels.join(QString());
    return QStringList(labels.mid(0, labels.size() - 1)).join(QStringLiteral(", ")) + QStringLiteral(" and ") + labels.last();
}
} // namespace

ParetoAxis paretoXAxis(ParetoX x)
{
    switch (x) {
    case ParetoX::Ttft: return axisOfMetric(tag::ttft, Stat::P50);
    case ParetoX::EnergyPerToken: return axisOfMetric(tag::energyPerOutputToken, Stat::Avg);
    case ParetoX::CostPerMillionOutput: return axisOfMetric(tag::costPerMillionOutput, Stat::Avg);
    case ParetoX::TokensPerUser: break;
    }
    return axisOfMetric(tag::tokensPerUser, Stat::Avg);
}

bool paretoXAvailable(const SweepResults &results, ParetoX x)
{
    if (x == ParetoX::TokensPerUser || x == ParetoX::Ttft)
        return true;
    const ParetoAxis axis = paretoXAxis(x);
    return std::any_of(results.cells.cbegin(), results.cells.cend(), [&](const CellResult &c) {
        return c.status == CellStatus::Completed && std::isfinite(cellValue(c, axis.metric, axis.stat));
    });
}

ParetoAxis paretoYAxis() { return axisOfMetric(tag::outputThroughput, Stat::Avg); }

QList<int> ParetoSeries::frontier() const
{
    QList<int> out;
    for (int i = 0; i < points.size(); ++i)
        if (points.at(i).onFrontier)
            out.append(i);
    std::stable_sort(out.begin(), out.end(), [this](int a, int b) { return points.at(a).x.mean < points.at(b).x.mean; });
    return out;
}

QList<int> nonDominated(const QList<QPointF> &points, bool higherXIsBetter)
{
    QList<int> out;
    for (int i = 0; i < points.size(); ++i) {
        if (!finite(points.at(i)))
            continue;
        bool dominated = false;
        for (int j = 0; j < points.size() && !dominated; ++j)
            dominated = j != i && finite(points.at(j)) && dominates(points.at(j), points.at(i), higherXIsBetter);
        if (!dominated)
            out.append(i);
    }
    return out;
}

bool paretoAnyPoint(const QList<ParetoSeries> &series)
{
    return std::any_of(series.cbegin(), series.cend(), [](const ParetoSeries &s) { return !s.points.isEmpty(); });
}

QList<ParetoSeries> paretoSeries(const SweepResults &results, ParetoX xChoice)
{
    const ParetoAxis x = paretoXAxis(xChoice), y = paretoYAxis();
    QHash<int, const CellResult *> byIndex;
    for (const CellResult &c : results.cells)
        byIndex.insert(c.index, &c);
    QList<ParetoSeries> out;
    for (const QString &server : results.serverNames())
        out.append(ParetoSeries{server, {}, {}});
    const auto seriesOf = [&out](const QString &server) -> ParetoSeries & {
        return *std::find_if(out.begin(), out.end(), [&](const ParetoSeries &s) { return s.server == server; });
    };
    // Cells that measured nothing are not in the point summaries: named here with their status.
    for (const CellResult &c : results.cells)
        if (!hasMeasurements(c.status))
            seriesOf(c.server).excluded.append({c.index, pointLabel(c), cellStatusName(c.status)});
    // The runs of each point (results/PointSummary.h), each judged on its own.
    for (const PointSummary &p : summarizePoints(results)) {
        ParetoSeries &s = seriesOf(p.server);
        ParetoPoint point;
        point.axis = p.axis;
        point.at = p.point;
        std::vector<double> xs, ys;
        for (int index : p.cells) {
            const CellResult &cell = *byIndex.value(index);
            point.label = pointLabel(cell);
            if (const QString why = exclusionReason(cell, x, y); !why.isEmpty()) {
                s.excluded.append({index, point.label, why});
                continue;
            }
            point.cells.append(index);
            xs.push_back(cellValue(cell, x.metric, x.stat));
            ys.push_back(cellValue(cell, y.metric, y.stat));
        }
        if (xs.empty())
            continue;
        point.x = meanCi95(xs);
        point.y = meanCi95(ys);
        s.points.append(point);
    }
    for (ParetoSeries &s : out) {
        std::stable_sort(s.points.begin(), s.points.end(), [](const ParetoPoint &a, const ParetoPoint &b) {
            return a.axis != b.axis ? a.axis < b.axis : a.at < b.at;
        });
        QList<QPointF> means;
        for (const ParetoPoint &p : s.points)
            means.append(QPointF(p.x.mean, p.y.mean));
        for (int i : nonDominated(means, x.higherIsBetter))
            s.points[i].onFrontier = true;
        for (int i = 0; i < s.points.size(); ++i)
            for (int j = 0; j < s.points.size() && !s.points.at(i).onFrontier && s.points.at(i).dominatedBy.isEmpty(); ++j)
                if (s.points.at(j).onFrontier && dominates(means.at(j), means.at(i), x.higherIsBetter))
                    s.points[i].dominatedBy = s.points.at(j).label;
    }
    return out;
}

QString paretoSentence(const ParetoSeries &series)
{
    QStringList front; // by load point, as a reader walks the sweep
    for (const ParetoPoint &p : series.points)
        if (p.onFrontier)
            front.append(p.label);
    QString s = series.points.isEmpty()
                    ? QStringLiteral("%1: no point to judge").arg(series.server)
                    : QStringLiteral("%1: frontier at %2 (%3 of %4 points)")
                          .arg(series.server, joinLabels(front))
                          .arg(front.size())
                          .arg(series.points.size());
    if (const QString left = paretoLeftOut(series); !left.isEmpty())
        s += QStringLiteral("; left out: ") + left;
    return s;
}

QString paretoLeftOut(const ParetoSeries &series)
{
    // One phrase per reason, its points together: a server whose GPUs were not watched reads
    // "c=1, c=4 and c=16 (no Energy per output token)", not the reason once per point.
    QStringList reasons;
    QHash<QString, QStringList> labels;
    for (const ParetoExcluded &e : series.excluded) {
        if (!labels.contains(e.reason))
            reasons.append(e.reason);
        QStringList &l = labels[e.reason];
        if (!l.contains(e.label))
            l.append(e.label);
    }
    QStringList left;
    for (const QString &reason : reasons)
        left.append(QStringLiteral("%1 (%2)").arg(joinLabels(labels.value(reason)), reason));
    return left.join(QStringLiteral(", "));
}

} // namespace sb
