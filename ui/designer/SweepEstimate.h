#pragma once
// A rough, honest estimate of a sweep's size and duration for the designer's status line.
#include "spec/SweepSpec.h"
#include <QString>

namespace sb::ui {

struct SweepEstimate {
    int cells = 0;
    double seconds = 0; // rough wall time; assumptions are in `assumption`
    QString assumption;
};

// Duration model: embedded mocks by their own timing model (waves of up to max_batch requests
// that prefill, then decode one step per token); real servers at ~(50 ms + output tokens × 20 ms)
// per request (a mid-size model decoding at ~50 tok/s per stream), C at once; plus warmup and
// ~1 s of hooks per cell.
SweepEstimate estimateSweep(const SweepSpec &spec);
QString formatDuration(double seconds); // "45 s", "3 min", "1 h 20 min"
QString estimateText(const SweepSpec &spec);

} // namespace sb::ui
