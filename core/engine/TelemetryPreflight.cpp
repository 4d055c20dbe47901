#include "engine/TelemetryPreflight.h"
#include "launch/NvidiaSmiSampler.h"
#include "servermetrics/GpuTelemetry.h"
#include "servermetrics/PrometheusText.h"
#include <QDateTime>
#include <QElapsedTimer>
#include <algorithm>
#include <chrono>
#include <thread>

namespace sb {

namespace {
// "2 GPUs (NVIDIA H100 80GB HBM3), energy counter present"
QString gpuSummary(const std::vector<ScrapePoint> &points, bool counterExpected)
{
    const GpuTelemetryResult r = aggregateGpuTelemetry(points, counterExpected).result;
    QString text = QStringLiteral("%1 GPU%2").arg(r.gpus).arg(r.gpus == 1 ? QString() : QStringLiteral("s"));
    if (!r.models.isEmpty())
        text += QStringLiteral(" (%1)").arg(r.models.join(QStringLiteral(", ")));
    return text;
}

HookOutcome checkNvidiaSmi(const TelemetrySpec &t)
{
    HookOutcome o;
    o.hook = HookKind::GpuTelemetry;
    o.origin = NvidiaSmiSampler::sourceName();
    o.method = QLatin1String(kProgramRunMethod);
    o.path = t.program.isEmpty() ? NvidiaSmiSampler::sourceName() : t.program;
    o.attempts = 1;
    o.at = QDateTime::currentDateTimeUtc();
    QElapsedTimer timer;
    timer.start();
    NvidiaSmiSampler sampler(NvidiaSmiOptions{t.program, t.intervalMs});
    QString error;
    if (!sampler.start(&error)) {
        o.verdict = HookVerdict::Error;
        o.message = error;
        o.latencyMs = double(timer.nsecsElapsed()) / 1e6;
        return o;
    }
    // The time to the first reading: the wait below is ours, not nvidia-smi's.
    o.latencyMs = double(timer.nsecsElapsed()) / 1e6;
    // start() returns at the first GPU's line; the other GPUs' lines of that reading follow it.
    // Stopped at once, nvidia-smi could be killed between them (a loaded machine) and the check
    // would count fewer GPUs than there are: one period passes first, bounded to keep it quick.
    std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp(t.intervalMs, 50, 1000)));
    sampler.stop();
    if (sampler.points().empty()) {
        o.verdict = HookVerdict::Error;
        o.message = sampler.warnings().join(QStringLiteral("; "));
        return o;
    }
    o.ok = true;
    o.verdict = HookVerdict::Ok;
    o.message = QStringLiteral("nvidia-smi runs: %1; energy will be its power integrated over each phase").arg(gpuSummary(sampler.points(), false));
    return o;
}
} // namespace

HookOutcome checkTelemetry(ControlClient &client, const TelemetrySpec &t, const std::atomic<bool> *cancel)
{
    if (t.nvidiaSmi)
        return checkNvidiaSmi(t);
    HookOutcome o;
    o.hook = HookKind::GpuTelemetry;
    const QUrl url(t.url);
    o.origin = originOf(t.url);
    o.method = QStringLiteral("GET");
    o.path = url.path();
    o.attempts = 1;
    o.at = QDateTime::currentDateTimeUtc();
    QList<QPair<QByteArray, QByteArray>> headers;
    for (const auto &[name, value] : t.headers)
        headers.append({name.toUtf8(), value.toUtf8()});
    const MetricsLimits limits;
    const ControlResponse r = client.call("GET", url, headers, std::nullopt, kTelemetryCheckTimeoutS, cancel, limits.maxBodyBytes);
    o.status = r.status;
    o.latencyMs = r.latencyMs;
    if (!r.complete()) {
        o.verdict = r.timedOut ? HookVerdict::Timeout : HookVerdict::Error;
        o.message = QStringLiteral("no answer from the GPU exporter (%1): cells will have no GPU telemetry").arg(r.transportError.left(200));
        return o;
    }
    if (r.status < 200 || r.status > 299) {
        o.verdict = r.status == 404 ? HookVerdict::RouteMissing : HookVerdict::Error;
        o.message = QStringLiteral("HTTP %1: not a metrics endpoint (dcgm-exporter serves Prometheus text at :9400/metrics)").arg(r.status);
        return o;
    }
    ScrapePoint p;
    p.origin = o.origin;
    QString error;
    MetricsScrape all;
    if (!parsePrometheusText(r.body, &all, &error, limits)) {
        o.verdict = HookVerdict::Error;
        o.message = QStringLiteral("not Prometheus text: %1").arg(error.left(200));
        return o;
    }
    bool energy = false;
    for (MetricSample &s : all.samples) {
        if (!isGpuTelemetrySample(all, s))
            continue;
        energy = energy || s.name == dcgm::kEnergy;
        p.keySamples.samples.push_back(std::move(s));
        if (p.keySamples.samples.size() >= std::size_t(kMaxTelemetrySamples))
            break;
    }
    if (p.keySamples.samples.empty()) {
        o.verdict = HookVerdict::Refused;
        o.message = QStringLiteral("metrics without any DCGM field SweepBench reads (%1, %2, …): is this dcgm-exporter?")
                        .arg(QLatin1String(dcgm::kPower), QLatin1String(dcgm::kEnergy));
        return o;
    }
    o.ok = true;
    o.verdict = HookVerdict::Ok;
    o.message = gpuSummary({p}, true)
                + (energy ? QStringLiteral(", energy counter %1 present").arg(QLatin1String(dcgm::kEnergy))
                          : QStringLiteral(", no energy counter %1: energy will be the power integral").arg(QLatin1String(dcgm::kEnergy)));
    return o;
}

} // namespace sb
