#include "trace/TraceSteps.h"
#include "trace/TraceAccumulator.h"
#include "trace/TraceReader.h"
#include "trace/TraceSummarizer.h"
#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace sb {

QString StepLane::labelOf(const TimelineStep &s) const
{
    return s.label >= 0 && s.label < labels.size() ? labels.at(s.label) : QString();
}

qint64 StepTimeline::keptSteps() const
{
    qint64 n = 0;
    for (const StepLane &l : lanes)
        n += qint64(l.steps.size());
    return n;
}

namespace {
StepLane readLane(const QString &path, const StepTimelineOptions &options, const std::atomic<bool> *cancel, std::atomic<qint64> *bytes)
{
    TraceAccumulator acc(options.limits);
    acc.keepLabels();
    const TraceReadResult read = readTraceFile(path, acc, options.limits, cancel, bytes);
    acc.finish();
    StepLane lane;
    lane.path = path;
    lane.rank = traceRank(read.meta, path);
    lane.error = read.error;
    lane.source = acc.stepSource();
    lane.events = read.events;
    const std::vector<TraceStep> &found = acc.totals().steps;
    lane.totalSteps = acc.totals().stepCount;
    std::vector<const TraceStep *> byStart;
    byStart.reserve(found.size());
    for (const TraceStep &s : found)
        byStart.push_back(&s);
    // The first steps in time, whatever order the file wrote them in.
    const std::size_t keep = std::min(byStart.size(), std::size_t(std::max<qint64>(0, options.maxStepsPerLane)));
    const auto earlier = [](const TraceStep *a, const TraceStep *b) { return a->ts != b->ts ? a->ts < b->ts : a->dur > b->dur; };
    std::partial_sort(byStart.begin(), byStart.begin() + std::ptrdiff_t(keep), byStart.end(), earlier);
    lane.capped = qint64(keep) < lane.totalSteps;
    lane.steps.reserve(keep);
    for (std::size_t i = 0; i < keep; ++i) {
        const TraceStep &s = *byStart[i];
        lane.steps.push_back(TimelineStep{s.ts, s.dur, s.kind, s.batch, s.tokens, s.label});
        lane.maxDurUs = std::max(lane.maxDurUs, s.dur);
    }
    for (const std::string &l : acc.labels())
        lane.labels.append(QString::fromUtf8(l.data(), qsizetype(l.size())));
    return lane;
}
} // namespace

StepTimeline readStepTimeline(const QStringList &paths, const StepTimelineOptions &options, const std::atomic<bool> *cancel,
                              TraceLoadProgress *progress)
{
    StepTimeline timeline;
    QStringList files;
    for (const QString &p : paths) {
        if (!isTraceFileName(p))
            continue;
        if (files.size() >= options.limits.maxFiles)
            ++timeline.filesNotRead;
        else
            files.append(p);
    }
    if (progress) {
        qint64 total = 0;
        for (const QString &f : std::as_const(files))
            total += std::max<qint64>(0, QFileInfo(f).size());
        progress->bytesTotal.store(total);
    }
    qint64 done = 0;
    for (const QString &f : std::as_const(files)) {
        if (cancel && cancel->load())
            break;
        timeline.lanes.append(readLane(f, options, cancel, progress ? &progress->bytesDone : nullptr));
        done += std::max<qint64>(0, QFileInfo(f).size());
        if (progress) { // a file read only in part still counts whole: the bar reaches its end
            progress->bytesDone.store(done);
            progress->filesDone.fetch_add(1);
        }
    }
    timeline.cancelled = cancel && cancel->load();

    double origin = INFINITY, end = -INFINITY;
    for (const StepLane &l : std::as_const(timeline.lanes))
        for (const TimelineStep &s : l.steps) {
            origin = std::min(origin, s.startUs);
            end = std::max(end, s.startUs + s.durUs);
        }
    if (std::isfinite(origin)) {
        for (StepLane &l : timeline.lanes)
            for (TimelineStep &s : l.steps)
                s.startUs -= origin;
        timeline.originUs = origin;
        timeline.endUs = end - origin;
    }
    std::stable_sort(timeline.lanes.begin(), timeline.lanes.end(), [](const StepLane &a, const StepLane &b) {
        if ((a.rank < 0) != (b.rank < 0))
            return b.rank < 0;
        if (a.rank != b.rank)
            return a.rank < b.rank;
        return a.path < b.path;
    });
    return timeline;
}

} // namespace sb
