#pragma once
// `sweepbench summary PATH`: prints a per-cell table of any result set loadResults reads.
#include "results/Results.h"
#include <QString>
#include <QStringList>

namespace sb {

// Aligned plain-text table, one row per cell (server, C, status, ok/failed, TTFT p50/p99 ms,
// ITL avg ms, latency p50 ms, out tok/s, req/s, hook verdicts), ending with a newline.
// Also printed by `sweepbench run` and `demo` at the end.
QString formatSummaryTable(const SweepResults &results);

// args = the arguments after "summary". Exit codes: 0 ok, 2 usage error or unreadable input.
int runSummaryCommand(const QStringList &args);

} // namespace sb
