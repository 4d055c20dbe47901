#pragma once
// The one vocabulary for a cell's outcome. The enum is used everywhere in C++; the strings exist
// only where results.json, CSV and reports are read and written (cellStatusName / cellStatusFromString;
// not named toString, which would hide QTest's toString from QCOMPARE on statuses).
#include <QString>
#include <optional>

namespace sb {

enum class CellStatus {
    Pending,   // not run yet (a resumed or still running sweep)
    Completed, // measured; failed requests, if any, at or below the spec's max_error_rate
    Degraded,  // measured, but more requests failed than max_error_rate allows
    Failed,    // not measured (a hook failed) or no measured request succeeded
    Skipped,   // not run: an earlier cell aborted the sweep
    Cancelled, // stopped by the user
};

QString cellStatusName(CellStatus s); // "pending", "completed", "degraded", "failed", "skipped", "cancelled"
std::optional<CellStatus> cellStatusFromString(const QString &s);
// The cell holds measurements that may be plotted and compared (completed or degraded).
bool hasMeasurements(CellStatus s);
// Anything but completed: the sweep did not fully succeed (exit code 1, a mark in every view).
inline bool isProblem(CellStatus s) { return s != CellStatus::Completed; }

} // namespace sb
