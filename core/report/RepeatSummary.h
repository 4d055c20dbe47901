#pragma once
// The text form of a sweep's repeats (docs/spec-reference.md "Repeats"): per point, mean ± 95 %
// CI of the headline figures over the runs, and per point whether two servers differ
// significantly (Welch's t-test on the run values). Printed under the cell table by `summary`,
// `run` and `demo`; empty when no point ran twice.
#include "metrics/MetricCatalogue.h"
#include "results/Results.h"

namespace sb {

QString formatRepeatSummary(const SweepResults &results);
// The figure the significance lines test: the tail TTFT each run measured ("metric.stat", the key
// of PointSummary::stats).
QString significanceKey();

} // namespace sb
