#include "launch/ServerProcess.h"
#include "launch/PipeDrain.h"
#include "launch/ProcessSpawn.h"
#include <QProcessEnvironment>
#include <QThread>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sb {

namespace {
constexpr int kPollMs = 50;
} // namespace

int signalNumber(const QString &name)
{
    static const std::pair<const char *, int> names[] = {{"TERM", SIGTERM}, {"INT", SIGINT}, {"HUP", SIGHUP}, {"QUIT", SIGQUIT}, {"KILL", SIGKILL}};
    for (const auto &[n, number] : names)
        if (name == QLatin1String(n))
            return number;
    return SIGTERM;
}

bool ServerProcess::start(const ProcessOptions &options, QString *error)
{
    stop();
    m_options = options;
    m_waitStatus.reset();
    m_reaped = false;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &[name, value] : options.env)
        env.insert(name, value);
    const SpawnedWithOutput spawned = spawnWithOutput(options.argv, env, error);
    if (spawned.pid < 0)
        return false;
    m_pid = spawned.pid;
    m_log->note(QStringLiteral("started pid %1: %2").arg(m_pid).arg(options.argv.join(QLatin1Char(' '))));
    m_stopReading = false;
    m_reader = std::thread([this, fd = spawned.outputFd] { readOutput(fd); });
    return true;
}

void ServerProcess::readOutput(int fd)
{
    // Until every process holding the pipe is gone (EOF), or stop() gives up on a straggler
    // that left the group and kept the pipe.
    drainPipe(fd, m_stopReading, [this](const char *data, std::size_t size) { m_log->append(QByteArray(data, qsizetype(size))); });
}

bool ServerProcess::running()
{
    if (m_pid < 0 || m_waitStatus)
        return false;
    // WNOWAIT: the exited leader stays a zombie, so its pid (the group's id) cannot be reused
    // before stop() has signalled what is left of the group.
    siginfo_t info;
    std::memset(&info, 0, sizeof info);
    if (waitid(P_PID, id_t(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == m_pid) {
        m_waitStatus = info.si_code == CLD_EXITED ? (info.si_status << 8) : info.si_status; // as waitpid's status
        return false;
    }
    return true;
}

QString ServerProcess::exitDescription()
{
    if (running() || !m_waitStatus)
        return QString();
    const int st = *m_waitStatus;
    return WIFSIGNALED(st) ? QStringLiteral("signal %1").arg(WTERMSIG(st)) : QStringLiteral("exit code %1").arg(WEXITSTATUS(st));
}

void ServerProcess::stop()
{
    if (m_pid < 0)
        return;
    const pid_t group = m_pid;
    if (running()) {
        ::kill(-group, m_options.stopSignal);
        m_log->note(QStringLiteral("stopping pid %1 (signal %2 to its process group)").arg(group).arg(m_options.stopSignal));
    }
    // The grace period covers the whole group: vLLM's API server exits before its engine has.
    const qint64 graceMs = qint64(std::max(0.0, m_options.graceS) * 1000);
    qint64 waitedMs = 0;
    for (;;) {
        if (!running() && !m_reaped) {
            int st;
            waitpid(group, &st, 0); // the zombie leader: leaves the group to its other members
            m_reaped = true;
        }
        if (m_reaped && ::kill(-group, 0) != 0 && errno == ESRCH)
            break;
        if (waitedMs >= graceMs) {
            m_log->note(QStringLiteral("process group %1 still running after %2 s: SIGKILL").arg(group).arg(m_options.graceS));
            ::kill(-group, SIGKILL);
            if (!m_reaped) {
                int st;
                waitpid(group, &st, 0);
                if (!m_waitStatus)
                    m_waitStatus = st;
                m_reaped = true;
            }
            break;
        }
        QThread::msleep(kPollMs);
        waitedMs += kPollMs;
    }
    m_log->note(QStringLiteral("pid %1 stopped (%2)").arg(group).arg(exitDescription()));
    m_stopReading = true;
    if (m_reader.joinable())
        m_reader.join();
    m_pid = -1;
}

} // namespace sb
