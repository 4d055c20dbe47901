#pragma once
// The view ranges of a chart's value and log axes, and the zoom/pan arithmetic of
// InteractiveChartView in plot-area pixels. A log axis moves in log space, so zooming around the
// cursor keeps the value under it fixed on both kinds of axis and a pan moves every decade alike.
// Other axes (bar categories) are left alone.
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace sb::ui {

struct AxisRange {
    double min = 0;
    double max = 0;
    bool operator==(const AxisRange &) const = default;
};

// One range per zoomable axis, in QChart::axes() order.
using ChartRanges = QList<AxisRange>;

ChartRanges chartRanges(const QChart *chart);
// Ignored when `ranges` does not match the chart's zoomable axes (another chart's ranges).
void applyRanges(QChart *chart, const ChartRanges &ranges);
// Identifies "the same view" across rebuilds: the chart title, and each axis's kind and title
// (their full forms, charts/ChartTitles.h).
// Data refreshes keep it; a new metric, stat or axis scale changes it.
QString chartViewKey(const QChart *chart);

// Scales the visible span by `factor` (< 1 zooms in) around `pos` (chart coordinates), on the
// horizontal axes, the vertical ones, or both. Returns false (and changes nothing) when the result
// would be degenerate (a span below ~1e-9 of its values, or not finite).
bool zoomAround(QChart *chart, QPointF pos, double factor, Qt::Orientations orientations = Qt::Horizontal | Qt::Vertical);
// Shows exactly `rect` (chart coordinates, clipped to the plot area). False when it is too small.
bool zoomToRect(QChart *chart, QRectF rect);
// Moves the content by `delta` pixels (it follows the mouse).
void panBy(QChart *chart, QPointF delta);

} // namespace sb::ui
