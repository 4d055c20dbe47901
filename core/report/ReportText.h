#pragma once
// Small text helpers shared by the CSV, HTML and terminal summary writers, so one cell's numbers
// read the same in every output.
#include "metrics/MetricCatalogue.h" // cellValue, tag:: (metric names live in the catalogue)
#include "results/Results.h"
#include <QString>

namespace sb {

// Fixed decimals, `empty` for NaN/inf.
QString formatFixed(double v, int decimals, const QString &empty = QString());
// "reset_kv_cache=ok profiler_start=ok profiler_stop=route_missing" (one token per call, in order);
// empty when the cell ran no hook.
QString hookVerdicts(const CellResult &cell);
// Escapes text for HTML element content and double- or single-quoted attribute values.
QString htmlEscape(const QString &s);

// "ISL 384.9 asked, 385.0 measured (p50 380 / 381, p99 900 / 901); OSL …": the mean (and p50,
// p99) of what the cell's requests asked for beside what the server counted; empty when the
// cell has no requested lengths (results written before they were recorded).
QString requestedVsMeasured(const CellResult &cell);
// The same, short enough for a table column: "ISL 64.0 → 64.0 · OSL 32.0 → 32.0" (asked → measured,
// means); the long form goes in the cell's tooltip.
QString requestedVsMeasuredShort(const CellResult &cell);

} // namespace sb
