#pragma once
// The one table of every metric the product shows (docs/ARCHITECTURE.md §7): its key in
// results.json (the AIPerf tag), labels, unit, display precision, which stats it has and which
// way is better. The results table, charts, Compare, the CLI summary, results.csv and
// report.html take names and units from here only, so adding a metric is one entry in
// MetricCatalogue.cpp. Which metrics a view shows (its columns) stays that view's choice.
#include "results/Results.h"
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace sb {

// Keys of the metrics the code refers to by name (results.json keys, AIPerf tags).
namespace tag {
inline const QString ttft = QStringLiteral("time_to_first_token");
inline const QString ttfo = QStringLiteral("time_to_first_output_token");
inline const QString reasoningTokens = QStringLiteral("reasoning_token_count");
inline const QString imageCount = QStringLiteral("image_count");
inline const QString imageBytes = QStringLiteral("image_bytes");
inline const QString itl = QStringLiteral("inter_token_latency");
inline const QString latency = QStringLiteral("request_latency");
inline const QString interChunk = QStringLiteral("inter_chunk_latency");
inline const QString outputThroughput = QStringLiteral("output_token_throughput");
inline const QString requestThroughput = QStringLiteral("request_throughput");
// Derived from the ITL mean (cellValue): the output speed one user sees, 1000 / ITL avg ms.
inline const QString tokensPerUser = QStringLiteral("output_token_throughput_per_user");
inline const QString goodput = QStringLiteral("goodput");
inline const QString goodFraction = QStringLiteral("good_request_fraction");
inline const QString outputLength = QStringLiteral("output_sequence_length");
inline const QString inputLength = QStringLiteral("input_sequence_length");
inline const QString requestedInputLength = QStringLiteral("requested_input_sequence_length");
inline const QString requestedOutputLength = QStringLiteral("requested_output_sequence_length");
// Cell figures kept outside `metrics` in results.json (CellResult fields), read by cellValue()
// under these keys so tables, charts and CSV treat them like any other metric.
inline const QString errorRate = QStringLiteral("error_rate");
inline const QString achievedRate = QStringLiteral("achieved_request_rate");
inline const QString scheduleLag = QStringLiteral("schedule_lag");
inline const QString queueTime = QStringLiteral("client_queue_time");
// From the cell's profiler traces (trace_summary; docs/traces.md): the engine's own steps.
inline const QString engineStepTime = QStringLiteral("engine_step_time");
inline const QString engineBatchSize = QStringLiteral("engine_batch_size");
inline const QString engineStepRate = QStringLiteral("engine_step_rate");
// From the cell's GPU telemetry (gpu_telemetry; docs/gpu-telemetry.md): energy per output token
// and per request, and the DCGM gauges over the measured phase.
inline const QString energyPerOutputToken = QStringLiteral("energy_per_output_token");
inline const QString energyPerRequest = QStringLiteral("energy_per_request");
inline const QString gpuPower = QStringLiteral("gpu_power");
inline const QString gpuUtilization = QStringLiteral("gpu_utilization");
inline const QString smActive = QStringLiteral("gpu_sm_active");
inline const QString gpuMemoryUsed = QStringLiteral("gpu_memory_used");
// From the cell's cost (the spec's gpu_hour × gpus over the measured phase's wall time).
inline const QString costPerMillionInput = QStringLiteral("cost_per_million_input_tokens");
inline const QString costPerMillionOutput = QStringLiteral("cost_per_million_output_tokens");
// Short names some code uses for the same keys.
inline const QString &isl = inputLength;
inline const QString &osl = outputLength;
inline const QString &requestedIsl = requestedInputLength;
inline const QString &requestedOsl = requestedOutputLength;
} // namespace tag

// Measured vs requested ISL/OSL may differ by this share before it is a validity warning
// (engine/CellValidity); the Results view marks the same lines.
inline constexpr double kLengthTolerance = 0.02;

// Units as results.json stores them.
namespace unit {
inline const QString ms = QStringLiteral("ms");
inline const QString tokens = QStringLiteral("tokens");
inline const QString tokensPerS = QStringLiteral("tokens/s");
inline const QString tokensPerSPerUser = QStringLiteral("tokens/s/user");
inline const QString requestsPerS = QStringLiteral("requests/s");
inline const QString fraction = QStringLiteral("fraction");
inline const QString requests = QStringLiteral("requests");
inline const QString stepsPerS = QStringLiteral("steps/s");
inline const QString images = QStringLiteral("images");
inline const QString bytes = QStringLiteral("bytes");
inline const QString joulesPerToken = QStringLiteral("J/token");
inline const QString joulesPerRequest = QStringLiteral("J/request");
inline const QString watts = QStringLiteral("W");
inline const QString percent = QStringLiteral("%");
inline const QString mib = QStringLiteral("MiB");
inline const QString dollarsPerMillionTokens = QStringLiteral("$/Mtok");
} // namespace unit

enum class Better { Lower, Higher, Neither };

struct MetricInfo {
    QString key;          // results.json key
    QString label;        // chart axes and menus: "TTFT", "Request latency", "Output throughput"
    QString shortLabel;   // compact column heading: "TTFT", "Latency", "Out tok/s" (rates carry their unit)
    QString csvStem;      // results.csv column stem: "ttft" -> ttft_p50_ms
    QString unit;         // as stored in results.json: ms, tokens, tokens/s, requests/s, fraction
    QString description;  // tooltips: what is measured, without stat and unit
    bool singleValued = false; // one number per cell ("avg"), not a distribution
    Better better = Better::Neither;
    int decimals = 2;     // fixed decimals in the CLI summary and report.html
    QList<Stat> stats;    // the stats it has when not the usual ones (schedule lag: p50 p99 max)
    bool openLoopOnly = false; // a figure only request-rate cells have (NaN on closed-loop cells)
    bool traceOnly = false;    // a figure only cells with profiler traces have (NaN elsewhere)
    // Stored only by cells whose requests had it (reasoning, images): menus list it only then.
    bool onlyWhenStored = false;
    bool telemetryOnly = false; // a figure only cells with GPU telemetry have (NaN elsewhere)
    bool costOnly = false;      // a figure only cells with a cost have (NaN elsewhere)
};

// Every metric, in menu order.
const QList<MetricInfo> &allMetrics();
// The entry for a results.json key; null for a key the catalogue does not know (imports may
// carry more metrics than SweepBench shows).
const MetricInfo *findMetric(QStringView key);

// Stats a metric offers, in menu order: {avg} for single-valued ones, else `stats` or the usual.
QList<Stat> metricStats(const MetricInfo &metric);
QList<Stat> distributionStats();
// "median", "99th percentile", "mean", ... for tooltips.
QString statDescription(Stat stat);

// The label of a key, or the key itself when unknown.
QString metricLabel(QStringView key);
// "tokens/s" -> "tok/s", "tokens/s/user" -> "tok/s/user", "requests/s" -> "req/s"; other units unchanged.
QString shortUnit(const QString &unit);
// A compact heading for metric.stat: "TTFT p50", "Out tok/s"; with the unit: "TTFT p50 ms".
QString metricColumnTitle(const MetricInfo &metric, Stat stat, bool withUnit);
// A tooltip: "Time to first token (...), median, ms".
QString metricColumnToolTip(const MetricInfo &metric, Stat stat);
// results.csv heading: "ttft_p50_ms", "output_token_throughput_tok_s".
QString metricCsvHeader(const MetricInfo &metric, Stat stat);

// The tokens of a cell's successful measured requests (their output_sequence_length or
// input_sequence_length summed: the server's usage where it gave it); NaN without them. What
// energy and cost per token divide by.
double phaseTokens(const CellResult &cell, const QString &lengthTag);

// metric.stat of a cell; NaN when the metric or the stat is missing (error_rate of a cell that
// measured nothing, open-loop figures of a closed-loop cell).
double cellValue(const CellResult &cell, const QString &metric, Stat stat);

// The engine steps the engine_* figures describe: of the cell's merged trace statistics, the
// step kind with the most steps (decode in a decode-bound sweep); null without steps.
const StepKindStats *dominantStepKind(const TraceSummary &summary);

} // namespace sb
