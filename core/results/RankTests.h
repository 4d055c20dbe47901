#pragma once
// The tests `sweepbench diff` (report/RegressionGate.h) needs beside Welch's (results/RepeatStats.h):
// the Mann–Whitney U test on two samples of per-request values, for a point that ran once on a
// side (no run-to-run spread to test with), and Holm's step-down correction over every test one
// comparison made, so that testing many metrics at many points does not turn noise into a finding.
#include <vector>

namespace sb {

struct MannWhitneyResult {
    double u = 0;  // U of the first sample: pairs (a, b) with a > b, ties counting one half
    double z = 0;  // normal approximation, continuity-corrected towards 0
    double p = 1;  // two-sided; NaN when a sample is empty
};

// Normal approximation with the tie correction of the variance and a continuity correction of
// 0.5 (as scipy.stats.mannwhitneyu(method="asymptotic") computes it). All values tied: p = 1.
// Sorts copies: O((n + m) log(n + m)).
MannWhitneyResult mannWhitneyU(const std::vector<double> &a, const std::vector<double> &b);

// Holm-adjusted p values, in the order given: the k-th smallest of m p values times (m − k + 1),
// made non-decreasing in that order and capped at 1. A p value is significant at α after the
// correction exactly when its adjusted value is below α. NaN entries (tests not made) stay NaN
// and do not count in m.
std::vector<double> holmAdjusted(const std::vector<double> &p);

} // namespace sb
