#pragma once
// The OpenAI wire format as vLLM speaks it: request parsing and the exact JSON of answers and
// stream chunks. Chunks are built from a per-request prefix and suffix around the token text,
// because formatting JSON per token through QJsonDocument would dominate the mock's CPU time.
#include <QByteArray>
#include <QJsonValue>
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
    // One hash per image_url content part (of its URL): the worker charges each image
    // MockConfig::imageTokens prefill tokens, equal images equal tokens (cacheable, as on vLLM).
    std::vector<quint64> imageHashes;
    quint64 contentSeed = 0;           // same prompt -> same answer
};

// Parses a /v1/chat/completions (chat) or /v1/completions body. Returns an error message for a
// 400 answer, or an empty string. With `chatTemplate` a chat prompt is the ChatML text of its
// messages (chatMlPrompt), as llama-server counts it; else the words of the contents.
QString parseCompletionRequest(const QByteArray &body, bool chat, int defaultMaxTokens,
                               MockCompletionRequest *out, bool chatTemplate = false);

// The mock's tokenizer: one token per whitespace-separated word, ids below 32000.
std::vector<quint32> mockTokenize(const QByteArray &text);
// The ChatML prompt of chat messages ("<|im_start|>user\n...<|im_end|>\n<|im_start|>assistant\n"),
// what llama-server's /apply-template answers for a ChatML model. Empty when `messages` is not
// an array of objects.
QByteArray chatMlPrompt(const QJsonValue &messages);

// Usage of a finished request as llama-server reports it (llamacpp personality).
struct MockLlamaUsage {
    int promptTokens = 0;
    int completionTokens = 0;
    int cachedTokens = 0;       // usage.prompt_tokens_details.cached_tokens = timings.cache_n
    QByteArray timings;         // the `timings` JSON object
};

// Deterministic output token `index` (" word") of an answer seeded with `seed`.
QByteArray mockToken(quint64 seed, int index);

QByteArray jsonQuoted(const QByteArray &utf8); // "..." with JSON escapes

class MockChunkFormatter
{
public:
    // `llamacpp`: llama-server's shapes: "chatcmpl-" ids on both endpoints, the finish reason
    // on a closing chunk after the tokens, usage with cached tokens and a `timings` object.
    MockChunkFormatter(const MockCompletionRequest &req, quint64 requestNumber, qint64 createdS, bool llamacpp = false);

    // Chat answers whose first `tokens` output tokens are thinking (MockConfig::reasoningTokens):
    // usage then names them in completion_tokens_details.reasoning_tokens.
    void setReasoning(int tokens) { m_reasoningTokens = m_chat ? tokens : 0; }
    bool thinking(int index) const { return index < m_reasoningTokens; }

    // Each returns one SSE event ("data: ...\n\n").
    QByteArray roleEvent() const;                         // chat only: role, empty content
    QByteArray tokenEvent(const QByteArray &token, bool last) const;
    // A thinking token (delta.reasoning_content); `last`: the answer ended while thinking, so a
    // closing chunk with the finish reason follows it.
    QByteArray reasoningEvent(const QByteArray &token, bool last) const;
    QByteArray usageEvent(int promptTokens, int completionTokens) const;
    QByteArray malformedEvent() const;                    // truncated JSON: a broken frame
    static QByteArray doneEvent() { return QByteArrayLiteral("data: [DONE]\n\n"); }

    // The whole non-streaming answer.
    QByteArray fullBody(const QByteArray &text, int promptTokens, int completionTokens, const QByteArray &reasoning = {}) const;

    // llamacpp: the events after the last token (before [DONE]): chat closes with an empty delta
    // carrying the finish reason, then a usage chunk only when asked for (include_usage), the
    // timings on the last of them; completions close with one chunk carrying usage and timings.
    QByteArray llamaFinalEvents(const MockLlamaUsage &u) const;
    QByteArray llamaFullBody(const QByteArray &text, const MockLlamaUsage &u) const;

private:
    QByteArray head() const;  // {"id":..,"object":..,"created":..,"model":..,
    QByteArray usageJson(int promptTokens, int completionTokens) const;

    QByteArray llamaUsageJson(const MockLlamaUsage &u) const;

    bool m_chat;
    bool m_llamacpp = false;
    bool m_includeUsage = false;
    int m_reasoningTokens = 0;
    QByteArray m_id;
    QByteArray m_model;       // already quoted
    qint64 m_created;
    QByteArray m_tokenPrefix; // everything before the token text
    QByteArray m_tokenSuffix; // after it, finish_reason null
    QByteArray m_lastSuffix;  // after it, finish_reason "length"
};

} // namespace sb
