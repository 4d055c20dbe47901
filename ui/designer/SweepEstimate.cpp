#include "designer/SweepEstimate.h"
#include "engine/CalibrationReport.h"
#include "mock/MockServer.h"
#include <QObject>
#include <algorithm>
#include <cmath>
#include <optional>

namespace sb::ui {

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

SweepEstimate estimateSweep(const SweepSpec &spec)
{
    SweepEstimate e;
    e.cells = int(spec.servers.size() * spec.concurrency.size());
    const WorkloadSpec &w = spec.workload;
    int mocks = 0;
    for (const ServerSpec &server : spec.servers) {
        std::optional<MockConfig> mock;
        if (!server.mock.isEmpty())
            if (const auto flavor = flavorFromString(server.mock))
                mock = mockDefaults(*flavor);
        mocks += mock ? 1 : 0;
        const auto phase = [&](int c, int requests) { return mock ? mockPhaseSeconds(*mock, w, c, requests) : realPhaseSeconds(w, c, requests); };
        for (int c : spec.concurrency) {
            if (c <= 0)
                continue;
            double cell = 0;
            if (w.durationS > 0) // the last requests (one wave) drain after the deadline
                cell = w.durationS + phase(c, mock ? std::min(c, mock->maxBatch) : c);
            else
                cell = phase(c, w.requestsPerCell > 0 ? w.requestsPerCell : kDefaultRequests);
            if (w.warmupRequests > 0)
                cell += phase(c, w.warmupRequests);
            e.seconds += cell + kHooksPerCellS;
        }
    }
    if (mocks == spec.servers.size())
        e.assumption = QObject::tr("from the mock servers' timing model");
    else if (mocks > 0)
        e.assumption = QObject::tr("mocks by their timing model, real servers at ~%1 tok/s per stream").arg(int(1 / kPerTokenS));
    else
        e.assumption = QObject::tr("assumes ~%1 tok/s per stream").arg(int(1 / kPerTokenS));
    return e;
}

QString formatDuration(double s)
{
    if (s < 90)
        return QObject::tr("%1 s").arg(int(std::ceil(s)));
    if (s < 3600)
        return QObject::tr("%1 min").arg(int(std::round(s / 60)));
    const int minutes = int(std::round(s / 60));
    return QObject::tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

QString estimateText(const SweepSpec &spec)
{
    const SweepEstimate e = estimateSweep(spec);
    if (e.cells == 0)
        return QObject::tr("No cells yet: add a server and a concurrency level");
    // The lengths asked for and how prompts are sized (engine/CalibrationReport).
    return QObject::tr("%1 cells (%2 servers × %3 levels) · roughly %4 (%5) · %6")
        .arg(e.cells)
        .arg(spec.servers.size())
        .arg(spec.concurrency.size())
        .arg(formatDuration(e.seconds), e.assumption, workloadEstimateLine(spec.workload));
}

} // namespace sb::ui
