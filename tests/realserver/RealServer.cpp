#include "RealServer.h"
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace sbreal {

bool realServerRequired()
{
    return qEnvironmentVariable("SWEEPBENCH_REQUIRE_REALSERVER") == QLatin1String("1");
}

QString scriptPath(const QString &name)
{
    return qEnvironmentVariable("SWEEPBENCH_SOURCE_DIR", QStringLiteral(".")) + QStringLiteral("/tests/realserver/")
        + name;
}

QString checkInstalled(const QString &startScript)
{
    QProcess p;
    p.start(QStringLiteral("bash"), {scriptPath(startScript), QStringLiteral("--check")});
    if (!p.waitForFinished(30000))
        return QStringLiteral("%1 --check did not finish").arg(startScript);
    if (p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
        return {};
    const QString why = QString::fromUtf8(p.readAllStandardError()).trimmed();
    return why.isEmpty() ? QStringLiteral("%1 --check failed (exit %2)").arg(startScript).arg(p.exitCode()) : why;
}

quint16 freeLoopbackPort()
{
    QTcpServer s;
    if (!s.listen(QHostAddress::LocalHost, 0))
        return 0;
    return s.serverPort();
}

QJsonObject HttpReply::json() const
{
    return QJsonDocument::fromJson(body).object();
}

HttpReply http(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &jsonBody, int timeoutMs)
{
    HttpReply reply;
    const QDeadlineTimer deadline(timeoutMs);
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(int(deadline.remainingTime()))) {
        reply.error = s.errorString();
        return reply;
    }
    QByteArray req = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    if (!jsonBody.isNull())
        req += "Content-Type: application/json\r\n";
    req += "Content-Length: " + QByteArray::number(jsonBody.size()) + "\r\n\r\n" + jsonBody;
    s.write(req);
    QByteArray raw;
    // The server closes after answering (Connection: close); read until then or the deadline.
    while (s.state() == QAbstractSocket::ConnectedState && !deadline.hasExpired()) {
        s.waitForReadyRead(int(std::min<qint64>(deadline.remainingTime(), 1000)));
        raw += s.readAll();
    }
    raw += s.readAll();
    const qsizetype headEnd = raw.indexOf("\r\n\r\n");
    if (!raw.startsWith("HTTP/1.") || headEnd < 0) {
        reply.error = deadline.hasExpired() ? QStringLiteral("no answer within %1 ms").arg(timeoutMs)
                                            : QStringLiteral("no HTTP answer: ") + s.errorString();
        return reply;
    }
    reply.status = raw.mid(9, 3).toInt();
    QByteArray body = raw.mid(headEnd + 4);
    if (raw.left(headEnd).toLower().contains("transfer-encoding: chunked")) {
        QByteArray plain;
        qsizetype at = 0;
        for (;;) {
            const qsizetype eol = body.indexOf("\r\n", at);
            if (eol < 0)
                break;
            bool ok = false;
            const qsizetype n = body.mid(at, eol - at).trimmed().toLongLong(&ok, 16);
            if (!ok || n <= 0)
                break;
            plain += body.mid(eol + 2, n);
            at = eol + 2 + n + 2;
        }
        body = plain;
    }
    reply.body = body;
    return reply;
}

ServerProcess::~ServerProcess()
{
    stop(5000);
}

bool ServerProcess::start(const QString &script, const QStringList &args, quint16 port, int healthTimeoutMs)
{
    m_port = port;
    m_shmBefore = QDir(QStringLiteral("/dev/shm")).entryList(QDir::Files);
    m_logDir = std::make_unique<QTemporaryDir>();
    m_logFile = m_logDir->filePath(QStringLiteral("server.log"));
    m_proc = std::make_unique<QProcess>();
    m_proc->setProcessChannelMode(QProcess::MergedChannels);
    m_proc->setStandardOutputFile(m_logFile);
    // Its own session: stop()/kill() reach every process the server forks (vLLM's engine core).
    m_proc->setChildProcessModifier([] { ::setsid(); });
    m_proc->start(QStringLiteral("bash"), QStringList{scriptPath(script)} + args);
    if (!m_proc->waitForStarted(10000)) {
        m_error = QStringLiteral("could not start %1: %2").arg(script, m_proc->errorString());
        return false;
    }
    m_pid = m_proc->processId();
    const QDeadlineTimer deadline(healthTimeoutMs);
    while (!deadline.hasExpired()) {
        if (m_proc->state() != QProcess::Running || m_proc->waitForFinished(0)) {
            m_error = QStringLiteral("%1 exited (code %2) before /health answered:\n%3")
                          .arg(script).arg(m_proc->exitCode()).arg(logTail());
            return false;
        }
        if (http(port, "GET", "/health", {}, 2000).status == 200)
            return true;
        QThread::msleep(300);
    }
    m_error = QStringLiteral("%1: no /health 200 within %2 s:\n%3").arg(script).arg(healthTimeoutMs / 1000).arg(logTail());
    return false;
}

QString ServerProcess::logTail(int lines) const
{
    QFile f(m_logFile);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> all = f.readAll().split('\n');
    return QString::fromUtf8(all.mid(std::max<qsizetype>(0, all.size() - lines)).join('\n'));
}

bool ServerProcess::running() const
{
    return m_proc && m_proc->state() == QProcess::Running;
}

void ServerProcess::kill()
{
    if (m_pid <= 0)
        return;
    ::kill(-pid_t(m_pid), SIGKILL);
    if (m_proc)
        m_proc->waitForFinished(10000);
    m_pid = 0; // the group is gone: stop() must not signal a reused id
    QDir shm(QStringLiteral("/dev/shm"));
    for (const QString &name : shm.entryList({QStringLiteral("psm_*"), QStringLiteral("sem.mp-*")}, QDir::Files))
        if (!m_shmBefore.contains(name))
            shm.remove(name);
}

void ServerProcess::stop(int graceMs)
{
    if (m_pid <= 0)
        return;
    ::kill(-pid_t(m_pid), SIGTERM);
    const QDeadlineTimer deadline(graceMs);
    // The group is gone when signal 0 to it fails; the session leader alone ending is not enough.
    while (::kill(-pid_t(m_pid), 0) == 0 && !deadline.hasExpired()) {
        if (m_proc)
            m_proc->waitForFinished(200);
        else
            QThread::msleep(200);
    }
    ::kill(-pid_t(m_pid), SIGKILL);
    if (m_proc)
        m_proc->waitForFinished(10000);
    m_pid = 0;
}

QString cliBinary()
{
    return qEnvironmentVariable("SWEEPBENCH_BINARY");
}

CliRun runCli(const QStringList &args, int timeoutMs)
{
    CliRun r;
    QProcess p;
    p.start(cliBinary(), args);
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString writeFile(const QString &dir, const QString &name, const QByteArray &text)
{
    QFile f(QDir(dir).filePath(name));
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size() || !f.flush())
        return {};
    return f.fileName();
}

QJsonObject readJsonFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QList<QJsonObject> readJsonLines(const QString &path)
{
    QList<QJsonObject> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
        if (!doc.isObject()) {
            QTest::qFail(qPrintable(QStringLiteral("%1: not a JSON object line: %2").arg(path, err.errorString())),
                         __FILE__, __LINE__);
            return {};
        }
        out.append(doc.object());
    }
    return out;
}

double prometheusValue(const QByteArray &metrics, const QByteArray &name)
{
    double sum = 0;
    bool seen = false;
    for (const QByteArray &line : metrics.split('\n')) {
        if (!line.startsWith(name))
            continue;
        const char next = line.size() > name.size() ? line.at(name.size()) : '\0';
        if (next != '{' && next != ' ')
            continue; // a longer name sharing this prefix
        const qsizetype sp = line.lastIndexOf(' ');
        bool ok = false;
        const double v = line.mid(sp + 1).toDouble(&ok);
        if (ok) {
            sum += v;
            seen = true;
        }
    }
    return seen ? sum : -1;
}

} // namespace sbreal
