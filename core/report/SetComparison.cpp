#include "report/SetComparison.h"
#include "metrics/MetricCatalogue.h"
#include "report/RepeatSummary.h"
#include <QMap>
#include <cmath>

namespace sb {

namespace {
struct Runs {
    std::vector<double> values;
    QList<int> cells;
};

// Run values of metric.stat per point of one server, on the set's axis.
QMap<double, Runs> runsByPoint(const SweepResults &r, const QString &server, const QString &metric, Stat stat)
{
    QMap<double, Runs> out;
    const SweepAxis axis = axisOf(r);
    for (int i = 0; i < r.cells.size(); ++i) {
        const CellResult &c = r.cells.at(i);
        if (c.server != server || !hasMeasurements(c.status) || axisOf(c) != axis)
            continue;
        const double v = cellValue(c, metric, stat);
        if (std::isfinite(v)) {
            Runs &runs = out[pointValue(c)];
            runs.values.push_back(v);
            runs.cells.append(i);
        }
    }
    return out;
}

struct Pair {
    int setA, setB;
    QString serverA, serverB;
};

QList<Pair> pairsOf(const QList<NamedResults> &sets)
{
    QList<Pair> pairs;
    if (sets.isEmpty())
        return pairs;
    const QStringList base = sets.first().results.serverNames();
    if (sets.size() == 1) {
        for (int i = 1; i < base.size(); ++i)
            pairs.append({0, 0, base.first(), base.at(i)});
        return pairs;
    }
    for (int j = 1; j < sets.size(); ++j) {
        const QStringList other = sets.at(j).results.serverNames();
        bool any = false;
        for (const QString &s : base)
            if (other.contains(s)) {
                pairs.append({0, j, s, s});
                any = true;
            }
        if (!any && base.size() == 1 && other.size() == 1)
            pairs.append({0, j, base.first(), other.first()});
    }
    return pairs;
}
} // namespace

namespace {
void appendRows(QList<DifferenceRow> &rows, const QList<NamedResults> &sets, const Pair &p, const QString &metric, Stat stat)
{
    {
        const NamedResults &sa = sets.at(p.setA), &sb = sets.at(p.setB);
        if (axisOf(sa.results) != axisOf(sb.results))
            return; // a concurrency of 8 is not a rate of 8 req/s
        const auto ra = runsByPoint(sa.results, p.serverA, metric, stat);
        const auto rb = runsByPoint(sb.results, p.serverB, metric, stat);
        for (auto it = ra.cbegin(); it != ra.cend(); ++it) {
            const auto other = rb.constFind(it.key());
            if (other == rb.cend())
                continue;
            DifferenceRow row;
            row.setA = sa.name;
            row.serverA = p.serverA;
            row.setB = sb.name;
            row.serverB = p.serverB;
            row.axis = axisOf(sa.results);
            row.point = it.key();
            row.a = meanCi95(it->values);
            row.b = meanCi95(other->values);
            row.cellsA = it->cells;
            row.cellsB = other->cells;
            row.deltaPct = row.a.mean != 0 ? (row.b.mean - row.a.mean) / std::abs(row.a.mean) * 100.0 : std::nan("");
            if (it->values.size() >= 2 && other->values.size() >= 2)
                row.welch = welchTest(it->values, other->values);
            rows.append(row);
        }
    }
}
} // namespace

QList<DifferenceRow> compareSets(const QList<NamedResults> &sets, const QString &metric, Stat stat)
{
    QList<DifferenceRow> rows;
    for (const Pair &p : pairsOf(sets))
        appendRows(rows, sets, p, metric, stat);
    return rows;
}

QList<DifferenceRow> compareSeries(const QList<NamedResults> &sets, const SeriesRef &a, const SeriesRef &b, const QString &metric,
                                   Stat stat)
{
    QList<DifferenceRow> rows;
    if (a.set < 0 || a.set >= sets.size() || b.set < 0 || b.set >= sets.size() || (a.set == b.set && a.server == b.server))
        return rows;
    appendRows(rows, sets, {a.set, b.set, a.server, b.server}, metric, stat);
    return rows;
}

QString seriesName(const QString &set, const QString &server)
{
    return set.isEmpty() ? server : QStringLiteral("%1: %2").arg(set, server);
}

QString deltaText(double pct)
{
    if (!std::isfinite(pct))
        return QStringLiteral("–");
    const QString magnitude = QString::number(std::abs(pct), 'f', 1);
    return (pct < 0 ? QStringLiteral("−") : QStringLiteral("+")) + magnitude + QStringLiteral(" %");
}

QString significanceVerdictText(bool significant, double p)
{
    return QStringLiteral("%1 (p %2)").arg(significant ? QStringLiteral("yes") : QStringLiteral("no"), pValueText(p));
}

QString notTestableText(int runsA, int runsB)
{
    if (runsA == runsB)
        return QStringLiteral("not testable (%1 run%2 each)").arg(runsA).arg(runsA == 1 ? "" : "s");
    return QStringLiteral("not testable (%1 vs %2 runs)").arg(runsA).arg(runsB);
}

QString significanceText(const DifferenceRow &row)
{
    if (!row.welch)
        return notTestableText(row.a.n, row.b.n);
    return significanceVerdictText(row.welch->significant(), row.welch->p);
}

QString significanceExplanation(const DifferenceRow &row)
{
    if (!row.welch)
        return QStringLiteral("A single run on at least one side (%1 vs %2): run the sweep with sweep.repeats ≥ 2 to test the difference.")
            .arg(row.a.n)
            .arg(row.b.n);
    return QStringLiteral("%1 (p %2; Welch's t-test on the runs' values, two-sided, α = 0.05; %3 vs %4 runs)")
        .arg(significanceWords(*row.welch), pValueText(row.welch->p))
        .arg(row.a.n)
        .arg(row.b.n);
}

} // namespace sb
