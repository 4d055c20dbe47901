#pragma once
// Runs one cell through its lifecycle (docs/ARCHITECTURE.md §5):
//   reset (before_warmup) -> warmup, drained -> reset (after_warmup) -> profiler start ->
//   measured phase at exactly C in flight -> profiler stop (always, also on cancel or error)
// and fills a CellResult. Runs on the engine thread.
#include "engine/SweepEngine.h"
#include "hooks/HookRunner.h"
#include "hooks/TraceListing.h"
#include "load/LoadGenerator.h"
#include "load/RequestFactory.h"
#include "results/ResultsStore.h"
#include <QSet>
#include <optional>
#include <functional>

namespace sb {

class CellServerMetrics;

struct CellContext {
    const SweepSpec *spec = nullptr;
    const ServerSpec *server = nullptr;
    QList<HookTarget> hooks;     // where the control calls go: each unique origin, in URL order
    QStringList baseUrls;        // OpenAI base URLs (a mock's URL for mock servers)
    QByteArray promptTag;        // unique per sweep run and cell
    QString traceDir;            // resolved (absolute) trace folder, or empty
    std::optional<QJsonObject> startBody; // resolved start body (output_dir made absolute)
    int fillerChars = -1;        // calibrated prompt filler (engine/PromptCalibration); -1 = words
    // Per-request lengths, filler and dataset entries (workload/WorkloadPlan); null = every
    // request asks for input_tokens with fillerChars.
    std::shared_ptr<const WorkloadPlan> plan;
    // Every secret of the sweep, learnt before anything was written: scrubbed from the cell's
    // error samples, records, hook messages, warnings and reason.
    std::shared_ptr<const SecretSet> secrets;
    // reset_kv_cache: restart on a launched server (launch/LaunchedServers): stops, starts and
    // waits for it, in place of the reset route.
    std::function<HookOutcome()> restart;
};

struct CellCallbacks {
    std::function<void(RunPhase phase)> phase;
    std::function<void(const HookOutcome &)> hook;
    std::function<void(const LiveCounters &, std::int64_t target)> live;
    // Server load from each metrics scrape (servermetrics/ServerMetricCatalogue serverLoad()).
    // Called on the scraper's thread, not the engine's.
    std::function<void(double running, double waiting)> serverLoad;
};

class CellRunner
{
public:
    CellRunner(LoadGenerator &load, HookRunner &hooks, const ResultsStore &store, const std::atomic<bool> &cancel)
        : m_load(load), m_hooks(hooks), m_store(store), m_cancel(cancel) {}

    // `cell` arrives with index/server/origin/concurrency/recordsPath set. Returns true when the
    // sweep must stop (on_hook_failure: abort).
    bool run(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb);
    // Set when the cell's records could not be written ("cannot write PATH: REASON"): the cell
    // is failed and the sweep must stop (README "Reliability").
    const QString &writeError() const { return m_writeError; }

private:
    static void record(CellResult &cell, const CellCallbacks &cb, const HookOutcome &o);
    // Resets each origin; returns the first failed outcome (inside cell.hooks) or nullptr.
    const HookOutcome *runResets(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb, HookPlacement placement);
    // Opens a window on each origin in order; if one fails, stops the started ones in reverse
    // order, sets `failure` and returns none.
    QList<const HookTarget *> startProfilers(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb,
                                             std::optional<HookOutcome> *failure);
    void stopProfilers(const CellContext &ctx, const QList<const HookTarget *> &started, const TraceSnapshot &traces,
                       CellResult &cell, const CellCallbacks &cb);
    // Waits for the closed windows to settle before the next cell (engine/WindowSettle.h).
    void settleWindows(const CellContext &ctx, const TraceSnapshot &traces, CellResult &cell);
    bool publishRecords(const QString &part, const QString &finalPath, const QString &writeError, CellResult &cell);
    // Starts the cell's server-metrics scraper (its baseline scrape included).
    void startServerMetrics(const CellContext &ctx, const CellResult &cell, const CellCallbacks &cb, CellServerMetrics &serverMetrics);
    // The measured phase and the client's side of the cell; nothing when its records could not
    // be published (the cell failed and m_writeError says why).
    std::optional<PhaseOutcome> measure(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb, CellServerMetrics &serverMetrics);
    // After any profiler window has closed: the server's side of the cell and the cell's verdict.
    // `proofPlacement`: the placement of the resets that came right before the measured phase
    // (nothing ran in between), whose effect the first requests can confirm; None for none.
    void conclude(const CellContext &ctx, CellResult &cell, const PhaseOutcome &out, CellServerMetrics &serverMetrics,
                  HookPlacement proofPlacement);
    static void checkResetProof(const std::vector<RequestRecord> &records, HookPlacement placement, CellResult &cell);
    bool hookFailed(const CellContext &ctx, CellResult &cell, const HookOutcome &o, bool *abortSweep);

    LoadGenerator &m_load;
    HookRunner &m_hooks;
    const ResultsStore &m_store;
    const std::atomic<bool> &m_cancel;
    QString m_writeError;
    QSet<QString> m_metricsMissing; // "server origin" pairs without a metrics endpoint (engine/CellServerMetrics)
    QSet<QString> m_telemetryMissing; // GPU exporter URLs that answered no metrics (engine/CellTelemetry)
};

} // namespace sb
