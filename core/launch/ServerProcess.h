#pragma once
// One launched server process (a `launch:` entry, docs/spec-reference.md): started in its own
// process group (launch/ProcessSpawn.h), its stdout and stderr read by a thread of its own into a
// LaunchLog, stopped by signalling the whole group, waiting grace_seconds, then SIGKILL to the
// group. The destructor stops it: no server process outlives its ServerProcess.
#include "launch/LaunchLog.h"
#include <QPair>
#include <QProcessEnvironment>
#include <QStringList>
#include <atomic>
#include <optional>
#include <sys/types.h>
#include <thread>

namespace sb {

struct ProcessOptions {
    QStringList argv;                          // argv[0] a program name (PATH) or a path
    QList<QPair<QString, QString>> env;        // added to sweepbench's own environment
    int stopSignal = 15;                       // SIGTERM
    double graceS = 30;
};

class ServerProcess
{
public:
    explicit ServerProcess(LaunchLog *log) : m_log(log) {}
    ~ServerProcess() { stop(); }
    ServerProcess(const ServerProcess &) = delete;
    ServerProcess &operator=(const ServerProcess &) = delete;

    bool start(const ProcessOptions &options, QString *error);
    bool running();                    // false once the process has exited (it is not reaped yet)
    pid_t pid() const { return m_pid; } // also the process group id; -1 before start
    // "exit code 3" or "signal 9", once it exited; empty while it runs.
    QString exitDescription();
    // Stop signal to the group, up to grace seconds for the group to go, then SIGKILL to the
    // group; reaps the process and ends the reader. Returns at once when nothing runs.
    void stop();

private:
    void readOutput(int fd);
    LaunchLog *m_log;
    ProcessOptions m_options;
    pid_t m_pid = -1;
    std::optional<int> m_waitStatus; // set once the leader exited (seen with WNOWAIT, then reaped)
    bool m_reaped = false;
    std::thread m_reader;
    std::atomic<bool> m_stopReading{false};
};

// "TERM" → SIGTERM; the names of launchSignalNames() (spec/SweepSpec.h).
int signalNumber(const QString &name);

} // namespace sb
