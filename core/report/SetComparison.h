#pragma once
// The difference table of Compare (docs/spec-reference.md "Repeats"): per sweep point, the value
// of one metric.stat in a baseline (A) and another series (B), the change in percent, and whether
// the difference is significant by Welch's t-test on the runs' values (results/RepeatStats.h),
// the same test and wording as the CLI's repeat summary (report/RepeatSummary.h). A point with a
// single run on either side has no significance: "not testable (1 run each)".
#include "results/RepeatStats.h"
#include "results/Results.h"
#include "results/SweepAxis.h"
#include <QList>
#include <QString>
#include <optional>

namespace sb {

struct NamedResults {
    QString name;          // the set's legend name
    SweepResults results;
};

struct DifferenceRow {
    QString setA, serverA; // the baseline series
    QString setB, serverB;
    SweepAxis axis = SweepAxis::Concurrency;
    double point = 0;
    MeanCi a, b;           // over the runs of the point (n = 1 without repeats)
    double deltaPct = 0;   // (b - a) / a * 100; NaN when a is 0
    std::optional<WelchResult> welch; // none unless both sides ran at least twice
    QList<int> cellsA, cellsB; // indexes into each set's cells of the point's runs (records.jsonl)
};

// Series pairs: with two sets or more, the first set's servers against the same server in every
// other set (when the sets share no server name and both have one server, those two); with one
// set, its first server against each other server. Rows in pair order, then point order; only
// points both sides measured (completed or degraded cells) on the same axis.
QList<DifferenceRow> compareSets(const QList<NamedResults> &sets, const QString &metric, Stat stat);

// One series: a server of one set (an index into the sets given).
struct SeriesRef {
    int set = 0;
    QString server;
};
// The rows of one pair the user chose: any two series, of one set or of two (vLLM against
// SGLang in one sweep, or differently named servers across sets). Empty when A and B are the
// same series or on different axes.
QList<DifferenceRow> compareSeries(const QList<NamedResults> &sets, const SeriesRef &a, const SeriesRef &b, const QString &metric,
                                   Stat stat);

// "A: server" or "server" when the set has no name.
QString seriesName(const QString &set, const QString &server);
// "+12.3 %", "−4.0 %", "–" for NaN.
QString deltaText(double pct);
// "yes (p = 0.003)", "no (p = 0.412)", "not testable (1 run each)".
QString significanceText(const DifferenceRow &row);
// The words every comparison (Compare, its export, `sweepbench diff`) gives one test's outcome:
// "yes (p = 0.003)", "no (p < 0.001)", whichever test made p.
QString significanceVerdictText(bool significant, double p);
// Why no test on the runs' values was possible: "not testable (1 run each)", "not testable (1 vs 3 runs)".
QString notTestableText(int runsA, int runsB);
// The sentence behind it, for tooltips and the exported page.
QString significanceExplanation(const DifferenceRow &row);

} // namespace sb
