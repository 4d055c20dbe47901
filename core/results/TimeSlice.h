#pragma once
// One slice of a cell's measured phase as results.json keeps it (cells[].time_slices): filled by
// engine/TimeSlices.h, read by the views. The JSON mapping is in results/Results.cpp with the
// rest of results.json's.
#include <QJsonArray>
#include <cstdint>
#include <vector>

namespace sb {

// Time slices one cell holds at most: engine/TimeSlices.h widens its slices to stay within it,
// and a stored cell holding more is not one SweepBench wrote (results/CellCheck.h).
inline constexpr int kMaxTimeSlices = 120;

struct TimeSlice {
    double startS = 0;        // from the phase's first send
    double lengthS = 1;
    int sent = 0;
    int completed = 0;        // ended ok in the slice
    int failed = 0;           // ended failed in the slice (cancelled ones not counted)
    std::int64_t outputTokens = 0;
    double meanInFlight = 0;  // time-weighted over the slice
    double ttftP50Ms = -1, ttftP99Ms = -1; // of ok streamed requests sent in the slice; -1 = none
    bool operator==(const TimeSlice &) const = default;
};

// Output tokens per second over the slice (0 for a zero-length slice).
inline double sliceThroughput(const TimeSlice &s) { return s.lengthS > 0 ? double(s.outputTokens) / s.lengthS : 0.0; }

// results.json's time_slices, written and read only here (the throughput is derived on writing).
QJsonArray timeSlicesJson(const std::vector<TimeSlice> &slices);
std::vector<TimeSlice> timeSlicesFromJson(const QJsonArray &json);

} // namespace sb
