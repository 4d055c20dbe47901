#include "metrics/MetricCatalogue.h"
#include <algorithm>
#include <limits>

namespace sb {

const QList<MetricInfo> &allMetrics()
{
    // Definitions follow AIPerf (docs/ARCHITECTURE.md §7). Decimals: what a reader compares
    // (ms to 0.01 for TTFT, 0.001 for ITL, 0.1 for a request's whole latency).
    static const QList<MetricInfo> metrics = {
        {tag::outputThroughput, QStringLiteral("Output throughput"), QStringLiteral("Out tok/s"),
         QStringLiteral("output_token_throughput"), unit::tokensPerS,
         QStringLiteral("Output tokens per second over the measured phase"), true, Better::Higher, 1},
        {tag::tokensPerUser, QStringLiteral("Interactivity"), QStringLiteral("Tok/s/user"),
         QStringLiteral("output_token_throughput_per_user"), unit::tokensPerSPerUser,
         QStringLiteral("Output tokens per second one user sees while its answer streams: 1000 / mean ITL"), true, Better::Higher, 1},
        {tag::requestThroughput, QStringLiteral("Request throughput"), QStringLiteral("Req/s"),
         QStringLiteral("request_throughput"), unit::requestsPerS,
         QStringLiteral("Successful requests per second over the measured phase"), true, Better::Higher, 2},
        {tag::ttft, QStringLiteral("TTFT"), QStringLiteral("TTFT"), QStringLiteral("ttft"), unit::ms,
         QStringLiteral("Time to first token (first non-empty content or reasoning chunk)"), false, Better::Lower, 2},
        {tag::ttfo, QStringLiteral("TTFO"), QStringLiteral("TTFO"), QStringLiteral("ttfo"), unit::ms,
         QStringLiteral("Time to first output token: the first answer (content) chunk, after any reasoning (cells whose answers reasoned)"),
         false, Better::Lower, 2, {}, false, false, true},
        {tag::itl, QStringLiteral("ITL"), QStringLiteral("ITL"), QStringLiteral("itl"), unit::ms,
         QStringLiteral("Inter-token latency: (latency − TTFT) / (output tokens − 1)"), false, Better::Lower, 3},
        {tag::latency, QStringLiteral("Request latency"), QStringLiteral("Latency"), QStringLiteral("request_latency"),
         unit::ms, QStringLiteral("Request latency (send to last byte)"), false, Better::Lower, 1},
        {tag::interChunk, QStringLiteral("Inter-chunk latency"), QStringLiteral("Chunk gap"),
         QStringLiteral("inter_chunk_latency"), unit::ms,
         QStringLiteral("Gap between consecutive streamed chunks"), false, Better::Lower, 3},
        {tag::goodput, QStringLiteral("Goodput"), QStringLiteral("Goodput req/s"), QStringLiteral("goodput"),
         unit::requestsPerS, QStringLiteral("Requests per second that met every SLO"), true, Better::Higher, 2},
        {tag::goodFraction, QStringLiteral("Good request fraction"), QStringLiteral("Good fraction"),
         QStringLiteral("good_request_fraction"), unit::fraction,
         QStringLiteral("Fraction of completed requests that met every SLO"), true, Better::Higher, 3},
        {tag::outputLength, QStringLiteral("Output length"), QStringLiteral("OSL"), QStringLiteral("output_sequence_length"),
         unit::tokens, QStringLiteral("Output tokens per request"), false, Better::Neither, 0},
        {tag::reasoningTokens, QStringLiteral("Reasoning tokens"), QStringLiteral("Reasoning"), QStringLiteral("reasoning_tokens"),
         unit::tokens, QStringLiteral("Reasoning (thinking) tokens per request, part of its output tokens (cells whose answers reasoned)"),
         false, Better::Neither, 0, {}, false, false, true},
        {tag::imageCount, QStringLiteral("Images per request"), QStringLiteral("Images"), QStringLiteral("image_count"), unit::images,
         QStringLiteral("Synthetic images each request carried (workload.images)"), false, Better::Neither, 0, {}, false, false, true},
        {tag::imageBytes, QStringLiteral("Image bytes per request"), QStringLiteral("Image B"), QStringLiteral("image_bytes"), unit::bytes,
         QStringLiteral("Bytes of the image files each request carried, before base64 (workload.images)"), false, Better::Neither, 0, {}, false, false, true},
        {tag::inputLength, QStringLiteral("Input length"), QStringLiteral("ISL"), QStringLiteral("input_sequence_length"),
         unit::tokens, QStringLiteral("Input tokens per request"), false, Better::Neither, 0},
        {tag::requestedInputLength, QStringLiteral("Requested input length"), QStringLiteral("ISL asked"),
         QStringLiteral("requested_input_sequence_length"), unit::tokens,
         QStringLiteral("Input tokens each request asked for (the workload's length distribution)"), false, Better::Neither, 0},
        {tag::requestedOutputLength, QStringLiteral("Requested output length"), QStringLiteral("OSL asked"),
         QStringLiteral("requested_output_sequence_length"), unit::tokens,
         QStringLiteral("max_tokens each request asked for (the workload's length distribution)"), false, Better::Neither, 0},
        {tag::errorRate, QStringLiteral("Error rate"), QStringLiteral("Errors"), QStringLiteral("error_rate"), unit::fraction,
         QStringLiteral("Failed share of the measured requests"), true, Better::Lower, 3},
        {tag::achievedRate, QStringLiteral("Achieved request rate"), QStringLiteral("Sent req/s"), QStringLiteral("achieved_rate"),
         unit::requestsPerS, QStringLiteral("Requests per second the client really sent (request-rate cells; the target is the point)"),
         true, Better::Neither, 3, {}, true},
        {tag::scheduleLag, QStringLiteral("Schedule lag"), QStringLiteral("Lag"), QStringLiteral("schedule_lag"), unit::ms,
         QStringLiteral("How late the client sent each request against its arrival time (request-rate cells)"), false,
         Better::Lower, 3, {Stat::P50, Stat::P99, Stat::Max}, true},
        {tag::queueTime, QStringLiteral("Client queue time"), QStringLiteral("Queue"), QStringLiteral("queue"), unit::ms,
         QStringLiteral("Time a request waited for a free slot under max_concurrency, never part of TTFT (request-rate cells)"),
         false, Better::Lower, 2, {Stat::P50, Stat::P99, Stat::Max}, true},
        {tag::engineStepTime, QStringLiteral("Engine step time"), QStringLiteral("Step"), QStringLiteral("engine_step_time"), unit::ms,
         QStringLiteral("Duration of the server's engine steps in the cell's profiler traces (the most frequent step kind)"),
         false, Better::Lower, 2, {Stat::P50, Stat::P90, Stat::P99, Stat::Max}, false, true},
        {tag::engineBatchSize, QStringLiteral("Engine batch size"), QStringLiteral("Batch"), QStringLiteral("engine_batch_size"),
         unit::requests, QStringLiteral("Mean requests per engine step, where the server's step labels say (profiled cells)"),
         true, Better::Neither, 1, {}, false, true},
        {tag::engineStepRate, QStringLiteral("Engine step rate"), QStringLiteral("Steps/s"), QStringLiteral("engine_step_rate"),
         unit::stepsPerS, QStringLiteral("Engine steps per second in the busiest trace file of the cell's profiler window"),
         true, Better::Neither, 1, {}, false, true},
        // GPU telemetry (docs/gpu-telemetry.md) and cost: energy and dollars over the phase, per token.
        {tag::energyPerOutputToken, QStringLiteral("Energy per output token"), QStringLiteral("J/tok"), QStringLiteral("energy_per_output_token"),
         unit::joulesPerToken,
         QStringLiteral("GPU energy over the measured phase (the exporters' energy counter, else their power integrated), summed over "
                        "the GPUs, per output token of the successful requests"),
         true, Better::Lower, 3, {}, false, false, false, true},
        {tag::energyPerRequest, QStringLiteral("Energy per request"), QStringLiteral("J/req"), QStringLiteral("energy_per_request"),
         unit::joulesPerRequest, QStringLiteral("GPU energy over the measured phase, summed over the GPUs, per successful request"),
         true, Better::Lower, 1, {}, false, false, false, true},
        {tag::gpuPower, QStringLiteral("GPU power"), QStringLiteral("Power"), QStringLiteral("gpu_power"), unit::watts,
         QStringLiteral("Power drawn by the GPUs, summed (DCGM_FI_DEV_POWER_USAGE), over the measured phase's scrapes"),
         false, Better::Neither, 0, {Stat::Avg, Stat::Max}, false, false, false, true},
        {tag::gpuUtilization, QStringLiteral("GPU utilization"), QStringLiteral("GPU util"), QStringLiteral("gpu_utilization"), unit::percent,
         QStringLiteral("Share of time a kernel ran (DCGM_FI_DEV_GPU_UTIL), mean over the GPUs, over the measured phase's scrapes"),
         false, Better::Neither, 1, {Stat::Avg, Stat::Max}, false, false, false, true},
        {tag::smActive, QStringLiteral("SM activity"), QStringLiteral("SM active"), QStringLiteral("gpu_sm_active"), unit::fraction,
         QStringLiteral("Share of SMs with work (DCGM_FI_PROF_SM_ACTIVE), mean over the GPUs, over the measured phase's scrapes"),
         false, Better::Neither, 3, {Stat::Avg, Stat::Max}, false, false, false, true},
        {tag::gpuMemoryUsed, QStringLiteral("GPU memory used"), QStringLiteral("GPU mem"), QStringLiteral("gpu_memory_used"), unit::mib,
         QStringLiteral("Frame buffer in use (DCGM_FI_DEV_FB_USED), summed over the GPUs, over the measured phase's scrapes"),
         false, Better::Neither, 0, {Stat::Avg, Stat::Max}, false, false, false, true},
        {tag::costPerMillionInput, QStringLiteral("Cost per million input tokens"), QStringLiteral("$/M in"),
         QStringLiteral("cost_per_million_input_tokens"), unit::dollarsPerMillionTokens,
         QStringLiteral("The measured phase's wall time at cost.gpu_hour × cost.gpus, per million input tokens of the successful requests"),
         true, Better::Lower, 3, {}, false, false, false, false, true},
        {tag::costPerMillionOutput, QStringLiteral("Cost per million output tokens"), QStringLiteral("$/M out"),
         QStringLiteral("cost_per_million_output_tokens"), unit::dollarsPerMillionTokens,
         QStringLiteral("The measured phase's wall time at cost.gpu_hour × cost.gpus, per million output tokens of the successful requests"),
         true, Better::Lower, 3, {}, false, false, false, false, true},
    };
    return metrics;
}

const MetricInfo *findMetric(QStringView key)
{
    for (const MetricInfo &m : allMetrics())
        if (m.key == key)
            return &m;
    return nullptr;
}

QList<Stat> distributionStats()
{
    return {Stat::Avg, Stat::P50, Stat::P90, Stat::P95, Stat::P99, Stat::Min, Stat::Max, Stat::Std};
}

QList<Stat> metricStats(const MetricInfo &metric)
{
    if (metric.singleValued)
        return {Stat::Avg};
    return metric.stats.isEmpty() ? distributionStats() : metric.stats;
}

QString statDescription(Stat stat)
{
    switch (stat) {
    case Stat::Avg: return QStringLiteral("mean");
    case Stat::P50: return QStringLiteral("median");
    case Stat::Min: return QStringLiteral("minimum");
    case Stat::Max: return QStringLiteral("maximum");
    case Stat::Std: return QStringLiteral("standard deviation");
    case Stat::Count: return QStringLiteral("count");
    default: return statName(stat).mid(1) + QStringLiteral("th percentile"); // p90 -> 90th percentile
    }
}

QString metricLabel(QStringView key)
{
    const MetricInfo *m = findMetric(key);
    return m ? m->label : key.toString();
}

QString shortUnit(const QString &unit)
{
    if (unit == unit::tokensPerSPerUser)
        return QStringLiteral("tok/s/user");
    if (unit == QLatin1String("tokens/s") || unit == QLatin1String("tokens/sec"))
        return QStringLiteral("tok/s");
    if (unit == QLatin1String("requests/s") || unit == QLatin1String("requests/sec"))
        return QStringLiteral("req/s");
    return unit;
}

QString metricColumnTitle(const MetricInfo &metric, Stat stat, bool withUnit)
{
    // Single-valued rates read with their unit already ("Out tok/s").
    if (metric.singleValued)
        return metric.shortLabel;
    QString t = metric.shortLabel + QLatin1Char(' ') + statName(stat);
    if (withUnit && !metric.unit.isEmpty())
        t += QLatin1Char(' ') + shortUnit(metric.unit);
    return t;
}

QString metricColumnToolTip(const MetricInfo &metric, Stat stat)
{
    if (metric.singleValued)
        return metric.description;
    return QStringLiteral("%1, %2, %3").arg(metric.description, statDescription(stat), shortUnit(metric.unit));
}

QString metricCsvHeader(const MetricInfo &metric, Stat stat)
{
    // A fraction has no unit to name: "error_rate", not "error_rate_fraction".
    QString suffix = metric.unit == unit::fraction ? QString() : shortUnit(metric.unit);
    suffix.replace(QLatin1Char('/'), QLatin1Char('_'));
    // Column names stay plain identifiers: "gpu_utilization_avg_pct", "…_usd_Mtok".
    suffix.replace(QLatin1Char('%'), QLatin1String("pct"));
    suffix.replace(QLatin1Char('$'), QLatin1String("usd"));
    QString h = metric.csvStem;
    if (!metric.singleValued)
        h += QLatin1Char('_') + statName(stat);
    return suffix.isEmpty() ? h : h + QLatin1Char('_') + suffix;
}

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double pick(Stat stat, double p50, double p99, double max)
{
    return stat == Stat::P50 ? p50 : stat == Stat::P99 ? p99 : stat == Stat::Max ? max : kNaN;
}

double traceValue(const CellResult &cell, const QString &metric, Stat stat)
{
    if (!cell.traceSummary)
        return kNaN;
    if (metric == tag::engineStepRate) {
        // The busiest file: rank files each hold every step once; an API-server file holds none.
        double best = 0;
        for (const TraceFileSummary &f : cell.traceSummary->files)
            if (f.stats.steps > 0 && f.stats.spanMs > 0)
                best = std::max(best, double(f.stats.steps) / (f.stats.spanMs / 1000));
        return stat == Stat::Avg && best > 0 ? best : kNaN;
    }
    const StepKindStats *k = dominantStepKind(*cell.traceSummary);
    if (!k)
        return kNaN;
    if (metric == tag::engineBatchSize)
        return stat == Stat::Avg && k->batchMean >= 0 ? k->batchMean : kNaN;
    switch (stat) {
    case Stat::P50: return k->p50Ms;
    case Stat::P90: return k->p90Ms;
    case Stat::P99: return k->p99Ms;
    case Stat::Max: return k->maxMs;
    default: return kNaN;
    }
}

double gauge(const GaugeSummary &g, Stat stat)
{
    return stat == Stat::Avg ? g.avg : stat == Stat::Max ? g.max : kNaN;
}

// Energy and the DCGM gauges (cell.gpuTelemetry), cost per million tokens (cell.cost): the one
// place they are derived (docs/gpu-telemetry.md).
double telemetryValue(const CellResult &cell, const QString &metric, Stat stat)
{
    const bool avg = stat == Stat::Avg;
    if (metric == tag::costPerMillionInput || metric == tag::costPerMillionOutput) {
        if (!avg || !cell.cost || !(cell.durationS > 0))
            return kNaN;
        const double dollars = cell.cost->gpuHour * cell.cost->gpus * cell.durationS / 3600;
        const double tokens = phaseTokens(cell, metric == tag::costPerMillionInput ? tag::inputLength : tag::outputLength);
        return tokens > 0 ? dollars / tokens * 1e6 : kNaN;
    }
    if (!cell.gpuTelemetry)
        return kNaN;
    const GpuTelemetryResult &t = *cell.gpuTelemetry;
    if (metric == tag::energyPerOutputToken) {
        const double tokens = phaseTokens(cell, tag::outputLength);
        return avg && tokens > 0 ? t.energyJ / tokens : kNaN; // NaN energy stays NaN
    }
    if (metric == tag::energyPerRequest)
        return avg && cell.completed > 0 ? t.energyJ / cell.completed : kNaN;
    if (metric == tag::gpuPower)
        return gauge(t.powerW, stat);
    if (metric == tag::gpuUtilization)
        return gauge(t.utilizationPct, stat);
    if (metric == tag::smActive)
        return gauge(t.smActive, stat);
    return gauge(t.memoryUsedMib, stat); // gpuMemoryUsed
}

bool isTelemetryOrCost(const QString &metric)
{
    for (const QString *key : {&tag::energyPerOutputToken, &tag::energyPerRequest, &tag::gpuPower, &tag::gpuUtilization, &tag::smActive,
                               &tag::gpuMemoryUsed, &tag::costPerMillionInput, &tag::costPerMillionOutput})
        if (metric == *key)
            return true;
    return false;
}

// The figures results.json keeps beside `metrics` (tag:: errorRate ... queueTime) and those
// derived from its metrics (tag::tokensPerUser); false when
// `metric` is not one of them.
bool fieldValue(const CellResult &cell, const QString &metric, Stat stat, double *out)
{
    const bool avg = stat == Stat::Avg;
    const std::optional<OpenLoopResult> &o = cell.openLoop;
    if (metric == tag::errorRate)
        *out = avg && cell.completed + cell.failed > 0 ? cell.errorRate : kNaN;
    else if (metric == tag::achievedRate)
        *out = avg && o && cell.completed + cell.failed > 1 ? o->achievedRate : kNaN;
    else if (metric == tag::scheduleLag)
        *out = o && cell.completed + cell.failed > 0 ? pick(stat, o->lagP50Ms, o->lagP99Ms, o->lagMaxMs) : kNaN;
    else if (metric == tag::queueTime)
        *out = o && cell.completed + cell.failed > 0 ? pick(stat, o->queueP50Ms, o->queueP99Ms, o->queueMaxMs) : kNaN;
    else if (metric == tag::tokensPerUser) {
        // A per-user rate, not a latency: the reciprocal of the mean gap between its tokens.
        const auto it = cell.metrics.constFind(tag::itl);
        const double itl = it == cell.metrics.cend() ? kNaN : it->value(Stat::Avg);
        *out = avg && itl > 0 && std::isfinite(itl) ? 1000.0 / itl : kNaN;
    } else if (metric == tag::engineStepTime || metric == tag::engineBatchSize || metric == tag::engineStepRate)
        *out = traceValue(cell, metric, stat);
    else if (isTelemetryOrCost(metric))
        *out = telemetryValue(cell, metric, stat);
    else
        return false;
    return true;
}
} // namespace

const StepKindStats *dominantStepKind(const TraceSummary &summary)
{
    const StepKindStats *best = nullptr;
    for (const StepKindStats &k : summary.merged.stepKinds)
        if (k.count > 0 && (!best || k.count > best->count))
            best = &k;
    return best;
}

double phaseTokens(const CellResult &cell, const QString &lengthTag)
{
    const auto it = cell.metrics.constFind(lengthTag);
    if (it == cell.metrics.cend() || it->count <= 0)
        return std::numeric_limits<double>::quiet_NaN();
    return it->avg * double(it->count);
}

double cellValue(const CellResult &cell, const QString &metric, Stat stat)
{
    if (double v; fieldValue(cell, metric, stat, &v))
        return v;
    const auto it = cell.metrics.constFind(metric);
    return it == cell.metrics.cend() ? std::numeric_limits<double>::quiet_NaN() : it->value(stat);
}

} // namespace sb
