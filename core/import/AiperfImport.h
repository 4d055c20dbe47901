#pragma once
// AIPerf artifact folders (checked against aiperf 0.13.0 output, see tests/fixtures/README.md):
//  - single run: profile_export_aiperf.json (+ profile_export.jsonl, per-request records)
//  - concurrency sweep: <dir>/concurrency_<N>/profile_export_aiperf.json per point, plus
//    sweep_aggregate/profile_export_aiperf_sweep.json (per_combination_metrics)
//  - with --warmup-request-count, each run also has phases/warmup/ and phases/profiling/: the run
//    is imported once, from its top-level file, and a warmup never becomes a cell
// Counts: request_count (successful) and error_request_count; 0.13.0's completed_request_count
// is their sum (tests/fixtures/aiperf-0.13.0 holds real output of each case).
// AIPerf's metric tags are ours, so metrics are taken as they are, unknown ones included.
#include "results/LoadedResults.h"

namespace sb {

// True when the folder looks like either AIPerf layout.
bool isAiperfFolder(const QString &dir);
bool loadAiperfFolder(const QString &dir, LoadedResults *out, QString *error);

} // namespace sb
