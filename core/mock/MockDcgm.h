#pragma once
// The mock's GPUs as NVIDIA's dcgm-exporter shows them (docs/gpu-telemetry.md): GET /dcgm/metrics
// answers the DCGM fields SweepBench reads for MockConfig::dcgmGpus GPUs, driven by the mock's
// own scheduler, so energy per token can be checked end to end. Each GPU works on the whole batch
// (tensor parallel): its power is kIdleW + kWattsPerSequence × the sequences running; its energy
// counter (mJ since "boot", from an arbitrary start) integrates kIdleW over time plus
// kWattsPerSequence over every finished step's batch × duration. GPU utilisation is 100 % while
// any sequence runs, SM activity the batch's share of max_batch, frame buffer a model's worth
// plus the prefix cache. Lives in the server thread.
#include "mock/MockServer.h"
#include <QByteArray>

namespace sb {

class MockScheduler;
struct MockStepRecord;

class MockDcgm
{
public:
    static constexpr double kIdleW = 70;
    static constexpr double kWattsPerSequence = 4;
    static constexpr double kBootEnergyMj = 5.0e9; // the counter is since boot, not since the mock

    MockDcgm();
    void onStep(const MockStepRecord &step);
    // Status and body of a GET /dcgm/metrics: 404 when the mock has no GPUs (dcgmGpus 0).
    int answer(const MockConfig &cfg, const MockScheduler &scheduler, QByteArray *contentType, QByteArray *body) const;

private:
    qint64 m_startNs = 0;
    double m_sequenceSeconds = 0; // Σ batch × step duration over finished steps
};

} // namespace sb
