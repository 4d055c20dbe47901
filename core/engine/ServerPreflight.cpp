#include "engine/ServerPreflight.h"
#include "engine/Reachability.h"
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sb {

namespace {
constexpr double kAnswerTimeoutS = 10;
constexpr int kMaxIdChars = 200; // a served id is server text: bounded before it reaches a message

HookOutcome outcomeFor(const HookTarget &target, HookKind kind)
{
    HookOutcome o;
    o.hook = kind;
    o.origin = target.origin;
    o.method = QStringLiteral("GET");
    o.path = modelListUrl(target.baseUrl).path();
    o.attempts = 1;
    o.at = QDateTime::currentDateTimeUtc();
    return o;
}

QString noAnswerHint(const QString &origin, const QString &why)
{
    // The same words as the hooks' transport failures (engine/HookPreflight.cpp), so the advice
    // column shows it once.
    return QStringLiteral("no answer from %1 (%2): is the server running there, and is the URL right?").arg(origin, why.left(200));
}
} // namespace

QUrl modelListUrl(const QString &baseUrl)
{
    QUrl u(baseUrl);
    QString path = u.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (!path.endsWith(QLatin1String("/v1")))
        path += QStringLiteral("/v1");
    u.setPath(path + QStringLiteral("/models"));
    u.setQuery(QString());
    return u;
}

std::optional<QStringList> servedModels(const QByteArray &body)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonValue data = doc.object().value(QStringLiteral("data"));
    if (!data.isArray())
        return std::nullopt;
    QStringList ids;
    for (const QJsonValue &entry : data.toArray()) {
        const QString id = entry.toObject().value(QStringLiteral("id")).toString();
        if (!id.isEmpty())
            ids << id;
    }
    return ids;
}

QList<HookOutcome> checkServerAnswers(ControlClient &client, const HookTarget &target, bool checkModel,
                                      const std::atomic<bool> *cancel, QStringList *hints)
{
    QList<HookOutcome> out;
    HookOutcome reach = outcomeFor(target, HookKind::Reachability);
    reach.path.clear(); // first a plain TCP connect
    const QString connectError = ServerReachability::probe(target.origin); // the engine's own connect check
    if (!connectError.isEmpty()) {
        reach.verdict = HookVerdict::Error;
        reach.message = target.secrets.scrub(QStringLiteral("TCP connect to %1 failed: %2").arg(target.origin, connectError));
        hints->append(noAnswerHint(target.origin, connectError));
        out << reach;
        return out; // nothing to ask a server that is not there
    }

    // Then an HTTP answer: the model list is the one route every OpenAI-compatible server has.
    const QUrl url = modelListUrl(target.baseUrl);
    const ControlResponse r = client.call("GET", url, controlHeaders(target), std::nullopt, kAnswerTimeoutS, cancel);
    reach.path = url.path();
    reach.status = r.status;
    reach.latencyMs = r.latencyMs;
    if (r.status == 0) {
        reach.verdict = r.timedOut ? HookVerdict::Timeout : HookVerdict::Error;
        const QString why = r.timedOut ? QStringLiteral("no HTTP answer within %1 s").arg(kAnswerTimeoutS)
                                       : QStringLiteral("connected, but no HTTP answer: %1").arg(r.transportError);
        reach.message = target.secrets.scrub(why);
        hints->append(noAnswerHint(target.origin, why));
        out << reach;
        return out;
    }
    reach.ok = true;
    reach.verdict = HookVerdict::Ok;
    reach.message = QStringLiteral("HTTP %1 from %2").arg(r.status).arg(target.origin);
    out << reach;
    if (!target.server)
        return out;
    if (!checkModel) {
        // An embedded mock answers for any model name: the check is passed by construction,
        // and the Model column says so rather than "not checked" beside a passed check.
        HookOutcome model = outcomeFor(target, HookKind::ModelList);
        model.status = r.status;
        model.latencyMs = r.latencyMs;
        model.ok = true;
        model.verdict = HookVerdict::Ok;
        model.message = target.secrets.scrub(QStringLiteral("embedded mock: serves any model name, '%1' too").arg(target.server->model));
        out << model;
        return out;
    }

    HookOutcome model = outcomeFor(target, HookKind::ModelList);
    model.status = r.status;
    model.latencyMs = r.latencyMs;
    const QString wanted = target.server->model;
    const std::optional<QStringList> ids = r.complete() && r.status / 100 == 2 ? servedModels(r.body) : std::nullopt;
    if (r.status == 404) {
        model.verdict = HookVerdict::RouteMissing;
        model.message = QStringLiteral("GET %1 answered 404: the server does not list its models, so '%2' is not verified").arg(url.path(), wanted);
    } else if (!ids) {
        model.verdict = HookVerdict::Error;
        model.message = QStringLiteral("GET %1 answered HTTP %2 without a readable model list; '%3' is not verified")
                            .arg(url.path()).arg(r.status).arg(wanted);
    } else if (ids->contains(wanted)) {
        model.ok = true;
        model.verdict = HookVerdict::Ok;
        model.message = QStringLiteral("serves '%1'").arg(wanted);
    } else {
        QStringList shown;
        for (const QString &id : ids->mid(0, kMaxListedModels))
            shown << id.left(kMaxIdChars);
        const QString list = shown.isEmpty() ? QStringLiteral("(none)") : shown.join(QStringLiteral(", "))
                                 + (ids->size() > kMaxListedModels ? QStringLiteral(" … (%1 in all)").arg(ids->size()) : QString());
        model.verdict = HookVerdict::Refused;
        model.message = QStringLiteral("model '%1' is not served here; the server lists: %2").arg(wanted, list);
        hints->append(QStringLiteral("set the server's model to one it serves: %1").arg(list));
    }
    model.message = target.secrets.scrub(model.message);
    out << model;
    return out;
}

} // namespace sb
