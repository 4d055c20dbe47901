#include "report/RepeatSummary.h"
#include "report/DisplayText.h"
#include "results/PointSummary.h"
#include <cmath>

namespace sb {

namespace {
QString meanCi(const PointSummary &p, const QString &key, int decimals)
{
    const auto it = p.stats.constFind(key);
    if (it == p.stats.cend() || !std::isfinite(it->mean))
        return QStringLiteral("-");
    QString s = QString::number(it->mean, 'f', decimals);
    if (std::isfinite(it->halfWidth))
        s += QStringLiteral(" ± ") + QString::number(it->halfWidth, 'f', decimals);
    return s;
}
QString printable(const QString &s) { return displaySafe(s, DisplayLines::Single); }

struct Figure {
    const MetricInfo *metric;
    Stat stat;
};
// The headline figures of a point, named and rounded by the catalogue.
QList<Figure> figures()
{
    return {{findMetric(tag::ttft), Stat::P50},
            {findMetric(tag::ttft), Stat::P99},
            {findMetric(tag::itl), Stat::Avg},
            {findMetric(tag::outputThroughput), Stat::Avg}};
}
} // namespace

QString significanceWords(const WelchResult &w)
{
    return w.significant() ? QStringLiteral("differ significantly") : QStringLiteral("no significant difference");
}

QString pValueText(double p)
{
    return p < 0.001 ? QStringLiteral("< 0.001") : QStringLiteral("= ") + QString::number(p, 'f', 3);
}

QList<RepeatColumn> repeatColumns()
{
    QList<RepeatColumn> cols;
    for (const Figure &f : figures())
        cols.append({pointKey(f.metric->key, f.stat), f.metric->decimals, metricColumnTitle(*f.metric, f.stat, true)});
    return cols;
}

QString significanceLine(SweepAxis axis, const PointComparison &c)
{
    return QStringLiteral("%1: %2 %3 ms vs %4 %5 ms: %6 (p %7)")
        .arg(formatPoint(axis, c.point), printable(c.serverA))
        .arg(c.a.mean, 0, 'f', 2)
        .arg(printable(c.serverB))
        .arg(c.b.mean, 0, 'f', 2)
        .arg(significanceWords(c.welch), pValueText(c.welch.p));
}

QString significanceKey()
{
    return pointKey(tag::ttft, Stat::P99);
}

QString formatRepeatSummary(const SweepResults &results)
{
    const QList<PointSummary> points = summarizePoints(results);
    if (!hasRepeats(points))
        return {};
    const SweepAxis axis = axisOf(results);
    QString out = QStringLiteral("\npoints over repeats (mean ± 95 % CI, Student t on the runs' values):\n");
    QStringList headings;
    for (const Figure &f : figures())
        headings.append(metricColumnTitle(*f.metric, f.stat, true));
    out += QStringLiteral("  %1  %2  runs  %3\n").arg(QStringLiteral("server"), axisShort(axis), headings.join(QStringLiteral("  |  ")));
    for (const PointSummary &p : points) {
        QStringList values;
        for (const Figure &f : figures())
            values.append(meanCi(p, pointKey(f.metric->key, f.stat), f.metric->decimals));
        out += QStringLiteral("  %1  %2  %3  %4\n").arg(printable(p.server), formatPoint(p.axis, p.point)).arg(p.runs()).arg(values.join(QStringLiteral("  |  ")));
    }
    const QList<PointComparison> pairs = comparePoints(points, significanceKey());
    if (!pairs.isEmpty()) {
        out += QStringLiteral("significance (Welch's t-test on the runs' %1, two-sided, α = 0.05):\n")
                   .arg(metricColumnTitle(*findMetric(tag::ttft), Stat::P99, false));
        for (const PointComparison &c : pairs)
            out += QStringLiteral("  ") + significanceLine(axis, c) + QLatin1Char('\n');
    }
    return out;
}

} // namespace sb
