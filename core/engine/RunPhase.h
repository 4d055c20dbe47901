#pragma once
// The phases a running cell reports (docs/ARCHITECTURE.md §5), in run order. The enum is used
// everywhere in C++; the names exist only where they are shown (progress lines, the Run tab),
// the same pattern as CellStatus (runPhaseName, not toString: an ADL toString hides QTest's).
#include <QString>

namespace sb {

enum class RunPhase {
    Starting,      // before the first cell (or between cells)
    Reset,         // cache reset on each origin
    Warmup,        // warmup requests, drained before anything is measured
    ProfilerStart,
    Measure,       // the measured phase
    ProfilerStop,
    Done,          // the sweep has ended
};

QString runPhaseName(RunPhase p); // "starting", "reset", "warmup", "profiler_start", "measure", "profiler_stop", "done"

} // namespace sb
