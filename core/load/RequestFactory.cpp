#include "load/RequestFactory.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

namespace sb {

namespace {
// Words for synthetic prompts: common English words so real tokenizers give ~1 token each.
const char *const kWords[] = {"time", "year", "people", "way", "day", "man", "thing", "woman", "life", "child",
                              "world", "school", "state", "family", "student", "group", "country", "problem",
                              "hand", "part", "place", "case", "week", "company", "system", "program", "question",
                              "work", "number", "night", "point", "home", "water", "room", "mother", "area"};
constexpr int kWordCount = int(sizeof(kWords) / sizeof(kWords[0]));

QByteArray words(int count, int seed)
{
    QByteArray out;
    out.reserve(count * 7);
    for (int i = 0; i < count; ++i) {
        out += kWords[(i * 7 + seed) % kWordCount];
        out += ' ';
    }
    return out;
}
} // namespace

QString originOf(const QString &url)
{
    const QUrl u(url);
    const bool tls = u.scheme() == QLatin1String("https");
    return QStringLiteral("%1://%2:%3").arg(u.scheme(), u.host()).arg(u.port(tls ? 443 : 80));
}

ServerTarget resolveTarget(const QString &baseUrl, Endpoint endpoint)
{
    const QUrl u(baseUrl);
    ServerTarget t;
    t.tls = u.scheme() == QLatin1String("https");
    t.host = u.host();
    t.port = quint16(u.port(t.tls ? 443 : 80));
    t.origin = originOf(baseUrl);
    QString base = u.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    if (!base.endsWith(QLatin1String("/v1")))
        base += QStringLiteral("/v1");
    base += endpoint == Endpoint::Chat ? QStringLiteral("/chat/completions") : QStringLiteral("/completions");
    t.path = base.toUtf8();
    return t;
}

QString resolveApiKey(const ServerSpec &server)
{
    if (!server.apiKey.isEmpty())
        return server.apiKey;
    if (!server.apiKeyEnv.isEmpty())
        return qEnvironmentVariable(server.apiKeyEnv.toUtf8().constData());
    return {};
}

RequestFactory::RequestFactory(const ServerSpec &server, const ServerTarget &target, const WorkloadSpec &w,
                               const QByteArray &uniqueTag, int fillerChars)
    : m_tag(uniqueTag)
{
    // Body: build the JSON once with a marker prompt, then split around it.
    static const QString kMarker = QStringLiteral("@@PROMPT@@");
    QJsonObject body{{QStringLiteral("model"), server.model}, {QStringLiteral("max_tokens"), w.outputTokens}};
    if (server.endpoint == Endpoint::Chat)
        body.insert(QStringLiteral("messages"),
                    QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), kMarker}}});
    else
        body.insert(QStringLiteral("prompt"), kMarker);
    if (w.ignoreEos)
        body.insert(QStringLiteral("ignore_eos"), true);
    if (w.streaming) {
        body.insert(QStringLiteral("stream"), true);
        body.insert(QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}});
    }
    const QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact);
    const int at = json.indexOf(kMarker.toUtf8());
    m_bodyStart = json.left(at);
    m_bodyEnd = json.mid(at + kMarker.size());

    const bool shared = w.prompts == PromptMode::SharedPrefix;
    const int prefixWords = shared ? std::min(w.sharedPrefixTokens, w.inputTokens - 1) : 0;
    m_sharedPrefix = words(prefixWords, 3);
    if (fillerChars >= 0) {
        // Calibrated: cut the same word sequence at the character count the server's tokenizer
        // turned into the requested length (about 6 characters per word covers any tokenizer
        // with at least one character per token).
        m_filler = words(fillerChars / 4 + 2, 11).left(fillerChars);
    } else {
        // The unique tag counts as one word; the filler makes up the rest of the requested length.
        m_filler = words(std::max(0, w.inputTokens - 1 - prefixWords), 11);
        m_filler.chop(1); // no trailing space
    }
    m_promptTokens = w.inputTokens;

    m_head = "POST " + target.path + " HTTP/1.1\r\nHost: " + target.host.toUtf8() + ':' + QByteArray::number(target.port) +
             "\r\nContent-Type: application/json\r\nAccept: " +
             (w.streaming ? QByteArray("text/event-stream") : QByteArray("application/json")) +
             "\r\nAccept-Encoding: identity\r\nConnection: keep-alive\r\nUser-Agent: sweepbench/" SWEEPBENCH_VERSION "\r\n";
    const QString key = resolveApiKey(server);
    if (!key.isEmpty())
        m_head += "Authorization: Bearer " + key.toUtf8() + "\r\n";
    for (const auto &[name, value] : server.headers)
        m_head += name.toUtf8() + ": " + value.toUtf8() + "\r\n";
}

QByteArray RequestFactory::body(int ticket) const
{
    const QByteArray id = requestId(ticket);
    QByteArray body;
    body.reserve(m_bodyStart.size() + m_sharedPrefix.size() + id.size() + m_filler.size() + m_bodyEnd.size() + 2);
    body += m_bodyStart;
    body += m_sharedPrefix;
    body += id;
    body += ' ';
    body += m_filler;
    body += m_bodyEnd;
    return body;
}

QByteArray RequestFactory::build(int ticket) const
{
    const QByteArray body = this->body(ticket);
    QByteArray req;
    req.reserve(m_head.size() + body.size() + 96);
    req += m_head;
    req += "X-Request-Id: " + requestId(ticket) + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
    req += body;
    return req;
}

} // namespace sb
