#pragma once
// Summary statistics (docs/ARCHITECTURE.md §7): avg, min, max, std (population), p1..p99 with numpy's
// linear interpolation, count.
#include "results/Results.h"
#include <vector>

namespace sb {

class LogHistogram;

// Sorts `values` in place.
MetricStats computeStats(std::vector<double> &values, const QString &unit);
// From a histogram of microseconds, reported in milliseconds.
MetricStats statsFromHistogramMs(const LogHistogram &h);
// Linear-interpolated percentile of sorted values, q in [0, 100].
double percentileSorted(const std::vector<double> &sorted, double q);
MetricStats singleValue(double value, const QString &unit);

} // namespace sb
