#pragma once
// A result set as the views that show it share it: one immutable SweepResults behind a shared
// pointer. Views hold the same snapshot and read it, never a copy of their own kept in step by
// hand; a change (a cell arriving during a run) makes a new snapshot, which every view is handed,
// and leaves the old one as it was for anyone still reading it.
#include "results/Results.h"
#include <memory>

namespace sb {

using ResultSnapshot = std::shared_ptr<const SweepResults>;

// Never null: an empty result set when given none.
ResultSnapshot makeSnapshot(SweepResults results = {});
// A new snapshot: `from` with `cell` in place of its cell with the same index, else `cell`
// inserted in index order (the engine's run order, even when cells arrive out of order).
ResultSnapshot withCell(const ResultSnapshot &from, const CellResult &cell);
// Where the cell with this index is in `results.cells`; -1 when it is not there.
int rowOfCell(const SweepResults &results, int cellIndex);

} // namespace sb
