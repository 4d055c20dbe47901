#pragma once
// `vllm bench serve --save-result` JSON (keys read from vllm/benchmarks/serve.py; see
// tests/fixtures/README.md). One file is one cell; a folder of them is a sweep whose points are
// `max_concurrency`. Metric names are mapped onto AIPerf tags:
//   ttft -> time_to_first_token, tpot -> inter_token_latency (docs/ARCHITECTURE.md §7: AIPerf's ITL is vLLM's
//   TPOT), itl -> inter_chunk_latency (vLLM's ITL is the gap between chunks), e2el -> request_latency,
//   output_throughput -> output_token_throughput, request_goodput -> goodput.
// Anything else numeric (total_token_throughput, client_queue_time, max_output_tokens_per_s, ...)
// is kept under its own name.
#include "results/LoadedResults.h"
#include <QJsonObject>

namespace sb {

bool looksLikeVllmResult(const QJsonObject &o);
// `path` is a .json file or a folder of them.
bool loadVllmResults(const QString &path, LoadedResults *out, QString *error);
// Exposed for tests: the cell one result document maps to.
CellResult vllmCell(const QJsonObject &o);

} // namespace sb
