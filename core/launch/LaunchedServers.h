#pragma once
// The servers of one sweep (or one hook check) that SweepBench starts itself (`launch:`,
// docs/spec-reference.md): their ports and URLs, their processes and logs, and what happened to
// them. Start before a server's first cell, wait for `ready`, restart on `reset_kv_cache:
// restart`, give up on a server whose process died twice, stop after its last cell and — through
// the destructor — on every other way out of the sweep.
#include "launch/ServerProcess.h"
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <atomic>
#include <map>
#include <memory>

namespace sb {

class LaunchedServers
{
public:
    ~LaunchedServers() { stopAll(); }
    // Picks each launched server's port (launch.port, or a free loopback one) and URLs; starts
    // nothing. Logs go to LOGDIR/NAME.log.
    bool plan(const SweepSpec &spec, const QString &logDir, QString *error);
    bool launched(int serverIndex) const { return m_servers.count(serverIndex) > 0; }
    QStringList urls(int serverIndex) const;
    // Starts the server unless it runs and waits for its ready path to answer 2xx. Empty when it
    // is ready; else why its cell fails. A server that exited before it was ready, or was not
    // ready in time, is given up: later calls return the same reason at once.
    QString ensureReady(int serverIndex, const std::atomic<bool> *cancel);
    // reset_kv_cache: restart — stop, start, wait ready; the outcome as a hook's (kind restart).
    // A server ensureReady just started for the coming cell is not started again unless `always`
    // (the hook check, which tries one real restart).
    HookOutcome restart(int serverIndex, const std::atomic<bool> *cancel, bool always = false);
    // After a cell: empty while the process runs; else "server process exited (signal 9)", and
    // the death is counted (the second gives the server up).
    QString checkAlive(int serverIndex);
    QString givenUp(int serverIndex) const; // why the server's remaining cells fail, or empty
    // Requests reached the server since ensureReady started it (prompt calibration): its cache is
    // no longer empty, so the cell's restart must really restart it.
    void noteTraffic(int serverIndex);
    QString lastLines(int serverIndex, int lines = 5) const;
    QString recentLog(int serverIndex, int lines) const; // one line per line, for a log window
    QString logPath(int serverIndex) const;
    int port(int serverIndex) const;
    pid_t pid(int serverIndex) const;
    // When the running process was started (invalid before the first start).
    QDateTime startedAt(int serverIndex) const;
    // Counts the starts ensureReady made (the first, and after a death): what the server says
    // about itself is asked again when it changes. The restarts of reset_kv_cache: restart run
    // the same command and do not count.
    int generation(int serverIndex) const;
    bool running(int serverIndex);
    void stop(int serverIndex);
    void stopAll(); // also finishes the logs

    static constexpr int kMaxDeaths = 2;

private:
    struct Server {
        ServerSpec spec;
        int port = 0;
        QStringList urls;
        std::unique_ptr<LaunchLog> log;
        std::unique_ptr<ServerProcess> process;
        int deaths = 0;
        // Started by ensureReady for the coming cell: its restart would only start it again.
        bool fresh = false;
        double startMs = 0;
        QDateTime startedAt;
        int generation = 0;
        QString givenUp;
    };
    QString startAndWait(Server &s, const std::atomic<bool> *cancel, int *readyStatus);
    // The other variants of the server `s` is a variant of (spec/LaunchVariants.h) are stopped
    // before it starts: one configuration runs at a time, on its port and its GPUs.
    void stopSiblings(const Server &s);
    std::map<int, Server> m_servers;
};

// LOGDIR/NAME.log for a launched server (a variant's series name included), its unsafe
// characters replaced: the engine writes there and the Run tab follows it.
QString launchLogPath(const QString &logDir, const QString &serverName);

// A free TCP port on 127.0.0.1 (bound and released: another process could take it before the
// server does, which its start then reports), or 0.
int pickFreeLoopbackPort();

} // namespace sb
