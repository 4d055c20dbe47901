#pragma once
// Runs a whole sweep off the calling thread: for every cell, reset -> warmup -> profiler start ->
// measured phase -> profiler stop -> results on disk (docs/ARCHITECTURE.md §5). Thread-safe control API;
// all signals are emitted from the engine thread, so connect them queued (the default across
// threads) and never block the UI on the engine.
#include "engine/RunPhase.h"
#include "results/ShardId.h"
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <QObject>
#include <memory>

namespace sb {

// Exit codes of run/demo (README "Exit codes", `sweepbench help run`): one source for the CLI,
// the GUI and the engine's finished() signal.
namespace exitcode {
inline constexpr int kAllCompleted = 0;
inline constexpr int kNotAllCompleted = 1;  // some cell failed, was skipped or cancelled
inline constexpr int kCannotStart = 2;      // spec or usage error, or the run could not start
inline constexpr int kWriteFailed = 3;      // results could not be written: the run stopped at once
} // namespace exitcode

struct RunOptions {
    QString outDir;       // results folder; created if missing
    bool resume = false;  // keep finished cells found in outDir/results.json, run the rest
    // With resume: keep the finished cells even though the spec's measurement settings changed
    // (each kept cell says so in its warnings). Without it such a resume is refused.
    bool force = false;
    // Run only this shard's servers (engine/ShardPlan.h); the others' cells stay pending.
    ShardId shard;
};

// Which cell a signal is about: enough to name it without the plan (server, concurrency).
struct CellKey {
    int index = -1; // 0-based cell index (CellResult::index)
    QString server;
    int concurrency = 0;
    QString point;  // results/SweepAxis.h pointLabel(): "c=8" or "2 req/s" (a rate cell's concurrency is its cap)
};

// What the UI shows while running. Sent at most ~10 times a second.
struct ProgressSnapshot {
    int cellIndex = -1;        // 0-based index of the running cell
    int cellCount = 0;
    int cellsDone = 0;
    QString server;
    int concurrency = 0;
    QString point;             // results/SweepAxis.h pointLabel(): "c=8" or "8 req/s"
    RunPhase phase = RunPhase::Starting;
    int requestsDone = 0;      // measured requests finished in this cell
    int requestsFailed = 0;    // of those, failed
    int requestsTarget = 0;    // 0 when the cell runs by duration
    double cellFraction = 0;   // 0..1 progress of the running cell
    double sweepFraction = 0;  // 0..1 progress of the whole sweep
    double etaS = -1;          // remaining seconds for the sweep; -1 unknown
    int inFlight = 0;
    // Live figures of the running cell so far (0 when none yet).
    double liveOutputTokensPerS = 0;
    double liveTtftAvgMs = 0;     // mean so far (a median would need every sample on the hot path)
    double liveLatencyAvgMs = 0;
};

class SweepEngineWorker;

class SweepEngine : public QObject
{
    Q_OBJECT
public:
    SweepEngine(const SweepSpec &spec, const RunOptions &options, QObject *parent = nullptr);
    ~SweepEngine() override; // cancels and joins the engine thread

    void start();                 // returns at once; the run happens on the engine thread
    void cancel();                // thread-safe; in-flight requests are aborted, profilers stopped
    bool isRunning() const;
    SweepResults results() const; // snapshot of everything finished so far (thread-safe)
    QString outDir() const;
    // Why the run stopped or could not start (the error also logged); empty after a normal end.
    QString failureMessage() const;

Q_SIGNALS:
    void progress(const sb::ProgressSnapshot &snapshot);
    void hookCalled(const sb::CellKey &cell, const sb::HookOutcome &outcome);
    void cellFinished(const sb::CellResult &cell);
    // A line of the run log. Private: only log() emits it, after scrubbing the run's secrets
    // (a server's answer quoted in a line may echo the key), so no line can skip the scrub.
    void logMessage(const QString &line, QPrivateSignal);
    // The running cell's server load from each metrics scrape (-1: not published); emitted from
    // the scraper's thread, so connect queued.
    void serverLoad(const sb::CellKey &cell, double running, double waiting);
    // One of exitcode::*; for kCannotStart and kWriteFailed failureMessage() says why.
    void finished(int exitCode);

private:
    friend class SweepEngineWorker;
    void log(const QString &line); // from the engine thread: scrubs, then emits logMessage

    std::unique_ptr<SweepEngineWorker> m_worker;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::ProgressSnapshot)
Q_DECLARE_METATYPE(sb::CellKey)
