#pragma once
// Filling a cell's server_info (results/ServerInfo.h): asking a server what it is, reading what
// SweepBench launched it with, and listing the GPUs. The engine asks once per server per run and
// again after a launched server was started anew (a new variant, a restart after a death), on the
// engine thread between cells: never during a measured phase or inside a profiler window.
#include "hooks/ControlClient.h"
#include "results/ServerInfo.h"
#include "spec/SecretSet.h"
#include "spec/SweepSpec.h"
#include <atomic>

namespace sb {

// An identity answer larger than this is not used (its route says so): a real one is a few KB.
inline constexpr qint64 kMaxIdentityAnswerBytes = 64 * 1024;
inline constexpr double kIdentityCallTimeoutS = 5;
inline constexpr double kGpuQueryTimeoutS = 5;
inline constexpr qint64 kMaxGpuQueryBytes = 64 * 1024;

// The routes a flavor's server describes itself on (besides /v1/models): vLLM /version and
// /server_info (dev mode only), SGLang /get_server_info, llama.cpp /props, trtllm-serve /version.
QStringList identityRoutes(Flavor flavor);

// Asks `origin`'s identity routes and the model list under `baseUrl`, with the server's control
// headers. Every answer is bounded and scrubbed of `secrets`; one that cannot be used is named in
// its route's entry.
ServerInfo fetchServerIdentity(ControlClient &client, const ServerSpec &server, const QString &origin, const QString &baseUrl,
                               const QList<QPair<QByteArray, QByteArray>> &headers, const SecretSet &secrets,
                               const std::atomic<bool> *cancel);

// vLLM's KV cache block size, from its /metrics (vllm:cache_config_info's block_size label), into
// info.args["block_size"]: a prefix cache serves whole blocks (engine/CacheEffectStats). Read once
// with the identity, outside any measured phase or profiler window. -1 when the text has none.
int blockSizeFromMetrics(const QByteArray &text);
inline constexpr qint64 kMaxMetricsIdentityBytes = 512 * 1024;
void readVllmBlockSize(ControlClient &client, const ServerSpec &server, const QString &origin,
                       const QList<QPair<QByteArray, QByteArray>> &headers, ServerInfo &info, const std::atomic<bool> *cancel);

// What fetchServerIdentity reads from each answer (also for tests): the version, model and the
// selected settings (max_num_seqs, tp_size, n_ctx, ...), from any route's JSON.
void readIdentityAnswer(const QString &route, const QByteArray &body, ServerInfo &info, const SecretSet &secrets);

// The launch's argv and env as recorded: credential values ([redacted]) and every known secret
// scrubbed, {port} filled in.
void recordLaunch(ServerInfo &info, const LaunchSpec &launch, int port, const SecretSet &secrets);

// `nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader` from PATH,
// bounded in time and output: the GPUs, or why there are none (not found, timed out, failed).
struct GpuQuery {
    QList<GpuInfo> gpus;
    QString error;
};
GpuQuery queryGpus(double timeoutS = kGpuQueryTimeoutS);

} // namespace sb
