#pragma once
// The engine steps of a cell's trace files one by one, for a timeline (docs/traces.md "The Trace
// tab"): one lane per file (a rank's worker), each step with its start, duration, kind, label and
// batch. The results hold only summaries, so this reads the files again, with the same reader and
// the same step rules as the summary (TraceAccumulator), so the timeline and the summary count the
// same steps. Bounded: at most maxStepsPerLane steps kept per lane (the first ones in time; the
// lane says it was capped and how many there were), labels pooled. Meant for a worker thread:
// cancel is polled a block at a time, and progress is readable from another thread meanwhile.
#include "results/TraceSummary.h"
#include "trace/TraceLimits.h"
#include <QStringList>
#include <atomic>
#include <vector>

namespace sb {

struct TimelineStep {
    double startUs = 0; // from the timeline's origin (the earliest step of any lane)
    double durUs = 0;
    StepKind kind = StepKind::Unknown;
    int batch = -1, tokens = -1; // where the label carries them
    int label = -1;              // into its lane's labels; -1 when not kept
};

struct StepLane {
    QString path;
    int rank = -1;              // as the summary names it (traceRank); -1 unknown
    QString error;              // the reader's, when the file was not read to the end
    StepSource source = StepSource::None;
    qint64 events = 0;
    qint64 totalSteps = 0;      // every step found (kept or not)
    bool capped = false;        // steps holds only the first maxStepsPerLane of them
    std::vector<TimelineStep> steps; // by start
    QStringList labels;
    double maxDurUs = 0;        // the longest kept step (a view finds the steps overlapping a time with it)
    QString labelOf(const TimelineStep &s) const;
};

struct StepTimeline {
    QList<StepLane> lanes;      // by rank (unknown last), then path
    double originUs = 0;        // the trace clock's time of the earliest step (0 when none)
    double endUs = 0;           // the latest step's end, from the origin
    int filesNotRead = 0;       // past TraceLimits::maxFiles
    bool cancelled = false;
    qint64 keptSteps() const;
};

struct StepTimelineOptions {
    TraceLimits limits;
    qint64 maxStepsPerLane = 200'000; // 32 bytes each: 6.4 MB a lane
};

// What a read on another thread has done so far: bytes of the files (compressed ones for gzip).
struct TraceLoadProgress {
    std::atomic<qint64> bytesTotal{0}; // set before the first file is opened
    std::atomic<qint64> bytesDone{0};
    std::atomic<int> filesDone{0};
};

// Reads each trace file among `paths` (isTraceFileName; at most limits.maxFiles). A file that
// cannot be read (gone, not a trace, cut short) is a lane with its error and the steps read before
// it. With `cancel` set the read stops at the next block and `cancelled` is set.
StepTimeline readStepTimeline(const QStringList &paths, const StepTimelineOptions &options = {},
                              const std::atomic<bool> *cancel = nullptr, TraceLoadProgress *progress = nullptr);

} // namespace sb
