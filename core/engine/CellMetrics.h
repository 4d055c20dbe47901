#pragma once
// Turns a measured phase's request records into the cell's metrics (AIPerf tags, docs/ARCHITECTURE.md §7).
#include "load/RequestRecord.h"
#include "metrics/LogHistogram.h"
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <vector>

namespace sb {

struct CellMetricsInput {
    const std::vector<RequestRecord> *records = nullptr;
    const LogHistogram *interChunkUs = nullptr; // may be null (non-streaming)
    bool streaming = true;
    SloSpec slo;
    int concurrency = 0;       // the target C (for the steady in-flight mean)
};

// The cell's part its records give (results/Results.h CellMetricsOutput).
CellMetricsOutput computeCellMetrics(const CellMetricsInput &in);

} // namespace sb
