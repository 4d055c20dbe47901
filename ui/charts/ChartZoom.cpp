#include "charts/ChartZoom.h"
#include "charts/ChartTitles.h"
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>
#include <cmath>

namespace sb::ui {

namespace {

// A zoomable axis in the space where it is linear: t = v, or t = log(v) on a log axis.
struct Axis {
    QAbstractAxis *axis = nullptr;
    bool log = false;
    double toT(double v) const { return log ? std::log(v) : v; }
    double fromT(double t) const { return log ? std::exp(t) : t; }
};

QList<Axis> zoomableAxes(const QChart *chart)
{
    QList<Axis> out;
    for (QAbstractAxis *a : chart->axes()) {
        if (qobject_cast<QValueAxis *>(a))
            out.append({a, false});
        else if (qobject_cast<QLogValueAxis *>(a))
            out.append({a, true});
    }
    return out;
}

AxisRange rangeOf(const Axis &a)
{
    if (auto *v = qobject_cast<QValueAxis *>(a.axis))
        return {v->min(), v->max()};
    auto *l = static_cast<QLogValueAxis *>(a.axis);
    return {l->min(), l->max()};
}

// 1, 2 or 5 times a power of ten, near a fifth of the span: ticks that read "2,500", not "2605.63".
double niceInterval(double span)
{
    const double raw = span / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / magnitude;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * magnitude;
}

void setRange(const Axis &a, AxisRange r)
{
    if (auto *v = qobject_cast<QValueAxis *>(a.axis)) {
        v->setRange(r.min, r.max);
        // A zoomed range rarely starts on a round number: ticks anchored at 0 on a round
        // interval instead of the builder's fixed count, which would label the odd ends.
        if (const double step = niceInterval(r.max - r.min); std::isfinite(step) && step > 0) {
            v->setTickType(QValueAxis::TicksDynamic);
            v->setTickAnchor(0);
            v->setTickInterval(step);
        }
    }
    else
        static_cast<QLogValueAxis *>(a.axis)->setRange(r.min, r.max);
}

// The new [t0, t1] is usable: finite, ordered, and not collapsed below what doubles resolve.
bool usable(double t0, double t1)
{
    return std::isfinite(t0) && std::isfinite(t1) && t1 - t0 > 1e-9 * std::max({1e-300, std::abs(t0), std::abs(t1)});
}

// Where `pos` sits across the plot area along the axis, 0 at the axis minimum, 1 at its maximum.
double fractionAlong(const Axis &a, const QRectF &plot, QPointF pos)
{
    if (a.axis->orientation() == Qt::Horizontal)
        return (pos.x() - plot.left()) / plot.width();
    return (plot.bottom() - pos.y()) / plot.height();
}

} // namespace

ChartRanges chartRanges(const QChart *chart)
{
    ChartRanges out;
    if (chart)
        for (const Axis &a : zoomableAxes(chart))
            out.append(rangeOf(a));
    return out;
}

void applyRanges(QChart *chart, const ChartRanges &ranges)
{
    if (!chart)
        return;
    const QList<Axis> axes = zoomableAxes(chart);
    if (axes.size() != ranges.size())
        return;
    for (int i = 0; i < axes.size(); ++i)
        setRange(axes.at(i), ranges.at(i));
}

QString chartViewKey(const QChart *chart)
{
    if (!chart)
        return {};
    // The full titles: which form fits (charts/ChartTitles.h) changes with the window size, not the view.
    QString key = fullChartTitle(chart);
    for (QAbstractAxis *a : chart->axes())
        key += QStringLiteral("|%1:%2:%3").arg(int(a->type())).arg(int(a->orientation())).arg(fullAxisTitle(a));
    return key;
}

bool zoomAround(QChart *chart, QPointF pos, double factor, Qt::Orientations orientations)
{
    const QRectF plot = chart->plotArea();
    if (plot.isEmpty() || !(factor > 0) || !std::isfinite(factor))
        return false;
    QList<std::pair<Axis, AxisRange>> next;
    for (const Axis &a : zoomableAxes(chart)) {
        if (!(orientations & a.axis->orientation()))
            continue;
        const AxisRange r = rangeOf(a);
        const double t0 = a.toT(r.min), t1 = a.toT(r.max);
        const double f = std::clamp(fractionAlong(a, plot, pos), 0.0, 1.0);
        const double at = t0 + f * (t1 - t0);
        const double n0 = at - f * (t1 - t0) * factor, n1 = n0 + (t1 - t0) * factor;
        if (!usable(n0, n1))
            return false;
        next.append({a, {a.fromT(n0), a.fromT(n1)}});
    }
    for (const auto &[a, r] : next)
        setRange(a, r);
    return !next.isEmpty();
}

bool zoomToRect(QChart *chart, QRectF rect)
{
    const QRectF plot = chart->plotArea();
    rect = rect.normalized().intersected(plot);
    if (rect.width() < 4 || rect.height() < 4)
        return false;
    QList<std::pair<Axis, AxisRange>> next;
    for (const Axis &a : zoomableAxes(chart)) {
        const AxisRange r = rangeOf(a);
        const double t0 = a.toT(r.min), t1 = a.toT(r.max);
        const bool h = a.axis->orientation() == Qt::Horizontal;
        const double f0 = h ? (rect.left() - plot.left()) / plot.width() : (plot.bottom() - rect.bottom()) / plot.height();
        const double f1 = h ? (rect.right() - plot.left()) / plot.width() : (plot.bottom() - rect.top()) / plot.height();
        const double n0 = t0 + f0 * (t1 - t0), n1 = t0 + f1 * (t1 - t0);
        if (!usable(n0, n1))
            return false;
        next.append({a, {a.fromT(n0), a.fromT(n1)}});
    }
    for (const auto &[a, r] : next)
        setRange(a, r);
    return !next.isEmpty();
}

void panBy(QChart *chart, QPointF delta)
{
    const QRectF plot = chart->plotArea();
    if (plot.isEmpty())
        return;
    for (const Axis &a : zoomableAxes(chart)) {
        const AxisRange r = rangeOf(a);
        const double t0 = a.toT(r.min), t1 = a.toT(r.max);
        // Dragging right shows smaller x; dragging down shows larger y (screen y grows downwards).
        const double shift = a.axis->orientation() == Qt::Horizontal ? -delta.x() / plot.width() * (t1 - t0)
                                                                     : delta.y() / plot.height() * (t1 - t0);
        if (usable(t0 + shift, t1 + shift))
            setRange(a, {a.fromT(t0 + shift), a.fromT(t1 + shift)});
    }
}

} // namespace sb::ui
