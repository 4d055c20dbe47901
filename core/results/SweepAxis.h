#pragma once
// The one place that says what a sweep point is called: closed-loop concurrency C or open-loop
// request rate R. Charts, the CLI, the report, CSV and folder names all take their axis title,
// unit and point labels from here.
#include "results/Results.h"

namespace sb {

enum class SweepAxis { Concurrency, RequestRate };

SweepAxis axisOf(const CellResult &c);
// A result set's axis: request rate when any of its cells is an open-loop point.
SweepAxis axisOf(const SweepResults &r);
// The cell's x value on its axis: C, or R in requests/s.
double pointValue(const CellResult &c);
QString axisTitle(SweepAxis a);      // "concurrency" | "request rate (req/s)"
QString axisKey(SweepAxis a);        // "concurrency" | "request_rate" (CSV, JSON)
QString axisShort(SweepAxis a);      // table column: "C" | "req/s"
QString formatPoint(SweepAxis a, double v); // "8" | "2.5 req/s"
QString pointNumber(const CellResult &c);   // the point without unit, for a column headed axisShort(): "8" | "2.5"
QString pointLabel(const CellResult &c);    // "c=8" | "8 req/s"
QString pointTag(const CellResult &c);      // "c8" | "r8" (cell folder names)
// The point in a sentence, for tooltips: "closed loop: 8 requests in flight" | "open loop: 2 req/s
// (poisson arrivals), at most 256 requests in flight (max_concurrency)". An open-loop cell's
// CellResult::concurrency is that cap, never its point.
QString pointDescription(const CellResult &c);
// Which run of its point the cell is, counting from 1 ("sweep.repeats"): "run 2".
QString runLabel(const CellResult &c);
// Rates print with at most 3 decimals and no trailing zeros ("0.5", "32").
QString formatRate(double r);

} // namespace sb
