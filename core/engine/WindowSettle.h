#pragma once
// After a profiler window closes, the server may still be busy with it: vLLM's stop answers
// while the API server's trace is still being written (it took 15 s, 76 s, then more than 120 s
// on the CPU build), and a next cell started then measures that work too, or fails to open its
// own window. Before the next cell, wait until the window has settled: every origin answers
// HTTP again and the files the window wrote have stopped growing. Bounded by
// server_profiler.settle_timeout_seconds (docs/server-metrics.md "Profiler windows").
#include "hooks/HookRunner.h"
#include "hooks/TraceListing.h"
#include "results/Results.h"
#include <QList>
#include <atomic>

namespace sb {

// A stop slower than this, or one that failed, is followed by a full settle; after a quick,
// good stop one short look at the trace files is enough.
inline constexpr double kSlowStopS = 5;

struct SettleOptions {
    double timeoutS = 120;     // 0: do not wait
    double pollS = 1;          // between two looks at the server and the files
    double quickLookS = 0.2;   // after a quick, good stop: files compared once over this span
};

// `stops`: the cell's profiler_stop outcomes (one per origin). `traces`: the snapshot taken
// before the window opened, so the files it wrote can be found.
ProfilerWindowResult settleProfilerWindow(const QList<HookTarget> &origins, const QList<HookOutcome> &stops,
                                          const TraceSnapshot &traces, const SettleOptions &options,
                                          const std::atomic<bool> &cancel);

} // namespace sb
