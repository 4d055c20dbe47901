#include "engine/CellRunner.h"
#include "hooks/TraceListing.h"
#include "load/RequestFactory.h"
#include "metrics/CellMetrics.h"
#include <QDir>
#include <QFile>

namespace sb {

namespace {
QString describeHookFailure(const HookOutcome &o)
{
    return QStringLiteral("%1 %2: %3").arg(o.hook, o.verdict, o.message);
}
} // namespace

bool CellRunner::hookFailed(const CellContext &ctx, CellResult &cell, const HookOutcome &o, bool *abortSweep)
{
    // Returns true when the measured phase must not run.
    switch (ctx.spec->onHookFailure) {
    case HookFailurePolicy::Continue:
        cell.warnings.append(QStringLiteral("measured despite a failed hook (on_hook_failure: continue): ") + describeHookFailure(o));
        return false;
    case HookFailurePolicy::Abort:
        *abortSweep = true;
        [[fallthrough]];
    case HookFailurePolicy::SkipCell:
        cell.status = QStringLiteral("failed");
        cell.reason = describeHookFailure(o);
        return true;
    }
    return true;
}

bool CellRunner::runReset(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb, const QString &placement)
{
    cb.phase(QStringLiteral("reset"));
    const HookOutcome o = m_hooks.reset(ctx.hooks, placement);
    cell.hooks.append(o);
    cb.hook(o);
    return o.ok;
}

bool CellRunner::run(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb)
{
    const ServerSpec &server = *ctx.server;
    const WorkloadSpec &w = ctx.spec->workload;
    bool abortSweep = false;
    bool skipMeasure = false;
    cell.startedAt = QDateTime::currentDateTimeUtc();
    const auto placement = server.reset.placement;
    const bool resetBefore = server.reset.enabled && placement != ResetPlacement::AfterWarmup;
    const bool resetAfter = server.reset.enabled && placement != ResetPlacement::BeforeWarmup;

    if (resetBefore && !runReset(ctx, cell, cb, QStringLiteral("before_warmup")))
        skipMeasure = hookFailed(ctx, cell, cell.hooks.last(), &abortSweep);

    const ServerTarget target = resolveTarget(ctx.baseUrl, server.endpoint);
    if (!skipMeasure && w.warmupRequests > 0 && !m_cancel) {
        cb.phase(QStringLiteral("warmup"));
        const RequestFactory warmupFactory(server, target, w, ctx.promptTag + "-w");
        PhaseConfig warm;
        warm.target = target;
        warm.factory = &warmupFactory;
        warm.concurrency = std::min(cell.concurrency, w.warmupRequests);
        warm.requests = w.warmupRequests;
        warm.timeoutS = w.requestTimeoutS;
        warm.streaming = w.streaming;
        warm.cancel = &m_cancel;
        const PhaseOutcome wo = m_load.runPhase(warm); // returns only when every warmup request has ended
        const auto failedWarmups = std::count_if(wo.records.begin(), wo.records.end(), [](const RequestRecord &r) {
            return !r.ok() && r.error != ErrorKind::Cancelled;
        });
        if (failedWarmups > 0)
            cell.warnings.append(QStringLiteral("%1 of %2 warmup requests failed").arg(failedWarmups).arg(wo.records.size()));
    }

    if (!skipMeasure && resetAfter && !m_cancel && !runReset(ctx, cell, cb, QStringLiteral("after_warmup")))
        skipMeasure = hookFailed(ctx, cell, cell.hooks.last(), &abortSweep);

    bool profiling = false;
    TraceSnapshot traces;
    if (!skipMeasure && server.profiler.enabled && !m_cancel) {
        cb.phase(QStringLiteral("profiler_start"));
        if (!ctx.traceDir.isEmpty())
            QDir().mkpath(ctx.traceDir);
        traces = TraceSnapshot::take(ctx.traceDir);
        const HookOutcome o = m_hooks.profilerStart(ctx.hooks, ctx.startBody);
        cell.hooks.append(o);
        cb.hook(o);
        profiling = o.ok;
        if (!o.ok)
            skipMeasure = hookFailed(ctx, cell, o, &abortSweep);
    }

    if (!skipMeasure && !m_cancel)
        measure(ctx, target, cell, cb);

    if (profiling) { // always closed, also after cancel or a failed measurement
        cb.phase(QStringLiteral("profiler_stop"));
        QStringList named;
        const HookOutcome o = m_hooks.profilerStop(ctx.hooks, &named);
        cell.hooks.append(o);
        cb.hook(o);
        if (!o.ok)
            cell.warnings.append(QStringLiteral("profiler stop failed (data kept): ") + o.message);
        QStringList files = traces.newFiles();
        for (const QString &p : std::as_const(named))
            if (QFile::exists(p) && !files.contains(p))
                files.append(p);
        cell.traces = files;
        if (files.isEmpty() && !ctx.traceDir.isEmpty())
            cell.warnings.append(QStringLiteral("no trace files appeared in %1 during the profiler window").arg(ctx.traceDir));
    }

    if (m_cancel && cell.status != QLatin1String("failed")) {
        cell.status = QStringLiteral("cancelled");
        if (cell.reason.isEmpty())
            cell.reason = QStringLiteral("cancelled by the user");
    }
    cell.finishedAt = QDateTime::currentDateTimeUtc();
    return abortSweep;
}

void CellRunner::measure(const CellContext &ctx, const ServerTarget &target, CellResult &cell, const CellCallbacks &cb)
{
    const ServerSpec &server = *ctx.server;
    const WorkloadSpec &w = ctx.spec->workload;
    cb.phase(QStringLiteral("measure"));
    const RequestFactory factory(server, target, w, ctx.promptTag);
    QDir().mkpath(m_store.absolute(cell.recordsPath.section(QLatin1Char('/'), 0, -2)));
    const QString recordsFinal = m_store.absolute(cell.recordsPath);
    PhaseConfig cfg;
    cfg.target = target;
    cfg.factory = &factory;
    cfg.concurrency = cell.concurrency;
    cfg.requests = w.durationS > 0 ? 0 : w.requestsPerCell;
    cfg.durationS = w.durationS;
    cfg.timeoutS = w.requestTimeoutS;
    cfg.streaming = w.streaming;
    cfg.recordsPath = recordsFinal + QStringLiteral(".part");
    cfg.cancel = &m_cancel;
    const std::int64_t targetCount = cfg.requests;
    const PhaseOutcome out = m_load.runPhase(cfg, [&](const LiveCounters &live) { cb.live(live, targetCount); });
    // The records file is complete: publish it under its final name in one step.
    QFile::remove(recordsFinal);
    if (!QFile::rename(cfg.recordsPath, recordsFinal) || !out.recordsWritten)
        cell.warnings.append(QStringLiteral("could not write %1").arg(recordsFinal));

    CellMetricsInput in;
    in.records = &out.records;
    in.interChunkUs = &out.interChunkUs;
    in.streaming = w.streaming;
    in.slo = w.slo;
    const CellMetricsOutput m = computeCellMetrics(in);
    cell.metrics = m.metrics;
    cell.completed = m.completed;
    cell.failed = m.failed;
    cell.durationS = m.durationS;
    cell.maxInFlight = m.maxInFlight;
    cell.meanInFlight = m.meanInFlight;
    cell.tokenSource = m.tokenSource;
    cell.clientCpuMax = out.maxThreadCpu;
    for (const auto &r : out.records) {
        if (r.ok() || r.error == ErrorKind::Cancelled)
            continue;
        const QString key = r.error == ErrorKind::Http ? QStringLiteral("http_%1").arg(r.status) : QString::fromLatin1(errorKindName(r.error));
        cell.errors[key] += 1;
    }
    cell.errorSamples = out.errorSamples;
    for (auto it = cell.errorSamples.begin(); it != cell.errorSamples.end();)
        it = cell.errors.contains(it.key()) ? std::next(it) : cell.errorSamples.erase(it);

    const std::int64_t sent = std::count_if(out.records.begin(), out.records.end(), [](const RequestRecord &r) { return r.sendNs > 0; });
    if (!out.cancelled && sent >= cell.concurrency && cell.maxInFlight < cell.concurrency)
        cell.warnings.append(QStringLiteral("achieved concurrency %1 is below the target %2").arg(cell.maxInFlight).arg(cell.concurrency));
    if (out.maxThreadCpu > 0.9)
        cell.warnings.append(QStringLiteral("a client IO thread was CPU-bound (%1%): latencies may include client delay")
                                 .arg(qRound(out.maxThreadCpu * 100)));
    if (m.tokenSource == QLatin1String("counted"))
        cell.warnings.append(QStringLiteral("the server sent no usage: output tokens are counted content chunks"));
    if (out.cancelled) {
        cell.status = QStringLiteral("cancelled");
    } else if (cell.completed == 0) {
        cell.status = QStringLiteral("failed");
        cell.reason = cell.errors.isEmpty() ? QStringLiteral("no request completed")
                                            : QStringLiteral("all %1 requests failed (%2)").arg(cell.failed).arg(cell.errors.firstKey());
    } else {
        cell.status = QStringLiteral("completed");
    }
}

} // namespace sb
