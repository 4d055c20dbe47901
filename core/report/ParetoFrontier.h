#pragma once
// The Pareto view of a result set: per server, one point per load point (concurrency C or
// request rate R) with the server's output throughput against what one user gets (tok/s/user,
// or TTFT), and which points are non-dominated: no other point of the same server has at least
// as much throughput and at least as good an interactivity with one of them strictly better.
// With repeats (`sweep.repeats`) a point is the mean over its runs with the 95 % interval
// (results/RepeatStats.h); the frontier is judged on the means. Names and units come from
// metrics/MetricCatalogue; the Results and Compare charts, report.html and the exported
// comparison all read this one computation.
#include "metrics/MetricCatalogue.h"
#include "results/RepeatStats.h"
#include "results/SweepAxis.h"
#include <QList>
#include <QPointF>
#include <QString>

namespace sb {

// What the x axis measures: the per-user output rate (higher is better), TTFT p50, or what the
// throughput costs — energy per output token or dollars per million output tokens (lower is
// better; docs/gpu-telemetry.md). Throughput is always output_token_throughput (higher is better).
enum class ParetoX { TokensPerUser, Ttft, EnergyPerToken, CostPerMillionOutput };
inline constexpr ParetoX kParetoXs[] = {ParetoX::TokensPerUser, ParetoX::Ttft, ParetoX::EnergyPerToken, ParetoX::CostPerMillionOutput};

struct ParetoAxis {
    QString metric; // results.json key (metrics/MetricCatalogue.h tag::)
    Stat stat = Stat::Avg;
    bool higherIsBetter = true;
    QString label;  // "Interactivity", "TTFT p50"
    QString unit;   // short unit: "tok/s/user", "ms"
};
ParetoAxis paretoXAxis(ParetoX x);
// Does any completed cell of the set have this x (energy needs GPU telemetry, cost a `cost:`)?
// The per-user rate and TTFT are always offered.
bool paretoXAvailable(const SweepResults &results, ParetoX x);
ParetoAxis paretoYAxis();

struct ParetoPoint {
    SweepAxis axis = SweepAxis::Concurrency;
    double at = 0;        // C, or R in requests/s
    QString label;        // "c=8", "4 req/s" (results/SweepAxis.h pointLabel)
    QList<int> cells;     // the runs it holds (CellResult::index), in cell order
    MeanCi x, y;          // over the runs; halfWidth NaN with one run
    bool onFrontier = false;
    QString dominatedBy;  // the label of a point that dominates it; empty on the frontier
};

// A run that is not a point, or a point not drawn, and why ("failed: hook refused", "no ITL").
struct ParetoExcluded {
    int cell = -1;
    QString label;
    QString reason;
};

struct ParetoSeries {
    QString server;
    QList<ParetoPoint> points;     // by load point, ascending
    QList<ParetoExcluded> excluded;
    QList<int> frontier() const;   // indexes into points on the frontier, by ascending x
};

// Servers in first-appearance order. Only completed cells are runs: failed, cancelled, skipped
// and pending cells measured nothing, and a degraded cell lost more requests than
// sweep.max_error_rate allows, so its throughput is not one the server can sustain. A run
// without either figure (no ITL when every answer was a single token) is excluded too.
QList<ParetoSeries> paretoSeries(const SweepResults &results, ParetoX x);
// Whether any server of `series` has a point: a chart or a report part has something to show.
bool paretoAnyPoint(const QList<ParetoSeries> &series);

// Indexes of the non-dominated points, maximizing y and x (or minimizing x when
// !higherXIsBetter). A point with a NaN coordinate is never on it and dominates nothing; two
// equal points are both on it.
QList<int> nonDominated(const QList<QPointF> &points, bool higherXIsBetter);

// "server-a: frontier at c=1, c=8 and c=64 (3 of 5 points); left out: c=128 (degraded)", the
// frontier named by load point.
QString paretoSentence(const ParetoSeries &series);
// "c=128 (degraded), c=256 and c=512 (no ITL)": the runs left out and why, each point once and
// the points of one reason together; empty when every run is a point.
QString paretoLeftOut(const ParetoSeries &series);

} // namespace sb
