#pragma once
// inference-perf report folders (checked against inference-perf 0.7.0 output,
// tests/fixtures/inference-perf-0.7.0): stage_<N>_lifecycle_metrics.json per load stage (a cell
// each: load_summary.concurrency for concurrent load, else load_summary.requested_rate as a
// request rate), summary_lifecycle_metrics.json over every stage (read only when there are no
// stage files). Times are in seconds there, ms here. Mapped onto the catalogue
// (docs/ARCHITECTURE.md §7):
//   successes.latency.time_to_first_token -> time_to_first_token
//   successes.latency.time_per_output_token -> inter_token_latency ((last token - first token) /
//     (output tokens - 1), per request: ours, to the last token rather than the response end)
//   successes.latency.request_latency -> request_latency
//   successes.prompt_tokens / output_tokens -> input / output_sequence_length
//   successes.throughput.{requests,output_tokens,total_tokens}_per_sec -> request_throughput,
//     output_token_throughput, total_token_throughput
// inference-perf's inter_token_latency pools every gap between successive tokens of every request
// (tokens that came in one chunk give gaps of 0): neither our ITL nor our inter-chunk latency, so
// it is listed as not mapped; normalized_time_per_output_token (latency / output tokens) is kept
// under its own name and listed.
#include "results/LoadedResults.h"

namespace sb {

bool isInferencePerfFolder(const QString &dir);
bool loadInferencePerfFolder(const QString &dir, LoadedResults *out, QString *error);

} // namespace sb
