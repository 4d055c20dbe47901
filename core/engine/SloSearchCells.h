#pragma once
// The engine's side of the SLO search (metrics/SloSearch.h): once every planned cell has run,
// the next cell to measure — for the first server (in spec order) this run owns whose bracket is
// still wider than sweep.slo_search.resolution — appended after the planned ones.
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <functional>
#include <optional>

namespace sb {

std::optional<CellResult> nextSloSearchCell(const SweepSpec &spec, const SweepResults &results, const std::function<bool(int)> &ownsServer);
// Index in spec.servers of a cell's server; -1 when none has that name.
int serverIndexOf(const SweepSpec &spec, const QString &server);

} // namespace sb
