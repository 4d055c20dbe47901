#pragma once
// GPU telemetry from NVIDIA's dcgm-exporter (Prometheus text; docs/gpu-telemetry.md): the DCGM
// fields a cell summarises, which samples the scraper keeps for them, and the summary of one
// measured phase's scrapes. One series per GPU and field, labelled gpu="0", UUID="GPU-…",
// Hostname="…", modelName="NVIDIA H100 80GB HBM3"; the mock's /dcgm/metrics writes the same names.
#include "results/GpuTelemetryResult.h"
#include "servermetrics/MetricsScraper.h"
#include <QStringList>
#include <vector>

namespace sb {

namespace dcgm {
inline constexpr char kGpuUtil[] = "DCGM_FI_DEV_GPU_UTIL";                   // gauge, %
inline constexpr char kSmActive[] = "DCGM_FI_PROF_SM_ACTIVE";                // gauge, ratio 0..1
inline constexpr char kFbUsed[] = "DCGM_FI_DEV_FB_USED";                     // gauge, MiB
inline constexpr char kPower[] = "DCGM_FI_DEV_POWER_USAGE";                  // gauge, W
inline constexpr char kEnergy[] = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";    // counter, mJ since boot
// Labels: a GPU is known by its UUID, else by its exporter, host and index.
inline constexpr char kUuidLabel[] = "UUID";
inline constexpr char kGpuLabel[] = "gpu";
inline constexpr char kHostLabel[] = "Hostname";
inline constexpr char kModelLabel[] = "modelName";
} // namespace dcgm

// The samples of one scrape kept in memory are bounded: 5 fields of this many GPUs. The rest of
// an answer goes to the series file only (the scraper bounds that too).
inline constexpr int kMaxTelemetryGpus = 512;
inline constexpr int kMaxTelemetrySamples = 5 * kMaxTelemetryGpus;

// Is this sample one of the DCGM fields above (kept in memory for the summary)?
bool isGpuTelemetrySample(const MetricsScrape &scrape, const MetricSample &s);

struct GpuTelemetrySummary {
    GpuTelemetryResult result;   // scrapes, window, GPUs, models, gauges, energy and its source
    QStringList warnings;        // why energy came from the power integral, or is missing
};

// The scrapes of every exporter over one measured phase, in scrape order (each point names its
// exporter's origin). Gauges: per scrape, fractions average over the GPUs and power and memory
// add up; avg and max over each exporter's scrapes, then added over exporters (max: an upper
// bound, as exporters are scraped at different times). Energy: each GPU's counter increase
// (restarts counted as in the server metrics), summed; when any GPU lacks two counter readings,
// or a counter stood still while its GPU drew power (the exporter's own collection interval is
// longer than the phase), every GPU's power integrated over the scrapes (trapezoids) instead.
// `counterExpected` false (nvidia-smi has no energy counter): the power integral is the energy,
// without a warning.
GpuTelemetrySummary aggregateGpuTelemetry(const std::vector<ScrapePoint> &points, bool counterExpected = true);

} // namespace sb
