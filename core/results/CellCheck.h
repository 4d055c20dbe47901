#pragma once
// What a cell read back from results.json must be before `run --resume` trusts it: the types
// SweepBench writes, counts that are whole numbers from 0, finite numbers in their ranges (a
// measured phase under a day), a records path inside the results folder, at most
// kMaxTimeSlices time slices. The JSON mapping (results/Results.h) reads leniently, for views;
// a resume keeps cells as measurements, so a cell that is not sound is named, key by key,
// instead of being silently kept as it is or re-run as if it were pending.
#include <QJsonObject>
#include <QStringList>

namespace sb {

// A measured phase this long or longer is not one SweepBench ran.
inline constexpr double kMaxCellSeconds = 24 * 3600;

// The problems of one stored cell, `position` its place in "cells", one line each, e.g.
// "cells[3] (a, c=4): requests.completed: expected a whole number from 0, got -5". Empty when sound.
QStringList storedCellProblems(const QJsonObject &cell, int position);

} // namespace sb
