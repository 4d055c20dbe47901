#pragma once
// A cell's measured phase cut into fixed slices (1 s by default) so ramp-up, drift and stalls
// show (docs/spec-reference.md "Time slices"). Per slice: requests sent, ended ok and failed,
// output tokens of the requests that ended in it and their throughput over the slice, the
// time-weighted mean in flight, and TTFT p50/p99 of the requests sent in it.
#include "load/RequestRecord.h"
#include "results/TimeSlice.h"
#include <vector>

namespace sb {

// More slices than kMaxTimeSlices (results/TimeSlice.h) and the slice widens (in whole seconds):
// a cell's slices stay under ~26 KB, so even kMaxResultsCells cells fit results.json's read
// bound (io/ReadLimits.h).
std::vector<TimeSlice> computeTimeSlices(const std::vector<RequestRecord> &records, double sliceS = 1.0);

} // namespace sb
