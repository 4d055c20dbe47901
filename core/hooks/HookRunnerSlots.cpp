// llama.cpp's cache reset (docs/spec-reference.md, flavor llamacpp): llama-server has no
// erase-all route, so the reset lists the slots and erases each one. It is recorded as one
// outcome per origin (attempts and latency summed over every call) and verified per slot: each
// erase must answer {"id_slot": <its id>, "n_erased": <count ≥ 0>}; anything else is not ok and
// says why. An erase of a busy slot waits on the server until the slot's request ends, so the
// reset timeout bounds each call, and a timeout is retried within max_retry_seconds like any
// other transport error.
#include "hooks/HookPresets.h"
#include "hooks/HookRunner.h"
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace sb {

namespace {
// A slot list longer than this is not a llama-server (it has --parallel slots, a handful).
constexpr int kMaxSlots = 4096;
// Each slot object is about 1.5 KiB (more with LLAMA_SERVER_SLOTS_DEBUG, which adds the prompt
// text): read up to this much of the list; a longer one is refused as too large, not misparsed.
constexpr qint64 kMaxSlotListBytes = 4 * 1024 * 1024;

bool isRetryable(const ControlResponse &r)
{
    return !r.cancelled && (r.status == 0 || r.status == 409 || r.status == 423 || r.status == 429 || r.status == 503);
}

// A JSON number that is a whole number in [0, 2^31).
std::optional<int> nonNegativeInt(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!(d >= 0) || d >= 2147483648.0 || d != std::floor(d))
        return std::nullopt;
    return int(d);
}

QString bodyExcerpt(const ControlResponse &r)
{
    return QString::fromUtf8(r.body.left(400)).simplified().left(200);
}
} // namespace

HookOutcome HookRunner::resetSlots(const HookTarget &target, HookPlacement placement)
{
    const ServerSpec &server = *target.server;
    HookOutcome out;
    out.hook = HookKind::Reset;
    out.origin = target.origin;
    out.method = QStringLiteral("POST");
    out.path = slotErasePathPattern();
    out.placement = placement;
    out.at = QDateTime::currentDateTimeUtc();
    QElapsedTimer budget;
    budget.start();
    double backoff = 1.0;
    int callAttempts = 0; // of the call in progress: "gave up" only when that one was retried

    // One call, retried with the reset's backoff while the answer is retryable and the budget
    // lasts. Returns the last answer.
    auto callRetried = [&](const QByteArray &method, const QString &path, qint64 maxBytes) {
        callAttempts = 0;
        for (;;) {
            const ControlResponse r = m_client.call(method, urlFor(target, path), headersFor(target), std::nullopt,
                                                    server.reset.timeoutS, m_cancel, maxBytes);
            ++out.attempts;
            ++callAttempts;
            out.status = r.status;
            const double waitS = std::min(backoff, 8.0) * m_backoffScale;
            const bool withinBudget = double(budget.elapsed()) / 1000.0 + waitS <= server.reset.maxRetryS;
            if ((r.status >= 200 && r.status < 300) || !isRetryable(r) || !withinBudget)
                return r;
            if (!sleepCancellable(waitS))
                return r;
            backoff *= 2;
        }
    };
    // A failed call: its verdict and message (with the hint that fits llama-server's answer).
    auto fail = [&](const ControlResponse &r, const QString &what, bool listing) {
        out.ok = false;
        QString msg = what + QStringLiteral(": ");
        if (r.status == 0) {
            out.verdict = r.timedOut ? HookVerdict::Timeout : HookVerdict::Error;
            msg += r.transportError;
        } else {
            msg += QStringLiteral("HTTP %1").arg(r.status);
            if (const QString body = bodyExcerpt(r); !body.isEmpty())
                msg += QStringLiteral(": ") + body;
            if (r.status == 501) { // llama-server: the route exists, the server was not started for it
                out.verdict = HookVerdict::RouteMissing;
                msg += QStringLiteral(" — ") + llamacppNotSupportedHint(listing);
            } else if (r.status == 404) {
                out.verdict = HookVerdict::RouteMissing;
                msg += QStringLiteral(" — ") + routeMissingHint(Flavor::Llamacpp, out.hook);
            } else {
                out.verdict = isRetryable(r) ? HookVerdict::Busy : HookVerdict::Error;
            }
        }
        if (callAttempts > 1)
            msg = QStringLiteral("gave up after %1 attempts in %2 s; last: %3")
                      .arg(callAttempts)
                      .arg(double(budget.elapsed()) / 1000.0, 0, 'f', 1)
                      .arg(msg);
        out.message = target.secrets.scrub(msg);
    };
    auto finish = [&] {
        out.latencyMs = double(budget.nsecsElapsed()) / 1e6;
        return out;
    };

    // 1. The slot list: a JSON array of slot objects, each with its integer "id".
    const QString listPath = effectiveResetPath(server);
    const ControlResponse list = callRetried("GET", listPath, kMaxSlotListBytes);
    if (list.status < 200 || list.status >= 300) {
        fail(list, QStringLiteral("GET ") + listPath, true);
        return finish();
    }
    const QJsonDocument doc = QJsonDocument::fromJson(list.body);
    QList<int> ids;
    QString problem;
    if (!doc.isArray()) {
        problem = list.body.size() >= kMaxSlotListBytes ? QStringLiteral("the answer is larger than %1 MiB").arg(kMaxSlotListBytes >> 20)
                                                : QStringLiteral("expected a JSON array of slots");
    } else if (doc.array().size() > kMaxSlots) {
        problem = QStringLiteral("more than %1 slots listed").arg(kMaxSlots);
    } else {
        for (const QJsonValue &slot : doc.array()) {
            const std::optional<int> id = nonNegativeInt(slot.toObject().value(QLatin1String("id")));
            if (!id) {
                problem = QStringLiteral("a slot without an integer \"id\"");
                break;
            }
            if (ids.contains(*id)) {
                problem = QStringLiteral("slot id %1 listed twice").arg(*id);
                break;
            }
            ids.append(*id);
        }
        if (problem.isEmpty() && ids.isEmpty())
            problem = QStringLiteral("no slots listed");
    }
    if (!problem.isEmpty()) {
        out.ok = false;
        out.verdict = HookVerdict::Error;
        QString msg = QStringLiteral("GET %1 answered HTTP %2 but not a slot list (%3)").arg(listPath).arg(list.status).arg(problem);
        if (const QString body = bodyExcerpt(list); !body.isEmpty())
            msg += QStringLiteral(": ") + body;
        out.message = target.secrets.scrub(msg);
        return finish();
    }

    // 2. Erase every slot, in list order; the first failure ends the reset (the cache is not clean).
    qint64 erasedTokens = 0;
    for (const int id : ids) {
        const QString path = QStringLiteral("/slots/%1?action=erase").arg(id);
        const ControlResponse r = callRetried("POST", path, 64 * 1024);
        const QString what = QStringLiteral("POST ") + path;
        if (r.status < 200 || r.status >= 300) {
            fail(r, what, false);
            return finish();
        }
        const QJsonObject o = QJsonDocument::fromJson(r.body).object();
        const std::optional<int> answeredId = nonNegativeInt(o.value(QLatin1String("id_slot")));
        const std::optional<int> erased = nonNegativeInt(o.value(QLatin1String("n_erased")));
        if (!answeredId || *answeredId != id || !erased) {
            out.ok = false;
            out.verdict = HookVerdict::Error;
            QString msg = what + QStringLiteral(" answered HTTP %1 without {\"id_slot\": %2, \"n_erased\": N}").arg(r.status).arg(id);
            if (const QString body = bodyExcerpt(r); !body.isEmpty())
                msg += QStringLiteral(": ") + body;
            out.message = target.secrets.scrub(msg);
            return finish();
        }
        erasedTokens += *erased;
    }
    out.ok = true;
    out.verdict = HookVerdict::Ok;
    out.message = QStringLiteral("erased %1 slot%2 (%3 tokens)").arg(ids.size()).arg(ids.size() == 1 ? QString() : QStringLiteral("s")).arg(erasedTokens);
    if (out.attempts > ids.size() + 1)
        out.message += QStringLiteral(" in %1 calls").arg(out.attempts);
    return finish();
}

} // namespace sb
