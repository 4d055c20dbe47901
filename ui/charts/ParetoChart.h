#pragma once
// The Pareto chart (report/ParetoFrontier.h): output throughput on y against what one user gets
// on x (tok/s/user, or TTFT p50), one point per load point of each server and set, labelled
// "c=8" / "4 req/s". Non-dominated points are joined by the frontier line (series named
// "paretoFrontier", out of the legend) and drawn in the server's colour; dominated points stay
// visible, faded. With repeats each point is the mean and carries whiskers over its 95 % CI on
// both axes (series named "errorBar", clipped at 0). The hover read-out names the series, the
// point, both values, the interval and the point's standing. Colours and set styles are those
// of the other charts (charts/ChartStyle.h).
#include "charts/ChartFactory.h"
#include "report/ParetoFrontier.h"

namespace sb::ui {

QChart *makeParetoChart(const QList<ChartSeriesInput> &sets, ParetoX x);

} // namespace sb::ui
