#pragma once
// report.html's "Engine steps" section: what each profiled cell's traces held (the
// trace_summary in results.json, one row per cell) and the knee sentences of report/TraceKnee.
// Empty for a set without profiled cells. Every server-provided string is escaped.
#include "results/Results.h"
#include <QString>

namespace sb {

QString engineStepsSection(const SweepResults &results);

} // namespace sb
