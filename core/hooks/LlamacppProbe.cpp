#include "hooks/LlamacppProbe.h"
#include "hooks/HookPresets.h"
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QUrl>

namespace sb {

namespace {
// Long enough to be more than a chat-template prefix, short enough to cost nothing.
constexpr int kProbeWords = 48;

QString uniquePrompt(const QString &tag)
{
    const QString salt = QString::number(QRandomGenerator::global()->generate64(), 36);
    QStringList words{QStringLiteral("sweepbench"), tag, salt};
    for (int i = 0; words.size() < kProbeWords; ++i)
        words.append(QStringLiteral("w%1%2").arg(salt).arg(i));
    return words.join(QLatin1Char(' '));
}

std::optional<int> intAt(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble() || v.toDouble() < 0 || v.toDouble() > 2147483647.0)
        return std::nullopt;
    return int(v.toDouble());
}
} // namespace

LlamacppProbe::LlamacppProbe(ControlClient &client, const HookTarget &target, const std::atomic<bool> *cancel)
    : m_client(client), m_target(target), m_cancel(cancel), m_probePrompt(uniquePrompt(QStringLiteral("probe")))
{
}

QStringList LlamacppProbe::readProps()
{
    const ServerSpec &server = *m_target.server;
    const ControlResponse r = m_client.call("GET", QUrl(m_target.origin + QStringLiteral("/props")), controlHeaders(m_target),
                                            std::nullopt, server.reset.timeoutS, m_cancel, 1024 * 1024);
    const QJsonObject props = QJsonDocument::fromJson(r.body).object();
    if (r.status != 200 || props.isEmpty())
        return {m_target.secrets.scrub(QStringLiteral("%1: GET /props answered %2; is this a llama-server?")
                                  .arg(m_target.origin, r.status ? QStringLiteral("HTTP %1").arg(r.status) : r.transportError))};
    QStringList hints;
    if (props.value(QLatin1String("endpoint_slots")) == QJsonValue(false))
        hints.append(m_target.origin + QStringLiteral(": ") + llamacppNotSupportedHint(true));
    return hints;
}

int LlamacppProbe::complete(const QString &prompt, int *promptTokens, QString *error)
{
    const ServerSpec &server = *m_target.server;
    const QJsonObject body{{QStringLiteral("model"), server.model},
                           {QStringLiteral("prompt"), prompt},
                           {QStringLiteral("max_tokens"), 1},
                           {QStringLiteral("stream"), false}};
    QString base = m_target.baseUrl;
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    const ControlResponse r = m_client.call("POST", QUrl(base + QStringLiteral("/v1/completions")), controlHeaders(m_target),
                                            QJsonDocument(body).toJson(QJsonDocument::Compact), server.reset.timeoutS,
                                            m_cancel);
    const QJsonObject o = QJsonDocument::fromJson(r.body).object();
    const QJsonObject usage = o.value(QLatin1String("usage")).toObject();
    std::optional<int> cached = intAt(usage.value(QLatin1String("prompt_tokens_details")).toObject(), "cached_tokens");
    if (!cached)
        cached = intAt(o.value(QLatin1String("timings")).toObject(), "cache_n");
    if (r.status != 200 || !cached) {
        *error = r.status == 0 ? r.transportError
                               : QStringLiteral("HTTP %1 without usage.prompt_tokens_details.cached_tokens or timings.cache_n").arg(r.status);
        return -1;
    }
    *promptTokens = intAt(usage, "prompt_tokens").value_or(0);
    return *cached;
}

bool LlamacppProbe::prime(QStringList *hints)
{
    int promptTokens = 0;
    QString error;
    // The second prompt starts a new task, which makes llama-server copy the idle slot holding
    // the first one into its host-RAM cache (when that cache is on).
    if (complete(m_probePrompt, &promptTokens, &error) < 0
        || complete(uniquePrompt(QStringLiteral("other")), &promptTokens, &error) < 0) {
        hints->append(m_target.secrets.scrub(QStringLiteral("%1: could not test whether erasing the slots is a full reset (%2); %3")
                                        .arg(m_target.origin, error, llamacppPromptCacheHint())));
        return false;
    }
    return true;
}

QStringList LlamacppProbe::checkAfterReset()
{
    int promptTokens = 0;
    QString error;
    const int cached = complete(m_probePrompt, &promptTokens, &error);
    if (cached < 0)
        return {m_target.secrets.scrub(QStringLiteral("%1: could not test whether erasing the slots is a full reset (%2); %3")
                                  .arg(m_target.origin, error, llamacppPromptCacheHint()))};
    if (cached == 0)
        return {};
    return {QStringLiteral("%1: after every slot was erased, a repeated prompt still had %2 of %3 tokens cached: %4")
                .arg(m_target.origin)
                .arg(cached)
                .arg(promptTokens)
                .arg(llamacppPromptCacheHint())};
}

} // namespace sb
