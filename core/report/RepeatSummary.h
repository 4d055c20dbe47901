#pragma once
// The text form of a sweep's repeats (docs/spec-reference.md "Repeats"): per point, mean ± 95 %
// CI of the headline figures over the runs, and per point whether two servers differ
// significantly (Welch's t-test on the run values). Printed under the cell table by `summary`,
// `run` and `demo`; empty when no point ran twice. report.html and Compare word their verdicts
// with the same functions.
#include "metrics/MetricCatalogue.h"
#include "results/RepeatStats.h"
#include "results/Results.h"
#include "results/SweepAxis.h"

namespace sb {

struct PointComparison;

QString formatRepeatSummary(const SweepResults &results);
// The figure the significance lines test: the tail TTFT each run measured ("metric.stat", the key
// of PointSummary::stats).
QString significanceKey();

// The figures the repeat summary shows per point, in order (the CLI's columns and report.html's).
struct RepeatColumn {
    QString key;      // "metric.stat"
    int decimals;
    QString heading;  // "TTFT p99 ms"
};
QList<RepeatColumn> repeatColumns();
// "8: a 12.00 ms vs b 14.00 ms: differ significantly (p < 0.001)"
QString significanceLine(SweepAxis axis, const PointComparison &c);
// The verdict of one Welch test as every output words it: "differ significantly" or "no
// significant difference", and its p value: "= 0.042", "< 0.001".
QString significanceWords(const WelchResult &w);
QString pValueText(double p);

} // namespace sb
