#pragma once
// SLO search over a sweep's measured cells (docs/spec-reference.md "SLO search"): per server, the
// highest point whose cell meets every workload.slo at the chosen percentile — found below the
// lowest point that misses one — the next point to try (bisection between the two, until they are
// the resolution apart), and the sentence that says it ("a sustains 8 concurrent at TTFT p99 ≤
// 50 ms").
#include "results/SweepAxis.h"
#include "spec/SweepSpec.h"
#include <optional>

namespace sb {

// Completed (not degraded: its failed requests are not in the percentiles) and every set SLO's
// metric at `percentile` within its limit.
bool meetsSlo(const CellResult &cell, const SloSpec &slo, int percentile);

SloFinding findSlo(const SweepResults &results, const QString &server, const SloSpec &slo, int percentile);
// The point to measure next for `server`, or none when the bracket is resolved (or there is none).
// Concurrency points are whole numbers.
std::optional<double> nextSloPoint(const SloFinding &f, const SloSearchSpec &search);
// At most how many cells the search appends per server: the widest gap between neighbouring
// points of the sweep, halved (whole levels for concurrency) until within the resolution. The
// bracket the search narrows is two neighbouring points, so no server needs more. 0 when the
// search is off or has no SLO to judge.
int sloSearchCellsAtMost(const SweepSpec &spec);
// "TTFT p99 ≤ 200 ms and ITL p99 ≤ 20 ms"; with percentile 0 the limits as each request must
// meet them (goodput): "TTFT ≤ 200 ms and ITL ≤ 20 ms".
QString sloText(const SloSpec &slo, int percentile);
// results.json "slo_search" (results/SweepFacts.h): the SLOs, the percentile and one finding per
// server, so every reader (charts, summaries) takes the sentence findSlo wrote.
SloSearchResult sloSearchResult(const SweepResults &results, const SweepSpec &spec);

} // namespace sb
