#pragma once
// genai-bench experiment folders (checked against genai-bench 0.0.5 output,
// tests/fixtures/genai-bench-0.0.5): experiment_metadata.json, and one JSON per scenario and
// concurrency (<scenario>_<task>_num_concurrency_<N>_time_<T>s.json) whose aggregated_metrics is
// the run's summary (a cell each; the plots and the .xlsx are drawn from them). Times are in
// `_time_unit` (s by default, then scaled to ms). Mapped onto the catalogue (docs/ARCHITECTURE.md §7):
//   stats.ttft -> time_to_first_token
//   stats.tpot -> inter_token_latency (output_latency / (output tokens - 1): the first token
//     excluded, as ours)
//   stats.e2e_latency -> request_latency
//   stats.num_input_tokens / num_output_tokens -> input / output_sequence_length
//   requests_per_second, mean_output_throughput_tokens_per_s, mean_total_tokens_throughput_tokens_per_s
//     -> request_throughput, output_token_throughput, total_token_throughput
// num_completed_requests are the successes, num_error_requests the failures (num_requests is their
// sum), error_codes_frequency the failures by HTTP status. Every other field is listed as not mapped.
#include "results/LoadedResults.h"

namespace sb {

bool isGenaiBenchFolder(const QString &dir);
bool loadGenaiBenchFolder(const QString &dir, LoadedResults *out, QString *error);

} // namespace sb
