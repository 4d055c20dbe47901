#pragma once
// Helpers for the real-server integration tests (tests/realserver/README.md): start a real
// inference server through the project's own start script on a free loopback port, wait for
// /health, talk plain HTTP to it, run the sweepbench CLI, and stop the server's whole process tree.
#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

namespace sbreal {

// True when the suite must not skip (CI sets SWEEPBENCH_REQUIRE_REALSERVER=1).
bool realServerRequired();

// Skips the test function with `why`, or fails it when a real server is required.
#define SBREAL_SKIP_OR_FAIL(why)                                                                            \
    do {                                                                                                     \
        const QString why_ = (why);                                                                          \
        if (sbreal::realServerRequired())                                                                    \
            QFAIL(qPrintable(why_ + QStringLiteral(" (SWEEPBENCH_REQUIRE_REALSERVER=1: not skipping)")));   \
        QSKIP(qPrintable(why_));                                                                             \
    } while (false)

// Absolute path of a script in tests/realserver/ (via SWEEPBENCH_SOURCE_DIR, set by CTest).
QString scriptPath(const QString &name);

// Runs `start-*.sh --check`: empty when installed, else the script's explanation.
QString checkInstalled(const QString &startScript);

// A free TCP port on 127.0.0.1 (bound, read back, released).
quint16 freeLoopbackPort();

struct HttpReply {
    int status = 0;       // 0: no HTTP answer (see error)
    QByteArray body;
    QString error;
    QJsonObject json() const;
};

// One blocking HTTP/1.1 request on its own connection (Connection: close), bounded by timeoutMs.
HttpReply http(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &jsonBody = {},
               int timeoutMs = 30000);

// A real server started through tests/realserver/start-*.sh in its own session.
class ServerProcess
{
public:
    ServerProcess() = default;
    ~ServerProcess();
    ServerProcess(const ServerProcess &) = delete;
    ServerProcess &operator=(const ServerProcess &) = delete;

    // Starts `script args...` (port and flags in args) and waits up to healthTimeoutMs for
    // GET /health == 200. False with error() set when it exits first or never gets healthy.
    bool start(const QString &script, const QStringList &args, quint16 port, int healthTimeoutMs);
    quint16 port() const { return m_port; }
    QString origin() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    QString error() const { return m_error; }
    QString logTail(int lines = 40) const;
    bool running() const;
    // SIGKILL to the whole session at once: the server dies as a crash would kill it. Shared
    // memory segments and semaphores it created (/dev/shm/psm_*, sem.mp-*: vLLM's, normally removed by
    // its own resource tracker, which dies too) are removed so repeated runs leave nothing behind.
    void kill();
    // SIGTERM to the session, SIGKILL what remains after graceMs.
    void stop(int graceMs = 20000);

private:
    std::unique_ptr<QProcess> m_proc;
    std::unique_ptr<QTemporaryDir> m_logDir;
    QString m_logFile, m_error;
    quint16 m_port = 0;
    qint64 m_pid = 0;
    QStringList m_shmBefore; // /dev/shm entries before the start
};

struct CliRun {
    int code = -1;
    QString out, err;
    bool finished = false;
};
// Runs the built sweepbench CLI (SWEEPBENCH_BINARY) to completion, at most timeoutMs.
CliRun runCli(const QStringList &args, int timeoutMs);
QString cliBinary();

// Writes `text` to dir/name; returns the path, empty on a failed write.
QString writeFile(const QString &dir, const QString &name, const QByteArray &text);
QJsonObject readJsonFile(const QString &path);
// Every line of a JSON-lines file, as objects (a line that is not an object fails the test).
QList<QJsonObject> readJsonLines(const QString &path);
// One Prometheus counter/gauge from /metrics text, summed over its label sets; -1 when absent.
double prometheusValue(const QByteArray &metrics, const QByteArray &name);

} // namespace sbreal
