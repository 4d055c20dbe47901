#pragma once
// The sweep specification: plain data, no behaviour. Loaded from YAML by SpecLoader,
// written back by SpecWriter, edited by the GUI designer, executed by the engine.
#include "spec/WorkloadShapes.h"
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <optional>

namespace sb {

enum class Endpoint { Chat, Completions };
enum class Flavor { Vllm, Sglang, Trtllm, Openai, Llamacpp };
enum class ResetPlacement { BeforeWarmup, AfterWarmup, Both };
enum class HookFailurePolicy { SkipCell, Abort, Continue };
enum class PromptMode { Unique, SharedPrefix };
// Open-loop arrival process (docs/spec-reference.md, `sweep.arrival`).
// Trace: the workload dataset's own timestamps, scaled to each point's mean rate.
enum class Arrival { Constant, Poisson, Gamma, Trace };
// `sweep.rate_mean`: whether a cell's random gaps keep their sampled mean (a seeded Poisson draw
// of 1,000 requests at 100 req/s averages ~97-103 req/s) or are rescaled so the cell's mean rate
// is exactly the point's rate, their shape kept.
enum class RateMean { Sampled, Exact };

QString toString(Endpoint e);
QString toString(Flavor f);
QString toString(ResetPlacement p);
QString toString(HookFailurePolicy p);
QString toString(PromptMode m);
QString toString(Arrival a);
QString toString(RateMean m);
std::optional<Endpoint> endpointFromString(const QString &s);
std::optional<Flavor> flavorFromString(const QString &s);
std::optional<ResetPlacement> placementFromString(const QString &s);
std::optional<HookFailurePolicy> policyFromString(const QString &s);
std::optional<PromptMode> promptModeFromString(const QString &s);
std::optional<Arrival> arrivalFromString(const QString &s);
QStringList arrivalNames();
std::optional<RateMean> rateMeanFromString(const QString &s);
QStringList rateMeanNames();
// The one list of each vocabulary, in documentation order: every flavor name, and the flavors an
// embedded mock can play (all but openai, which has no control routes of its own).
QStringList flavorNames();
QStringList mockPersonalityNames();

// `reset_kv_cache: false | true | {path, timeout_seconds, max_retry_seconds, placement}`
struct ResetHookSpec {
    bool enabled = false;
    QString path;                // empty = flavor preset (see HookPresets)
    double timeoutS = 30;
    double maxRetryS = 60;
    ResetPlacement placement = ResetPlacement::BeforeWarmup;
    // `reset_kv_cache: restart`: the launched server (`launch:`) is stopped, started and waited
    // for before each cell instead of being asked over HTTP (enabled is true with it).
    bool restart = false;
};

// `server_profiler: false | true | {start_path, stop_path, timeout_seconds,
//  stop_timeout_seconds, start_body: {...}, trace_dir: DIR, settle_timeout_seconds}`
struct ProfilerHookSpec {
    bool enabled = false;
    QString startPath;           // empty = flavor preset
    QString stopPath;            // empty = flavor preset
    double timeoutS = 30;
    double stopTimeoutS = 600;   // vLLM's stop can block for minutes while traces are written
    std::optional<QJsonObject> startBody; // sent as application/json when present
    QString traceDir;            // where the server writes traces (listed after each window)
    // After a window: how long to wait for it to settle (the server answering again, the trace
    // files no longer growing) before the next cell starts; 0 = do not wait.
    double settleTimeoutS = 120;
};

// `metrics: false | true | {path, interval_s, window_interval_s, enabled}`: the server's Prometheus
// (or trtllm-serve JSON) endpoint, scraped during each measured phase over the control client
// (docs/server-metrics.md). On by default: a server without it costs one warning per server.
struct MetricsSpec {
    bool enabled = true;
    QString path;                // empty = /metrics
    double intervalS = 0.5;
    // Between scrapes while a profiler window is open. 0: none inside the window, only one just
    // before it opens and one after it closes (a profiled server traces every scrape it answers,
    // and on vLLM that multiplied the window's cost: docs/server-metrics.md).
    double windowIntervalS = 0;
};

// One entry of `telemetry: [{url, headers}]`: a GPU exporter (NVIDIA's dcgm-exporter, Prometheus
// text) scraped during each measured phase by the server-metrics scraper (docs/gpu-telemetry.md).
// Or `{nvidia_smi: true}`: no exporter, nvidia-smi sampled on this machine during each measured
// phase (launch/NvidiaSmiSampler.h), listed alone.
struct TelemetrySpec {
    QString url;                 // the full metrics URL: http://gpu-node:9400/metrics
    QList<QPair<QString, QString>> headers; // sent with every scrape; credential values are secrets
    bool nvidiaSmi = false;      // sample `nvidia-smi --query-gpu=... -lms` instead of an exporter
    QString program;             // nvidia-smi's path; empty = "nvidia-smi" from PATH
    int intervalMs = 500;        // nvidia-smi's -lms period
    bool operator==(const TelemetrySpec &) const = default;
};

// `cost: {gpu_hour, gpus}` (top level, or per server replacing it): what the GPUs serving a cell
// cost, for dollars per million tokens (docs/gpu-telemetry.md "Cost per token").
struct CostSpec {
    double gpuHour = 0;          // dollars per GPU-hour
    int gpus = 1;                // GPUs the server occupies
    bool operator==(const CostSpec &) const = default;
};

// One configuration of a launched server (`launch.variants`): its own series, SERVER[NAME], with
// these args appended to the command and this env added (replacing a variable of the same name).
struct LaunchVariant {
    QString name;
    QStringList args;
    QList<QPair<QString, QString>> env;
    bool operator==(const LaunchVariant &) const = default;
};
// One key of the matrix form of `launch.variants`: a flag ("--max-num-seqs") or an environment
// variable name, and its values; every combination of every axis is a variant. A flag's values
// true and false pass `--flag` and `--no-flag`; any other value passes `--flag VALUE`.
struct LaunchMatrixAxis {
    QString key;
    QStringList values;
    bool operator==(const LaunchMatrixAxis &) const = default;
};

// `launch: {command: [ARGV...], env: {K: V}, port: N, ready: {path, timeout_seconds},
//  stop: {signal, grace_seconds}, log_keep_mib, variants: [...] | {FLAG: [VALUES]}}`: SweepBench starts the server itself before its
// first cell and stops it after its last (core/launch). "{port}" in the command, env values and
// url is replaced by `port`, or by a free loopback port picked at run time when port is 0.
struct LaunchSpec {
    bool enabled = false;        // the key is present
    QStringList command;         // argv, never a shell
    QList<QPair<QString, QString>> env; // added to SweepBench's own environment
    int port = 0;                // 0 = pick a free loopback port
    QString readyPath = QStringLiteral("/health");
    double readyTimeoutS = 900;  // a large model takes minutes to load
    QString stopSignal = QStringLiteral("TERM"); // one of launchSignalNames()
    double graceS = 30;          // then SIGKILL to the whole process group
    double logKeepMib = 8;       // OUT/servers/NAME.log keeps this much of the start and of the end
    // At most one of these is set: the list form, or the matrix form (kept as written so the
    // writer gives it back; spec/LaunchVariants.h expands it).
    QList<LaunchVariant> variants;
    QList<LaunchMatrixAxis> matrix;
};
QStringList launchSignalNames(); // TERM, INT, HUP, QUIT, KILL

struct ServerSpec {
    QString name;
    // http(s)://host:port[/base], one or more (`url: X` or `url: [X, Y]`): with several, the
    // in-flight requests are spread evenly over them and hooks go once to each unique origin.
    // Empty when `mock` is set.
    QStringList urls;
    QString mock;                // "" or one of mockPersonalityNames(): embedded mock server
    // `mock: {personality, reasoning_tokens: N}`: the embedded mock plays a reasoning model, the
    // first N output tokens of a chat answer thinking (as `mock-server --reasoning-tokens N`).
    int mockReasoningTokens = 0;
    QString model;
    Endpoint endpoint = Endpoint::Chat;
    Flavor flavor = Flavor::Openai;
    QString apiKey;              // never written to results, exports or logs
    QString apiKeyEnv;           // name of an environment variable holding the key
    QList<QPair<QString, QString>> headers;
    ResetHookSpec reset;
    ProfilerHookSpec profiler;
    MetricsSpec metrics;
    LaunchSpec launch;
    // Set when the server names its own (`telemetry: []` turns the top level's off for it).
    std::optional<QList<TelemetrySpec>> telemetry;
    std::optional<CostSpec> cost;
    // Set only on the entries spec/LaunchVariants.h expands a server's variants into (never
    // parsed or written): the spec's server name and the variant's.
    QString variantOf;
    QString variant;
};
// The API key for a server: api_key, else the value of api_key_env, else empty.
QString resolveApiKey(const ServerSpec &server);
// The origin of one of a server's URLs, which its hooks act on and shards group by:
// scheme://host:port, lower case, with the scheme's default port filled in.
QString originOf(const QString &url);

struct SloSpec {
    std::optional<double> ttftMs;       // time_to_first_token <= this
    std::optional<double> itlMs;        // inter_token_latency <= this
    std::optional<double> latencyMs;    // request_latency <= this
    bool any() const { return ttftMs || itlMs || latencyMs; }
};

// The SLO keys of workload.slo, in spec order, each with the limit it sets. A key is also the
// name of the metric it limits (metrics/MetricCatalogue.h tags). The one list the spec's loader,
// validator and writer and the SLO search take them from.
struct SloLimit {
    const char *key;
    std::optional<double> SloSpec::*limit;
};
inline constexpr SloLimit kSloLimits[] = {{"time_to_first_token", &SloSpec::ttftMs},
                                          {"inter_token_latency", &SloSpec::itlMs},
                                          {"request_latency", &SloSpec::latencyMs}};

struct WorkloadSpec {
    bool streaming = true;
    int inputTokens = 128;        // synthetic prompt length in tokens on the server's tokenizer
    bool calibratePrompts = true; // probe each model's tokenizer first (engine/PromptCalibration); false = words
    int outputTokens = 128;       // sent as max_tokens
    bool ignoreEos = true;        // so output lengths are fixed
    int requestsPerCell = 100;    // used unless durationS > 0 (the YAML default too)
    double durationS = 0;
    int warmupRequests = 0;
    double requestTimeoutS = 600;
    PromptMode prompts = PromptMode::Unique;
    int sharedPrefixTokens = 0;   // with prompts: shared_prefix, tokens common to all requests
    // with prompts: shared_prefix, how many distinct prefixes (one per agent or tenant); each
    // request, or each session, uses one drawn from the seed
    int sharedPrefixCount = 1;
    std::optional<SessionSpec> sessions; // multi-turn chat sessions (spec/WorkloadShapes.h)
    SloSpec slo;
    // Per-request lengths drawn from a distribution instead of one number (spec/WorkloadShapes.h);
    // inputTokens / outputTokens then hold its mean, rounded (the nominal length estimates use).
    std::optional<LengthDistribution> inputLengths;
    std::optional<LengthDistribution> outputLengths;
    qint64 seed = 0;              // workload.seed: the draws of both distributions
    std::optional<DatasetSpec> dataset; // prompts (and lengths) from a file instead
    std::optional<ImageSpec> images;    // synthetic images in every chat request (spec/WorkloadShapes.h)
};

// `sweep: {request_rate: [R...], arrival, burstiness, seed, max_concurrency}`: each point sends
// requests at their scheduled times (rate R per second), whatever the server's answers do.
struct OpenLoopSpec {
    QList<double> rates;          // requests per second; empty = closed-loop sweep
    Arrival arrival = Arrival::Poisson;
    double burstiness = 1.0;      // gamma shape: 1 = Poisson, < 1 burstier, > 1 more regular
    int seed = 0;                 // the schedule is a function of (arrival, rate, burstiness, seed)
    RateMean rateMean = RateMean::Sampled;
    int maxConcurrency = 256;     // requests in flight at most; later ones wait in a client queue
    bool active() const { return !rates.isEmpty(); }
};

// `sweep: {slo_search: {percentile: 99, resolution: 1}}`: after the sweep's points, find per server
// the highest point meeting every workload.slo at that percentile, by bisection between the
// highest point that met them and the lowest that did not, until they are `resolution` apart.
struct SloSearchSpec {
    bool enabled = false;
    int percentile = 99;          // one of 50, 75, 90, 95, 99
    double resolution = 1;        // concurrency levels, or requests/s
};

struct SweepSpec {
    QString name;
    QString description;
    QList<ServerSpec> servers;
    WorkloadSpec workload;
    QList<int> concurrency;       // closed-loop points; empty when the sweep is open-loop
    OpenLoopSpec openLoop;        // open-loop points (`sweep.request_rate`); exclusive with concurrency
    int repeats = 1;              // `sweep.repeats`: each point runs this many times (a cell each)
    SloSearchSpec sloSearch;
    HookFailurePolicy onHookFailure = HookFailurePolicy::SkipCell;
    // `sweep.max_error_rate`: the share of failed measured requests above which a cell is
    // `degraded` rather than `completed` (a fraction, 0 = any failure degrades).
    double maxErrorRate = 0.01;
    QList<TelemetrySpec> telemetry; // every server's, unless a server names its own
    std::optional<CostSpec> cost;   // every server's, unless a server names its own
    QString sourcePath;           // file it was loaded from (not serialized)
    // Points per server: request rates for an open-loop sweep, else concurrency levels.
    qsizetype pointCount() const { return openLoop.active() ? openLoop.rates.size() : concurrency.size(); }
    qsizetype cellsPerServer() const { return pointCount() * std::max(1, repeats); }
};

// The one rule for which telemetry and cost apply to a server: its own, else the top level's.
const QList<TelemetrySpec> &telemetryFor(const SweepSpec &spec, const ServerSpec &server);
std::optional<CostSpec> costFor(const SweepSpec &spec, const ServerSpec &server);

} // namespace sb
