// What an answer means (HttpConnection's other half; the transport and keep-alive handling are
// in HttpConnection.cpp): the body and SSE events as they arrive, and the verdict on a complete
// answer. A request is ok only when the server really answered what was asked
// (docs/ARCHITECTURE.md §11).
#include "load/ChunkScanner.h"
#include "load/HttpConnection.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
// Bounds on what the server controls (docs/ARCHITECTURE.md §13). An error answer is kept
// for its message only; a non-streaming answer may be long (many output tokens) but not endless.
constexpr int kErrorBodyCap = 64 * 1024;
constexpr int kBodyCap = 16 * 1024 * 1024;

QString excerpt(std::string_view data, std::size_t max)
{
    return QString::fromUtf8(data.data(), qsizetype(std::min(data.size(), max)));
}

// Compact JSON of a timing object the server sent, or empty when it is not a JSON object.
QByteArray compactObject(const QByteArray &raw)
{
    const QJsonDocument doc = QJsonDocument::fromJson(raw);
    return doc.isObject() ? doc.toJson(QJsonDocument::Compact) : QByteArray();
}
} // namespace

void HttpConnection::onHeaders(int status)
{
    m_rec.status = status;
}

void HttpConnection::streamFailed(ErrorKind kind, const QString &message)
{
    if (m_streamError)
        return;
    m_streamError = true;
    m_streamErrorKind = kind;
    m_streamErrorMessage = message;
}

void HttpConnection::onBody(const char *p, std::size_t n)
{
    m_bodyBytes += std::int64_t(n);
    if (m_rec.status == 200 && m_parser.isEventStream()) {
        m_sse.feed(p, n, [this](std::string_view data) { handleEvent(data); });
        if (m_sse.overflowed())
            streamFailed(ErrorKind::Oversize, QStringLiteral("an SSE line or event exceeded %1 MiB").arg(SseParser::kMaxEvent >> 20));
        return;
    }
    const int cap = m_rec.status == 200 ? kBodyCap : kErrorBodyCap;
    if (m_body.size() + qsizetype(n) > cap) {
        if (m_rec.status == 200) {
            streamFailed(ErrorKind::Oversize, QStringLiteral("response body exceeded %1 MiB").arg(kBodyCap >> 20));
        } else {
            // The status already says it failed; the rest of an endless error body is not read.
            m_body.append(p, qsizetype(std::min<std::size_t>(n, std::size_t(cap - m_body.size()))));
            streamFailed(ErrorKind::Http, QString());
        }
        return;
    }
    m_body.append(p, qsizetype(n));
}

void HttpConnection::handleEvent(std::string_view data)
{
    if (m_streamError)
        return;
    if (++m_events > m_eventLimit) { // a stream that never ends must not be kept until the timeout
        streamFailed(ErrorKind::TooManyChunks, QStringLiteral("the stream went on past %1 events for max_tokens %2 (at most max(2 × max_tokens, max_tokens + 64))")
                                                   .arg(m_eventLimit)
                                                   .arg(m_rec.requestedOutputTokens));
        return;
    }
    const ChunkInfo info = scanChunk(data, &m_jsonResume);
    if (info.done) {
        m_sawDone = true;
        return;
    }
    if (info.malformed) {
        streamFailed(ErrorKind::BadJson, QStringLiteral("SSE data is not a JSON object (byte %1: expected %2): ")
                                             .arg(info.json.offset)
                                             .arg(QLatin1String(info.json.expected))
                                             + excerpt(data, 120));
        return;
    }
    if (info.error) {
        streamFailed(ErrorKind::ServerErrorBody, QStringLiteral("error event in stream: ") + excerpt(data, 200));
        return;
    }
    if (info.hasContent && m_rec.firstOutputNs < 0)
        m_rec.firstOutputNs = m_nowNs;
    if (info.hasReasoning) // counted; replaced by usage's reasoning_tokens when the server sends it
        m_rec.reasoningTokens = std::max(m_rec.reasoningTokens, 0) + 1;
    if (info.hasContent || info.hasReasoning) {
        if (m_rec.firstTokenNs < 0) {
            m_rec.firstTokenNs = m_nowNs;
            m_state->ttftSumUs.fetch_add((m_nowNs - m_rec.sendNs) / 1000, std::memory_order_relaxed);
            m_state->ttftCount.fetch_add(1, std::memory_order_relaxed);
        } else {
            const auto gapUs = std::uint32_t(std::min<std::int64_t>(std::max<std::int64_t>(m_nowNs - m_rec.lastTokenNs, 0) / 1000, UINT32_MAX));
            if (m_gapsUs.size() < kMaxRecordGaps) {
                m_gapsUs.push_back(gapUs);
            } else { // the record lists the first gaps; the histogram still gets every one
                m_data->interChunkUs.add(gapUs);
                ++m_gapsOmitted;
            }
        }
        m_rec.lastTokenNs = m_nowNs;
        // Counted, one per kind (a chunk where thinking turns into the answer can carry both);
        // replaced by usage when the server sends it.
        m_rec.outputTokens += std::int32_t(info.hasContent) + std::int32_t(info.hasReasoning);
        if (m_state->config.sessions && info.hasContent) // the answer (not its thinking) goes back as the next turn's history
            m_session.addAnswer(jsonStringBody(info.contentFrom));
    }
    takeUsage(info);
    if (!info.timings.empty())
        m_timings = compactObject(QByteArray(info.timings.data(), qsizetype(info.timings.size())));
}

void HttpConnection::takeUsage(const ChunkInfo &info)
{
    if (info.badUsage)
        m_badUsage = true;
    if (info.cachedTokens >= 0)
        m_rec.cachedTokens = std::int32_t(info.cachedTokens);
    if (info.hasUsage && info.reasoningTokens >= 0) {
        m_rec.reasoningTokens = std::int32_t(info.reasoningTokens);
        m_rec.usageReasoning = true;
    }
    if (info.hasUsage && info.completionTokens >= 0) {
        m_rec.outputTokens = std::int32_t(info.completionTokens);
        m_rec.usageTokens = true;
        if (info.promptTokens >= 0)
            m_rec.inputTokens = std::int32_t(info.promptTokens);
    }
}

ErrorKind HttpConnection::judgeStream(QString *message) const
{
    if (!m_sawDone) {
        *message = QStringLiteral("stream ended without data: [DONE]");
        return ErrorKind::Protocol;
    }
    // A stream of thinking without an answer token is a completed answer, not an empty one:
    // the server did decode (often it spent max_tokens thinking, which ignore_eos asks for), its
    // tokens and times are real, and failing it would drop exactly the longest-thinking requests
    // from a reasoning model's latencies. It has a TTFT and no TTFO (docs/spec-reference.md).
    // Neither kind may be missing unless usage says the server produced some tokens.
    if (m_rec.firstTokenNs < 0 && (!m_rec.usageTokens || m_rec.outputTokens == 0)) {
        *message = QStringLiteral("the stream carried no content");
        return ErrorKind::EmptyStream;
    }
    if (m_badUsage || (m_rec.usageTokens && m_rec.outputTokens > m_bodyBytes)) {
        *message = QStringLiteral("usage token counts out of range (%1 output tokens in %2 bytes)").arg(m_rec.outputTokens).arg(m_bodyBytes);
        return ErrorKind::BadUsage;
    }
    return ErrorKind::None;
}

ErrorKind HttpConnection::judgeBody(QString *message)
{
    // Non-streaming: read the answer once (not the hot path of a streaming benchmark).
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(m_body, &parseError);
    if (!doc.isObject()) {
        *message = QStringLiteral("response body is not a JSON object: ") + QString::fromUtf8(m_body.left(120)).simplified();
        return ErrorKind::BadJson;
    }
    const QJsonObject obj = doc.object();
    if (obj.value(QStringLiteral("error")).isObject() || obj.value(QStringLiteral("object")).toString() == QLatin1String("error")) {
        *message = QStringLiteral("error object in a 200 answer: ") + QString::fromUtf8(m_body.left(200)).simplified();
        return ErrorKind::ServerErrorBody;
    }
    const QJsonArray choices = obj.value(QStringLiteral("choices")).toArray();
    if (choices.isEmpty()) {
        *message = QStringLiteral("response has no choices");
        return ErrorKind::Protocol;
    }
    const QJsonObject choice = choices.at(0).toObject();
    const QJsonObject messageObj = choice.value(QStringLiteral("message")).toObject();
    const QString text = choice.contains(QStringLiteral("message"))
                             ? messageObj.value(QStringLiteral("content")).toString()
                             : choice.value(QStringLiteral("text")).toString();
    if (m_state->config.sessions) { // the answer, JSON-escaped, goes back as the next turn's history
        const QByteArray wrapped = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact); // ["..."]
        m_session.setAnswer(wrapped.mid(2, wrapped.size() - 4));
    }
    // Thinking the answer carried apart from its content (vLLM / DeepSeek, or newer vLLM / OpenRouter).
    QString reasoning = messageObj.value(QStringLiteral("reasoning_content")).toString();
    if (reasoning.isEmpty())
        reasoning = messageObj.value(QStringLiteral("reasoning")).toString();
    if (obj.value(QStringLiteral("timings")).isObject())
        m_timings = QJsonDocument(obj.value(QStringLiteral("timings")).toObject()).toJson(QJsonDocument::Compact);
    const QJsonObject usage = obj.value(QStringLiteral("usage")).toObject();
    // A count must be a whole number in [0, 2^31-1]; a double holds any such integer exactly.
    const auto count = [&](const QJsonValue &v, std::int32_t *out) {
        if (v.isUndefined() || v.isNull())
            return true;
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 0 || d > 2147483647.0 || d != std::floor(d))
            return false;
        *out = std::int32_t(d);
        return true;
    };
    std::int32_t output = -1, input = -1, cached = -1, thinking = -1;
    const bool countsOk = count(usage.value(QStringLiteral("completion_tokens")), &output) &&
                          count(usage.value(QStringLiteral("prompt_tokens")), &input) &&
                          count(usage.value(QStringLiteral("prompt_tokens_details")).toObject().value(QStringLiteral("cached_tokens")), &cached) &&
                          count(usage.value(QStringLiteral("completion_tokens_details")).toObject().value(QStringLiteral("reasoning_tokens")), &thinking);
    if (!countsOk || (output >= 0 && output > m_bodyBytes)) {
        *message = QStringLiteral("usage token counts out of range: ") + QString::fromUtf8(QJsonDocument(usage).toJson(QJsonDocument::Compact)).left(200);
        return ErrorKind::BadUsage;
    }
    if (cached >= 0)
        m_rec.cachedTokens = cached;
    if (thinking >= 0) {
        m_rec.reasoningTokens = thinking;
        m_rec.usageReasoning = true;
    } else if (!reasoning.isEmpty()) { // words, as the answer's own count is without usage
        m_rec.reasoningTokens = std::int32_t(reasoning.split(QLatin1Char(' '), Qt::SkipEmptyParts).size());
    }
    if (output >= 0) {
        m_rec.outputTokens = output;
        if (input >= 0)
            m_rec.inputTokens = input;
        m_rec.usageTokens = true;
    } else {
        m_rec.outputTokens = int(text.split(QLatin1Char(' '), Qt::SkipEmptyParts).size()) + std::max(m_rec.reasoningTokens, 0);
    }
    if (text.isEmpty() && reasoning.isEmpty() && m_rec.outputTokens == 0) {
        *message = QStringLiteral("the answer carried no content");
        return ErrorKind::EmptyStream;
    }
    return ErrorKind::None;
}

} // namespace sb
