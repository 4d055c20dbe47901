#include "engine/SweepTimeEstimate.h"
#include "mock/MockServer.h"
#include <algorithm>
#include <cmath>
#include <optional>

namespace sb {

namespace {
constexpr int kDefaultRequests = 100; // the engine's default when neither requests nor duration is set
// A real server's speed is unknown until it runs: a mid-size model decoding at ~50 tok/s per stream.
constexpr double kPerTokenS = 0.020;
constexpr double kFirstTokenS = 0.050;
constexpr double kHooksPerCellS = 1.0; // reset, profiler start/stop, results written

// Seconds for `requests` requests at concurrency `c` against an embedded mock: its own timing
// model (MockConfig), in waves of at most max_batch requests that prefill together and then
// decode together, one step per output token.
double mockPhaseSeconds(const MockConfig &m, const WorkloadSpec &w, int c, int requests)
{
    const int running = std::max(1, std::min(c, m.maxBatch));
    const double stepMs = m.stepBaseMs + m.stepPerSeqMs * running;
    const double prefillTokens = double(std::max(1, w.inputTokens)) * running;
    const double prefillSteps = std::max(1.0, std::ceil(prefillTokens / std::max(1, m.maxPrefillTokens)));
    const double prefillMs = prefillSteps * stepMs + m.prefillPerTokenMs * prefillTokens;
    const double waveMs = prefillMs + std::max(1, w.outputTokens) * stepMs;
    return std::ceil(double(requests) / running) * waveMs / 1000.0;
}

double realPhaseSeconds(const WorkloadSpec &w, int c, int requests)
{
    const double perRequest = kFirstTokenS + std::max(1, w.outputTokens) * kPerTokenS;
    return std::ceil(double(requests) / c) * perRequest;
}
} // namespace

double estimateCellSeconds(const SweepSpec &spec, const ServerSpec &server, int c)
{
    if (c <= 0)
        return 0;
    std::optional<MockConfig> mock;
    if (!server.mock.isEmpty())
        if (const auto flavor = flavorFromString(server.mock))
            mock = mockDefaults(*flavor);
    const WorkloadSpec &w = spec.workload;
    const auto phase = [&](int requests) { return mock ? mockPhaseSeconds(*mock, w, c, requests) : realPhaseSeconds(w, c, requests); };
    double cell = 0;
    if (w.durationS > 0) // the last requests (one wave) drain after the deadline
        cell = w.durationS + phase(mock ? std::min(c, mock->maxBatch) : c);
    else
        cell = phase(w.requestsPerCell > 0 ? w.requestsPerCell : kDefaultRequests);
    if (w.warmupRequests > 0)
        cell += phase(w.warmupRequests);
    return cell + kHooksPerCellS;
}

double estimateRateCellSeconds(const SweepSpec &spec, const ServerSpec &server, double rate)
{
    if (!(rate > 0))
        return 0;
    // Open loop: the schedule sets the time (requests / R, or the duration), plus one request to
    // drain; the warmup is closed-loop at up to max_concurrency.
    const WorkloadSpec &w = spec.workload;
    const double sending = w.durationS > 0 ? w.durationS : double(w.requestsPerCell > 0 ? w.requestsPerCell : kDefaultRequests) / rate;
    SweepSpec one = spec;
    one.workload.durationS = 0;
    one.workload.warmupRequests = 0;
    one.workload.requestsPerCell = 1;
    double cell = sending + estimateCellSeconds(one, server, 1);
    if (w.warmupRequests > 0) {
        one.workload.requestsPerCell = w.warmupRequests;
        cell += estimateCellSeconds(one, server, std::max(1, std::min(spec.openLoop.maxConcurrency, w.warmupRequests))) - kHooksPerCellS;
    }
    return cell;
}

double estimateServerSeconds(const SweepSpec &spec, const ServerSpec &server)
{
    double s = 0;
    for (int c : spec.concurrency)
        s += estimateCellSeconds(spec, server, c);
    for (double r : spec.openLoop.rates)
        s += estimateRateCellSeconds(spec, server, r);
    return s * std::max(1, spec.repeats); // every repeat is a whole cell
}

int assumedTokensPerStreamSecond() { return int(1 / kPerTokenS); }

} // namespace sb
