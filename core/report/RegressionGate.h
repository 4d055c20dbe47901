#pragma once
// `sweepbench diff BASE NEW`: the regression gate for CI. Two result sets (anything loadResults
// opens) are compared per series (server name) and point (concurrency or request rate), with
// Compare's pairing and figures (report/SetComparison.h). A difference is a regression only when
// it is worse than the threshold in the metric's worse direction (MetricCatalogue's `better`)
// AND significant after Holm's correction over every test the comparison made:
//   - both sides ran the point at least twice: Welch's t-test on the runs' values (the test
//     Compare and the repeat summary use);
//   - otherwise, for TTFT, ITL and request latency: the Mann–Whitney U test on the per-request
//     values of records.jsonl (every run of the point pooled per side). Requests of one run share
//     the server's state, so this p is optimistic; repeats give the sound test;
//   - otherwise (throughputs, fractions: one value per run) the point is "not testable" and never
//     flagged.
// Pure: the caller loads the sets, parses options and renders (report/RegressionGateReport.h).
#include "metrics/MetricCatalogue.h"
#include "results/LoadedResults.h"
#include "results/RepeatStats.h"
#include "results/SweepAxis.h"
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace sb {

struct GateMetric {
    const MetricInfo *metric = nullptr;
    Stat stat = Stat::P50;
    QString key() const;   // "time_to_first_token.p99"; single-valued metrics: the bare key
    QString title() const; // "TTFT p99 ms", "Out tok/s"
};

// "KEY" or "KEY.STAT" with a catalogue key that has a better direction; KEY alone takes p50 for a
// distribution and the value for a single-valued metric. Unknown keys and stats are refused with
// the valid ones listed.
std::optional<GateMetric> parseGateMetric(const QString &text, QString *error);
// Output throughput, TTFT p50 and p99, ITL p50, request latency p99.
QList<GateMetric> defaultGateMetrics();
// Every key parseGateMetric accepts without a stat, in catalogue order.
QStringList gateMetricKeys();

struct GateOptions {
    QList<GateMetric> metrics = defaultGateMetrics();
    double thresholdPct = 5; // worse by more than this, in percent of BASE
    double alpha = 0.05;     // after Holm's correction
};

enum class GateTest { None, Welch, MannWhitney };

struct GateComparison {
    QString series;     // the server name ("a / b" when a lone server in each set is paired by position)
    SweepAxis axis = SweepAxis::Concurrency;
    double point = 0;
    GateMetric metric;
    MeanCi base, candidate; // over the point's runs
    double deltaPct = 0;    // (new − base) / |base| × 100; NaN when base is 0
    GateTest test = GateTest::None;
    int samplesBase = 0, samplesNew = 0; // Mann–Whitney: per-request values per side
    double p = 0;           // the test's own two-sided p; NaN when not tested
    double adjustedP = 0;   // Holm over every tested comparison; NaN when not tested
    QString untested;       // why not tested: "not testable (1 run each)", ...
    bool worse = false;     // beyond the threshold in the worse direction
    bool significant = false; // adjustedP < alpha
    bool regression() const { return worse && significant; }
};

enum class GateVerdict { Pass = 0, Regression = 1, CannotCompare = 2 };

struct GateResult {
    GateVerdict verdict = GateVerdict::Pass;
    QString reason;             // CannotCompare: why, in one sentence
    QString baseName, newName;  // the sets' display names
    GateOptions options;
    QList<GateComparison> comparisons; // series order of BASE, then point, then metric
    QStringList notes;          // what was not compared or not checked, one sentence each
    int regressions() const;
    int tested() const;
    int exitCode() const { return int(verdict); }
};

GateResult compareForRegressions(const LoadedResults &base, const LoadedResults &candidate, const GateOptions &options);
// A result saying why nothing could be compared (an input that could not be read).
GateResult cannotCompare(const QString &baseName, const QString &newName, const GateOptions &options, const QString &reason);

// The words every rendering uses for one comparison.
QString gateTestName(GateTest test);               // "Welch", "Mann–Whitney", "–"
QString gateSignificanceText(const GateComparison &c); // "yes (p < 0.001)", "not testable (1 run each)"
QString gateVerdictText(const GateComparison &c);  // "regression", "worse, not significant", "ok", "not testable"
QString gatePointText(const GateComparison &c);    // "C=8", "2.5 req/s"
QString gateValueText(const GateComparison &c, double value); // at the metric's decimals; "–" for NaN
// "vllm, C=8, TTFT p99 ms: 50.00 → 55.00 (+10.0 %, p = 0.002, Welch, Holm-adjusted)"
QString gateFindingText(const GateComparison &c);
// "2 regressions in 20 comparisons (threshold 5 %, α = 0.05, Holm over 16 tests)"
QString gateSummaryText(const GateResult &r);

} // namespace sb
