#pragma once
// Statistics over the repeats of a sweep point (`sweep.repeats`, docs/spec-reference.md
// "Repeats"): the mean of a per-run figure with its 95 % confidence interval (Student t on the
// run values), and Welch's unequal-variance t-test between two points' run values (two-sided).
// Each run is one value (a cell's p99 TTFT, say): requests within a run are not independent
// draws, runs are.
#include <vector>

namespace sb {

struct MeanCi {
    int n = 0;
    double mean = 0;
    double sd = 0;          // sample standard deviation (n - 1)
    double halfWidth = 0;   // t(0.975, n - 1) * sd / sqrt(n); NaN when n < 2
    double low() const { return mean - halfWidth; }
    double high() const { return mean + halfWidth; }
};

struct WelchResult {
    double t = 0;
    double df = 0;          // Welch-Satterthwaite degrees of freedom
    double p = 1;           // two-sided; NaN when either side has fewer than 2 values
    bool significant(double alpha = 0.05) const { return p < alpha; }
};

MeanCi meanCi95(const std::vector<double> &values);
// Two identical constant samples give p = 1, two different constant samples p = 0: no run-to-run
// noise at all, so any difference is real.
WelchResult welchTest(const std::vector<double> &a, const std::vector<double> &b);

// Student's t distribution: CDF for real df > 0, and the two-sided 95 % quantile t(0.975, df).
double studentTCdf(double t, double df);
double studentT975(double df);

} // namespace sb
