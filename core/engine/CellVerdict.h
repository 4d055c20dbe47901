#pragma once
// A measured cell's status from its requests: a number is only as good as the worst request
// behind it, so a cell whose requests partly failed is never silently `completed`
// (docs/ARCHITECTURE.md §12).
//   - cancelled: the user stopped it;
//   - failed: no measured request succeeded (reason names the most frequent error);
//   - degraded: the error rate is above the spec's max_error_rate;
//   - completed: otherwise; any failed request still gives a warning.
#include "results/Results.h"

namespace sb {

struct CellVerdict {
    CellStatus status = CellStatus::Completed;
    double errorRate = 0;
    QString reason;
    QStringList warnings;
};

// `cell` carries the request counts and the errors map; cancelled requests are in neither.
CellVerdict judgeCell(const CellResult &cell, double maxErrorRate, bool cancelled);
// The most frequent error kind (ties: the first by name), or empty.
QString topError(const QMap<QString, int> &errors);
// One line for a finished cell, as the CLI and the run monitor's log print it:
// "cell 3 vllm c=8: degraded, 60 ok / 4 failed (6.2 %), TTFT p50 12.1 ms, 950 tok/s — reason".
QString cellOutcomeLine(const CellResult &cell);

} // namespace sb
