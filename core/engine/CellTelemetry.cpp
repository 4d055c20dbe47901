#include "engine/CellTelemetry.h"
#include "servermetrics/GpuTelemetry.h"

namespace sb {

namespace {
// An exporter as messages name it: its origin and path (never a query or credentials).
QString exporterName(const QString &url)
{
    const QUrl u(url);
    return originOf(url) + u.path();
}
} // namespace

void CellTelemetry::start(const QList<TelemetrySpec> &exporters, const QString &cellDir, std::shared_ptr<const SecretSet> secrets)
{
    if (exporters.size() == 1 && exporters.front().nvidiaSmi) { // the validator keeps it alone
        startNvidiaSmi(exporters.front());
        return;
    }
    QList<ScrapeTarget> targets;
    for (const TelemetrySpec &t : exporters) {
        if (m_knownMissing->contains(t.url))
            continue;
        QList<QPair<QByteArray, QByteArray>> headers;
        for (const auto &[name, value] : t.headers)
            headers.append({name.toUtf8(), value.toUtf8()});
        targets.append({originOf(t.url), QUrl(t.url), headers});
        m_exporters.append(t);
    }
    if (targets.isEmpty())
        return;
    m_scraper = std::make_unique<MetricsScraper>(targets, kIntervalS, cellDir + QStringLiteral("/gpu_telemetry.jsonl.part"), std::move(secrets));
    m_scraper->setKeep(isGpuTelemetrySample, kMaxTelemetrySamples);
    m_scraper->start();
}

void CellTelemetry::startNvidiaSmi(const TelemetrySpec &t)
{
    const QString program = t.program.isEmpty() ? NvidiaSmiSampler::sourceName() : t.program;
    if (m_knownMissing->contains(program))
        return;
    m_smi = std::make_unique<NvidiaSmiSampler>(NvidiaSmiOptions{t.program, t.intervalMs});
    if (!m_smi->start(&m_smiStartError)) {
        m_knownMissing->insert(program);
        m_smi.reset();
    }
}

void CellTelemetry::stop()
{
    if (m_scraper)
        m_scraper->stop(0);
    if (m_smi)
        m_smi->stop();
}

void CellTelemetry::finishNvidiaSmi(CellResult &cell)
{
    if (!m_smiStartError.isEmpty()) {
        cell.warnings.append(m_smiStartError + QStringLiteral(": no GPU telemetry in this sweep"));
        m_smiStartError.clear();
    }
    if (!m_smi)
        return;
    m_smi->stop(); // no-op when stop() came first
    cell.warnings.append(m_smi->warnings());
    GpuTelemetrySummary sum = aggregateGpuTelemetry(m_smi->points(), /*counterExpected=*/false);
    if (sum.result.scrapes > 0) {
        GpuTelemetryResult &r = sum.result;
        r.source = TelemetrySource::NvidiaSmi;
        r.exporters = {NvidiaSmiSampler::sourceName()};
        cell.warnings.append(sum.warnings);
        cell.gpuTelemetry = std::move(r);
    }
    m_smi.reset();
}

bool CellTelemetry::finish(std::int64_t phaseStartNs, const QString &relativeSeriesPath, const QString &absoluteSeriesPath, CellResult &cell,
                           QString *error)
{
    finishNvidiaSmi(cell);
    if (!m_scraper)
        return true;
    m_scraper->stop(0); // no-op when stop() came first
    for (const MissingEndpoint &m : m_scraper->missing()) {
        for (const TelemetrySpec &t : std::as_const(m_exporters))
            if (originOf(t.url) == m.origin) {
                m_knownMissing->insert(t.url);
                cell.warnings.append(QStringLiteral("no GPU telemetry from %1 (%2): not scraped again in this sweep "
                                                    "(dcgm-exporter serves Prometheus text at :9400/metrics)")
                                         .arg(exporterName(t.url), m.reason));
            }
    }
    if (m_scraper->failedScrapes() > 0)
        cell.warnings.append(QStringLiteral("%1 GPU telemetry scrapes failed (first: %2)").arg(m_scraper->failedScrapes()).arg(m_scraper->firstFailure()));
    GpuTelemetrySummary sum = aggregateGpuTelemetry(m_scraper->points());
    if (sum.result.scrapes > 0) {
        if (!m_scraper->publish(phaseStartNs, absoluteSeriesPath, error))
            return false;
        GpuTelemetryResult &r = sum.result;
        r.series = relativeSeriesPath;
        r.failedScrapes = m_scraper->failedScrapes();
        for (const TelemetrySpec &t : std::as_const(m_exporters))
            if (!m_knownMissing->contains(t.url))
                r.exporters.append(exporterName(t.url));
        if (r.gpus == 0)
            cell.warnings.append(QStringLiteral("the GPU exporters answered without any of the DCGM fields SweepBench reads "
                                                "(DCGM_FI_DEV_POWER_USAGE, DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, …)"));
        cell.warnings.append(sum.warnings);
        cell.gpuTelemetry = std::move(r);
    }
    m_scraper.reset(); // removes the part file when nothing was published
    return true;
}

} // namespace sb
