#pragma once
// Runs one server's control hooks and judges each answer (verification, not any-2xx):
//  - reset: vLLM 200 {"success": false} = refused, SGLang 400 = busy; both retried with backoff
//    1 s doubling to 8 s within max_retry_seconds, as are transport errors and 409/423/429/503;
//    404 = route_missing (with a hint); other non-2xx fail at once.
//  - llama.cpp reset (no erase-all route): GET /slots, then POST /slots/{id}?action=erase for
//    every slot; verified only when each slot answered {"id_slot": id, "n_erased": K} for its own
//    id. One outcome per origin (HookRunnerSlots.cpp).
//  - profiler start/stop: 2xx = ok; the JSON start body is sent as application/json.
//  - whatever the status, an answer that did not arrive whole (timeout after the status line,
//    body over kMaxControlBodyBytes, connection closed mid-body) is never ok.
#include "hooks/ControlClient.h"
#include "results/Results.h"
#include "spec/SecretSet.h"
#include "spec/SweepSpec.h"
#include <QDateTime>
#include <functional>

namespace sb {

struct HookTarget {
    const ServerSpec *server = nullptr;
    QString baseUrl;   // the server's URL (a started mock's URL for `mock:` servers)
    QString origin;    // scheme://host:port
    QString apiKey;    // resolved; sent as Authorization
    SecretSet secrets; // the server's key and credential header values: scrubbed from messages
};

// The headers every control call to `target` carries: its API key and the server's own headers.
QList<QPair<QByteArray, QByteArray>> controlHeaders(const HookTarget &target);

// One target per unique origin of `urls` (the server's base URLs, in order): hooks go once to
// each origin, whatever the number of URLs on it (docs/ARCHITECTURE.md §5).
QList<HookTarget> hookTargetsFor(const ServerSpec &server, const QStringList &urls);

class HookRunner
{
public:
    HookRunner(ControlClient &client, const std::atomic<bool> *cancel);
    HookOutcome reset(const HookTarget &target, HookPlacement placement);
    HookOutcome profilerStart(const HookTarget &target, const std::optional<QJsonObject> &bodyOverride = std::nullopt);
    // Also returns trace paths named in a JSON answer, if any.
    HookOutcome profilerStop(const HookTarget &target, QStringList *pathsInAnswer = nullptr);

    // Backoff before retry n (1-based): 1, 2, 4, 8, 8, ... seconds. Tests may shrink it.
    void setBackoffScale(double scale) { m_backoffScale = scale; }

private:
    struct Verdict {
        HookVerdict verdict = HookVerdict::Error;
        bool ok = false;
        bool retry = false;
    };
    static Verdict judgeReset(const ServerSpec &server, const ControlResponse &r);
    HookOutcome resetSlots(const HookTarget &target, HookPlacement placement); // HookRunnerSlots.cpp
    static bool stoppedItself(const ServerSpec &server, int status, const QByteArray &answer);
    HookOutcome call(const HookTarget &target, HookKind hook, const QString &path, const std::optional<QByteArray> &body,
                     double timeoutS, QByteArray *answer = nullptr);
    QUrl urlFor(const HookTarget &target, const QString &path) const;
    QList<QPair<QByteArray, QByteArray>> headersFor(const HookTarget &target) const;
    QString describe(const HookTarget &target, HookKind hook, const ControlResponse &r, HookVerdict verdict) const;
    bool sleepCancellable(double seconds);

    ControlClient &m_client;
    const std::atomic<bool> *m_cancel;
    double m_backoffScale = 1.0;
};

} // namespace sb
