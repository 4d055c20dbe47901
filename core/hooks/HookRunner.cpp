#include "hooks/HookRunner.h"
#include "hooks/HookPresets.h"
#include "spec/SweepSpec.h"
#include "spec/SpecRules.h"
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <QTimer>

namespace sb {

namespace {
bool isRetryableStatus(int status)
{
    return status == 409 || status == 423 || status == 429 || status == 503;
}

HookVerdict verdictForStatus(const ControlResponse &r)
{
    if (r.timedOut) // also a 200 whose body never ended
        return HookVerdict::Timeout;
    if (!r.complete()) // no status, oversize, truncated, cancelled
        return HookVerdict::Error;
    if (r.status == 404)
        return HookVerdict::RouteMissing;
    if (isRetryableStatus(r.status))
        return HookVerdict::Busy;
    return HookVerdict::Error;
}
} // namespace

QList<HookTarget> hookTargetsFor(const ServerSpec &server, const QStringList &urls)
{
    QList<HookTarget> targets;
    QStringList seen;
    const QString key = resolveApiKey(server);
    for (const QString &url : urls) {
        const QString origin = originOf(url);
        if (seen.contains(origin))
            continue;
        seen.append(origin);
        targets.append(HookTarget{&server, url, origin, key, SecretSet::forServer(server)});
    }
    return targets;
}

HookRunner::HookRunner(ControlClient &client, const std::atomic<bool> *cancel) : m_client(client), m_cancel(cancel) {}

QUrl HookRunner::urlFor(const HookTarget &target, const QString &path) const
{
    // Hooks go to the origin, not under the OpenAI base path: /reset_prefix_cache lives at the root.
    return QUrl(target.origin + path);
}

QList<QPair<QByteArray, QByteArray>> HookRunner::headersFor(const HookTarget &target) const
{
    return controlHeaders(target);
}

QList<QPair<QByteArray, QByteArray>> controlHeaders(const HookTarget &target)
{
    QList<QPair<QByteArray, QByteArray>> h;
    if (!target.apiKey.isEmpty())
        h.append({QByteArrayLiteral("Authorization"), "Bearer " + target.apiKey.toUtf8()});
    for (const auto &[name, value] : target.server->headers)
        h.append({name.toUtf8(), value.toUtf8()});
    return h;
}

QString HookRunner::describe(const HookTarget &target, HookKind hook, const ControlResponse &r, HookVerdict verdict) const
{
    QString msg;
    if (r.status == 0)
        msg = r.transportError;
    else if (!r.complete())
        msg = QStringLiteral("HTTP %1, %2").arg(r.status).arg(r.transportError);
    else
        msg = QStringLiteral("HTTP %1").arg(r.status);
    const QString body = QString::fromUtf8(r.body.left(400)).simplified().left(200);
    if (!body.isEmpty())
        msg += QStringLiteral(": ") + body;
    if (verdict == HookVerdict::RouteMissing)
        msg += QStringLiteral(" — ") + routeMissingHint(target.server->flavor, hook);
    return target.secrets.scrub(msg);
}

HookRunner::Verdict HookRunner::judgeReset(const ServerSpec &server, const ControlResponse &r)
{
    if (r.cancelled)
        return {HookVerdict::Error, false, false};
    if (!r.complete()) // an answer that never ended may be retried; an oversize one will not shrink
        return {verdictForStatus(r), false, !r.oversize};
    if (r.status >= 200 && r.status < 300) {
        // Newer vLLM answers {"success": bool}; false = blocks still held by running requests.
        const QJsonDocument doc = QJsonDocument::fromJson(r.body);
        if (doc.isObject() && doc.object().contains(QStringLiteral("success"))
            && !doc.object().value(QStringLiteral("success")).toBool())
            return {HookVerdict::Refused, false, true};
        return {HookVerdict::Ok, true, false};
    }
    if (r.status == 400 && server.flavor == Flavor::Sglang) // "Flush cache failed.": not idle
        return {HookVerdict::Busy, false, true};
    const HookVerdict v = verdictForStatus(r);
    const bool retry = r.status == 0 || isRetryableStatus(r.status);
    return {v, false, retry};
}

bool HookRunner::stoppedItself(const ServerSpec &server, int status, const QByteArray &answer)
{
    // SGLang closes a window opened with num_steps on its own and then answers a stop with 400
    // "Profiling is not in progress": the window did what was asked, so this is no failure.
    const auto body = effectiveProfilerStartBody(server);
    return server.flavor == Flavor::Sglang && status == 400 && body && body->contains(QStringLiteral("num_steps"))
        && answer.contains("not in progress");
}

bool HookRunner::sleepCancellable(double seconds)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < qint64(seconds * 1000)) {
        if (m_cancel && m_cancel->load())
            return false;
        QThread::msleep(std::min<qint64>(50, qint64(seconds * 1000) - t.elapsed() + 1));
    }
    return !(m_cancel && m_cancel->load());
}

HookOutcome HookRunner::reset(const HookTarget &target, HookPlacement placement)
{
    const ServerSpec &server = *target.server;
    if (isSlotEraseReset(server))
        return resetSlots(target, placement);
    HookOutcome out;
    out.hook = HookKind::Reset;
    out.origin = target.origin;
    out.method = QStringLiteral("POST");
    out.path = effectiveResetPath(server);
    out.placement = placement;
    out.at = QDateTime::currentDateTimeUtc();
    QElapsedTimer budget;
    budget.start();
    double backoff = 1.0;
    for (;;) {
        const ControlResponse r = m_client.call("POST", urlFor(target, out.path), headersFor(target), std::nullopt,
                                                server.reset.timeoutS, m_cancel);
        ++out.attempts;
        out.status = r.status;
        const Verdict v = judgeReset(server, r);
        out.verdict = v.verdict;
        out.ok = v.ok;
        out.message = describe(target, out.hook, r, v.verdict);
        const double waitS = std::min(backoff, 8.0) * m_backoffScale;
        const bool withinBudget = double(budget.elapsed()) / 1000.0 + waitS <= server.reset.maxRetryS;
        if (v.ok || !v.retry || !withinBudget || r.cancelled)
            break;
        if (!sleepCancellable(waitS))
            break;
        backoff *= 2;
    }
    out.latencyMs = double(budget.nsecsElapsed()) / 1e6;
    if (!out.ok && out.attempts > 1)
        out.message = QStringLiteral("gave up after %1 attempts in %2 s; last: %3")
                          .arg(out.attempts)
                          .arg(out.latencyMs / 1000.0, 0, 'f', 1)
                          .arg(out.message);
    return out;
}

HookOutcome HookRunner::call(const HookTarget &target, HookKind hook, const QString &path,
                             const std::optional<QByteArray> &body, double timeoutS, QByteArray *answer)
{
    HookOutcome out;
    out.hook = hook;
    out.origin = target.origin;
    out.method = QStringLiteral("POST");
    out.path = path;
    out.at = QDateTime::currentDateTimeUtc();
    // Profiler calls are not retried: a repeated start could open a second window.
    const ControlResponse r = m_client.call("POST", urlFor(target, path), headersFor(target), body, timeoutS, m_cancel);
    out.attempts = 1;
    out.status = r.status;
    out.latencyMs = r.latencyMs;
    out.ok = r.complete() && r.status >= 200 && r.status < 300;
    out.verdict = out.ok ? HookVerdict::Ok : verdictForStatus(r);
    out.message = describe(target, hook, r, *out.verdict);
    if (answer && r.complete()) // a cut or oversize answer is not read at all
        *answer = r.body;
    return out;
}

HookOutcome HookRunner::profilerStart(const HookTarget &target, const std::optional<QJsonObject> &bodyOverride)
{
    const ServerSpec &server = *target.server;
    const std::optional<QJsonObject> body = bodyOverride ? bodyOverride : effectiveProfilerStartBody(server);
    std::optional<QByteArray> bytes;
    if (body)
        bytes = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    return call(target, HookKind::ProfilerStart, effectiveProfilerStartPath(server), bytes, server.profiler.timeoutS);
}

HookOutcome HookRunner::profilerStop(const HookTarget &target, QStringList *pathsInAnswer)
{
    const ServerSpec &server = *target.server;
    QByteArray answer;
    HookOutcome out = call(target, HookKind::ProfilerStop, effectiveProfilerStopPath(server), std::nullopt,
                           server.profiler.stopTimeoutS, &answer);
    if (stoppedItself(server, out.status, answer)) {
        out.ok = true;
        out.verdict = HookVerdict::Ok;
        out.message = QStringLiteral("the window had already closed itself after start_body.num_steps steps; ") + out.message;
    }
    if (pathsInAnswer) {
        // Some servers name the trace they wrote; keep every absolute path the JSON answer holds.
        // The answer is at most kMaxControlBodyBytes; its nesting is bounded here as well.
        std::function<void(const QJsonValue &, int)> collect = [&](const QJsonValue &v, int depth) {
            if (depth > spec::kMaxJsonDepth)
                return;
            if (v.isString() && v.toString().startsWith(QLatin1Char('/')))
                pathsInAnswer->append(v.toString());
            else if (v.isArray())
                for (const auto &e : v.toArray())
                    collect(e, depth + 1);
            else if (v.isObject())
                for (const auto &e : v.toObject())
                    collect(e, depth + 1);
        };
        const QJsonDocument doc = QJsonDocument::fromJson(answer);
        collect(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()), 0);
    }
    return out;
}

} // namespace sb
