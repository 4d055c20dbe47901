#pragma once
// A cell's trace_summary (results/TraceSummary.h) from the trace files its profiler window wrote:
// each file read in turn with bounded memory, then the files merged, and the ranks of the window
// compared (the same profile id and step count; docs/traces.md "Ranks").
#include "results/TraceSummary.h"
#include "trace/TraceLimits.h"
#include "trace/TraceReader.h"
#include <QStringList>
#include <atomic>

namespace sb {

// Whether `path` names a trace file the reader takes (*.json, *.json.gz): a window also leaves
// text summaries (vLLM's *.profiler_out.txt) beside its traces.
bool isTraceFileName(const QString &path);

// What a trace's file name says: TensorRT-LLM's trtllm-trace-<profile id>-rank-<N>.json, vLLM's
// rank<N>.<ns>.pt.trace.json.gz, SGLang's ...-TP-<N>.trace.json.
struct TraceNameInfo {
    int rank = -1;
    QString profileId;
};
TraceNameInfo traceNameInfo(const QString &path);
// A file's rank: the trace's distributedInfo.rank, else its file name's; -1 when neither says.
int traceRank(const TraceMetadata &meta, const QString &path);

// Reads every trace file among `paths` (at most limits.maxFiles); a file that cannot be read
// fully is summarised as far as it was read, with its error.
TraceSummary summarizeTraces(const QStringList &paths, const TraceLimits &limits = {}, const std::atomic<bool> *cancel = nullptr);

// Whether the files that name their rank agree (results/TraceSummary.h RankCheck).
RankCheck checkRanks(const QList<TraceFileSummary> &files);

} // namespace sb
