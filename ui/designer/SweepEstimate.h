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

// Duration model: a request takes ~(50 ms + output tokens × 20 ms) (a mid-size model decoding at
// ~50 tok/s per stream), C requests run at once, plus warmup and ~1 s of hooks per cell.
SweepEstimate estimateSweep(const SweepSpec &spec);
QString formatDuration(double seconds); // "45 s", "3 min", "1 h 20 min"
QString estimateText(const SweepSpec &spec);

} // namespace sb::ui
