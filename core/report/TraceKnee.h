#pragma once
// The knee explained from the profiler traces (docs/traces.md "The knee"): across one server's
// cells, where the engine's batch stops growing — the point past which more load queues requests
// instead of batching them — and what the step time does meanwhile (keeps rising: the steps get
// slower; stays: the batch is full). Results, Compare and report.html show the same sentences.
#include "results/Results.h"
#include <QStringList>

namespace sb {

// One server's curve as the traces tell it, in load order (repeats of a point averaged).
struct TraceKneePoint {
    double point = 0;       // concurrency, or requests/s
    double stepP50Ms = 0;   // engine step time p50 (the most frequent step kind)
    double batch = -1;      // mean batch size per step; -1 where the steps carry no batch label
    double throughput = -1; // output tokens/s; -1 unknown
    double ttftP50Ms = -1;  // -1 unknown
};

struct TraceKnee {
    QString server;
    QList<TraceKneePoint> points;
    int kneeIndex = -1;     // into points: where the batch (or throughput) stopped growing; -1: none within the sweep
    bool stepsRising = false; // past the knee the step time rose by more than kKneeRiseShare
    bool byBatch = false;   // judged by batch size (else by throughput: the steps had no batch labels)
    QString sentence;       // empty when the server has fewer than 3 profiled points
};

// Thresholds: a batch (throughput) "stops growing" at the first point no later point exceeds by
// more than kKneeFlatShare; the step time "keeps rising" when the last point's exceeds the
// knee's by more than kKneeRiseShare. Both well outside the run-to-run spread of a median.
inline constexpr double kKneeFlatShare = 0.10;
inline constexpr double kKneeRiseShare = 0.15;

// Per server of `results`, in first-appearance order; servers without 3 profiled points with
// steps are left out.
QList<TraceKnee> traceKnees(const SweepResults &results);
// Just the sentences, for views that show them as text.
QStringList traceKneeSentences(const SweepResults &results);

} // namespace sb
