#include "launch/ProcessSpawn.h"
#include <QFile>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <mutex>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sb {

namespace {

// The one thread every launched server is forked from: it lives until the process ends, so the
// children's PR_SET_PDEATHSIG fires only then (ProcessSpawn.h). Deliberately leaked: static
// destructors at exit must not join or destroy it while it may be waiting.
class ForkThread
{
public:
    static ForkThread &instance()
    {
        static ForkThread *t = new ForkThread;
        return *t;
    }
    void run(const std::function<void()> &job)
    {
        std::lock_guard callers(m_callers); // one job at a time
        std::unique_lock lock(m_mutex);
        m_job = &job;
        m_done = false;
        m_cv.notify_all();
        m_cv.wait(lock, [this] { return m_done; });
    }

private:
    ForkThread()
    {
        std::thread([this] {
            std::unique_lock lock(m_mutex);
            for (;;) {
                m_cv.wait(lock, [this] { return m_job != nullptr; });
                (*m_job)();
                m_job = nullptr;
                m_done = true;
                m_cv.notify_all();
            }
        }).detach();
    }
    std::mutex m_callers, m_mutex;
    std::condition_variable m_cv;
    const std::function<void()> *m_job = nullptr;
    bool m_done = false;
};

// Between fork and execve only async-signal-safe calls: the parent has other threads, whose
// locks (malloc's included) may be held at the moment of the fork.
[[noreturn]] void childAfterFork(const char *program, char *const *argv, char *const *envp, int outFd, int devNull, int statusFd,
                                 pid_t parent)
{
    setsid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) // the parent died before prctl took effect
        _exit(127);
    dup2(devNull, 0);
    dup2(outFd, 1);
    dup2(outFd, 2);
    // Signals sweepbench ignores (SIGPIPE) stay ignored across execve; blocked ones stay blocked.
    struct sigaction dfl;
    std::memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD})
        sigaction(sig, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
#ifdef SYS_close_range
    // Everything else sweepbench has open (sockets, results files) stays out of the server.
    if (statusFd > 3)
        syscall(SYS_close_range, 3u, unsigned(statusFd - 1), 0u);
    syscall(SYS_close_range, unsigned(statusFd + 1), ~0u, 0u);
#endif
    execve(program, argv, envp);
    const int err = errno;
    [[maybe_unused]] const ssize_t n = write(statusFd, &err, sizeof err);
    _exit(127);
}

} // namespace

pid_t spawnProcessGroup(const SpawnRequest &request, QString *error)
{
    // Everything the child needs is built before the fork.
    std::vector<char *> argv, envp;
    QList<QByteArray> args = request.argv, env = request.env;
    for (QByteArray &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (QByteArray &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    int status[2];
    if (devNull < 0 || pipe2(status, O_CLOEXEC) != 0) {
        *error = QStringLiteral("cannot start %1: %2").arg(QString::fromLocal8Bit(request.program), QString::fromLocal8Bit(strerror(errno)));
        if (devNull >= 0)
            ::close(devNull);
        return -1;
    }
    pid_t pid = -1;
    int forkErrno = 0;
    const pid_t parent = getpid();
    ForkThread::instance().run([&] {
        pid = fork();
        if (pid == 0)
            childAfterFork(request.program.constData(), argv.data(), envp.data(), request.outputFd, devNull, status[1], parent);
        forkErrno = errno;
    });
    ::close(status[1]);
    ::close(devNull);
    if (pid < 0) {
        ::close(status[0]);
        *error = QStringLiteral("cannot start %1: fork: %2").arg(QString::fromLocal8Bit(request.program), QString::fromLocal8Bit(strerror(forkErrno)));
        return -1;
    }
    int childErrno = 0;
    ssize_t n;
    do
        n = ::read(status[0], &childErrno, sizeof childErrno); // 0 bytes: execve succeeded (close-on-exec)
    while (n < 0 && errno == EINTR);
    ::close(status[0]);
    if (n == sizeof childErrno) {
        *error = QStringLiteral("cannot start %1: %2").arg(QString::fromLocal8Bit(request.program), QString::fromLocal8Bit(strerror(childErrno)));
        int ignored;
        waitpid(pid, &ignored, 0);
        return -1;
    }
    return pid;
}

QString resolveProgram(const QString &program, const QProcessEnvironment &env)
{
    if (program.contains(QLatin1Char('/')))
        return program;
    return QStandardPaths::findExecutable(program, env.value(QStringLiteral("PATH")).split(QLatin1Char(':'), Qt::SkipEmptyParts));
}

SpawnedWithOutput spawnWithOutput(const QStringList &argv, const QProcessEnvironment &env, QString *error)
{
    const QString name = argv.value(0);
    const QString program = resolveProgram(name, env);
    if (program.isEmpty()) {
        *error = QStringLiteral("cannot start %1: not found in PATH").arg(name);
        return {};
    }
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        *error = QStringLiteral("cannot start %1: pipe: %2").arg(program, QString::fromLocal8Bit(strerror(errno)));
        return {};
    }
    SpawnRequest request;
    request.program = QFile::encodeName(program);
    for (const QString &a : argv)
        request.argv.append(a.toLocal8Bit());
    for (const QString &e : env.toStringList())
        request.env.append(e.toLocal8Bit());
    request.outputFd = out[1];
    const pid_t pid = spawnProcessGroup(request, error);
    ::close(out[1]); // the child's copy is the only writer now: EOF comes when the group is gone
    if (pid < 0) {
        ::close(out[0]);
        return {};
    }
    return {pid, out[0]};
}

} // namespace sb
