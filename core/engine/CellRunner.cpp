#include "engine/CellRunner.h"
#include "results/HookSeverity.h"
#include "engine/OpenLoopCell.h"
#include "engine/CellValidity.h"
#include "io/DurableWrite.h"
#include "engine/CellVerdict.h"
#include "engine/CellServerMetrics.h"
#include "engine/CellTelemetry.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include "engine/ResetProof.h"
#include "hooks/TraceListing.h"
#include "engine/CacheEffectStats.h"
#include "spec/PrefixCaching.h"
#include "load/RequestFactory.h"
#include "engine/CellMetrics.h"
#include "engine/TimeSlices.h"
#include "engine/WindowSettle.h"
#include "trace/TraceSummarizer.h"
#include <QDir>
#include <QFile>

namespace sb {

namespace {
QString describeHookFailure(const HookOutcome &o)
{
    return QStringLiteral("%1 %2: %3").arg(hookKindName(o.hook), hookVerdictText(o), o.message);
}

// Server-provided text lands in these fields (hook answers, echoed error bodies, named paths):
// whatever slipped past the scrub at the source is caught before the cell is published.
void scrubCell(CellResult &cell, const SecretSet &secrets)
{
    if (secrets.isEmpty())
        return;
    cell.reason = secrets.scrub(cell.reason);
    for (QString &w : cell.warnings)
        w = secrets.scrub(w);
    for (QString &t : cell.traces)
        t = secrets.scrub(t);
    for (auto it = cell.errorSamples.begin(); it != cell.errorSamples.end(); ++it)
        it.value() = secrets.scrub(it.value());
    for (HookOutcome &o : cell.hooks)
        o.message = secrets.scrub(o.message);
    if (cell.traceSummary)
        for (TraceFileSummary &f : cell.traceSummary->files) {
            f.path = secrets.scrub(f.path);
            f.error = secrets.scrub(f.error);
        }
}

// The window's traces, read once it has settled (a file still being written would read as cut
// short) and before the next cell starts: never while requests are measured.
void summarizeWindowTraces(CellResult &cell, const std::atomic<bool> &cancel)
{
    const TraceLimits limits;
    TraceSummary summary = summarizeTraces(cell.traces, limits, &cancel);
    if (summary.files.isEmpty())
        return;
    cell.warnings.append(traceWarnings(summary, limits.maxFiles));
    cell.traceSummary = std::move(summary);
}

// What the prefix cache did (engine/CacheEffectStats.h): per turn of sessions, and the share of
// prompt tokens served from cache against the ideal, warned about only when the cell began from
// an emptied cache (otherwise what earlier cells left in it is not known).
void recordCacheEffect(const CellContext &ctx, CellResult &cell, const PhaseOutcome &out, const QSet<int> &warmPrefixes, bool cacheReset)
{
    const WorkloadSpec &w = ctx.spec->workload;
    if (w.sessions)
        cell.byTurn = turnStats(out.records, w.streaming);
    PrefixCacheInput in;
    in.records = &out.records;
    in.sharedPrefixes = w.prompts == PromptMode::SharedPrefix ? std::max(1, w.sharedPrefixCount) : 0;
    in.prefixTokens = std::min(w.sharedPrefixTokens, w.inputTokens - 1);
    in.prefixCalibrated = ctx.plan && ctx.plan->fill().calibrated();
    in.sessions = w.sessions.has_value();
    in.warmPrefixes = warmPrefixes;
    in.serverMetrics = &cell.serverMetrics;
    in.cachedWhenScheduled = ctx.server && cachesPromptWhenScheduled(ctx.server->flavor);
    for (const char *key : {"block_size", "page_size"})
        if (const int b = cell.serverInfo.args.value(QLatin1String(key)).toInt(); b > 1 && b <= 1 << 20)
            in.blockTokens = b;
    cell.prefixCache = prefixCacheStats(in);
    if (cell.prefixCache)
        cell.warnings.append(prefixCacheWarnings(*cell.prefixCache, cacheReset));
}

// The request factories of a phase, one per server URL, and the phase targets pointing at them.
struct PhaseTargets {
    PhaseTargets(const CellContext &ctx, const QByteArray &promptTag, bool warmup)
    {
        factories.reserve(std::size_t(ctx.baseUrls.size())); // no reallocation: targets point into it
        for (const QString &url : ctx.baseUrls) {
            const ServerTarget target = resolveTarget(url, ctx.server->endpoint);
            factories.emplace_back(*ctx.server, target, ctx.spec->workload, promptTag, ctx.fillerChars);
            factories.back().usePlan(ctx.plan, warmup);
            targets.push_back(PhaseTarget{target, &factories.back()});
        }
    }
    std::vector<RequestFactory> factories;
    std::vector<PhaseTarget> targets;
};
} // namespace

bool CellRunner::publishRecords(const QString &part, const QString &finalPath, const QString &writeError, CellResult &cell)
{
    // The records file was synced when the phase ended: publish it under its final name in one
    // step. A file that could not be written completely is never published, and the disk space
    // it holds is given back so results.json can still record why the cell failed.
    QString error = writeError;
    if (error.isEmpty() && publishFile(part, finalPath, &error))
        return true;
    QFile::remove(part);
    m_writeError = error;
    cell.status = CellStatus::Failed;
    cell.reason = error;
    cell.recordsPath.clear();
    return false;
}

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
        cell.status = CellStatus::Failed;
        cell.reason = describeHookFailure(o);
        return true;
    }
    return true;
}

void CellRunner::record(CellResult &cell, const CellCallbacks &cb, const HookOutcome &o)
{
    cell.hooks.append(o);
    cb.hook(o);
}

const HookOutcome *CellRunner::runResets(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb, HookPlacement placement)
{
    cb.phase(RunPhase::Reset);
    if (ctx.server->reset.restart) { // one process, whatever the number of origins
        HookOutcome o;
        if (ctx.restart) {
            o = ctx.restart();
        } else {
            o.hook = HookKind::Restart;
            o.verdict = HookVerdict::Error;
            o.message = QStringLiteral("restart needs launch: SweepBench can only restart a server it started");
        }
        o.placement = placement;
        record(cell, cb, o);
        return cell.hooks.last().ok ? nullptr : &cell.hooks.last();
    }
    std::optional<qsizetype> failed;
    for (const HookTarget &target : ctx.hooks) {
        if (m_cancel)
            break;
        record(cell, cb, m_hooks.reset(target, placement));
        if (!cell.hooks.last().ok && !failed) {
            failed = cell.hooks.size() - 1;
            // The cell will not be measured: resetting the other origins would only cost time.
            if (ctx.spec->onHookFailure != HookFailurePolicy::Continue)
                break;
        }
    }
    return failed ? &cell.hooks[*failed] : nullptr;
}

QList<const HookTarget *> CellRunner::startProfilers(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb,
                                                     std::optional<HookOutcome> *failure)
{
    cb.phase(RunPhase::ProfilerStart);
    QList<const HookTarget *> started;
    for (const HookTarget &target : ctx.hooks) {
        if (m_cancel)
            break;
        const HookOutcome o = m_hooks.profilerStart(target, ctx.startBody);
        record(cell, cb, o);
        if (o.ok) {
            started.append(&target);
            continue;
        }
        *failure = o;
        // One origin without a window makes the cell's traces incomplete: close the windows
        // already opened, newest first, so no server is left profiling (and filling its disk).
        if (!started.isEmpty())
            cb.phase(RunPhase::ProfilerStop);
        for (auto it = started.crbegin(); it != started.crend(); ++it) {
            HookOutcome stop = m_hooks.profilerStop(**it);
            stop.placement = HookPlacement::Rollback;
            stop.message = QStringLiteral("rolled back after the start failed on %1; %2").arg(o.origin, stop.message);
            record(cell, cb, stop);
        }
        started.clear();
        break;
    }
    return started;
}

void CellRunner::stopProfilers(const CellContext &ctx, const QList<const HookTarget *> &started, const TraceSnapshot &traces,
                               CellResult &cell, const CellCallbacks &cb)
{
    cb.phase(RunPhase::ProfilerStop);
    QStringList named;
    for (auto it = started.crbegin(); it != started.crend(); ++it) { // newest window first
        const HookOutcome o = m_hooks.profilerStop(**it, &named);
        record(cell, cb, o);
        if (!o.ok)
            cell.warnings.append(QStringLiteral("profiler stop failed on %1 (data kept): %2").arg(o.origin, o.message));
    }
    const TraceLinks links = linkableTraces(ctx.traceDir, traces.newFiles() + named);
    constexpr int kMaxNamed = 5; // a server names paths; it does not get to fill the warnings
    for (const QString &p : links.outside.mid(0, kMaxNamed))
        cell.warnings.append(QStringLiteral("trace %1: outside trace_dir, not linked").arg(p.left(300)));
    if (links.outside.size() > kMaxNamed)
        cell.warnings.append(QStringLiteral("%1 more trace paths outside trace_dir, not linked").arg(links.outside.size() - kMaxNamed));
    cell.traces = links.linked;
    if (links.linked.isEmpty() && !ctx.traceDir.isEmpty())
        cell.warnings.append(QStringLiteral("no trace files appeared in %1 during the profiler window").arg(ctx.traceDir));
}

void CellRunner::settleWindows(const CellContext &ctx, const TraceSnapshot &traces, CellResult &cell)
{
    QList<HookOutcome> stops;
    for (const HookOutcome &o : cell.hooks)
        if (o.hook == HookKind::ProfilerStop && o.placement != HookPlacement::Rollback)
            stops.append(o);
    SettleOptions options;
    options.timeoutS = ctx.server->profiler.settleTimeoutS;
    ProfilerWindowResult window = settleProfilerWindow(ctx.hooks, stops, traces, options, m_cancel);
    if (!window.settled)
        cell.warnings.append(QStringLiteral("the profiler window had not settled %1 s after its stop (%2): its traces may be incomplete, "
                                            "and the server may still be busy with it when the next cell starts")
                                 .arg(window.settleS, 0, 'f', 1)
                                 .arg(window.why));
    else if (!window.tracesComplete)
        cell.warnings.append(QStringLiteral("profiler traces may be incomplete: %1").arg(window.why));
    cell.profilerWindow = std::move(window);
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

    QSet<int> warmPrefixes; // the shared prefixes the warmup left in the cache
    if (resetBefore)
        if (const HookOutcome *failed = runResets(ctx, cell, cb, HookPlacement::BeforeWarmup))
            skipMeasure = hookFailed(ctx, cell, *failed, &abortSweep);

    if (!skipMeasure && w.warmupRequests > 0 && !m_cancel) {
        cb.phase(RunPhase::Warmup);
        const PhaseTargets warmTargets(ctx, ctx.promptTag + "-w", true);
        PhaseConfig warm;
        warm.targets = warmTargets.targets;
        warm.concurrency = std::min(cell.concurrency, w.warmupRequests);
        warm.requests = w.warmupRequests;
        warm.timeoutS = w.requestTimeoutS;
        warm.streaming = w.streaming;
        warm.cancel = &m_cancel;
        warm.secrets = ctx.secrets;
        warm.sessions = w.sessions;
        warm.seed = std::uint64_t(w.seed);
        const PhaseOutcome wo = m_load.runPhase(warm); // returns only when every warmup request has ended
        for (const RequestRecord &r : wo.records)
            if (r.ok() && r.prefix >= 0)
                warmPrefixes.insert(r.prefix);
        const auto failedWarmups = std::count_if(wo.records.begin(), wo.records.end(), [](const RequestRecord &r) {
            return !r.ok() && r.error != ErrorKind::Cancelled;
        });
        if (failedWarmups > 0)
            cell.warnings.append(QStringLiteral("%1 of %2 warmup requests failed").arg(failedWarmups).arg(wo.records.size()));
    }

    if (!skipMeasure && resetAfter && !m_cancel) {
        warmPrefixes.clear(); // emptied again after the warmup
        if (const HookOutcome *failed = runResets(ctx, cell, cb, HookPlacement::AfterWarmup))
            skipMeasure = hookFailed(ctx, cell, *failed, &abortSweep);
    }

    QList<const HookTarget *> profiling;
    TraceSnapshot traces;
    CellServerMetrics serverMetrics(&m_metricsMissing);
    if (!skipMeasure && server.profiler.enabled && !m_cancel) {
        if (!ctx.traceDir.isEmpty())
            QDir().mkpath(ctx.traceDir);
        traces = TraceSnapshot::take(ctx.traceDir);
        // A profiled server traces every scrape it answers (on vLLM that multiplied the window's
        // cost, docs/server-metrics.md): the baseline scrape comes before the window opens, and
        // inside it the scrapes follow metrics.window_interval_s (none by default).
        // No scrape overlaps a profiler route either: one in flight at /stop_profile is what
        // slowed it, and one crossing a route could not be said to be in or out of the window.
        startServerMetrics(ctx, cell, cb, serverMetrics);
        serverMetrics.holdScrapes();
        std::optional<HookOutcome> failure;
        profiling = startProfilers(ctx, cell, cb, &failure);
        serverMetrics.setWindowOpen(!profiling.isEmpty());
        if (failure)
            skipMeasure = hookFailed(ctx, cell, *failure, &abortSweep);
    }

    std::optional<PhaseOutcome> out;
    if (!skipMeasure && !m_cancel)
        out = measure(ctx, cell, cb, serverMetrics);

    if (!profiling.isEmpty()) { // always closed, also after cancel or a failed measurement
        serverMetrics.holdScrapes();
        stopProfilers(ctx, profiling, traces, cell, cb);
        serverMetrics.setWindowOpen(false);
        settleWindows(ctx, traces, cell);
        summarizeWindowTraces(cell, m_cancel);
    }

    if (out) {
        // The first requests show what a reset did only when no warmup refilled the cache since.
        const HookPlacement proofPlacement = resetAfter                              ? HookPlacement::AfterWarmup
                                             : resetBefore && w.warmupRequests == 0 ? HookPlacement::BeforeWarmup
                                                                                    : HookPlacement::None;
        conclude(ctx, cell, *out, serverMetrics, ctx.hooks.size() == 1 ? proofPlacement : HookPlacement::None); // records do not say which origin reused
        recordCacheEffect(ctx, cell, *out, warmPrefixes, resetBefore || resetAfter);
    }

    if (m_cancel && cell.status != CellStatus::Failed) {
        cell.status = CellStatus::Cancelled;
        if (cell.reason.isEmpty())
            cell.reason = QStringLiteral("cancelled by the user");
    }
    if (ctx.secrets)
        scrubCell(cell, *ctx.secrets);
    cell.finishedAt = QDateTime::currentDateTimeUtc();
    return abortSweep;
}

void CellRunner::checkResetProof(const std::vector<RequestRecord> &records, HookPlacement placement, CellResult &cell)
{
    const ResetProof proof = judgeResetProof(records, cell.concurrency);
    if (proof.verdict == CacheProof::None)
        return;
    for (HookOutcome &o : cell.hooks) {
        if (!isCacheReset(o.hook) || o.placement != placement || !o.ok)
            continue;
        o.cacheProof = proof.verdict;
        if (proof.verdict == CacheProof::Contradicted) {
            o.message += QStringLiteral(" — contradicted: the first measured requests still reused %1 cached prompt tokens").arg(proof.cachedTokens);
            cell.warnings.append(QStringLiteral("the cache reset on %1 answered ok, but the first measured requests reused %2 cached prompt tokens: "
                                                "the cache was not empty (llama.cpp: start it with --cache-ram 0)")
                                     .arg(o.origin)
                                     .arg(proof.cachedTokens));
        }
    }
}

void CellRunner::startServerMetrics(const CellContext &ctx, const CellResult &cell, const CellCallbacks &cb, CellServerMetrics &serverMetrics)
{
    std::function<void(const ScrapePoint &)> onScrape;
    if (cb.serverLoad)
        onScrape = [serverLoadCb = cb.serverLoad, sum = std::make_shared<ServerLoadSum>()](const ScrapePoint &p) {
            const ServerLoad load = serverLoad(p.keySamples);
            if (load.running < 0 && load.waiting < 0)
                return;
            const ServerLoad total = sum->add(p.origin, load); // every URL of the server
            serverLoadCb(total.running, total.waiting);
        };
    const QString cellDir = m_store.absolute(cell.recordsPath.section(QLatin1Char('/'), 0, -2));
    QDir().mkpath(cellDir); // a profiled cell's baseline scrape comes before the measured phase makes it
    serverMetrics.start(*ctx.server, ctx.hooks, cellDir, ctx.secrets, std::move(onScrape));
}

std::optional<PhaseOutcome> CellRunner::measure(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb,
                                                CellServerMetrics &serverMetrics)
{
    const WorkloadSpec &w = ctx.spec->workload;
    cb.phase(RunPhase::Measure);
    const PhaseTargets targets(ctx, ctx.promptTag, false);
    QDir().mkpath(m_store.absolute(cell.recordsPath.section(QLatin1Char('/'), 0, -2)));
    const QString recordsFinal = m_store.absolute(cell.recordsPath);
    PhaseConfig cfg;
    cfg.targets = targets.targets;
    cfg.concurrency = cell.concurrency;
    cfg.requests = w.durationS > 0 ? 0 : w.requestsPerCell;
    cfg.durationS = w.durationS;
    cfg.timeoutS = w.requestTimeoutS;
    cfg.streaming = w.streaming;
    cfg.recordsPath = recordsFinal + QStringLiteral(".part");
    cfg.cancel = &m_cancel;
    cfg.secrets = ctx.secrets;
    cfg.sessions = w.sessions;
    cfg.seed = std::uint64_t(w.seed);
    if (cell.openLoop) // a request-rate point: cell.concurrency is the max_concurrency cap
        cfg.schedule = scheduleFor(repeatArrivals(ctx.spec->openLoop, cell.repeat), cell.openLoop->targetRate,
                                   ctx.plan && ctx.plan->dataset() ? ctx.plan->dataset()->timestampsMs() : std::vector<double>(),
                                   cfg.requests, cfg.durationS);
    const std::int64_t targetCount = cfg.requests;
    if (!serverMetrics.started()) // unprofiled: scrapes from just before the first send
        startServerMetrics(ctx, cell, cb, serverMetrics);
    // The GPUs' energy window is the phase itself: a baseline right before the first send, the
    // last scrape right after the last answer (a profiler window does not matter to an exporter).
    CellTelemetry telemetry(&m_telemetryMissing);
    const QString cellFolder = cell.recordsPath.section(QLatin1Char('/'), 0, -2);
    telemetry.start(telemetryFor(*ctx.spec, *ctx.server), m_store.absolute(cellFolder), ctx.secrets);
    PhaseOutcome out = m_load.runPhase(cfg, [&](const LiveCounters &live) { cb.live(live, targetCount); });
    telemetry.stop();
    if (!publishRecords(cfg.recordsPath, recordsFinal, out.recordsError, cell))
        return std::nullopt; // the cell failed and m_writeError says why: the sweep stops

    CellMetricsInput in;
    in.records = &out.records;
    in.interChunkUs = &out.interChunkUs;
    in.streaming = w.streaming;
    in.slo = w.slo;
    // Open loop has no in-flight target: its steady mean runs from the first send to the last.
    in.concurrency = cell.openLoop ? 1 : cell.concurrency;
    static_cast<CellMetricsOutput &>(cell) = computeCellMetrics(in);
    const CellMetricsOutput &m = cell;
    cell.timeSlices = computeTimeSlices(out.records);
    cell.clientCpuMax = out.maxThreadCpu;
    cell.clientWaitMax = out.maxThreadWait;
    cell.hostStealMs = out.hostStealMs;
    cell.reconnects = out.reconnects;
    cell.resent = out.resent;
    cell.unsolicited = out.unsolicited;
    for (const auto &r : out.records) {
        if (r.ok() || r.error == ErrorKind::Cancelled)
            continue;
        cell.errors[errorKey(r.error, r.status)] += 1;
    }
    cell.errorSamples = out.errorSamples;
    for (auto it = cell.errorSamples.begin(); it != cell.errorSamples.end();)
        it = cell.errors.contains(it.key()) ? std::next(it) : cell.errorSamples.erase(it);

    if (cell.openLoop) {
        cell.openLoop = openLoopStats(out.records, repeatArrivals(ctx.spec->openLoop, cell.repeat), cell.openLoop->targetRate);
        if (ctx.spec->openLoop.arrival == Arrival::Trace && ctx.plan && ctx.plan->dataset())
            cell.openLoop->traceSpeed = cell.openLoop->targetRate / ArrivalSchedule::traceRate(ctx.plan->dataset()->timestampsMs());
        cell.warnings.append(openLoopWarnings(*cell.openLoop, out.hostStealMs, out.maxThreadWait));
        cell.warnings.append(validityWarnings(out, m, cell.concurrency, /*closedLoop=*/false));
    } else {
        // Sessions that think between turns hold fewer requests in flight than sessions by design.
        const bool thinking = w.sessions && (w.sessions->thinkTimeMs > 0 || w.sessions->thinkDist);
        cell.warnings.append(validityWarnings(out, m, cell.concurrency, /*closedLoop=*/!thinking));
    }
    cell.warnings.append(lengthWarnings(m, w));
    const QString telemetrySeries = cellFolder + QStringLiteral("/gpu_telemetry.jsonl");
    if (QString error; !telemetry.finish(out.startNs, telemetrySeries, m_store.absolute(telemetrySeries), cell, &error)) {
        m_writeError = error; // a series that could not be written stops the sweep like the records
        cell.status = CellStatus::Failed;
        cell.reason = error;
        return std::nullopt;
    }
    if (const std::optional<CostSpec> cost = costFor(*ctx.spec, *ctx.server))
        cell.cost = CellCost{cost->gpuHour, cost->gpus};
    return out;
}

void CellRunner::conclude(const CellContext &ctx, CellResult &cell, const PhaseOutcome &out, CellServerMetrics &serverMetrics,
                          HookPlacement proofPlacement)
{
    const WorkloadSpec &w = ctx.spec->workload;
    if (proofPlacement != HookPlacement::None)
        checkResetProof(out.records, proofPlacement, cell);
    const QString seriesRelative = cell.recordsPath.section(QLatin1Char('/'), 0, -2) + QStringLiteral("/server_metrics.jsonl");
    if (QString error; !serverMetrics.finish(*ctx.server, w, out, proofPlacement, seriesRelative, m_store.absolute(seriesRelative),
                                                 m_store.absolute(cell.recordsPath), cell, &error)) {
        m_writeError = error; // a series that could not be written stops the sweep like the records
        cell.status = CellStatus::Failed;
        cell.reason = error;
        return;
    }
    const CellVerdict verdict = judgeCell(cell, ctx.spec->maxErrorRate, out.cancelled);
    cell.status = verdict.status;
    cell.errorRate = verdict.errorRate;
    if (!verdict.reason.isEmpty())
        cell.reason = verdict.reason;
    cell.warnings.append(verdict.warnings);
}

} // namespace sb
