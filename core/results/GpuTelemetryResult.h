#pragma once
// A cell's GPU telemetry and cost inputs as results.json keeps them (docs/gpu-telemetry.md):
// what the GPU exporters (NVIDIA dcgm-exporter) said over the measured phase ("gpu_telemetry",
// filled by engine/CellTelemetry.h from servermetrics/GpuTelemetry.h) and the price the spec
// gave the server's GPUs ("cost"). The per-token figures derived from them (joules per token,
// dollars per million tokens) are computed where every metric is read, metrics/MetricCatalogue
// cellValue(), so one rule serves tables, charts, CSV and reports. The JSON mapping is in
// results/ResultsJsonParts.cpp.
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <cmath>
#include <optional>

namespace sb {

// Where a cell's energy came from: the exporters' energy counter (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION,
// its increase over the phase) or, without a usable counter, the power gauge integrated over the
// phase. Named only in JSON and the views' text.
enum class EnergySource { None, Counter, PowerIntegral };
QString energySourceName(EnergySource s);              // "", "counter", "power_integral"
EnergySource energySourceFromString(QStringView s);   // None for "" and unknown words

// What read the GPUs: exporters scraped over HTTP (dcgm-exporter), or nvidia-smi sampled on the
// benchmark's own machine (no energy counter: energy is always the power integral).
enum class TelemetrySource { Exporter, NvidiaSmi };
QString telemetrySourceName(TelemetrySource s);            // "dcgm-exporter", "nvidia-smi"
TelemetrySource telemetrySourceFromString(QStringView s);  // Exporter for unknown words (older results)

// A gauge over the phase's scrapes; NaN when no scrape had it.
struct GaugeSummary {
    double avg = NAN, max = NAN;
    bool has() const { return std::isfinite(avg); }
    bool operator==(const GaugeSummary &o) const;
};

struct GpuTelemetryResult {
    TelemetrySource source = TelemetrySource::Exporter;
    QString series;              // relative to the results folder: cells/<dir>/gpu_telemetry.jsonl; empty for nvidia-smi
    QStringList exporters;       // the origins scraped (scheme://host:port), in spec order; ["nvidia-smi"]
    int scrapes = 0, failedScrapes = 0; // nvidia-smi: its readings (one per period, all GPUs)
    double windowS = NAN;        // from the first to the last scrape that answered
    int gpus = 0;                // distinct GPUs seen (by UUID, else exporter + gpu index)
    QStringList models;          // their modelName labels, each once, sorted
    GaugeSummary utilizationPct; // DCGM_FI_DEV_GPU_UTIL, %, mean over the GPUs
    GaugeSummary smActive;       // DCGM_FI_PROF_SM_ACTIVE, 0..1, mean over the GPUs
    GaugeSummary memoryUsedMib;  // DCGM_FI_DEV_FB_USED, MiB, summed over the GPUs
    GaugeSummary powerW;         // DCGM_FI_DEV_POWER_USAGE, W, summed over the GPUs
    double energyJ = NAN;        // summed over the GPUs, over the window
    EnergySource energySource = EnergySource::None;
    bool operator==(const GpuTelemetryResult &o) const;
};

// The spec's `cost:` as it applied to the cell's server.
struct CellCost {
    double gpuHour = 0;          // dollars per GPU-hour
    int gpus = 0;
    bool operator==(const CellCost &) const = default;
};

QJsonObject toJson(const GpuTelemetryResult &t);
std::optional<GpuTelemetryResult> gpuTelemetryFromJson(const QJsonValue &v); // none unless an object
QJsonObject toJson(const CellCost &c);
std::optional<CellCost> cellCostFromJson(const QJsonValue &v);               // none unless an object

} // namespace sb
