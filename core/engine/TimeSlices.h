#pragma once
// A cell's measured phase cut into fixed slices (1 s by default) so ramp-up, drift and stalls
// show (docs/spec-reference.md "Time slices"). Per slice: requests sent, ended ok and failed,
// output tokens of the requests that ended in it and their throughput over the slice, the
// time-weighted mean in flight, and TTFT p50/p99 of the requests sent in it.
#include "load/RequestRecord.h"
#include "results/Results.h"
#include <QJsonArray>
#include <vector>

namespace sb {

// More slices than kMaxTimeSlices (results/Results.h) and the slice widens (in whole seconds):
// a cell's slices stay under ~26 KB, so even kMaxResultsCells cells fit results.json's read
// bound (io/ReadLimits.h).

struct TimeSlice {
    double startS = 0;        // from the phase's first send
    double lengthS = 1;
    int sent = 0;
    int completed = 0;        // ended ok in the slice
    int failed = 0;           // ended failed in the slice (cancelled ones not counted)
    std::int64_t outputTokens = 0;
    double meanInFlight = 0;  // time-weighted over the slice
    double ttftP50Ms = -1, ttftP99Ms = -1; // of ok streamed requests sent in the slice; -1 = none
};

std::vector<TimeSlice> computeTimeSlices(const std::vector<RequestRecord> &records, double sliceS = 1.0);
QJsonArray timeSlicesJson(const std::vector<TimeSlice> &slices);
// The one reader of results.json's time_slices (views read slices through it, never the keys).
std::vector<TimeSlice> timeSlicesFromJson(const QJsonArray &json);
// Output tokens per second over the slice (0 for a zero-length slice).
inline double sliceThroughput(const TimeSlice &s) { return s.lengthS > 0 ? double(s.outputTokens) / s.lengthS : 0.0; }

} // namespace sb
