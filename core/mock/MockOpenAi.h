#pragma once
// The OpenAI wire format as vLLM speaks it: request parsing and the exact JSON of answers and
// stream chunks. Chunks are built from a per-request prefix and suffix around the token text,
// because formatting JSON per token through QJsonDocument would dominate the mock's CPU time.
#include <QByteArray>
#include <QString>
#include <vector>

namespace sb {

struct MockCompletionRequest {
    bool chat = true;
    bool stream = false;
    bool includeUsage = false;
    bool ignoreEos = false;
    int maxTokens = 0;
    QByteArray model;
    std::vector<quint32> promptTokens; // one token per whitespace-separated word (or token id)
    quint64 contentSeed = 0;           // same prompt -> same answer
};

// Parses a /v1/chat/completions (chat) or /v1/completions body. Returns an error message for a
// 400 answer, or an empty string.
QString parseCompletionRequest(const QByteArray &body, bool chat, int defaultMaxTokens,
                               MockCompletionRequest *out);

// Deterministic output token `index` (" word") of an answer seeded with `seed`.
QByteArray mockToken(quint64 seed, int index);

QByteArray jsonQuoted(const QByteArray &utf8); // "..." with JSON escapes

class MockChunkFormatter
{
public:
    MockChunkFormatter(const MockCompletionRequest &req, quint64 requestNumber, qint64 createdS);

    // Each returns one SSE event ("data: ...\n\n").
    QByteArray roleEvent() const;                         // chat only: role, empty content
    QByteArray tokenEvent(const QByteArray &token, bool last) const;
    QByteArray usageEvent(int promptTokens, int completionTokens) const;
    QByteArray malformedEvent() const;                    // truncated JSON: a broken frame
    static QByteArray doneEvent() { return QByteArrayLiteral("data: [DONE]\n\n"); }

    // The whole non-streaming answer.
    QByteArray fullBody(const QByteArray &text, int promptTokens, int completionTokens) const;

private:
    QByteArray head() const;  // {"id":..,"object":..,"created":..,"model":..,
    QByteArray usageJson(int promptTokens, int completionTokens) const;

    bool m_chat;
    QByteArray m_id;
    QByteArray m_model;       // already quoted
    qint64 m_created;
    QByteArray m_tokenPrefix; // everything before the token text
    QByteArray m_tokenSuffix; // after it, finish_reason null
    QByteArray m_lastSuffix;  // after it, finish_reason "length"
};

} // namespace sb
