#pragma once
// The hook check's look at a server's GPU telemetry (`telemetry:`, docs/gpu-telemetry.md): one
// bounded scrape of each exporter — does it answer metrics, how many GPUs does it report, is the
// energy counter there — or, for `nvidia_smi: true`, one reading of nvidia-smi on this machine.
// Reported as HookOutcomes of kind gpu_telemetry, so the CLI's table and the designer's check
// show them; a failure is a warning (a sweep still measures its cells, without GPU figures).
// Blocking: runs on the preflight's thread.
#include "hooks/ControlClient.h"
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <atomic>

namespace sb {

// Seconds one exporter scrape may take in the check.
inline constexpr double kTelemetryCheckTimeoutS = 5;

HookOutcome checkTelemetry(ControlClient &client, const TelemetrySpec &t, const std::atomic<bool> *cancel);

} // namespace sb
