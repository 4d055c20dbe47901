#pragma once
// The GPUs' side of one cell (docs/gpu-telemetry.md): scrapes the GPU exporters the spec names
// for the server (`telemetry:`) with the server-metrics scraper, from right before the measured
// phase's first send to right after its last answer, publishes the series
// (gpu_telemetry.jsonl beside records.jsonl) and puts the summary into the cell. With
// `telemetry: [{nvidia_smi: true}]` it samples nvidia-smi on this machine over the same window
// instead (launch/NvidiaSmiSampler.h; no series file).
#include "launch/NvidiaSmiSampler.h"
#include "servermetrics/MetricsScraper.h"
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <QSet>
#include <memory>

namespace sb {

class CellTelemetry
{
public:
    // Exporters found not to serve metrics (by URL) stay off for the rest of the sweep; so does
    // an nvidia-smi that could not be started (its program's name).
    explicit CellTelemetry(QSet<QString> *knownMissing) : m_knownMissing(knownMissing) {}

    // Scrapes every exporter once (waited for) and starts the periodic scrapes; nothing when
    // there are none. `cellDir`: absolute cell folder.
    void start(const QList<TelemetrySpec> &exporters, const QString &cellDir, std::shared_ptr<const SecretSet> secrets);
    bool started() const { return m_scraper != nullptr || m_smi != nullptr; }
    // One last scrape of every exporter, now: the phase's energy window ends with its last answer.
    void stop();
    // Publishes the series with times relative to `phaseStartNs` and fills cell.gpuTelemetry and
    // its warnings. False (and *error) only when the series could not be written.
    bool finish(std::int64_t phaseStartNs, const QString &relativeSeriesPath, const QString &absoluteSeriesPath, CellResult &cell,
                QString *error);

    // Seconds between scrapes: the power gauge's samples for the average, the maximum and the
    // integral (dcgm-exporter itself collects every 30 s unless started with -c MS).
    static constexpr double kIntervalS = 0.5;

private:
    QSet<QString> *m_knownMissing;
    QList<TelemetrySpec> m_exporters;        // those scraped this cell
    std::unique_ptr<MetricsScraper> m_scraper;
    std::unique_ptr<NvidiaSmiSampler> m_smi;
    QString m_smiStartError;          // the cell's warning when nvidia-smi did not start

    void startNvidiaSmi(const TelemetrySpec &t);
    void finishNvidiaSmi(CellResult &cell);
};

} // namespace sb
