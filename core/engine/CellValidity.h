#pragma once
// Can a cell's numbers be trusted? Checks that the client really held C requests in flight and
// was not itself the bottleneck, and says so in the cell's warnings; a server
// that closed its connections is named as the cause of a low in-flight mean.
#include "load/LoadGenerator.h"
#include "engine/CellMetrics.h"
#include "metrics/MetricCatalogue.h"
#include "results/TraceSummary.h"
#include <QStringList>

namespace sb {

// `concurrency`: the closed-loop target, or an open-loop cell's max_concurrency cap (closedLoop false:
// only the client and descriptor checks apply).
QStringList validityWarnings(const PhaseOutcome &phase, const CellMetricsOutput &metrics, int concurrency, bool closedLoop = true);
// Measured against requested lengths, when the server counted them (usage): an average ISL more
// than 2 % off input_tokens, or an OSL short of max_tokens (EOS with ignore_eos off or unsupported).
QStringList lengthWarnings(const CellMetricsOutput &metrics, const WorkloadSpec &workload);

// What the cell's trace summary puts in doubt: rank traces of one window that disagree on their
// profile id or step count (naming each rank), trace files not read to the end, files not read.
QStringList traceWarnings(const TraceSummary &summary, int maxFiles);

} // namespace sb
