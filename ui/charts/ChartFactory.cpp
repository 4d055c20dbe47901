#include "charts/ChartFactory.h"
#include "charts/ChartPoints.h"
#include "charts/ChartReadout.h"
#include "charts/ChartStyle.h"
#include "charts/MetricFormat.h"
#include "charts/PointSizeRepair.h"
#include "charts/PointLabelLayer.h"
#include "charts/ChartTitles.h"
#include "results/RepeatStats.h"
#include "metrics/SloSearch.h"
#include "results/SweepAxis.h"
#include <QChart>
#include <QJsonArray>
#include <QJsonObject>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace sb::ui {

namespace {

const QString &kThroughput = tag::outputThroughput;

// One curve: the cells of one server in one set, in point order (concurrency or request rate).
struct Curve {
    int setIndex = 0;
    QString server;
    QString legend;
    QColor color;
    int style = 0;
    QList<const CellResult *> cells;
};

QList<Curve> curvesOf(const QList<ChartSeriesInput> &sets)
{
    const SweepAxis axis = chartAxis(sets);
    // Colour by server across all sets: the same server keeps its colour when sets are overlaid.
    const QStringList allServers = chartServers(sets);
    QList<Curve> curves;
    for (int si = 0; si < sets.size(); ++si) {
        const ChartSeriesInput &set = sets.at(si);
        for (const QString &server : set.results.serverNames()) {
            Curve c;
            c.setIndex = si;
            c.server = server;
            c.legend = curveLegend(set, server);
            c.color = serverColor(int(allServers.indexOf(server)));
            c.style = set.styleIndex;
            // Failed, cancelled and skipped cells hold no real figures: they are not points.
            for (const CellResult &cell : set.results.cells)
                if (cell.server == server && hasMeasurements(cell.status) && axisOf(cell) == axis)
                    c.cells.append(&cell);
            std::stable_sort(c.cells.begin(), c.cells.end(),
                             [](const CellResult *a, const CellResult *b) { return pointValue(*a) < pointValue(*b); });
            curves.append(c);
        }
    }
    return curves;
}

// Long legend entries ("baseline: server-a") get truncated at the bottom: move to the right.
void placeLegend(QChart *chart, const QList<Curve> &curves)
{
    int longest = 0;
    for (const Curve &c : curves)
        longest = std::max(longest, int(c.legend.size()));
    chart->legend()->setAlignment(curves.size() > 4 || longest > 14 ? Qt::AlignRight : Qt::AlignBottom);
    chart->legend()->setShowToolTips(true);
}

} // namespace

QStringList chartServers(const QList<ChartSeriesInput> &sets)
{
    QStringList all;
    for (const auto &set : sets)
        for (const QString &s : set.results.serverNames())
            if (!all.contains(s))
                all.append(s);
    return all;
}

QString curveLegend(const ChartSeriesInput &set, const QString &server)
{
    return set.name.isEmpty() ? server : QStringLiteral("%1: %2").arg(set.name, server);
}

QChart *newSweepChart(const QString &title, const QString &shortTitle)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation); // exports of animated charts come out empty
    setChartTitles(chart, title, shortTitle);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

void plainLegendLabel(QChart *chart, QAbstractSeries *series)
{
    for (QLegendMarker *m : chart->legend()->markers(series))
        m->setLabel(series->name().toHtmlEscaped());
}

namespace {

struct CurvePoints {
    QList<QPointF> points;
    QList<double> sweepPoints; // each point's concurrency or rate (results/SweepAxis.h)
    QList<int> cellIndices;
    QStringList toolTips;
    QStringList labels;
    QList<int> degraded; // indices of points whose cell is degraded (drawn in the warning colour)
    void add(const QPointF &point, const CellResult &cell, const QString &toolTip)
    {
        if (cell.status == CellStatus::Degraded)
            degraded.append(int(points.size()));
        points.append(point);
        sweepPoints.append(pointValue(cell));
        cellIndices.append(cell.index);
        toolTips.append(toolTip);
    }
};

// The colour of a degraded cell's point, whatever its server's colour: it is measured, but more
// requests failed than the spec's max_error_rate allows.
const QColor kDegradedColor(0xb2, 0x6a, 0x00);

// Adds the line (no legend entry) and the scatter (legend, tags, labels) of one curve. The line
// goes through `linePoints` when given (the means of repeated runs), else through the points.
QScatterSeries *addCurve(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, const Curve &c, const CurvePoints &p,
                         const QList<QPointF> *linePoints = nullptr)
{
    auto *line = new QLineSeries;
    QPen pen(c.color);
    pen.setWidthF(2.0);
    pen.setStyle(setPenStyle(c.style));
    line->setPen(pen);
    line->replace(linePoints ? *linePoints : p.points); // one bulk replace, never per-point append (quadratic)
    auto *scatter = new QScatterSeries;
    scatter->setName(c.legend);
    scatter->setColor(c.color);
    scatter->setBorderColor(c.color.darker(140));
    scatter->setMarkerShape(setMarkerShape(c.style));
    scatter->setMarkerSize(setMarkerSize(c.style));
    scatter->setSelectedColor(c.color.darker(190));
    scatter->replace(p.points);
    for (int i : p.degraded)
        scatter->setPointConfiguration(i, {{QXYSeries::PointConfiguration::Color, kDegradedColor},
                                           {QXYSeries::PointConfiguration::Size, scatter->markerSize() + 4}});
    tagSeries(scatter, c.setIndex, c.server, p.cellIndices, p.toolTips);
    tagPointLabels(scatter, p.labels);
    for (QXYSeries *s : {static_cast<QXYSeries *>(line), static_cast<QXYSeries *>(scatter)}) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    for (QLegendMarker *m : chart->legend()->markers(line))
        m->setVisible(false);
    plainLegendLabel(chart, scatter);
    if (!p.degraded.isEmpty())
        keepPointSizesPlaced(chart); // the degraded cells' larger markers
    return scatter;
}

// Repeated runs of a point (`sweep.repeats`): the mean per x, and a vertical bar over its 95 %
// confidence interval (Student t, metrics/RepeatStats.h) where there are two runs or more. The
// bars are line series named "errorBar", out of the legend. A symmetric interval around a small
// mean can reach below 0, which no throughput or latency can be: when every run is >= 0 the bar
// stops at 0 (the interval clipped to where the metric can physically be).
QList<QPointF> addErrorBars(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, const Curve &c, const QList<QPointF> &points,
                            double *yMin, double *yMax, bool logY)
{
    const bool nonNegative = std::all_of(points.cbegin(), points.cend(), [](const QPointF &p) { return p.y() >= 0; });
    QMap<double, std::vector<double>> byX;
    for (const QPointF &pt : points)
        byX[pt.x()].push_back(pt.y());
    QList<QPointF> means;
    for (auto it = byX.cbegin(); it != byX.cend(); ++it) {
        const MeanCi ci = meanCi95(it.value());
        means.append(QPointF(it.key(), ci.mean));
        if (!(ci.n >= 2 && std::isfinite(ci.halfWidth)))
            continue;
        auto *bar = new QLineSeries;
        bar->setObjectName(QStringLiteral("errorBar"));
        QPen pen(c.color);
        pen.setWidthF(1.5);
        bar->setPen(pen);
        // A log axis cannot show a low end at or below 0: the bar then runs off the bottom (a
        // thousandth of the mean, below the axis floor) instead of dragging the axis down.
        const double low = nonNegative ? std::max(0.0, ci.low()) : ci.low();
        const bool offBottom = logY && !(low > 0);
        bar->replace({QPointF(it.key(), offBottom ? ci.mean * 1e-3 : low), QPointF(it.key(), ci.high())});
        chart->addSeries(bar);
        bar->attachAxis(x);
        bar->attachAxis(y);
        for (QLegendMarker *m : chart->legend()->markers(bar))
            m->setVisible(false);
        if (!offBottom)
            *yMin = std::min(*yMin, low);
        *yMax = std::max(*yMax, ci.high());
    }
    return means;
}

// The SLO search's finding (metrics/SloSearch.h): a ring around the highest point of the curve
// that met the SLOs, out of the legend, tagged with the sentence (charts/ChartReadout.h) that the
// view shows on hover, in the read-out and in its tooltip.
void markSloPoint(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, const Curve &c, const ChartSeriesInput &set, const CurvePoints &p)
{
    if (!set.results.sloSearch)
        return;
    for (const SloFinding &found : set.results.sloSearch->findings) {
        if (found.server != c.server || !found.sustained)
            continue;
        const qsizetype i = p.sweepPoints.indexOf(*found.sustained);
        if (i < 0)
            return; // not drawn here (no value for this metric, or not positive on a log axis)
        auto *ring = new QScatterSeries;
        ring->setMarkerSize(22);
        ring->setColor(Qt::transparent);
        // The server's own colour: series colours read on both palettes, a darker ring vanished on the dark one.
        ring->setBorderColor(c.color);
        ring->setPen(QPen(c.color, 2.5));
        ring->replace({p.points.at(i)});
        tagSloMarker(ring, c.setIndex, c.server, found.sentence);
        chart->addSeries(ring);
        ring->attachAxis(x);
        ring->attachAxis(y);
        for (QLegendMarker *m : chart->legend()->markers(ring))
            m->setVisible(false);
        return;
    }
}

// The unit of a metric: the catalogue's, else (a metric the catalogue does not know, from an
// import) the one its cells carry.
QString unitOf(const QList<ChartSeriesInput> &sets, const QString &metric)
{
    if (const MetricInfo *info = findMetric(metric); info && !info->unit.isEmpty())
        return shortUnit(info->unit);
    for (const auto &set : sets)
        for (const CellResult &cell : set.results.cells)
            if (auto it = cell.metrics.constFind(metric); it != cell.metrics.cend() && !it->unit.isEmpty())
                return shortUnit(it->unit);
    return {};
}

QString axisTitle(const QString &label, const QString &unit)
{
    return unit.isEmpty() ? label : QStringLiteral("%1 (%2)").arg(label, unit);
}

// A linear axis from 0 (or the minimum when negative) to a little over the maximum, nice ticks.
void fitLinear(QValueAxis *axis, double lo, double hi)
{
    if (!(hi > lo)) {
        lo = std::min(0.0, lo);
        hi = lo + 1;
    }
    axis->setRange(std::min(0.0, lo), hi * 1.08);
    axis->applyNiceNumbers();
    axis->setLabelFormat(QStringLiteral("%.6g")); // "15000", not "1.5e+04"
}

} // namespace

void fitLinearAxis(QValueAxis *axis, double lo, double hi) { fitLinear(axis, lo, hi); }

void fitLogAxis(QLogValueAxis *axis, double minPositive, double maxPositive)
{
    if (!(maxPositive > 0) || !(minPositive > 0) || !std::isfinite(minPositive)) {
        minPositive = 1;
        maxPositive = 10;
    }
    double lo = minPositive / 1.3, hi = maxPositive * 1.3;
    // QLogValueAxis labels only the powers of its base. A range inside one decade (20–66 ms) has
    // none of 10 and would show no numbers at all: there, powers of 2, and the range widened to
    // the powers of 2 around it so at least two are labelled (16, 32, 64).
    const auto powersIn = [](double base, double a, double b) {
        return int(std::floor(std::log(b) / std::log(base) + 1e-9) - std::ceil(std::log(a) / std::log(base) - 1e-9)) + 1;
    };
    double base = 10;
    if (powersIn(10, lo, hi) < 2) {
        base = 2;
        lo = std::min(lo, std::exp2(std::floor(std::log2(minPositive))));
        hi = std::max(hi, std::exp2(std::ceil(std::log2(maxPositive))));
        if (powersIn(2, lo, hi) < 2)
            hi = std::exp2(std::ceil(std::log2(hi)) + 1);
    }
    axis->setBase(base);
    axis->setMinorTickCount(base == 10 ? -1 : 0);
    axis->setRange(lo, hi);
}

namespace {

// A value axis for a metric: linear from 0, or log (base 10) when asked.
QAbstractAxis *newValueAxis(bool log)
{
    if (!log)
        return new QValueAxis;
    auto *axis = new QLogValueAxis;
    axis->setBase(10);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(-1); // minor ticks at 2, 3, … 9 of each decade
    return axis;
}

// Fits a metric axis built by newValueAxis to the values drawn on it.
void fitValueAxis(QAbstractAxis *axis, double lo, double hi, double minPositive)
{
    if (auto *log = qobject_cast<QLogValueAxis *>(axis))
        fitLogAxis(log, minPositive, hi);
    else
        fitLinear(static_cast<QValueAxis *>(axis), lo, hi);
}

// "TTFT p99 ms", "Out tok/s": the catalogue's compact title for narrow charts (charts/ChartTitles.h).
QString shortMetricTitle(const QString &metric, Stat stat, const QString &fallback)
{
    const MetricInfo *info = findMetric(metric);
    return info ? metricColumnTitle(*info, stat, true) : fallback;
}

QString pointToolTipText(const ChartSeriesInput &set, const CellResult &cell)
{
    const QString text = cellSummaryText(cell);
    return set.name.isEmpty() ? text : set.name + QLatin1Char('\n') + text;
}

} // namespace

SweepAxis chartAxis(const QList<ChartSeriesInput> &sets)
{
    for (const auto &set : sets)
        if (!set.results.cells.isEmpty())
            return axisOf(set.results);
    return SweepAxis::Concurrency;
}


LatencyChoiceInfo latencyChoiceInfo(LatencyChoice choice)
{
    const auto info = [](const QString &metric, Stat stat) {
        return LatencyChoiceInfo{metric, stat, metricLabel(metric) + QLatin1Char(' ') + statName(stat)};
    };
    switch (choice) {
    case LatencyChoice::TtftP50: return info(tag::ttft, Stat::P50);
    case LatencyChoice::TtftP90: return info(tag::ttft, Stat::P90);
    case LatencyChoice::TtftP99: return info(tag::ttft, Stat::P99);
    case LatencyChoice::ItlAvg: return info(tag::itl, Stat::Avg);
    case LatencyChoice::ItlP50: return info(tag::itl, Stat::P50);
    case LatencyChoice::ItlP99: return info(tag::itl, Stat::P99);
    case LatencyChoice::LatencyP50: return info(tag::latency, Stat::P50);
    case LatencyChoice::LatencyP99: return info(tag::latency, Stat::P99);
    case LatencyChoice::TtfoP50: return info(tag::ttfo, Stat::P50);
    case LatencyChoice::TtfoP99: return info(tag::ttfo, Stat::P99);
    }
    return info(tag::ttft, Stat::P50);
}

QList<LatencyChoice> allLatencyChoices(bool ttfo)
{
    QList<LatencyChoice> choices = {LatencyChoice::TtftP50, LatencyChoice::TtftP90, LatencyChoice::TtftP99,   LatencyChoice::ItlAvg,
                                    LatencyChoice::ItlP50,  LatencyChoice::ItlP99,  LatencyChoice::LatencyP50, LatencyChoice::LatencyP99};
    if (ttfo)
        choices << LatencyChoice::TtfoP50 << LatencyChoice::TtfoP99;
    return choices;
}

QChart *makeThroughputVsLatencyChart(const QList<ChartSeriesInput> &sets, LatencyChoice choice, bool logLatency)
{
    const LatencyChoiceInfo lc = latencyChoiceInfo(choice);
    const MetricInfo &throughput = *findMetric(kThroughput);
    const QString latencyShort = shortMetricTitle(lc.metric, lc.stat, lc.label);
    QChart *chart = newSweepChart(QStringLiteral("%1 vs %2").arg(throughput.label, lc.label),
                             QStringLiteral("%1 vs %2").arg(throughput.shortLabel, lc.label));
    QAbstractAxis *x = newValueAxis(logLatency);
    auto *y = new QValueAxis;
    const QString xUnit = unitOf(sets, lc.metric);
    const QString yUnit = unitOf(sets, kThroughput);
    setAxisTitles(x, axisTitle(lc.label, xUnit), latencyShort);
    setAxisTitles(y, axisTitle(throughput.label, yUnit), throughput.shortLabel);
    tagAxis(x, lc.label, xUnit);
    tagAxis(y, throughput.label, yUnit);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto *labels = new PointLabelLayer(chart);

    double xMax = 0, yMax = 0, xMinPositive = std::numeric_limits<double>::infinity();
    const QList<Curve> curves = curvesOf(sets);
    placeLegend(chart, curves);
    for (const Curve &c : curves) {
        CurvePoints p;
        for (const CellResult *cell : c.cells) {
            const double lx = cellValue(*cell, lc.metric, lc.stat);
            const double ty = cellValue(*cell, kThroughput, Stat::Avg);
            if (!std::isfinite(lx) || !std::isfinite(ty))
                continue; // not measured (pending, failed, imported without it)
            if (logLatency && !(lx > 0))
                continue; // no place on a log axis (QLogValueAxis would drop the whole series)
            if (lx > 0)
                xMinPositive = std::min(xMinPositive, lx);
            p.add(QPointF(lx, ty), *cell, pointToolTipText(sets.at(c.setIndex), *cell));
            p.labels.append(cell->status == CellStatus::Degraded ? pointLabel(*cell) + QStringLiteral(" ⚠") : pointLabel(*cell));
            xMax = std::max(xMax, lx);
            yMax = std::max(yMax, ty);
        }
        QScatterSeries *scatter = addCurve(chart, x, y, c, p);
        labels->addSeries(scatter, p.labels);
        markSloPoint(chart, x, y, c, sets.at(c.setIndex), p);
    }
    fitValueAxis(x, 0, xMax, xMinPositive);
    fitLinear(y, 0, yMax);
    return chart;
}

QChart *makeMetricVsConcurrencyChart(const QList<ChartSeriesInput> &sets, const QString &metric, Stat stat, bool logY)
{
    const MetricInfo *info = findMetric(metric);
    const QString label = metricLabel(metric) + (info && info->singleValued ? QString() : QLatin1Char(' ') + statName(stat));
    const QString shortLabel = info ? metricColumnTitle(*info, stat, false) : label;
    const SweepAxis axis = chartAxis(sets);
    QChart *chart = newSweepChart(QStringLiteral("%1 vs %2").arg(label, axisTitle(axis)), QStringLiteral("%1 vs %2").arg(shortLabel, axisShort(axis)));
    auto *x = new QLogValueAxis;
    x->setBase(2);
    x->setLabelFormat(QStringLiteral("%g"));
    QString xTitle = axisTitle(axis);
    xTitle[0] = xTitle[0].toUpper();
    x->setTitleText(xTitle);
    tagAxis(x, QString(), QString()); // the sweep point: the point label ("c=8") says it
    QAbstractAxis *y = newValueAxis(logY);
    const QString yUnit = unitOf(sets, metric);
    setAxisTitles(y, axisTitle(label, yUnit), shortMetricTitle(metric, stat, label));
    tagAxis(y, label, yUnit);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    double cMin = std::numeric_limits<double>::max(), cMax = 0, yMin = 0, yMax = 0;
    double yMinPositive = std::numeric_limits<double>::infinity();
    const QList<Curve> curves = curvesOf(sets);
    placeLegend(chart, curves);
    for (const Curve &c : curves) {
        CurvePoints p;
        for (const CellResult *cell : c.cells) {
            const double v = cellValue(*cell, metric, stat);
            // QLogValueAxis drops a whole series holding any x <= 0: guard the axis value.
            const double at = pointValue(*cell);
            if (!(at > 0) || !std::isfinite(v) || (logY && !(v > 0)))
                continue;
            p.add(QPointF(at, v), *cell, pointToolTipText(sets.at(c.setIndex), *cell));
            p.labels.append(pointLabel(*cell));
            if (v > 0)
                yMinPositive = std::min(yMinPositive, v);
            cMin = std::min(cMin, at);
            cMax = std::max(cMax, at);
            yMin = std::min(yMin, v);
            yMax = std::max(yMax, v);
        }
        const QList<QPointF> means = addErrorBars(chart, x, y, c, p.points, &yMin, &yMax, logY);
        addCurve(chart, x, y, c, p, means.size() < p.points.size() ? &means : nullptr); // repeats: the line joins the means
        markSloPoint(chart, x, y, c, sets.at(c.setIndex), p);
    }
    if (cMax <= 0) {
        cMin = 1;
        cMax = 2;
    }
    // Half a step of margin on the log scale so end points are not cut by the frame.
    x->setRange(cMin / 1.414, cMax * 1.414);
    fitValueAxis(y, yMin, yMax, yMinPositive);
    return chart;
}

} // namespace sb::ui
