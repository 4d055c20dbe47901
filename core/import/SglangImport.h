#pragma once
// SGLang `python -m sglang.bench_serving --output-file F.jsonl` results (checked against sglang
// 0.5.23 output, tests/fixtures/sglang-0.5.23): one JSON line per run, appended, so a file of
// runs at several --max-concurrency (or --request-rate) values is a sweep, a cell per line.
// Python writes `Infinity` for the default --request-rate inf, which is not JSON: the bare tokens
// Infinity, -Infinity and NaN outside strings are read as null. Mapped onto the catalogue
// (docs/ARCHITECTURE.md §7):
//   <stat>_ttft_ms -> time_to_first_token
//   <stat>_tpot_ms -> inter_token_latency ((latency - TTFT) / (output tokens - 1), "excl. 1st token")
//   <stat>_itl_ms -> inter_chunk_latency (SGLang's ITL is the gap between chunks, as vLLM's)
//   <stat>_e2e_latency_ms -> request_latency
//   request_throughput, output_throughput, total_throughput -> request_throughput,
//     output_token_throughput, total_token_throughput
//   concurrency (mean requests in flight), max_concurrent_requests -> the cell's in-flight figures
// bench_serving writes no failure count (`completed` is the successful requests only). Every
// other numeric field is listed as not mapped.
#include "results/LoadedResults.h"
#include <QByteArray>

namespace sb {

// The first line of the file parses as a bench_serving result.
bool looksLikeSglangJsonl(const QString &path);
bool loadSglangJsonl(const QString &path, LoadedResults *out, QString *error);
// Exposed for tests: `line` with Python's bare Infinity / -Infinity / NaN outside strings as null.
QByteArray pythonJsonToJson(const QByteArray &line);

} // namespace sb
