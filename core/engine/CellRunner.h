#pragma once
// Runs one cell through its lifecycle (DESIGN.md §1):
//   reset (before_warmup) -> warmup, drained -> reset (after_warmup) -> profiler start ->
//   measured phase at exactly C in flight -> profiler stop (always, also on cancel or error)
// and fills a CellResult. Runs on the engine thread.
#include "engine/SweepEngine.h"
#include "hooks/HookRunner.h"
#include "load/LoadGenerator.h"
#include "load/RequestFactory.h"
#include "results/ResultsStore.h"
#include <functional>

namespace sb {

struct CellContext {
    const SweepSpec *spec = nullptr;
    const ServerSpec *server = nullptr;
    HookTarget hooks;            // where the control calls go
    QString baseUrl;             // OpenAI base URL (a mock's URL for mock servers)
    QByteArray promptTag;        // unique per sweep run and cell
    QString traceDir;            // resolved (absolute) trace folder, or empty
    std::optional<QJsonObject> startBody; // resolved start body (output_dir made absolute)
};

struct CellCallbacks {
    std::function<void(const QString &phase)> phase;
    std::function<void(const HookOutcome &)> hook;
    std::function<void(const LiveCounters &, std::int64_t target)> live;
};

class CellRunner
{
public:
    CellRunner(LoadGenerator &load, HookRunner &hooks, const ResultsStore &store, const std::atomic<bool> &cancel)
        : m_load(load), m_hooks(hooks), m_store(store), m_cancel(cancel) {}

    // `cell` arrives with index/server/origin/concurrency/recordsPath set. Returns true when the
    // sweep must stop (on_hook_failure: abort).
    bool run(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb);

private:
    bool runReset(const CellContext &ctx, CellResult &cell, const CellCallbacks &cb, const QString &placement);
    void measure(const CellContext &ctx, const ServerTarget &target, CellResult &cell, const CellCallbacks &cb);
    bool hookFailed(const CellContext &ctx, CellResult &cell, const HookOutcome &o, bool *abortSweep);

    LoadGenerator &m_load;
    HookRunner &m_hooks;
    const ResultsStore &m_store;
    const std::atomic<bool> &m_cancel;
};

} // namespace sb
