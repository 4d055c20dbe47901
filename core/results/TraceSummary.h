#pragma once
// What a cell's profiler traces held ("trace_summary" in results.json; docs/traces.md): per
// trace file and merged over the cell's files — events, time span, engine steps by kind with
// their step-time percentiles, batch sizes and tokens where the server labelled them, the GPU's
// busy share and top kernels when the trace has GPU events, the top CPU ops by self time, and
// the trace's own metadata (version, host, rank). Computed by core/trace after the window
// closed; plain data here so that every view reads it without the reader.
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace sb {

// What an engine step did, as its label says (unknown when it says nothing).
enum class StepKind { Prefill, Decode, Mixed, Unknown };
const char *stepKindName(StepKind k); // prefill | decode | mixed | unknown
std::optional<StepKind> stepKindFromString(const QString &s);

// Which rule found a file's steps (docs/traces.md "Steps").
enum class StepSource {
    None,            // no step found
    StepLabels,      // TensorRT-LLM / SGLang: step[EXTEND bs=N toks=M], step[DECODE bs=N]
    VllmAnnotations, // vLLM: execute_context_N(T)_generation_M(G)
    ExecuteModel,    // vLLM without annotations: the outermost execute_model per thread
    UserAnnotations, // any other trace: top-level user annotations
};
const char *stepSourceName(StepSource s);
std::optional<StepSource> stepSourceFromString(const QString &s);

struct StepKindStats {
    StepKind kind = StepKind::Unknown;
    qint64 count = 0;
    double p50Ms = 0, p90Ms = 0, p99Ms = 0, maxMs = 0;
    // Only where the steps were labelled with them; -1 otherwise.
    double batchMean = -1, batchMax = -1;
    double tokensMean = -1, tokensMax = -1;
};

// One op or kernel name and the time spent in it (kernels: total; CPU ops: self time).
struct OpTime {
    QString name;
    double ms = 0;
    qint64 count = 0;
};

// The statistics a file has, and the cell's files merged.
struct TraceStats {
    qint64 events = 0;
    double spanMs = 0;               // first event's start -> last event's end
    qint64 steps = 0;
    QList<StepKindStats> stepKinds;  // kinds with steps, in StepKind order
    double gpuBusyShare = -1;        // share of the span some kernel or copy ran, per device; -1: no GPU events
    QList<OpTime> topKernels;        // at most kTopOps, longest total first
    QList<OpTime> topCpuOps;         // at most kTopOps, longest self time first
};
inline constexpr int kTopOps = 10;

struct TraceFileSummary {
    QString path;
    QString error;                   // why reading stopped early; the stats cover what was read
    StepSource stepSource = StepSource::None;
    TraceStats stats;
    int rank = -1;                   // distributedInfo.rank, or the file name's rank; -1 unknown
    int worldSize = -1;
    QString profileId;               // TensorRT-LLM's, from the file name
    QString version;                 // vllm_version
    QString hostName;
};

// Whether the rank traces of the cell's window agree (the same profile id and step count).
enum class RankCheck {
    NotApplicable, // fewer than two files name their rank
    Consistent,
    Mismatch,      // the step counts or profile ids differ (engine/CellValidity words the warning)
    Ambiguous,     // a rank appears in several files (several servers or windows): not compared
};
const char *rankCheckName(RankCheck c);
std::optional<RankCheck> rankCheckFromString(const QString &s);

struct TraceSummary {
    QList<TraceFileSummary> files;
    int filesNotRead = 0;            // beyond the per-cell cap on files summarised
    TraceStats merged;               // every file pooled (two ranks of one window count each step twice)
    RankCheck rankCheck = RankCheck::NotApplicable;
};

QJsonObject toJson(const TraceSummary &s);
// Empty when `v` is not an object. Reads leniently, as the rest of results.json is read.
std::optional<TraceSummary> traceSummaryFromJson(const QJsonValue &v);

} // namespace sb
