#pragma once
// The embedded mock run as a server SweepBench launches itself (`sweepbench mock-server`, found
// through SWEEPBENCH_BINARY), and what tests read back from its launch log: the pids started, a
// process group gone, and a killer that SIGKILLs the server inside a cell's measured phase.
#include "spec/SpecIO.h"
#include "spec/SweepSpec.h"
#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <cerrno>
#include <csignal>
#include <sys/wait.h>

namespace sbtest {

inline QString sweepbenchBinary() { return qEnvironmentVariable("SWEEPBENCH_BINARY"); }

inline sb::ServerSpec launchedMock(const QString &name, const QStringList &extra = {})
{
    sb::ServerSpec s;
    s.name = name;
    s.model = QStringLiteral("demo-model");
    s.flavor = sb::Flavor::Vllm;
    s.launch.enabled = true;
    s.launch.command = QStringList{sweepbenchBinary(), QStringLiteral("mock-server"), QStringLiteral("--flavor"), QStringLiteral("vllm"),
                                   QStringLiteral("--port"), QStringLiteral("{port}")}
                       + extra;
    s.launch.readyTimeoutS = 30;
    s.launch.graceS = 5;
    return s;
}

inline QByteArray readLog(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The pids the log says were started, in order.
inline QList<pid_t> startedPids(const QByteArray &log)
{
    QList<pid_t> out;
    static const QRegularExpression re(QStringLiteral("started pid (\\d+)"));
    for (auto it = re.globalMatch(QString::fromUtf8(log)); it.hasNext();)
        out << pid_t(it.next().captured(1).toInt());
    return out;
}

// The process group `pgid` has no member left (orphans are reaped when the test is a subreaper).
inline bool groupGone(pid_t pgid, int withinMs)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < withinMs) {
        int st;
        while (waitpid(-pgid, &st, WNOHANG) > 0) { // every zombie of the group that came to this subreaper
        }
        if (::kill(-pgid, 0) != 0 && errno == ESRCH)
            return true;
        QTest::qWait(50);
    }
    return false;
}

// DIR/sweep.yaml, or empty when it could not be written.
inline QString writeSpec(const QTemporaryDir &dir, const sb::SweepSpec &spec)
{
    QFile f(dir.filePath(QStringLiteral("sweep.yaml")));
    const QByteArray yaml = sb::saveSpecYaml(spec);
    return f.open(QIODevice::WriteOnly) && f.write(yaml) == yaml.size() ? f.fileName() : QString();
}

inline bool waitForLog(const QString &path, const QByteArray &text, int withinMs)
{
    return QTest::qWaitFor([&] { return readLog(path).contains(text); }, withinMs);
}

// Kills the launched server whose log is `logPath` with SIGKILL `kills` times, each time once its
// latest process has been ready for 600 ms (inside the first cell's measured phase when a request
// takes about a second: `--step-base-ms 100`). Polls while the event loop runs (runSweep waits in it).
class ServerKiller : public QObject
{
public:
    ServerKiller(const QString &logPath, int kills) : m_logPath(logPath), m_kills(kills)
    {
        m_poll.setInterval(50);
        connect(&m_poll, &QTimer::timeout, this, [this] { poll(); });
        m_poll.start();
    }
    const QList<pid_t> &killed() const { return m_killed; }
    void stop() { m_poll.stop(); }

private:
    void poll()
    {
        const QByteArray log = readLog(m_logPath);
        const QList<pid_t> pids = startedPids(log);
        if (pids.isEmpty() || m_killed.size() >= m_kills || m_killed.contains(pids.last()))
            return;
        if (!log.mid(log.lastIndexOf("started pid")).contains("ready after")) {
            m_readySince.invalidate();
            return;
        }
        if (!m_readySince.isValid()) {
            m_readySince.start();
        } else if (m_readySince.elapsed() > 600) {
            ::kill(pids.last(), SIGKILL);
            m_killed << pids.last();
            m_readySince.invalidate();
        }
    }
    QString m_logPath;
    int m_kills;
    QList<pid_t> m_killed;
    QElapsedTimer m_readySince;
    QTimer m_poll;
};

} // namespace sbtest
