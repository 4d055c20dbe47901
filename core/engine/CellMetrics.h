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

struct CellMetricsOutput {
    QMap<QString, MetricStats> metrics;
    int completed = 0;
    int failed = 0;
    double durationS = 0;      // first send -> last response end, over all requests
    int maxInFlight = 0;       // from the records' [send, end] intervals
    double meanInFlight = 0;   // time-weighted over the duration
    double steadyMeanInFlight = -1; // time-weighted from the C-th send to the last send; -1 = no such span
    QString tokenSource;       // usage | counted | mixed | ""
};

CellMetricsOutput computeCellMetrics(const CellMetricsInput &in);

// Per-request ITL (AIPerf inter_token_latency) in ms, or NaN when OSL < 2 or no first token.
double interTokenLatencyMs(const RequestRecord &r);

} // namespace sb
