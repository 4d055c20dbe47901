#include "charts/ParetoChart.h"
#include "charts/PointSizeRepair.h"
#include "charts/ChartPoints.h"
#include "charts/ChartReadout.h"
#include "charts/ChartStyle.h"
#include "charts/ChartTitles.h"
#include "charts/MetricFormat.h"
#include "charts/PointLabelLayer.h"
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace sb::ui {

namespace {

// How much of its colour a dominated point keeps, and of its size: visible, but clearly not the
// frontier.
constexpr qreal kDominatedAlpha = 0.3;
constexpr qreal kDominatedSize = 0.75;

void addToChart(QChart *chart, QXYSeries *s, QAbstractAxis *x, QAbstractAxis *y, bool inLegend)
{
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
    if (!inLegend)
        for (QLegendMarker *m : chart->legend()->markers(s))
            m->setVisible(false);
    else
        plainLegendLabel(chart, s);
}

// The interval a whisker spans: the 95 % CI, never below 0 (no throughput, rate or TTFT is).
bool whisker(const MeanCi &ci, double *low, double *high)
{
    if (ci.n < 2 || !std::isfinite(ci.halfWidth))
        return false;
    *low = std::max(0.0, ci.low());
    *high = ci.high();
    return true;
}

// Whiskers of one point on both axes, with short caps, in the curve's colour.
void addWhiskers(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, const ParetoPoint &p, const QColor &color, double *xMax,
                 double *yMax)
{
    QPen pen(color);
    pen.setWidthF(1.3);
    const auto bar = [&](const QList<QPointF> &pts) {
        auto *s = new QLineSeries;
        s->setObjectName(QStringLiteral("errorBar"));
        s->setPen(pen);
        s->replace(pts);
        addToChart(chart, s, x, y, false);
    };
    double lo = 0, hi = 0;
    if (whisker(p.y, &lo, &hi)) {
        bar({QPointF(p.x.mean, lo), QPointF(p.x.mean, hi)});
        *yMax = std::max(*yMax, hi);
    }
    if (whisker(p.x, &lo, &hi)) {
        bar({QPointF(lo, p.y.mean), QPointF(hi, p.y.mean)});
        *xMax = std::max(*xMax, hi);
    }
}

// "3 runs · 95 % CI ± 1.2 tok/s/user, ± 40 tok/s" and the point's standing on the frontier.
QString detailsOf(const ParetoPoint &p, const ParetoAxis &xa, const ParetoAxis &ya)
{
    QStringList lines;
    if (p.cells.size() > 1) {
        QString ci = QStringLiteral("%1 runs · mean").arg(p.cells.size());
        if (std::isfinite(p.x.halfWidth) && std::isfinite(p.y.halfWidth))
            ci += QStringLiteral(", 95 % CI ± %1, ± %2").arg(formatWithUnit(p.x.halfWidth, xa.unit), formatWithUnit(p.y.halfWidth, ya.unit));
        lines << ci;
    }
    lines << (p.onFrontier ? QStringLiteral("on the Pareto frontier") : QStringLiteral("dominated by ") + p.dominatedBy);
    return lines.join(QLatin1Char('\n'));
}

QString axisTitleOf(const ParetoAxis &a) { return a.unit.isEmpty() ? a.label : QStringLiteral("%1 (%2)").arg(a.label, a.unit); }

} // namespace

QChart *makeParetoChart(const QList<ChartSeriesInput> &sets, ParetoX choice)
{
    const ParetoAxis xa = paretoXAxis(choice), ya = paretoYAxis();
    const MetricInfo &yInfo = *findMetric(ya.metric), &xInfo = *findMetric(xa.metric);
    const QString xShort = metricColumnTitle(xInfo, xa.stat, false);
    QChart *chart = newSweepChart(QStringLiteral("Pareto: %1 vs %2").arg(ya.label, xa.label),
                                  QStringLiteral("Pareto: %1 vs %2").arg(yInfo.shortLabel, xShort));
    auto *x = new QValueAxis;
    auto *y = new QValueAxis;
    setAxisTitles(x, axisTitleOf(xa), metricColumnTitle(xInfo, xa.stat, true));
    setAxisTitles(y, axisTitleOf(ya), yInfo.shortLabel);
    tagAxis(x, xa.label, xa.unit);
    tagAxis(y, ya.label, ya.unit);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto *labels = new PointLabelLayer(chart);

    const QStringList servers = chartServers(sets);
    int curves = 0;
    int longest = 0;
    double xMax = 0, yMax = 0;
    for (int si = 0; si < sets.size(); ++si) {
        const ChartSeriesInput &set = sets.at(si);
        for (const ParetoSeries &s : paretoSeries(set.results, choice)) {
            const QColor color = serverColor(int(servers.indexOf(s.server)));
            const QString legend = curveLegend(set, s.server);
            longest = std::max(longest, int(legend.size()));
            ++curves;
            QList<QPointF> points, front;
            QList<int> cells;
            QStringList pointLabels, tips, details;
            for (const ParetoPoint &p : s.points) {
                points.append(QPointF(p.x.mean, p.y.mean));
                cells.append(p.cells.first());
                pointLabels.append(p.label);
                const QString detail = detailsOf(p, xa, ya);
                details.append(detail);
                tips.append(QStringLiteral("%1 · %2\n%3: %4\n%5: %6\n%7")
                                .arg(legend, p.label, xa.label, formatWithUnit(p.x.mean, xa.unit), ya.label,
                                     formatWithUnit(p.y.mean, ya.unit), detail));
                xMax = std::max(xMax, p.x.mean);
                yMax = std::max(yMax, p.y.mean);
                addWhiskers(chart, x, y, p, color, &xMax, &yMax);
            }
            for (int i : s.frontier())
                front.append(points.at(i));

            auto *line = new QLineSeries;
            line->setObjectName(QStringLiteral("paretoFrontier"));
            line->setProperty("sbLegend", legend); // which curve it joins (tests, exports)
            QPen pen(color);
            pen.setWidthF(2.2);
            pen.setStyle(setPenStyle(set.styleIndex));
            line->setPen(pen);
            line->replace(front);
            addToChart(chart, line, x, y, false);

            auto *scatter = new QScatterSeries;
            scatter->setName(legend);
            scatter->setColor(color);
            // No outline: Qt draws one border colour for every marker of a series, and a dark ring
            // around a faded point would still read as a full point. The frontier line marks
            // the points that count.
            scatter->setBorderColor(Qt::transparent);
            scatter->setMarkerShape(setMarkerShape(set.styleIndex));
            scatter->setMarkerSize(setMarkerSize(set.styleIndex));
            scatter->setSelectedColor(color.darker(190));
            scatter->replace(points);
            QColor faded = color;
            faded.setAlphaF(kDominatedAlpha);
            for (int i = 0; i < s.points.size(); ++i)
                if (!s.points.at(i).onFrontier)
                    scatter->setPointConfiguration(i, {{QXYSeries::PointConfiguration::Color, faded},
                                                       {QXYSeries::PointConfiguration::Size, setMarkerSize(set.styleIndex) * kDominatedSize}});
            tagSeries(scatter, si, s.server, cells, tips);
            tagPointLabels(scatter, pointLabels);
            tagPointDetails(scatter, details);
            addToChart(chart, scatter, x, y, true);
            labels->addSeries(scatter, pointLabels);
        }
    }
    chart->legend()->setAlignment(curves > 4 || longest > 14 ? Qt::AlignRight : Qt::AlignBottom);
    chart->legend()->setShowToolTips(true);
    fitLinearAxis(x, 0, xMax);
    fitLinearAxis(y, 0, yMax);
    keepPointSizesPlaced(chart); // the dominated points' smaller markers
    return chart;
}

} // namespace sb::ui
