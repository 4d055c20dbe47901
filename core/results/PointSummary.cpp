#include "results/PointSummary.h"
#include <QJsonObject>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
// The per-run figures summarized: distributions by their mean and tail, single values as they are.
const Stat kStats[] = {Stat::Avg, Stat::P50, Stat::P90, Stat::P99};

QJsonValue number(double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null); }
} // namespace

QString pointKey(const QString &metric, Stat stat) { return metric + QLatin1Char('.') + statName(stat); }

QList<PointSummary> summarizePoints(const SweepResults &results)
{
    QList<PointSummary> points;
    for (const CellResult &cell : results.cells) {
        if (!hasMeasurements(cell.status))
            continue;
        const SweepAxis axis = axisOf(cell);
        const double at = pointValue(cell);
        auto it = std::find_if(points.begin(), points.end(), [&](const PointSummary &p) {
            return p.server == cell.server && p.axis == axis && p.point == at;
        });
        if (it == points.end()) {
            PointSummary p;
            p.server = cell.server;
            p.axis = axis;
            p.point = at;
            points.append(p);
            it = points.end() - 1;
        }
        it->cells.append(cell.index);
        for (auto m = cell.metrics.cbegin(); m != cell.metrics.cend(); ++m)
            for (const Stat stat : kStats) {
                const double v = m->value(stat);
                if (std::isfinite(v))
                    it->runValues[pointKey(m.key(), stat)].push_back(v);
            }
    }
    for (PointSummary &p : points)
        for (auto v = p.runValues.cbegin(); v != p.runValues.cend(); ++v)
            p.stats.insert(v.key(), meanCi95(v.value()));
    return points;
}

bool hasRepeats(const QList<PointSummary> &points)
{
    return std::any_of(points.cbegin(), points.cend(), [](const PointSummary &p) { return p.runs() > 1; });
}

QJsonArray pointsJson(const QList<PointSummary> &points)
{
    QJsonArray out;
    for (const PointSummary &p : points) {
        QJsonObject metrics;
        for (auto s = p.stats.cbegin(); s != p.stats.cend(); ++s) {
            const qsizetype dot = s.key().lastIndexOf(QLatin1Char('.'));
            const QString metric = s.key().left(dot), stat = s.key().mid(dot + 1);
            QJsonObject m = metrics.value(metric).toObject();
            m.insert(stat, QJsonObject{{QStringLiteral("mean"), number(s->mean)},
                                       {QStringLiteral("ci95_low"), number(s->low())},
                                       {QStringLiteral("ci95_high"), number(s->high())},
                                       {QStringLiteral("sd"), number(s->sd)},
                                       {QStringLiteral("n"), s->n}});
            metrics.insert(metric, m);
        }
        QJsonArray cells;
        for (int c : p.cells)
            cells.append(c);
        out.append(QJsonObject{{QStringLiteral("server"), p.server},
                               {axisKey(p.axis), p.point},
                               {QStringLiteral("runs"), p.runs()},
                               {QStringLiteral("cells"), cells},
                               {QStringLiteral("metrics"), metrics}});
    }
    return out;
}

QList<PointComparison> comparePoints(const QList<PointSummary> &points, const QString &key)
{
    QList<PointComparison> out;
    for (int i = 0; i < points.size(); ++i)
        for (int j = i + 1; j < points.size(); ++j) {
            const PointSummary &a = points[i], &b = points[j];
            if (a.server == b.server || a.axis != b.axis || a.point != b.point)
                continue;
            const auto va = a.runValues.value(key), vb = b.runValues.value(key);
            if (va.size() < 2 || vb.size() < 2)
                continue;
            PointComparison c;
            c.point = a.point;
            c.serverA = a.server;
            c.serverB = b.server;
            c.a = meanCi95(va);
            c.b = meanCi95(vb);
            c.welch = welchTest(va, vb);
            out.append(c);
        }
    return out;
}

} // namespace sb
