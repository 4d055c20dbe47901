#pragma once
// Qt Charts 6.4 draws a scatter point whose size is set per point
// (QXYSeries::PointConfiguration::Size) in the wrong place, or not at all, after any geometry
// update of the chart — the first layout, a resize, an axis range change. Setting the
// configuration again afterwards places it right, until the next update. Pareto's dominated
// points, degraded cells' larger markers and a highlighted cell all use per-point sizes, so every
// chart that has them re-applies them after each of those updates.
class QChart;

namespace sb::ui {

// Idempotent; call once the chart has its axes. Safe for charts without per-point sizes.
void keepPointSizesPlaced(QChart *chart);

} // namespace sb::ui
