#include "launch/LaunchTrial.h"
#include "launch/LaunchedServers.h"
#include <QDir>
#include <QMutexLocker>

namespace sb {

LaunchTrial::LaunchTrial(const ServerSpec &server, const QString &logDir)
    : m_server(server), m_logDir(logDir), m_servers(std::make_unique<LaunchedServers>())
{
    m_server.launch.enabled = true;
    m_logPath = QDir(logDir).filePath(m_server.name + QStringLiteral(".log"));
}

LaunchTrial::~LaunchTrial()
{
    m_cancel = true;
    if (m_thread)
        m_thread->wait();
    m_servers.reset(); // stops whatever is left
}

QString LaunchTrial::stateName(State s)
{
    switch (s) {
    case State::Starting: return QStringLiteral("starting");
    case State::Ready: return QStringLiteral("ready");
    case State::Failed: return QStringLiteral("failed");
    case State::Cancelled: return QStringLiteral("cancelled");
    }
    return {};
}

void LaunchTrial::start()
{
    if (m_thread)
        return;
    m_clock.start(); // before the thread starts: both threads only read it afterwards
    m_thread.reset(QThread::create([this] { run(); }));
    m_thread->start();
}

void LaunchTrial::run()
{
    SweepSpec spec;
    spec.servers = {m_server};
    QString error;
    Snapshot outcome;
    if (!m_servers->plan(spec, m_logDir, &error)) {
        outcome.state = State::Failed;
        outcome.message = error;
    } else {
        {
            QMutexLocker lock(&m_mutex);
            m_result.url = m_servers->urls(0).value(0);
        }
        error = m_servers->ensureReady(0, &m_cancel);
        const double s = double(m_clock.nsecsElapsed()) / 1e9;
        if (m_cancel) {
            outcome.state = State::Cancelled;
            outcome.message = QStringLiteral("cancelled after %1 s; the server was stopped").arg(s, 0, 'f', 1);
        } else if (error.isEmpty()) {
            outcome.state = State::Ready;
            outcome.message = QStringLiteral("ready after %1 s (GET %2 answered 2xx, pid %3); stopped again")
                                  .arg(s, 0, 'f', 1).arg(m_server.launch.readyPath).arg(m_servers->pid(0));
        } else {
            outcome.state = State::Failed;
            outcome.message = error;
        }
    }
    {
        // The outcome and the last lines are kept before the log goes with the stopped server;
        // from here on snapshot() no longer reads the server map, which stopAll() clears.
        QMutexLocker lock(&m_mutex);
        outcome.url = m_result.url;
        outcome.log = m_servers->recentLog(0, 200);
        outcome.elapsedS = double(m_clock.nsecsElapsed()) / 1e9;
        m_result = outcome;
        m_serversGone = true;
    }
    // Outside the lock: a stop may take the server's whole grace period, and the window that
    // polls snapshot() must not wait for it.
    m_servers->stopAll();
    m_finished = true;
}

LaunchTrial::Snapshot LaunchTrial::snapshot(int logLines) const
{
    QMutexLocker lock(&m_mutex);
    if (m_serversGone)
        return m_result;
    Snapshot s = m_result;
    s.state = State::Starting;
    s.elapsedS = m_clock.isValid() ? double(m_clock.nsecsElapsed()) / 1e9 : 0;
    // LaunchLog is thread-safe and the server map does not change until the trial ends (under
    // this lock), so the log can be read while the trial's thread waits for the server.
    s.log = m_servers->recentLog(0, logLines);
    return s;
}

} // namespace sb
