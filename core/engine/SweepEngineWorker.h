#pragma once
// The engine thread: plans cells, starts embedded mocks, runs each cell with CellRunner and
// persists results after every cell.
#include "engine/ShardPlan.h"
#include "engine/SweepEngine.h"
#include "engine/CellRunner.h"
#include "engine/EmbeddedMocks.h"
#include "engine/PromptCalibration.h"
#include "engine/ServerIdentity.h"
#include "launch/LaunchedServers.h"
#include <QMutex>
#include <QThread>
#include <atomic>
#include <map>
#include <optional>

namespace sb {

class SweepEngineWorker : public QThread
{
public:
    SweepEngineWorker(SweepEngine *owner, const SweepSpec &spec, const RunOptions &options);
    void cancel() { m_cancel = true; }
    SweepResults snapshot() const;
    const QString &outDir() const { return m_outDir; }
    QString failureMessage() const;
    // The spec's secrets (api_key_env read when the worker is made): scrubbed from every log
    // line, message and file of the run.
    const SecretSet &secrets() const { return *m_secrets; }

protected:
    void run() override;

private:
    struct RunTools;
    // runSweep: prepareSweep (checks, resume, dataset, folder, mocks, plan; an exit code when the
    // sweep cannot start), then each cell through runCell, then finishSweep (exit code).
    int runSweep();
    std::optional<int> prepareSweep(ResultsStore &store);
    void runCell(int serverIndex, CellResult &cell, RunTools &tools, ProgressSnapshot base);
    CellCallbacks cellCallbacks(const ProgressSnapshot &base, const CellResult &cell);
    int finishSweep(ResultsStore &store, int cellCount);
    int stop(int code, const QString &message); // logs "error: message", remembers it
    // With --resume: the finished cells of the previous run to keep, or an error (exit 2).
    bool previousCells(SweepResults *previous, QStringList *specChanges, QString *error);
    bool ownsServer(int serverIndex) const; // this run's shard runs the server's cells
    void planCells(const SweepResults &previous, const QStringList &specChanges);
    bool startMocks(QString *error);
    // Launched servers (`launch:`): ports and URLs before the plan; before each cell the server
    // is started (or restarted after one death) and waited for; empty = the cell may run.
    bool planLaunches(QString *error);
    QString launchBeforeCell(int serverIndex);
    void launchAfterCell(int serverIndex, CellResult &cell);
    QString resolveTraceDir(int serverIndex) const;
    void publish(const CellResult &cell);
    // The calibrated filler for this server's prompts (calibrating on first use), or -1.
    // `w`: the workload with the one input length to calibrate.
    int calibratedFiller(const ServerSpec &server, const CellContext &ctx, PromptCalibrator &calibrator, CalibrationStore &store,
                         CellResult &cell, const WorkloadSpec &w);
    // SweepEngineWorkload.cpp: the dataset, read once before anything is written, and each
    // cell's workload plan (calibrating every length the workload needs on first use).
    bool loadWorkloadDataset(QString *error);
    std::shared_ptr<const WorkloadPlan> workloadPlan(const ServerSpec &server, const CellContext &ctx, PromptCalibrator &calibrator,
                                                     CalibrationStore &store, CellResult &cell);
    void skipRemaining(int from, const QString &reason); // in memory only (the UI's view)
    // The cell's server_info (engine/ServerIdentity.h): asked once per server, again when its
    // process was started anew; before the cell's hooks and load, never inside its phases.
    void recordServerInfo(int serverIndex, const CellContext &ctx, CellResult &cell, ControlClient &control);
    void recordServerProcess(int serverIndex, CellResult &cell) const; // after the cell: the process that served it
    void emitProgress(ProgressSnapshot s);

    SweepEngine *m_owner;
    // The spec as run: each launch variant a server of its own (spec/LaunchVariants.h), so cells,
    // shards and launches are planned per variant. m_writtenSpec is the spec as given (sweep.yaml).
    SweepSpec m_spec;
    SweepSpec m_writtenSpec;
    RunOptions m_options;
    std::shared_ptr<const SecretSet> m_secrets;
    QString m_outDir;
    std::atomic<bool> m_cancel{false};
    mutable QMutex m_mutex;
    SweepResults m_results; // guarded by m_mutex
    QString m_failure;      // guarded by m_mutex
    EmbeddedMocks m_mocks;
    LaunchedServers m_launch;
    ShardPlan m_shardPlan;
    qint64 m_lastProgressMs = 0;
    std::int64_t m_startNs = 0;
    std::shared_ptr<const Dataset> m_dataset; // workload.dataset, loaded by runSweep
    struct KnownServerInfo {
        ServerInfo info;
        int generation = -1; // LaunchedServers::generation when it was asked
    };
    std::map<int, KnownServerInfo> m_serverInfo; // by server index (engine thread only)
    std::optional<GpuQuery> m_gpus;              // asked once per run, for the first launched server
};

} // namespace sb
