#include "launch/LaunchedServers.h"
#include "hooks/ControlClient.h"
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTcpServer>
#include <QThread>

namespace sb {

namespace {
QString withPort(QString s, int port) { return s.replace(QStringLiteral("{port}"), QString::number(port)); }
constexpr int kReadyPollMs = 250;
constexpr double kReadyCallTimeoutS = 5;
} // namespace

QString launchLogPath(const QString &logDir, const QString &serverName)
{
    // A variant's name holds '[', '=' and whatever its values hold: never a '/'.
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._=,\\[\\]+-]+"));
    QString file = serverName;
    file.replace(unsafe, QStringLiteral("_"));
    return QDir(logDir).filePath(file.left(200) + QStringLiteral(".log"));
}

int pickFreeLoopbackPort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

bool LaunchedServers::plan(const SweepSpec &spec, const QString &logDir, QString *error)
{
    for (int i = 0; i < spec.servers.size(); ++i) {
        const ServerSpec &s = spec.servers[i];
        if (!s.launch.enabled)
            continue;
        Server server;
        server.spec = s;
        server.port = s.launch.port > 0 ? s.launch.port : pickFreeLoopbackPort();
        if (server.port == 0) {
            *error = QStringLiteral("server %1: no free loopback port for its launch").arg(s.name);
            return false;
        }
        for (const QString &u : s.urls)
            server.urls.append(withPort(u, server.port));
        if (server.urls.isEmpty())
            server.urls = {QStringLiteral("http://127.0.0.1:%1").arg(server.port)};
        server.log = std::make_unique<LaunchLog>(launchLogPath(logDir, s.name), qint64(s.launch.logKeepMib * 1024 * 1024));
        if (!server.log->open(error))
            return false;
        server.process = std::make_unique<ServerProcess>(server.log.get());
        m_servers.emplace(i, std::move(server));
    }
    return true;
}

QStringList LaunchedServers::urls(int serverIndex) const
{
    const auto it = m_servers.find(serverIndex);
    return it == m_servers.end() ? QStringList() : it->second.urls;
}

QString LaunchedServers::lastLines(int serverIndex, int lines) const
{
    const auto it = m_servers.find(serverIndex);
    return it == m_servers.end() ? QString() : it->second.log->lastLines(lines);
}

QString LaunchedServers::recentLog(int serverIndex, int lines) const
{
    const auto it = m_servers.find(serverIndex);
    return it == m_servers.end() ? QString() : it->second.log->recentLines(lines);
}

QString LaunchedServers::logPath(int serverIndex) const
{
    const auto it = m_servers.find(serverIndex);
    return it == m_servers.end() ? QString() : it->second.log->path();
}

int LaunchedServers::port(int serverIndex) const
{
    const auto it = m_servers.find(serverIndex);
    return it == m_servers.end() ? 0 : it->second.port;
}

QDateTime LaunchedServers::startedAt(int serverIndex) const
{
    const auto it = m_servers.find(serverIndex);
    return it == m_servers.end() ? QDateTime() : it->second.startedAt;
}

int LaunchedServers::generation(int serverIndex) const
{
    const auto it = m_servers.find(serverIndex);
    return it == m_servers.end() ? 0 : it->second.generation;
}

void LaunchedServers::stopSiblings(const Server &s)
{
    if (s.spec.variantOf.isEmpty())
        return;
    for (auto &[i, other] : m_servers) {
        if (&other == &s || other.spec.variantOf != s.spec.variantOf || !other.process->running())
            continue;
        other.log->note(QStringLiteral("stopping: variant %1 of %2 starts next").arg(s.spec.variant, s.spec.variantOf));
        other.process->stop();
    }
}

pid_t LaunchedServers::pid(int serverIndex) const
{
    const auto it = m_servers.find(serverIndex);
    return it == m_servers.end() ? -1 : it->second.process->pid();
}

void LaunchedServers::noteTraffic(int serverIndex)
{
    if (const auto it = m_servers.find(serverIndex); it != m_servers.end())
        it->second.fresh = false;
}

bool LaunchedServers::running(int serverIndex)
{
    const auto it = m_servers.find(serverIndex);
    return it != m_servers.end() && it->second.process->running();
}

QString LaunchedServers::givenUp(int serverIndex) const
{
    const auto it = m_servers.find(serverIndex);
    return it == m_servers.end() ? QString() : it->second.givenUp;
}

QString LaunchedServers::startAndWait(Server &s, const std::atomic<bool> *cancel, int *readyStatus)
{
    const LaunchSpec &l = s.spec.launch;
    ProcessOptions options;
    for (const QString &a : l.command)
        options.argv.append(withPort(a, s.port));
    for (const auto &[name, value] : l.env)
        options.env.append({name, withPort(value, s.port)});
    options.stopSignal = signalNumber(l.stopSignal);
    options.graceS = l.graceS;
    QString error;
    stopSiblings(s);
    if (!s.process->start(options, &error))
        return error;
    s.startedAt = QDateTime::currentDateTimeUtc();
    const QUrl url(s.urls.first() + l.readyPath);
    ControlClient client;
    QElapsedTimer waited;
    waited.start();
    QString last = QStringLiteral("no answer yet");
    for (;;) {
        if (!s.process->running())
            return QStringLiteral("server process exited (%1) before it was ready; last log lines: %2")
                .arg(s.process->exitDescription(), s.log->lastLines(5));
        if (cancel && *cancel)
            return QStringLiteral("cancelled while waiting for the server to be ready");
        const ControlResponse r = client.call("GET", url, {}, std::nullopt, kReadyCallTimeoutS, cancel);
        if (r.status >= 200 && r.status < 300) {
            if (readyStatus)
                *readyStatus = r.status;
            s.log->note(QStringLiteral("ready after %1 s (GET %2 → %3)").arg(double(waited.elapsed()) / 1000, 0, 'f', 1).arg(l.readyPath).arg(r.status));
            return QString();
        }
        last = r.status ? QStringLiteral("HTTP %1").arg(r.status) : r.transportError;
        if (waited.elapsed() > qint64(l.readyTimeoutS * 1000)) {
            s.process->stop();
            return QStringLiteral("server not ready after %1 s (GET %2: %3); last log lines: %4")
                .arg(l.readyTimeoutS).arg(l.readyPath, last, s.log->lastLines(5));
        }
        QThread::msleep(kReadyPollMs);
    }
}

QString LaunchedServers::ensureReady(int serverIndex, const std::atomic<bool> *cancel)
{
    const auto it = m_servers.find(serverIndex);
    if (it == m_servers.end())
        return QString();
    Server &s = it->second;
    if (!s.givenUp.isEmpty())
        return s.givenUp;
    if (s.process->running())
        return QString();
    s.process->stop(); // reaps a process that died in an earlier cell
    QElapsedTimer t;
    t.start();
    const QString error = startAndWait(s, cancel, nullptr);
    ++s.generation;
    s.fresh = error.isEmpty();
    s.startMs = double(t.nsecsElapsed()) / 1e6;
    if (!error.isEmpty() && !(cancel && *cancel))
        s.givenUp = error;
    return error;
}

HookOutcome LaunchedServers::restart(int serverIndex, const std::atomic<bool> *cancel, bool always)
{
    HookOutcome o;
    o.hook = HookKind::Restart;
    o.placement = HookPlacement::BeforeWarmup;
    o.at = QDateTime::currentDateTimeUtc();
    o.attempts = 1;
    QElapsedTimer t;
    t.start();
    const auto it = m_servers.find(serverIndex);
    if (it == m_servers.end()) {
        o.verdict = HookVerdict::Error;
        o.message = QStringLiteral("not a launched server: SweepBench can only restart a server it started");
        return o;
    }
    Server &s = it->second;
    o.origin = s.urls.first().section(QLatin1Char('/'), 0, 2);
    o.method = QStringLiteral("GET");
    o.path = s.spec.launch.readyPath;
    if (s.fresh && !always && s.process->running()) {
        s.fresh = false;
        o.ok = true;
        o.verdict = HookVerdict::Ok;
        o.status = 200;
        o.latencyMs = s.startMs;
        o.message = QStringLiteral("pid %1 was started for this cell, ready after %2 s").arg(s.process->pid()).arg(o.latencyMs / 1000, 0, 'f', 1);
        return o;
    }
    const pid_t before = s.process->pid();
    s.process->stop();
    int status = 0;
    const QString error = s.givenUp.isEmpty() ? startAndWait(s, cancel, &status) : s.givenUp;
    o.latencyMs = double(t.nsecsElapsed()) / 1e6;
    o.status = status;
    o.ok = error.isEmpty();
    o.verdict = o.ok ? HookVerdict::Ok : error.startsWith(QLatin1String("server not ready")) ? HookVerdict::Timeout : HookVerdict::Error;
    o.message = o.ok ? QStringLiteral("restarted: pid %1 → pid %2, ready after %3 s").arg(before).arg(s.process->pid()).arg(o.latencyMs / 1000, 0, 'f', 1)
                     : error;
    if (!o.ok && !(cancel && *cancel))
        s.givenUp = error;
    return o;
}

QString LaunchedServers::checkAlive(int serverIndex)
{
    const auto it = m_servers.find(serverIndex);
    if (it == m_servers.end())
        return QString();
    it->second.fresh = false;
    if (it->second.process->pid() < 0 || it->second.process->running())
        return QString();
    Server &s = it->second;
    const QString what = QStringLiteral("server process exited (%1)").arg(s.process->exitDescription());
    s.process->stop(); // what is left of its group goes too
    if (++s.deaths >= kMaxDeaths)
        s.givenUp = QStringLiteral("%1 again (%2 deaths): not restarted again; last log lines: %3").arg(what).arg(s.deaths).arg(s.log->lastLines(5));
    return what;
}

void LaunchedServers::stop(int serverIndex)
{
    const auto it = m_servers.find(serverIndex);
    if (it != m_servers.end())
        it->second.process->stop();
}

void LaunchedServers::stopAll()
{
    for (auto &[i, s] : m_servers) {
        s.process->stop();
        s.log->finish();
    }
    m_servers.clear();
}

} // namespace sb
