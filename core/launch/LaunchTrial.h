#pragma once
// "Test launch" (the designer's server form): starts one `launch:` server exactly as a sweep
// would (launch/LaunchedServers: its port, environment, ready path and log bounds), waits for it
// to be ready, then stops it. The start and the wait run on a thread of their own, so a window
// that shows the trial only polls snapshot(); the log is readable while the server starts.
#include "spec/SweepSpec.h"
#include <QElapsedTimer>
#include <QMutex>
#include <QString>
#include <QThread>
#include <atomic>
#include <memory>

namespace sb {

class LaunchedServers;

class LaunchTrial
{
public:
    enum class State { Starting, Ready, Failed, Cancelled };
    struct Snapshot {
        State state = State::Starting;
        double elapsedS = 0;   // since start(); frozen when the trial ended
        QString url;           // where the server listened (its {port} filled in)
        QString message;       // the outcome once it ended: ready after N s, or why not
        QString log;           // the server's last output lines
    };

    // logDir receives NAME.log as in a sweep's OUT/servers/.
    LaunchTrial(const ServerSpec &server, const QString &logDir);
    ~LaunchTrial(); // cancels, stops the server and waits for the thread
    LaunchTrial(const LaunchTrial &) = delete;
    LaunchTrial &operator=(const LaunchTrial &) = delete;

    void start();
    void cancel() { m_cancel = true; }
    // True once the server is stopped again (snapshot() shows the outcome a little earlier, while
    // the stop's grace period may still run).
    bool finished() const { return m_finished; }
    Snapshot snapshot(int logLines = 200) const;
    QString logPath() const { return m_logPath; }

    static QString stateName(State s);

private:
    void run();
    ServerSpec m_server;
    QString m_logDir;
    QString m_logPath;
    std::unique_ptr<LaunchedServers> m_servers;
    std::unique_ptr<QThread> m_thread;
    std::atomic<bool> m_cancel{false};
    std::atomic<bool> m_finished{false};
    QElapsedTimer m_clock; // started by start()
    mutable QMutex m_mutex; // guards the fields below and m_servers' teardown
    Snapshot m_result;      // state and message once ended
    bool m_serversGone = false; // the outcome is final; m_servers is being or has been stopped
};

} // namespace sb
