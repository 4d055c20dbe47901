#pragma once
// GuideLLM `guidellm run --output kind=json` reports (benchmarks.json; checked against guidellm 0.8.1
// output, tests/fixtures/guidellm-0.8.1). One report holds one benchmark per load point: each is a
// cell, its point from config.strategy (concurrent: streams; synchronous: 1; constant / poisson:
// a request rate). Metrics are distributions over successful requests, mapped onto the catalogue
// (docs/ARCHITECTURE.md §7 has the definitions):
//   time_to_first_token_ms -> time_to_first_token
//   inter_token_latency_ms -> inter_token_latency ((last token - first token) / (output tokens - 1),
//     ours up to the last token instead of the response end; GuideLLM's stats weight each request
//     by its output tokens - 1, so its mean and percentiles lean to long answers)
//   request_latency (seconds) -> request_latency (ms)
//   prompt_token_count / output_token_count -> input / output_sequence_length
//   requests_per_second, output_tokens_per_second, tokens_per_second (their mean over the run)
//     -> request_throughput, output_token_throughput, total_token_throughput
// GuideLLM's time_per_output_token_ms is (last token - send) / output tokens (the first token included): it
// is not our inter_token_latency and stays under its own name, listed as not mapped like every
// other field the catalogue has no entry for.
#include "results/LoadedResults.h"
#include <QJsonObject>

namespace sb {

bool looksLikeGuidellmReport(const QJsonObject &o);
bool loadGuidellmReport(const QString &file, LoadedResults *out, QString *error);

} // namespace sb
