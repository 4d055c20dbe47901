#pragma once
// Results of a sweep, as stored in OUT/results.json ("sweepbench-results/1").
// Plain data shared by the engine (writer), the GUI, reports and importers (readers).
#include "results/CellStatus.h"
#include "results/HookVocabulary.h"
#include "results/GpuTelemetryResult.h"
#include "results/OpenLoopResult.h"
#include "results/ServerMetricsResult.h"
#include "results/ServerInfo.h"
#include "results/ShardId.h"
#include "results/SweepFacts.h"
#include "results/CacheEffect.h"
#include "results/TimeSlice.h"
#include "results/TraceSummary.h"
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QMetaType>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace sb {

inline constexpr const char *kResultsSchema = "sweepbench-results/1";

// A summary statistic of a metric. Named ("avg", "p99", …) only where results.json, CSV, the
// CLI (--metric KEY.STAT) and the views' text spell it: statName and statFromName.
enum class Stat { Avg, Min, Max, Std, P1, P5, P10, P25, P50, P75, P90, P95, P99, Count };
QString statName(Stat s);
std::optional<Stat> statFromName(QStringView name);
// The percentile stat for 1, 5, 10, 25, 50, 75, 90, 95 or 99; none for any other number.
std::optional<Stat> percentileStat(int percentile);

// Summary statistics of one metric. Percentiles use linear interpolation (numpy's default),
// as AIPerf does, so numbers compare.
struct MetricStats {
    QString unit;
    qint64 count = 0;
    double avg = 0, min = 0, max = 0, std = 0;
    double p1 = 0, p5 = 0, p10 = 0, p25 = 0, p50 = 0, p75 = 0, p90 = 0, p95 = 0, p99 = 0;
    bool onlyAvg = false; // throughputs: a single value, reported as avg
    // NaN for a stat a single value (onlyAvg) does not have.
    double value(Stat stat) const;
    // Sets one stat's field (count: rounded to a whole number).
    void set(Stat stat, double v);
};

// HookOutcome::method of a check that ran a program (nvidia-smi) instead of calling a route: its
// path is the program, and it has no HTTP status.
inline constexpr char kProgramRunMethod[] = "RUN";

// One control-hook call (possibly retried) in one cell.
struct HookOutcome {
    HookKind hook = HookKind::Reset;
    QString origin;    // scheme://host:port
    QString method;    // POST | GET, or kProgramRunMethod
    QString path;      // path with query (a program run: the program)
    int status = 0;    // last HTTP status; 0 = transport error
    bool ok = false;
    int attempts = 0;
    double latencyMs = 0; // total time spent, all attempts
    std::optional<HookVerdict> verdict; // none in results written before verdicts were recorded
    QString message;   // short, redacted
    HookPlacement placement = HookPlacement::None; // a reset's before/after the warmup, a rollback stop, a preflight restart
    QDateTime at;      // when the first attempt was sent (UTC)
    // Reset only, when the server reports cached prompt tokens per request and the reset came
    // right before the measured phase: "consistent" (the first requests reused nothing) or
    // "contradicted" (they reused cached prompt tokens: the reset did not empty the cache).
    CacheProof cacheProof = CacheProof::None;
    // Reset only, when it came right before the measured phase: what the server's own
    // prefix-cache counter says (docs/server-metrics.md): confirmed | not_confirmed | no_metrics,
    // with the cached tokens the counter showed over the measured phase (-1 = none).
    MetricsVerdict metricsVerdict = MetricsVerdict::None;
    qint64 metricsCachedTokens = -1;
};

// How a cell's profiler windows ended ("profiler_window" in results.json; engine/WindowSettle.h).
struct ProfilerWindowResult {
    double stopS = 0;          // the slowest profiler_stop call
    double settleS = 0;        // waited after the stops for the window to settle
    bool settled = false;      // every origin answered again and the trace files stopped growing
    bool tracesComplete = false;
    QString why;               // when not settled or not complete
};

// Who counted a cell's tokens: the server (`usage` in its answers), the client (content chunks,
// approximate), some of each; None when not recorded. Named only in results.json, CSV, reports.
enum class TokenSource { None, Usage, Counted, Mixed };
QString tokenSourceName(TokenSource s); // "", "usage", "counted", "mixed"
TokenSource tokenSourceFromString(QStringView s); // None for "" and unknown words

// What a cell's measured phase says, computed from its records in one piece
// (engine/CellMetrics.h computeCellMetrics) and held by the cell as it is.
struct CellMetricsOutput {
    QMap<QString, MetricStats> metrics;   // AIPerf metric tags
    int completed = 0;
    int failed = 0;
    double durationS = 0;                 // measured phase: first send -> last response end
    int maxInFlight = 0;                  // from the records' [send, end] intervals
    double meanInFlight = 0;              // time-weighted over the measured phase
    // Time-weighted over the steady part: from the C-th send to the last send (ramp-up and
    // drain excluded), where a closed loop must hold exactly C; -1 when that span is empty.
    double steadyMeanInFlight = -1;
    TokenSource tokenSource = TokenSource::None;
};

struct CellResult : CellMetricsOutput {
    int index = 0;
    QString server;
    QString origin;
    int concurrency = 0;                  // closed loop: the point; open loop: the max_concurrency cap
    std::optional<OpenLoopResult> openLoop; // set for a request-rate point ("request_rate" in JSON; null = closed loop)
    int repeat = 0;                       // which run of its point (0-based; `sweep.repeats`)
    bool sloSearch = false;               // added by the SLO search (metrics/SloSearch.h), not a planned point
    CellStatus status = CellStatus::Pending;
    QString reason;
    // completed, failed, metrics, in-flight figures, duration and token source: CellMetricsOutput
    double errorRate = 0;                 // failed / (completed + failed) of the measured requests
    int reconnects = 0;                   // connections opened after a connection's first (server closed, error, max=)
    int resent = 0;                       // requests re-sent once because a reused keep-alive connection was dead
    int unsolicited = 0;                  // keep-alive connections dropped for bytes nobody asked for
    QMap<QString, int> errors;            // kind -> count (http_<code>, timeout, connection, protocol)
    QMap<QString, QString> errorSamples;  // kind -> one sample message
    QList<HookOutcome> hooks;
    QStringList traces;                   // absolute paths of trace files from the profiler window
    QStringList warnings;
    QString recordsPath;                  // relative to the results folder: cells/<dir>/records.jsonl
    QDateTime startedAt, finishedAt;
    double clientCpuMax = 0;              // busiest client IO thread's CPU share during the phase
    double clientWaitMax = 0;             // largest share of the phase a client IO thread waited for a CPU
    double hostStealMs = -1;              // the hypervisor's steal during the phase, all CPUs (-1 unknown)
    std::optional<ProfilerWindowResult> profilerWindow; // cells with a profiler window
    std::optional<TraceSummary> traceSummary;           // cells whose window left trace files (results/TraceSummary.h)
    std::vector<TimeSlice> timeSlices;    // engine/TimeSlices.h ("time_slices")
    std::vector<TurnStats> byTurn;        // workload.sessions: per turn index (results/CacheEffect.h; "by_turn")
    std::optional<PrefixCacheStats> prefixCache; // shared prefixes or sessions: cache share, ideal vs reported ("prefix_cache")
    // Scraped server metrics (docs/server-metrics.md): key aggregates by full metric name
    // ("server_metrics"), and the scrape itself ("server_scrape": series file, path, interval,
    // scrapes, server family, TTFT check).
    ServerMetricAggregates serverMetrics;
    ServerScrapeInfo serverMetricsInfo;
    ServerInfo serverInfo;                // what the server was (results/ServerInfo.h; "server_info")
    // The GPU exporters' side of the measured phase (results/GpuTelemetryResult.h; "gpu_telemetry"),
    // and the price of the server's GPUs the spec gave ("cost"); none without `telemetry:` / `cost:`.
    std::optional<GpuTelemetryResult> gpuTelemetry;
    std::optional<CellCost> cost;
};

struct SweepResults {
    QString schema = QString::fromLatin1(kResultsSchema);
    QString toolName = QStringLiteral("sweepbench");
    QString toolVersion;
    QString sourceTool = QStringLiteral("sweepbench"); // for imports: aiperf | vllm-bench | guidellm | inference-perf | genai-bench
    // What the source tool was asked to do, as it recorded it: its command line (AIPerf, genai-bench)
    // or the settings it kept (guidellm, vLLM and SGLang bench); empty for sets measured here,
    // whose spec is in sweep.yaml (results/Provenance.h).
    QString sourceCommand;
    QString sweepName;
    QDateTime startedAt, finishedAt;
    HostInfo host;               // hostname, os, cpu count, qt version
    SpecFingerprint specFingerprint; // results/SpecFingerprint.h; empty for imports and older files
    ShardId shard;               // the part of a sharded sweep this folder ran (count 1: all of it)
    QList<MergedShard> mergedFrom; // `sweepbench merge`: one entry per shard folder merged in
    QList<CellResult> cells;

    std::optional<SloSearchResult> sloSearch; // metrics/SloSearch.h; none without sweep.slo_search
    QStringList serverNames() const; // in first-appearance order
};

QJsonObject toJson(const MetricStats &s);
MetricStats metricStatsFromJson(const QJsonObject &o);
QJsonObject toJson(const HookOutcome &h);
// Empty for a hook this build does not know (the caller says so rather than guess).
std::optional<HookOutcome> hookOutcomeFromJson(const QJsonObject &o);
QJsonObject toJson(const CellResult &c);
CellResult cellResultFromJson(const QJsonObject &o);
QJsonObject toJson(const SweepResults &r);
// Returns false and sets *error when the document is not sweepbench-results/1 or holds more
// than kMaxResultsCells cells (io/ReadLimits.h).
bool sweepResultsFromJson(const QJsonObject &o, SweepResults *out, QString *error);

} // namespace sb

// Declared with the types, not with one of the signals carrying them: any QObject header (the
// engine's, the hook check's) may be moc'ed first (docs/ARCHITECTURE.md §4).
Q_DECLARE_METATYPE(sb::HookOutcome)
Q_DECLARE_METATYPE(sb::CellResult)
