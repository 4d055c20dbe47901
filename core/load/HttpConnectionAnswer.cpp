// What an answer means (HttpConnection's other half; the transport and keep-alive handling are
// in HttpConnection.cpp): the body and SSE events as they arrive, and the verdict on a complete
// answer. A request is ok only when the server really answered what was asked
// (docs/ARCHITECTURE.md §11).
#include "load/ChunkScanner.h"
#include "load/HttpConnection.h"
#include <QJsonDocument>
#include <algorithm>

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

std::int32_t spaceSeparatedWords(std::string_view text)
{
    std::int32_t words = 0;
    bool inWord = false;
    for (const char c : text) {
        words += std::int32_t(!inWord && c != ' ');
        inWord = c != ' ';
    }
    return words;
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
    // Non-streaming: the body is read by the rules a streamed chunk is (load/ChunkScanner), in one
    // pass: a JSON document tree cost more CPU than the rest of the request did.
    const std::string_view body(m_body.constData(), std::size_t(m_body.size()));
    const ChunkInfo info = scanAnswer(body);
    if (info.malformed) {
        *message = QStringLiteral("response body is not a JSON object (byte %1: expected %2): ")
                       .arg(info.json.offset)
                       .arg(QLatin1String(info.json.expected))
                   + excerpt(body, 120).simplified();
        return ErrorKind::BadJson;
    }
    if (info.error) {
        *message = QStringLiteral("error object in a 200 answer: ") + excerpt(body, 200).simplified();
        return ErrorKind::ServerErrorBody;
    }
    if (info.noChoices) {
        *message = QStringLiteral("response has no choices");
        return ErrorKind::Protocol;
    }
    const std::string_view text = info.hasContent ? jsonStringBody(info.contentFrom) : std::string_view();
    const std::string_view reasoning = info.hasReasoning ? jsonStringBody(info.reasoningFrom) : std::string_view();
    if (m_state->config.sessions) // the answer goes back, still JSON-escaped, as the next turn's history
        m_session.setAnswer(QByteArray(text.data(), qsizetype(text.size())));
    if (!info.timings.empty())
        m_timings = compactObject(QByteArray(info.timings.data(), qsizetype(info.timings.size())));
    takeUsage(info);
    if (m_badUsage || (m_rec.usageTokens && m_rec.outputTokens > m_bodyBytes)) {
        *message = QStringLiteral("usage token counts out of range (%1 output tokens in %2 bytes)").arg(m_rec.outputTokens).arg(m_bodyBytes);
        return ErrorKind::BadUsage;
    }
    // Without usage, words stand for tokens, as in the streamed answer's count; counted on the
    // escaped text, where only a space written as \u0020 would split differently.
    if (!m_rec.usageReasoning && !reasoning.empty())
        m_rec.reasoningTokens = spaceSeparatedWords(reasoning);
    if (!m_rec.usageTokens)
        m_rec.outputTokens = spaceSeparatedWords(text) + std::max(m_rec.reasoningTokens, 0);
    if (text.empty() && reasoning.empty() && m_rec.outputTokens == 0) {
        *message = QStringLiteral("the answer carried no content");
        return ErrorKind::EmptyStream;
    }
    return ErrorKind::None;
}

} // namespace sb
