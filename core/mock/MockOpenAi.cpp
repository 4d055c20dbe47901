#include "mock/MockOpenAi.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace sb {

namespace {
quint32 fnv1a(const char *p, qsizetype n)
{
    quint32 h = 2166136261u;
    for (qsizetype i = 0; i < n; ++i)
        h = (h ^ quint8(p[i])) * 16777619u;
    return h;
}

// Whitespace-separated words of `text` as token ids: the prompt-size approximation the
// benchmark's synthetic prompts are built for ("input_tokens" = words).
void appendWords(const QByteArray &text, std::vector<quint32> &out)
{
    const char *p = text.constData();
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        while (i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\t' || p[i] == '\r'))
            ++i;
        const qsizetype start = i;
        while (i < n && !(p[i] == ' ' || p[i] == '\n' || p[i] == '\t' || p[i] == '\r'))
            ++i;
        if (i > start)
            out.push_back(fnv1a(p + start, i - start));
    }
}

const char *const kWords[] = {
    " the", " model", " answers", " with", " a", " steady", " stream", " of", " tokens",
    " while", " the", " scheduler", " batches", " requests", " and", " the", " cache",
    " keeps", " prefixes", " warm", " for", " every", " sweep", " point", " on", " this",
    " mock", " server", " so", " curves", " look", " real",
};
constexpr int kWordCount = int(sizeof kWords / sizeof kWords[0]);
} // namespace

std::vector<quint32> mockTokenize(const QByteArray &text)
{
    std::vector<quint32> out;
    appendWords(text, out);
    for (quint32 &t : out)
        t %= 32000; // a vocabulary's worth of ids, like the tiny model's 32,000
    return out;
}

QByteArray chatMlPrompt(const QJsonValue &messages)
{
    if (!messages.isArray())
        return {};
    QByteArray out;
    for (const QJsonValue &m : messages.toArray()) {
        if (!m.isObject())
            return {};
        const QJsonObject o = m.toObject();
        QString text;
        const QJsonValue content = o.value(QLatin1String("content"));
        if (content.isString()) {
            text = content.toString();
        } else if (content.isArray()) { // [{"type":"text","text":"..."}]
            for (const QJsonValue &part : content.toArray())
                text += part.toObject().value(QLatin1String("text")).toString();
        }
        out += "<|im_start|>" + o.value(QLatin1String("role")).toString(QStringLiteral("user")).toUtf8() + '\n'
               + text.toUtf8() + "<|im_end|>\n";
    }
    return out + "<|im_start|>assistant\n";
}

QString parseCompletionRequest(const QByteArray &body, bool chat, int defaultMaxTokens,
                               MockCompletionRequest *out, bool chatTemplate)
{
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return QStringLiteral("request body is not a JSON object");
    const QJsonObject o = doc.object();
    MockCompletionRequest r;
    r.chat = chat;
    r.model = o.value(QLatin1String("model")).toString().toUtf8();
    r.stream = o.value(QLatin1String("stream")).toBool(false);
    r.includeUsage = o.value(QLatin1String("stream_options")).toObject()
                         .value(QLatin1String("include_usage")).toBool(false);
    r.ignoreEos = o.value(QLatin1String("ignore_eos")).toBool(false);
    const QJsonValue mt = o.contains(QLatin1String("max_completion_tokens"))
                              ? o.value(QLatin1String("max_completion_tokens"))
                              : o.value(QLatin1String("max_tokens"));
    if (mt.isUndefined() || mt.isNull()) {
        r.maxTokens = defaultMaxTokens;
    } else {
        const double v = mt.toDouble(-1);
        if (!mt.isDouble() || v < 1 || v != double(qint64(v)) || v > 1e6)
            return QStringLiteral("max_tokens must be a positive integer");
        r.maxTokens = int(v);
    }
    if (chat) {
        const QJsonValue messages = o.value(QLatin1String("messages"));
        if (!messages.isArray() || messages.toArray().isEmpty())
            return QStringLiteral("messages must be a non-empty array");
        if (chatTemplate) {
            const QByteArray prompt = chatMlPrompt(messages);
            if (prompt.isEmpty())
                return QStringLiteral("messages must be objects with a role and a content");
            r.promptTokens = mockTokenize(prompt);
        }
        for (const QJsonValue &m : messages.toArray()) { // images, whichever way the text is counted
            const QJsonValue content = m.toObject().value(QLatin1String("content"));
            for (const QJsonValue &part : content.isArray() ? content.toArray() : QJsonArray()) {
                const QJsonObject po = part.toObject();
                if (po.value(QLatin1String("type")).toString() != QLatin1String("image_url"))
                    continue;
                const QByteArray url = po.value(QLatin1String("image_url")).toObject().value(QLatin1String("url")).toString().toUtf8();
                if (url.isEmpty())
                    return QStringLiteral("an image_url part needs image_url.url");
                r.imageHashes.push_back((quint64(fnv1a(url.constData(), url.size())) << 32) | quint64(url.size()));
            }
        }
        for (const QJsonValue &m : chatTemplate ? QJsonArray() : messages.toArray()) {
            const QJsonValue content = m.toObject().value(QLatin1String("content"));
            if (content.isString()) {
                appendWords(content.toString().toUtf8(), r.promptTokens);
            } else if (content.isArray()) { // [{"type":"text","text":"..."}]
                for (const QJsonValue &part : content.toArray())
                    appendWords(part.toObject().value(QLatin1String("text")).toString().toUtf8(),
                                r.promptTokens);
            }
        }
    } else {
        const QJsonValue prompt = o.value(QLatin1String("prompt"));
        if (prompt.isString()) {
            appendWords(prompt.toString().toUtf8(), r.promptTokens);
        } else if (prompt.isArray() && !prompt.toArray().isEmpty()) {
            for (const QJsonValue &v : prompt.toArray()) {
                if (v.isDouble()) // a list of token ids
                    r.promptTokens.push_back(quint32(v.toInteger()));
                else
                    appendWords(v.toString().toUtf8(), r.promptTokens);
            }
        } else {
            return QStringLiteral("prompt must be a string or a non-empty array");
        }
    }
    quint64 seed = 1469598103934665603ULL;
    for (quint32 t : r.promptTokens)
        seed = (seed ^ t) * 1099511628211ULL;
    r.contentSeed = seed;
    *out = std::move(r);
    return {};
}

QByteArray mockToken(quint64 seed, int index)
{
    quint64 x = seed + quint64(index) * 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    return QByteArray::fromRawData(kWords[x % kWordCount], qsizetype(qstrlen(kWords[x % kWordCount])));
}

QByteArray jsonQuoted(const QByteArray &utf8)
{
    QByteArray out;
    out.reserve(utf8.size() + 2);
    out += '"';
    for (char c : utf8) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (quint8(c) < 0x20)
                out += "\\u00" + QByteArray::number(quint8(c), 16).rightJustified(2, '0');
            else
                out += c;
        }
    }
    out += '"';
    return out;
}

MockChunkFormatter::MockChunkFormatter(const MockCompletionRequest &req, quint64 requestNumber, qint64 createdS,
                                       bool llamacpp)
    : m_chat(req.chat), m_llamacpp(llamacpp), m_includeUsage(req.includeUsage),
      m_id((req.chat || llamacpp ? "chatcmpl-mock" : "cmpl-mock") + QByteArray::number(requestNumber)),
      m_model(jsonQuoted(req.model)), m_created(createdS)
{
    m_tokenPrefix = "data: " + head() + (m_chat ? R"("choices":[{"index":0,"delta":{"content":)"
                                                : R"("choices":[{"index":0,"text":)");
    // Token text is plain ASCII from kWords: quoting is just the two quotes.
    m_tokenPrefix += '"';
    m_tokenSuffix = m_chat ? R"("},"logprobs":null,"finish_reason":null}]})" "\n\n"
                           : R"(","logprobs":null,"finish_reason":null,"stop_reason":null}]})" "\n\n";
    m_lastSuffix = m_chat ? R"("},"logprobs":null,"finish_reason":"length"}]})" "\n\n"
                          : R"(","logprobs":null,"finish_reason":"length","stop_reason":null}]})" "\n\n";
    if (m_llamacpp) // the finish reason comes on a closing chunk of its own
        m_lastSuffix = m_tokenSuffix;
}

QByteArray MockChunkFormatter::llamaUsageJson(const MockLlamaUsage &u) const
{
    return R"({"completion_tokens":)" + QByteArray::number(u.completionTokens) + R"(,"prompt_tokens":)"
           + QByteArray::number(u.promptTokens) + R"(,"total_tokens":)"
           + QByteArray::number(u.promptTokens + u.completionTokens)
           + R"(,"prompt_tokens_details":{"cached_tokens":)" + QByteArray::number(u.cachedTokens) + "}}";
}

QByteArray MockChunkFormatter::llamaFinalEvents(const MockLlamaUsage &u) const
{
    const QByteArray timings = R"(,"timings":)" + u.timings;
    if (!m_chat) // one closing chunk: empty text, the finish reason, usage and timings always
        return "data: " + head() + R"("choices":[{"index":0,"text":"","logprobs":null,"finish_reason":"length"}],"usage":)"
               + llamaUsageJson(u) + timings + "}\n\n";
    QByteArray out = "data: " + head() + R"("choices":[{"index":0,"delta":{},"finish_reason":"length"}])";
    if (!m_includeUsage)
        return out + timings + "}\n\n";
    out += "}\n\n";
    return out + "data: " + head() + R"("choices":[],"usage":)" + llamaUsageJson(u) + timings + "}\n\n";
}

QByteArray MockChunkFormatter::llamaFullBody(const QByteArray &text, const MockLlamaUsage &u) const
{
    QByteArray out = R"({"id":")" + m_id + R"(","object":)"
                     + (m_chat ? R"("chat.completion")" : R"("text_completion")")
                     + R"(,"created":)" + QByteArray::number(m_created) + R"(,"model":)" + m_model;
    if (m_chat)
        out += R"(,"choices":[{"index":0,"message":{"role":"assistant","content":)" + jsonQuoted(text)
               + R"(},"finish_reason":"length"}])";
    else
        out += R"(,"choices":[{"index":0,"text":)" + jsonQuoted(text) + R"(,"logprobs":null,"finish_reason":"length"}])";
    return out + R"(,"usage":)" + llamaUsageJson(u) + R"(,"timings":)" + u.timings + "}";
}

QByteArray MockChunkFormatter::head() const
{
    return R"({"id":")" + m_id + R"(","object":)"
           + (m_chat ? R"("chat.completion.chunk")" : R"("text_completion")")
           + R"(,"created":)" + QByteArray::number(m_created) + R"(,"model":)" + m_model + ',';
}

QByteArray MockChunkFormatter::roleEvent() const
{
    return "data: " + head()
           + R"("choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]})"
             "\n\n";
}

QByteArray MockChunkFormatter::tokenEvent(const QByteArray &token, bool last) const
{
    const QByteArray &suffix = last ? m_lastSuffix : m_tokenSuffix;
    QByteArray out;
    out.reserve(m_tokenPrefix.size() + token.size() + suffix.size());
    out += m_tokenPrefix;
    out += token;
    out += suffix;
    return out;
}

QByteArray MockChunkFormatter::reasoningEvent(const QByteArray &token, bool last) const
{
    QByteArray out = "data: " + head() + R"("choices":[{"index":0,"delta":{"reasoning_content":")" + token
                     + R"("},"logprobs":null,"finish_reason":null}]})" "\n\n";
    if (last && !m_llamacpp) // llama-server's closing chunk comes with its final events
        out += "data: " + head() + R"("choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"length"}]})" "\n\n";
    return out;
}

QByteArray MockChunkFormatter::usageJson(int promptTokens, int completionTokens) const
{
    QByteArray out = R"({"prompt_tokens":)" + QByteArray::number(promptTokens) + R"(,"total_tokens":)"
                     + QByteArray::number(promptTokens + completionTokens) + R"(,"completion_tokens":)"
                     + QByteArray::number(completionTokens);
    if (m_reasoningTokens > 0)
        out += R"(,"completion_tokens_details":{"reasoning_tokens":)" + QByteArray::number(std::min(m_reasoningTokens, completionTokens)) + "}";
    return out + "}";
}

QByteArray MockChunkFormatter::usageEvent(int promptTokens, int completionTokens) const
{
    return "data: " + head() + R"("choices":[],"usage":)" + usageJson(promptTokens, completionTokens)
           + "}\n\n";
}

QByteArray MockChunkFormatter::malformedEvent() const
{
    // Cut off inside the JSON object, as a proxy that truncates a frame would.
    return "data: " + head() + R"("choices":[{"index":0,"delta":{"content":")" "\n\n";
}

QByteArray MockChunkFormatter::fullBody(const QByteArray &text, int promptTokens, int completionTokens, const QByteArray &reasoning) const
{
    QByteArray out = R"({"id":")" + m_id + R"(","object":)"
                     + (m_chat ? R"("chat.completion")" : R"("text_completion")")
                     + R"(,"created":)" + QByteArray::number(m_created) + R"(,"model":)" + m_model;
    if (m_chat)
        out += R"(,"choices":[{"index":0,"message":{"role":"assistant","content":)" + jsonQuoted(text)
               + (reasoning.isEmpty() ? QByteArray() : R"(,"reasoning_content":)" + jsonQuoted(reasoning))
               + R"(},"logprobs":null,"finish_reason":"length"}])";
    else
        out += R"(,"choices":[{"index":0,"text":)" + jsonQuoted(text)
               + R"(,"logprobs":null,"finish_reason":"length","stop_reason":null}])";
    out += R"(,"usage":)" + usageJson(promptTokens, completionTokens) + "}";
    return out;
}

} // namespace sb
