#pragma once
// Runs a whole sweep off the calling thread: for every cell, reset -> warmup -> profiler start ->
// measured phase -> profiler stop -> results on disk (docs/ARCHITECTURE.md §5). Thread-safe control API;
// all signals are emitted from the engine thread, so connect them queued (the default across
// threads) and never block the UI on the engine.
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <QObject>
#include <memory>

namespace sb {

struct RunOptions {
    QString outDir;       // results folder; created if missing
    bool resume = false;  // keep finished cells found in outDir/results.json, run the rest
};

// What the UI shows while running. Sent at most ~10 times a second.
struct ProgressSnapshot {
    int cellIndex = -1;        // 0-based index of the running cell
    int cellCount = 0;
    int cellsDone = 0;
    QString server;
    int concurrency = 0;
    QString phase;             // starting | reset | warmup | profiler_start | measure | profiler_stop | saving | done
    int requestsDone = 0;      // measured requests finished in this cell
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

Q_SIGNALS:
    void progress(const sb::ProgressSnapshot &snapshot);
    void hookCalled(int cellIndex, const sb::HookOutcome &outcome);
    void cellFinished(const sb::CellResult &cell);
    void logMessage(const QString &line);
    // 0 = all cells completed, 1 = some cell not completed, 2 = could not start (message logged)
    void finished(int exitCode);

private:
    std::unique_ptr<SweepEngineWorker> m_worker;
};

} // namespace sb

Q_DECLARE_METATYPE(sb::ProgressSnapshot)
Q_DECLARE_METATYPE(sb::HookOutcome)
Q_DECLARE_METATYPE(sb::CellResult)
