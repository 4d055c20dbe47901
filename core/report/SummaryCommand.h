#pragma once
// `sweepbench summary PATH`'s body: a per-cell table of any result set loadResults reads. The
// command line is parsed in app/commands/SummaryCli (only app/ parses our command line).
#include "results/Results.h"
#include <QString>

namespace sb {

// Aligned plain-text table, one row per cell (server, C, status, ok/failed, TTFT p50/p99 ms,
// ITL avg ms, latency p50 ms, out tok/s, req/s, hook verdicts), ending with a newline.
// Also printed by `sweepbench run` and `demo` at the end.
QString formatSummaryTable(const SweepResults &results);

// Loads the result set at `path` and prints its name, source tool and the table to stdout (an
// error to stderr). Exit codes: 0 ok, 2 unreadable input.
int printSummary(const QString &path);

} // namespace sb
