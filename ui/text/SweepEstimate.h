#pragma once
// A rough, honest estimate of a sweep's size and duration for the designer's status line.
#include "spec/SweepSpec.h"
#include <QString>

namespace sb::ui {

struct SweepEstimate {
    int cells = 0;       // planned: servers (each launch variant one) × points × repeats
    int servers = 0;     // launch variants counted as the servers they run as
    int searchCells = 0; // at most this many more when an SLO search follows the points
    double seconds = 0; // rough wall time; assumptions are in `assumption`
    QString assumption;
};

// The duration model is the engine's (engine/SweepTimeEstimate.h): cluster shards are balanced
// by the same numbers the designer shows.
SweepEstimate estimateSweep(const SweepSpec &spec);
QString formatDuration(double seconds); // "45 s", "3 min", "1 h 20 min"
QString estimateText(const SweepSpec &spec);

} // namespace sb::ui
