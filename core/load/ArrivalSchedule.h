#pragma once
// When each request of an open-loop phase is due (docs/spec-reference.md, `sweep.request_rate`).
// Request k is due at the sum of k gaps after the phase start (request 0 at once). The gaps are
// constant (1/R), exponential (Poisson arrivals) or gamma with shape = burstiness and mean 1/R —
// the meaning vLLM's `bench serve --burstiness` gives it: coefficient of variation 1/sqrt(shape).
//
// The schedule is a pure function of (arrival, rate, burstiness, seed): a seeded mt19937_64 (its
// output is fixed by the C++ standard) and our own transforms (the standard's distributions are
// not specified bit for bit, so libstdc++ and libc++ would disagree), so a run can be repeated
// and a test can recompute what the engine was asked to do.
#include "spec/SweepSpec.h"
#include <cstdint>
#include <mutex>
#include <random>
#include <vector>

namespace sb {

class ArrivalSchedule
{
public:
    // exactBlock > 0 (`sweep.rate_mean: exact`): the gaps are drawn exactBlock at a time and each
    // block is rescaled to sum to exactBlock / ratePerS, so requests 0..exactBlock are exactly at
    // the mean rate while every gap keeps its ratio to the others (the process's shape). The
    // engine passes the phase's request count - 1 (or rate x duration), so the cell's achieved
    // rate is the point's own rather than a sample's.
    ArrivalSchedule(Arrival arrival, double ratePerS, double burstiness, std::uint64_t seed, int exactBlock = 0);
    // Arrival::Trace: request k is due at the trace's k-th time (ms from its first entry, in file
    // order), all times scaled by (the trace's own mean rate / ratePerS), so each point keeps the
    // trace's bursts at its own mean rate. Past the last entry the trace starts over one mean gap
    // after its end. Needs at least 2 times spanning more than 0 ms (traceRate() > 0).
    ArrivalSchedule(const std::vector<double> &traceMs, double ratePerS);
    // The trace's own mean rate, (entries - 1) / span; 0 when not a trace or the trace cannot pace.
    static double traceRate(const std::vector<double> &traceMs);
    // Offset of request `ticket` from the phase start, in ns. Thread-safe (the IO threads take
    // tickets concurrently); gaps are drawn in ticket order so the answer never depends on which
    // thread asked first.
    std::int64_t offsetNs(int ticket);
    double ratePerS() const { return m_rate; }
    // Arrival::Trace: phase seconds per trace second (a dataset session's later turns keep the
    // trace's own gaps at this speed); 0 for the other arrivals.
    double traceScale() const { return m_traceScale; }

private:
    double nextGapS();
    void drawExactBlock();
    double uniform01();   // (0, 1)
    double normal();
    double gamma(double shape);

    const Arrival m_arrival;
    const double m_rate;
    std::vector<double> m_traceS;        // Trace: the times, already scaled to m_rate
    double m_traceCycleS = 0;            // Trace: scaled span + one mean gap
    double m_traceScale = 0;             // Trace: phase time per trace time
    const double m_shape;
    const int m_exactBlock;              // 0: gaps keep their sampled mean
    std::mt19937_64 m_rng;
    std::mutex m_mutex;
    std::vector<std::int64_t> m_offsets; // known offsets, ticket order
    double m_sumS = 0;                   // kept in double: no rounding drift over many gaps
};

} // namespace sb
