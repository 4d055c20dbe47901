#include "engine/SweepEngineWorker.h"
#include "results/HookSeverity.h"
#include "engine/CellRunner.h"
#include "engine/OpenLoopCell.h"
#include "engine/Reachability.h"
#include "engine/SloSearchCells.h"
#include "metrics/SloSearch.h"
#include "hooks/HookPresets.h"
#include "io/ReadLimits.h"
#include "io/SteadyClock.h"
#include "load/RequestFactory.h"
#include "results/ResultsStore.h"
#include "results/SpecFingerprint.h"
#include "results/SweepAxis.h"
#include "spec/LaunchVariants.h"
#include <QDateTime>
#include <QDir>
#include <QMutexLocker>
#include <QRandomGenerator>
#include <cmath>

namespace sb {

SweepEngineWorker::SweepEngineWorker(SweepEngine *owner, const SweepSpec &spec, const RunOptions &options)
    : m_owner(owner), m_spec(withLaunchVariantsExpanded(spec)), m_writtenSpec(spec), m_options(options),
      m_secrets(std::make_shared<const SecretSet>(SecretSet::fromSpec(m_spec))),
      m_outDir(QDir(options.outDir).absolutePath()),
      m_shardPlan(planShards(m_spec, options.shard.count))
{
    setObjectName(QStringLiteral("sweepbench-engine"));
}

SweepResults SweepEngineWorker::snapshot() const
{
    QMutexLocker lock(&m_mutex);
    return m_results;
}

void SweepEngineWorker::run()
{
    const int code = runSweep();
    m_launch.stopAll(); // every way out of a sweep (done, cancelled, failed) passes here
    m_mocks.stop(); // stop embedded servers on this thread, before anyone joins it
    Q_EMIT m_owner->finished(code);
}

QString SweepEngineWorker::resolveTraceDir(int serverIndex) const
{
    return resolvedTraceDir(m_spec.servers[serverIndex], m_outDir);
}

bool SweepEngineWorker::startMocks(QString *error)
{
    if (!m_mocks.start(m_spec, [this](int i) { return resolveTraceDir(i); }, error))
        return false;
    for (int i = 0; i < m_spec.servers.size(); ++i)
        if (!m_spec.servers[i].mock.isEmpty())
            m_owner->log(QStringLiteral("embedded %1 mock for %2 listening on %3")
                                           .arg(m_spec.servers[i].mock, m_spec.servers[i].name, m_mocks.baseUrls(i).join(QStringLiteral(", "))));
    return true;
}

bool SweepEngineWorker::planLaunches(QString *error)
{
    if (!m_launch.plan(m_spec, QDir(m_outDir).filePath(QStringLiteral("servers")), error))
        return false;
    for (int i = 0; i < m_spec.servers.size(); ++i)
        if (m_launch.launched(i))
            m_mocks.useUrls(i, m_launch.urls(i));
    return true;
}

QString SweepEngineWorker::launchBeforeCell(int serverIndex)
{
    if (!m_launch.launched(serverIndex))
        return QString();
    const ServerSpec &server = m_spec.servers[serverIndex];
    // A death between cells counts like one during a cell (the second gives the server up).
    if (const QString died = m_launch.checkAlive(serverIndex); !died.isEmpty())
        m_owner->log(QStringLiteral("warning: server %1: %2 between cells").arg(server.name, died));
    if (const QString gaveUp = m_launch.givenUp(serverIndex); !gaveUp.isEmpty())
        return gaveUp;
    const bool starting = !m_launch.running(serverIndex);
    if (starting)
        m_owner->log(QStringLiteral("starting server %1: %2 (log: %3)")
                                       .arg(server.name, m_secrets->scrub(server.launch.command.join(QLatin1Char(' '))),
                                            QDir::toNativeSeparators(m_launch.logPath(serverIndex))));
    const QString error = m_launch.ensureReady(serverIndex, &m_cancel);
    if (starting && error.isEmpty())
        m_owner->log(QStringLiteral("server %1 ready at %2 (pid %3)")
                                       .arg(server.name, m_launch.urls(serverIndex).join(QStringLiteral(", ")))
                                       .arg(m_launch.pid(serverIndex)));
    return error;
}

void SweepEngineWorker::launchAfterCell(int serverIndex, CellResult &cell)
{
    const QString died = m_launch.checkAlive(serverIndex);
    if (died.isEmpty())
        return;
    const bool measured = !cell.recordsPath.isEmpty() && (cell.completed + cell.failed) > 0;
    cell.status = CellStatus::Failed;
    cell.reason = QStringLiteral("%1 %2; last log lines: %3")
                      .arg(died, measured ? QStringLiteral("during the measured phase") : QStringLiteral("during the cell"), m_launch.lastLines(serverIndex));
    m_owner->log(QStringLiteral("warning: server %1: %2").arg(m_spec.servers[serverIndex].name, cell.reason));
}

int SweepEngineWorker::calibratedFiller(const ServerSpec &server, const CellContext &ctx, PromptCalibrator &calibrator,
                                        CalibrationStore &store, CellResult &cell, const WorkloadSpec &w)
{
    if (!w.calibratePrompts || ctx.baseUrls.isEmpty())
        return -1;
    const QString key = calibrationKey(server, w);
    const PromptCalibration *known = store.find(key);
    if (!known) {
        // A saved entry that failed its checks is never used; the cell says it was calibrated again.
        if (const QString refused = store.refusal(key); !refused.isEmpty())
            cell.warnings.append(QStringLiteral("the saved prompt calibration was refused (%1); calibrated again").arg(refused));
        m_owner->log(QStringLiteral("calibrating %1-token prompts on %2 (model %3)").arg(w.inputTokens).arg(server.name, server.model));
        // A tag of the benchmark's width, but not a measured prompt's: probes must not warm its cache.
        QByteArray tag = ctx.promptTag;
        tag.replace(0, 2, "cb");
        PromptCalibration c = calibrator.calibrate(server, ctx.baseUrls.first(), w, tag);
        c.error = m_secrets->scrub(c.error); // quotes the server's answer; goes to the log and the cells' warnings
        QString error;
        if (!store.put(key, c, &error))
            m_owner->log(QStringLiteral("warning: ") + error);
        m_owner->log(c.ok() ? QStringLiteral("  %1 filler characters give %2 prompt tokens (%3 probes)").arg(c.fillerChars).arg(c.measuredTokens).arg(c.probes)
                            : QStringLiteral("  prompt calibration failed (%1): input_tokens are sent as words").arg(c.failureText()));
        known = store.find(key);
    }
    if (!known->ok())
        cell.warnings.append(QStringLiteral("prompt lengths not calibrated (%1): input_tokens are sent as words, which the server's tokenizer counts differently")
                                 .arg(known->failureText()));
    else if (std::abs(known->measuredTokens - known->target) > 1)
        cell.warnings.append(QStringLiteral("no prompt length gives exactly %1 tokens on this server; prompts are %2").arg(known->target).arg(known->measuredTokens));
    return known->fillerChars;
}

void SweepEngineWorker::publish(const CellResult &cell)
{
    QMutexLocker lock(&m_mutex);
    for (auto &c : m_results.cells)
        if (c.index == cell.index)
            c = cell;
}

void SweepEngineWorker::skipRemaining(int from, const QString &reason)
{
    QMutexLocker lock(&m_mutex);
    for (int i = from; i < m_results.cells.size(); ++i) {
        CellResult &c = m_results.cells[i];
        if (!hasMeasurements(c.status)) {
            c.status = CellStatus::Skipped;
            c.reason = reason;
        }
    }
}

void SweepEngineWorker::emitProgress(ProgressSnapshot s)
{
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    const bool phaseChange = s.phase != RunPhase::Measure && s.phase != RunPhase::Warmup;
    if (!phaseChange && nowMs - m_lastProgressMs < 100)
        return; // the UI needs ~10 updates a second, not one per request
    m_lastProgressMs = nowMs;
    s.sweepFraction = s.cellCount ? (s.cellsDone + s.cellFraction) / s.cellCount : 0;
    const double elapsedS = double(steadyNowNs() - m_startNs) / 1e9;
    s.etaS = s.sweepFraction > 0.02 ? elapsedS / s.sweepFraction * (1 - s.sweepFraction) : -1;
    Q_EMIT m_owner->progress(s);
}

QString SweepEngineWorker::failureMessage() const
{
    QMutexLocker lock(&m_mutex);
    return m_failure;
}

int SweepEngineWorker::stop(int code, const QString &message)
{
    {
        QMutexLocker lock(&m_mutex);
        m_failure = m_secrets->scrub(message); // failureMessage() is printed and shown too
    }
    m_owner->log(QStringLiteral("error: ") + message);
    return code;
}

bool SweepEngineWorker::ownsServer(int serverIndex) const
{
    return !m_options.shard.sharded() || m_shardPlan.shardOfServer.value(serverIndex) == m_options.shard.index;
}

bool SweepEngineWorker::previousCells(SweepResults *previous, QStringList *specChanges, QString *error)
{
    const QString dir = QDir::toNativeSeparators(m_outDir);
    if (!ResultsStore::hasResults(m_outDir)) {
        m_owner->log(QStringLiteral("nothing to resume (no results.json in %1); running every cell").arg(dir));
        return true;
    }
    // A results.json that cannot be read is never replaced by a resume: it may be the only
    // copy of finished cells.
    QString why;
    QStringList problems;
    if (!ResultsStore::readResultsForResume(m_outDir, previous, &problems, &why)) {
        *error = QStringLiteral("cannot resume: %1. Move it away or fix it, or run into a new folder (--out NEW_DIR).").arg(why);
        return false;
    }
    // A cell that does not read as SweepBench wrote it (a wrong type, a negative count, a records
    // path out of the folder) was edited or damaged: kept, it would pass for a measurement;
    // re-run, its file would be replaced though it may hold the only copy of finished cells.
    // Neither happens silently: the resume is refused, naming each cell and key.
    if (!problems.isEmpty()) {
        constexpr int kShown = 10;
        const qsizetype more = problems.size() - kShown;
        QStringList shown = problems.mid(0, kShown);
        if (more > 0)
            shown.append(QStringLiteral("(and %1 more)").arg(more));
        *error = QStringLiteral("cannot resume: %1 holds cells a resume cannot trust:\n  %2\n"
                                "Move it away or fix it, or run into a new folder (--out NEW_DIR).")
                     .arg(QDir::toNativeSeparators(m_outDir + QStringLiteral("/results.json")), shown.join(QStringLiteral("\n  ")));
        return false;
    }
    if (!(previous->shard == m_options.shard)) {
        *error = QStringLiteral("cannot resume %1: it holds shard %2 of the sweep, this run is shard %3 (use that shard's own folder)")
                     .arg(dir, previous->shard.text(), m_options.shard.text());
        return false;
    }
    *specChanges = fingerprintDifferences(previous->specFingerprint, specFingerprint(m_spec, m_dataset ? m_dataset->sha256 : QString()));
    if (specChanges->isEmpty())
        return true;
    if (m_options.force) {
        m_owner->log(QStringLiteral("warning: --force: keeping the finished cells of %1 although the spec changed: %2")
                                       .arg(dir, specChanges->join(QStringLiteral("; "))));
        return true;
    }
    *error = QStringLiteral("cannot resume %1: the spec changed settings that affect measurements:\n  %2\n"
                            "Run into a new folder (--out NEW_DIR), or add --force to keep the finished cells anyway "
                            "(each kept cell then says so in its warnings).")
                 .arg(dir, specChanges->join(QStringLiteral("\n  ")));
    return false;
}

void SweepEngineWorker::planCells(const SweepResults &previous, const QStringList &specChanges)
{
    // Server-major, points (concurrency levels or request rates) in the given order.
    QMutexLocker lock(&m_mutex);
    m_results = SweepResults();
    m_results.toolVersion = QStringLiteral(SWEEPBENCH_VERSION);
    m_results.sweepName = m_spec.name;
    m_results.startedAt = previous.startedAt.isValid() ? previous.startedAt : QDateTime::currentDateTimeUtc();
    m_results.host = hostInfo();
    m_results.specFingerprint = specFingerprint(m_spec, m_dataset ? m_dataset->sha256 : QString());
    m_results.shard = m_options.shard;
    // A kept open-loop cell must have been measured with this spec's arrivals (they are not in the
    // spec fingerprint: results/SpecFingerprint.h covers workload and servers).
    const auto sameArrivals = [this](const CellResult &old) {
        const OpenLoopSpec o = repeatArrivals(m_spec.openLoop, old.repeat);
        return !old.openLoop || (old.openLoop->arrival == toString(o.arrival) && old.openLoop->seed == o.seed
                                 && old.openLoop->maxConcurrency == o.maxConcurrency
                                 && (o.arrival != Arrival::Gamma || old.openLoop->burstiness == o.burstiness));
    };
    int index = 0;
    for (int s = 0; s < m_spec.servers.size(); ++s) {
        // The repeats of a point run back to back, each a cell of its own with its own hooks.
        for (qsizetype k = 0; k < m_spec.cellsPerServer(); ++k) {
            const qsizetype p = k / std::max(1, m_spec.repeats);
            const int rep = int(k % std::max(1, m_spec.repeats));
            CellResult cell;
            cell.index = index;
            cell.repeat = rep;
            cell.server = m_spec.servers[s].name;
            cell.serverInfo.baseServer = m_spec.servers[s].variantOf.isEmpty() ? cell.server : m_spec.servers[s].variantOf;
            cell.serverInfo.variant = m_spec.servers[s].variant;
            QStringList origins;
            for (const HookTarget &t : hookTargetsFor(m_spec.servers[s], m_mocks.baseUrls(s)))
                origins.append(t.origin);
            cell.origin = origins.join(QStringLiteral(", "));
            if (m_spec.openLoop.active()) { // a rate point; its connections are the max_concurrency cap
                cell.concurrency = m_spec.openLoop.maxConcurrency;
                cell.openLoop = OpenLoopResult();
                cell.openLoop->targetRate = m_spec.openLoop.rates[p];
            } else {
                cell.concurrency = m_spec.concurrency[p];
            }
            const QString tag = m_spec.repeats > 1 ? pointTag(cell) + QStringLiteral("-n%1").arg(rep + 1) : pointTag(cell);
            cell.recordsPath = ResultsStore::cellDirName(index, cell.server, tag) + QStringLiteral("/records.jsonl");
            for (const auto &old : std::as_const(previous.cells)) {
                if (old.server != cell.server || axisOf(old) != axisOf(cell) || pointValue(old) != pointValue(cell) || old.repeat != rep
                    || !sameArrivals(old) || !hasMeasurements(old.status))
                    continue;
                cell = old, cell.index = index;
                if (!specChanges.isEmpty())
                    cell.warnings.append(QStringLiteral("kept by --resume --force although the spec changed: ") + specChanges.join(QStringLiteral("; ")));
            }
            if (!ownsServer(s))
                cell.reason = QStringLiteral("runs in shard %1/%2").arg(m_shardPlan.shardOfServer[s]).arg(m_shardPlan.count);
            m_results.cells.append(cell);
            ++index;
        }
    }
}

// What every cell of one run shares: the clients, the calibrations, what is known of each
// server's reachability, and the run's prompt nonce.
struct SweepEngineWorker::RunTools {
    RunTools(ResultsStore &store, std::shared_ptr<const SecretSet> runSecrets, const QString &outDir, const std::atomic<bool> &cancel)
        : hooks(control, &cancel), runner(load, hooks, store, cancel), calibrator(control, &cancel), calibrations(outDir),
          secrets(std::move(runSecrets))
    {
    }
    LoadGenerator load;
    ControlClient control;
    HookRunner hooks;
    CellRunner runner;
    ServerReachability reachability;
    PromptCalibrator calibrator;
    CalibrationStore calibrations;
    // Learnt before the first cell: nothing a server echoes back is stored with a key in it.
    std::shared_ptr<const SecretSet> secrets;
    // Fixed width, so that every cell's prompts tokenize alike (engine/PromptCalibration).
    QByteArray runNonce = QByteArray::number(QRandomGenerator::global()->generate64(), 36).rightJustified(13, '0');
    bool aborted = false; // on_hook_failure: abort
};

int SweepEngineWorker::runSweep()
{
    m_startNs = steadyNowNs();
    ResultsStore store(m_outDir);
    if (const std::optional<int> refused = prepareSweep(store))
        return *refused;
    RunTools tools(store, m_secrets, m_outDir, m_cancel);
    for (const QString &problem : tools.calibrations.problems()) // a resumed folder's calibration.json
        m_owner->log(QStringLiteral("warning: ") + problem);
    // The SLO search appends cells after the planned ones (engine/SloSearchCells.h).
    int cellCount = int(m_results.cells.size());
    const int plannedCount = cellCount;
    int cellsDone = 0;
    for (int i = 0; i < cellCount; ++i) {
        CellResult cell = snapshot().cells[i];
        if (hasMeasurements(cell.status)) { // kept from the resumed run
            ++cellsDone;
            Q_EMIT m_owner->cellFinished(cell);
            continue;
        }
        const int serverIndex = i < plannedCount ? i / int(m_spec.cellsPerServer()) : serverIndexOf(m_spec, cell.server);
        if (!ownsServer(serverIndex)) { // another shard's cell: left pending for `sweepbench merge`
            ++cellsDone;
            continue;
        }
        if (m_cancel || tools.aborted) {
            cell.status = m_cancel ? CellStatus::Cancelled : CellStatus::Skipped;
            cell.reason = m_cancel ? QStringLiteral("sweep cancelled before this cell") : QStringLiteral("sweep aborted by on_hook_failure: abort");
        } else {
            ProgressSnapshot base;
            base.cellIndex = i;
            base.cellCount = cellCount;
            base.cellsDone = cellsDone;
            runCell(serverIndex, cell, tools, base);
            // A launched server stops after its last cell (an SLO search cell starts it again).
            if (i + 1 >= cellCount || (i + 1 < plannedCount && (i + 1) / int(m_spec.cellsPerServer()) != serverIndex))
                m_launch.stop(serverIndex);
        }
        publish(cell);
        // A cell whose records could not be written is saved as failed (its partial records
        // were removed, so this may still fit); then the sweep stops. When results.json itself
        // cannot be replaced, the previous one stays valid on disk and the sweep stops too:
        // measuring on would only produce cells that are never saved.
        QString error, writeError = tools.runner.writeError();
        if (!store.writeResults(snapshot(), &error) && writeError.isEmpty())
            writeError = error;
        ++cellsDone;
        Q_EMIT m_owner->cellFinished(cell);
        if (!writeError.isEmpty()) {
            skipRemaining(i + 1, QStringLiteral("not run: the sweep stopped because results could not be written"));
            return stop(exitcode::kWriteFailed, writeError);
        }
        if (i + 1 == cellCount && m_spec.sloSearch.enabled && !m_cancel && !tools.aborted) {
            QMutexLocker lock(&m_mutex);
            if (auto next = nextSloSearchCell(m_spec, m_results, [this](int s) { return ownsServer(s); })) {
                m_results.cells.append(*next);
                ++cellCount;
            }
        }
    }
    return finishSweep(store, cellCount);
}

std::optional<int> SweepEngineWorker::prepareSweep(ResultsStore &store)
{
    using namespace exitcode;
    QString error;
    const qsizetype plannedCells = m_spec.servers.size() * m_spec.cellsPerServer();
    if (plannedCells > kMaxResultsCells)
        return stop(kCannotStart, QStringLiteral("the sweep has %1 cells; one results folder holds at most %2 (split the sweep)")
                                      .arg(plannedCells).arg(kMaxResultsCells));
    // The SLO search adds cells as results come in: shards would add different ones, and their
    // folders could no longer be merged cell by cell.
    if (m_options.shard.sharded() && m_spec.sloSearch.enabled)
        return stop(kCannotStart, QStringLiteral("sweep.slo_search cannot run sharded (each shard would add its own search cells): "
                                                 "run the search unsharded, or shard the sweep without slo_search"));
    // A bad dataset is refused before anything is written; read before the resume check, whose
    // spec fingerprint holds the dataset file's sha256.
    if (!loadWorkloadDataset(&error))
        return stop(kCannotStart, error);
    SweepResults previous;
    QStringList specChanges;
    // Checked before anything is written: a refused resume leaves the folder exactly as it was.
    if (m_options.resume && !previousCells(&previous, &specChanges, &error))
        return stop(kCannotStart, error);
    if (!store.prepare(&error) || !store.writeSpec(m_writtenSpec, &error))
        return stop(kWriteFailed, error);
    if (!startMocks(&error) || !planLaunches(&error))
        return stop(kCannotStart, error);
    if (m_options.shard.sharded()) {
        const QStringList plan = describePlan(m_spec, m_shardPlan);
        m_owner->log(QStringLiteral("this run is %1").arg(plan.value(m_options.shard.index)));
    }
    planCells(previous, specChanges);
    if (!store.writeResults(snapshot(), &error))
        return stop(kWriteFailed, error);
    return std::nullopt;
}

void SweepEngineWorker::runCell(int serverIndex, CellResult &cell, RunTools &tools, ProgressSnapshot base)
{
    const ServerSpec &server = m_spec.servers[serverIndex];
    CellContext ctx;
    ctx.spec = &m_spec;
    ctx.server = &server;
    ctx.baseUrls = m_mocks.baseUrls(serverIndex);
    ctx.hooks = hookTargetsFor(server, ctx.baseUrls);
    ctx.promptTag = "sb-" + tools.runNonce + "-c" + QByteArray::number(base.cellIndex).rightJustified(4, '0');
    ctx.secrets = tools.secrets; // before the calibration probes, whose errors quote the server
    if (const QString why = launchBeforeCell(serverIndex); !why.isEmpty()) {
        cell.status = m_cancel ? CellStatus::Cancelled : CellStatus::Failed;
        cell.reason = why;
        return;
    }
    if (m_launch.launched(serverIndex) && server.reset.restart)
        ctx.restart = [this, serverIndex] { return m_launch.restart(serverIndex, &m_cancel); };
    // A server that is not there, or went away earlier, costs this cell one connect, not its
    // retry budget.
    if (const QString blocked = tools.reachability.blockReason(ctx.hooks, cell.index); !blocked.isEmpty()) {
        cell.status = CellStatus::Failed;
        cell.reason = blocked;
        return;
    }
    recordServerInfo(serverIndex, ctx, cell, tools.control); // before any traffic of this cell
    ctx.plan = workloadPlan(server, ctx, tools.calibrator, tools.calibrations, cell); // lengths, filler, dataset entries
    if (m_spec.workload.calibratePrompts) // its probes may have warmed a just-started server's cache
        m_launch.noteTraffic(serverIndex);
    ctx.fillerChars = ctx.plan->fill().charsFor(m_spec.workload.inputTokens);
    ctx.traceDir = resolveTraceDir(serverIndex);
    ctx.startBody = resolvedProfilerStartBody(server, m_outDir);
    base.server = server.name;
    base.concurrency = cell.concurrency;
    base.point = pointLabel(cell);
    tools.aborted = tools.runner.run(ctx, cell, cellCallbacks(base, cell));
    recordServerProcess(serverIndex, cell);
    if (m_launch.launched(serverIndex))
        launchAfterCell(serverIndex, cell);
    tools.reachability.noteCell(cell, ctx.hooks);
}

void SweepEngineWorker::recordServerInfo(int serverIndex, const CellContext &ctx, CellResult &cell, ControlClient &control)
{
    const ServerSpec &server = m_spec.servers[serverIndex];
    const int generation = m_launch.generation(serverIndex);
    auto known = m_serverInfo.find(serverIndex);
    if (known == m_serverInfo.end() || known->second.generation != generation) {
        ServerInfo info;
        if (!ctx.hooks.isEmpty() && !ctx.baseUrls.isEmpty())
            info = fetchServerIdentity(control, server, ctx.hooks.first().origin, ctx.baseUrls.first(), controlHeaders(ctx.hooks.first()),
                                       *m_secrets, &m_cancel);
        if (m_launch.launched(serverIndex)) {
            recordLaunch(info, server.launch, m_launch.port(serverIndex), *m_secrets);
            if (!m_gpus) // the machine that launched the server: asked once, off the UI thread
                m_gpus = queryGpus();
            info.gpus = m_gpus->gpus;
            info.gpuError = m_gpus->error;
        }
        known = m_serverInfo.insert_or_assign(serverIndex, KnownServerInfo{info, generation}).first;
    }
    cell.serverInfo = known->second.info;
    cell.serverInfo.baseServer = server.variantOf.isEmpty() ? server.name : server.variantOf;
    cell.serverInfo.variant = server.variant;
}

void SweepEngineWorker::recordServerProcess(int serverIndex, CellResult &cell) const
{
    if (!m_launch.launched(serverIndex) || m_launch.pid(serverIndex) < 0)
        return;
    cell.serverInfo.pid = m_launch.pid(serverIndex);
    cell.serverInfo.processStartedAt = m_launch.startedAt(serverIndex);
}

CellCallbacks SweepEngineWorker::cellCallbacks(const ProgressSnapshot &base, const CellResult &cell)
{
    CellCallbacks cb;
    cb.phase = [this, base](RunPhase phase) {
        ProgressSnapshot s = base;
        s.phase = phase;
        emitProgress(s);
    };
    const CellKey key{base.cellIndex, base.server, cell.concurrency, base.point};
    const QString where = QStringLiteral("[%1 %2]").arg(base.server, base.point);
    cb.hook = [this, key, where](const HookOutcome &o) {
        Q_EMIT m_owner->hookCalled(key, o);
        m_owner->log(QStringLiteral("%1 %2 %3 -> %4 (HTTP %5, %6 attempt(s), %7 ms)")
                                       .arg(where, hookKindName(o.hook), o.path, hookVerdictText(o))
                                       .arg(o.status).arg(o.attempts).arg(qRound(o.latencyMs)));
    };
    cb.live = [this, base](const LiveCounters &live, std::int64_t target) {
        ProgressSnapshot s = base;
        s.phase = RunPhase::Measure;
        s.requestsDone = live.finished;
        s.requestsFailed = live.failed;
        s.requestsTarget = int(target);
        s.inFlight = live.inFlight;
        const double dur = m_spec.workload.durationS;
        s.cellFraction = target > 0 ? std::min(1.0, double(live.finished) / double(target))
                                    : (dur > 0 ? std::min(1.0, live.elapsedS / dur) : 0);
        s.liveOutputTokensPerS = live.elapsedS > 0 ? double(live.outputTokens) / live.elapsedS : 0;
        s.liveTtftAvgMs = live.ttftAvgMs;
        s.liveLatencyAvgMs = live.latencyAvgMs;
        emitProgress(s);
    };
    // From the scraper's thread: only the key (copied) and the owner are touched.
    cb.serverLoad = [this, key](double running, double waiting) { Q_EMIT m_owner->serverLoad(key, running, waiting); };
    return cb;
}

int SweepEngineWorker::finishSweep(ResultsStore &store, int cellCount)
{
    {
        QMutexLocker lock(&m_mutex);
        m_results.finishedAt = QDateTime::currentDateTimeUtc();
        if (m_spec.sloSearch.enabled)
            m_results.sloSearch = sloSearchResult(m_results, m_spec);
    }
    QString error;
    if (!store.writeResults(snapshot(), &error))
        return stop(exitcode::kWriteFailed, error);
    ProgressSnapshot done;
    done.phase = RunPhase::Done;
    done.cellCount = cellCount;
    done.cellsDone = cellCount;
    emitProgress(done);
    const auto cells = snapshot().cells;
    bool allCompleted = true;
    for (int i = 0; i < cells.size(); ++i)
        if (ownsServer(serverIndexOf(m_spec, cells[i].server)))
            allCompleted = allCompleted && cells[i].status == CellStatus::Completed;
    return allCompleted ? exitcode::kAllCompleted : exitcode::kNotAllCompleted;
}

} // namespace sb
