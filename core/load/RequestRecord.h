#pragma once
// Compact per-request record kept in memory for metrics (~100 bytes). Inter-chunk gaps are not
// kept here: they go straight to the cell's histogram and to records.jsonl, so memory stays
// flat per finished request whatever the output length.
#include <QString>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace sb {

// Why a request did not count as ok: a request is ok only when the server really answered what
// was asked (docs/ARCHITECTURE.md §11).
enum class ErrorKind : std::uint8_t {
    None,
    Http,            // non-2xx status
    Timeout,         // no complete answer within request_timeout_s
    Connection,      // connect failed, or the connection broke / closed before the answer ended
    Protocol,        // malformed HTTP framing, a stream without data: [DONE], a body without choices
    Cancelled,       // the user cancelled the sweep
    BadJson,         // an SSE event or a JSON body that is not valid JSON, or not an object
    EmptyStream,     // a complete stream (or body) that carried no content at all
    ServerErrorBody, // a 2xx whose body, or an event in whose stream, is an error object
    BadUsage,        // usage token counts out of range (negative, > 2^31-1, more than the bytes could hold)
    Oversize,        // a size the peer controls went past its bound (line, event, header block, body)
    ContentEncoding, // the server compressed the answer although we asked for identity
    TooManyChunks,   // a stream went on past the events max_tokens allows (streamEventLimit)
};
// "", "http", "timeout", "connection", "protocol", "cancelled", "bad_json", "empty_stream",
// "server_error_body", "bad_usage", "oversize", "content_encoding", "too_many_chunks"
const char *errorKindName(ErrorKind kind);
// The key a failed request is counted and sampled under (results.json requests.errors,
// records.jsonl "error"): "http_<status>" for a non-2xx answer, else errorKindName.
QString errorKey(ErrorKind kind, int status);

// What one streamed answer may make the client keep, whatever the server sends
// (docs/ARCHITECTURE.md §13).
//
// SSE data events one answer may carry before it ends as `too_many_chunks`: max_tokens bounds
// the tokens, not the events, so the bound leaves room for what servers really send besides
// one event per token — a role-only first chunk, a finish chunk with an empty delta, a usage
// chunk, [DONE], keep-alive-like empty deltas, and a token split over several chunks (a
// multi-byte character, a tool call's argument pieces) — hence max(2 x max_tokens,
// max_tokens + 64): generous for every server we know, yet finite, so a server streaming
// valid chunks forever is stopped after a few events instead of at the request timeout. A
// request without a usable max_tokens (below 1) is bounded as if it had asked for 2^20 tokens,
// more than any served context holds.
std::int64_t streamEventLimit(int maxTokens);
// Inter-chunk gaps one record lists (records.jsonl's inter_chunk_us); the gaps past it go only
// into the cell's histogram, and the record counts them in inter_chunk_omitted. 4096 gaps keep a
// record line under ~50 KB and a connection's gap buffer at 16 KB.
inline constexpr std::size_t kMaxRecordGaps = 4096;

struct RequestRecord {
    std::int64_t queueNs = 0;       // slot became free and the request was taken (steady clock)
    std::int64_t scheduledNs = 0;   // open loop: when the request was due (steady clock); 0 = closed loop
    std::int64_t sendNs = 0;        // request bytes handed to the socket (the send that got the answer)
    // TTFT's token is the first of any kind, thinking or answer (a reasoning model's server has
    // started decoding then); TTFO's is the first answer token (AIPerf's time to first output token).
    std::int64_t firstTokenNs = -1; // first chunk with non-empty content or reasoning; -1 = none
    std::int64_t firstOutputNs = -1; // first chunk with non-empty content (the answer); -1 = none
    std::int64_t lastTokenNs = -1;  // last content or reasoning chunk
    std::int64_t endNs = 0;         // last byte of the response
    std::int32_t status = 0;        // HTTP status; 0 = no response
    std::int32_t inputTokens = -1;  // from usage, else the requested prompt length
    std::int32_t outputTokens = 0;  // from usage, else counted content and reasoning chunks
    // Of outputTokens, the thinking ones: usage.completion_tokens_details.reasoning_tokens, else
    // counted reasoning chunks; -1 = the answer carried no reasoning and usage named none.
    std::int32_t reasoningTokens = -1;
    std::int32_t cachedTokens = -1; // usage.prompt_tokens_details.cached_tokens; -1 = not reported
    std::int32_t ticket = 0;        // request number within the phase
    std::int32_t requestedInputTokens = -1;  // the prompt length asked for; -1 = a dataset's text
    std::int32_t requestedOutputTokens = -1; // max_tokens sent
    std::int32_t sessionId = -1;    // workload.sessions: the session it belongs to; -1 = single-turn load
    std::int32_t historyTokens = -1; // of its prompt, the tokens of earlier turns (their prompt + answer, per usage); -1 = none or unknown
    std::int16_t turn = 0;          // 1-based turn within its session; 0 = single-turn load
    std::int16_t prefix = -1;       // prompts: shared_prefix, which of the shared prefixes it used
    std::int32_t images = 0;        // workload.images: images the request carried
    std::int64_t imageBytes = 0;    // their encoded files' bytes (before base64)
    ErrorKind error = ErrorKind::None;
    bool usageTokens = false;       // outputTokens came from the server's usage block
    bool resent = false;            // re-sent once: its reused keep-alive connection was dead
    bool usageReasoning = false;    // reasoningTokens came from the server's usage block
    bool ok() const { return error == ErrorKind::None; }

    // The request's own times in ms, computed here only: records.jsonl (ttft_ms, latency_ms,
    // itl_ms) and the cell's metrics both take them from these. NaN when the request has none:
    // never sent; no first token; ITL (AIPerf inter_token_latency) needs two output tokens.
    double ttftMs() const { return sendNs > 0 && firstTokenNs >= 0 ? double(firstTokenNs - sendNs) / kNsPerMs : kNoTime; }
    // NaN also for an answer that was all thinking (it had no answer token).
    double ttfoMs() const { return sendNs > 0 && firstOutputNs >= 0 ? double(firstOutputNs - sendNs) / kNsPerMs : kNoTime; }
    double latencyMs() const { return sendNs > 0 ? double(endNs - sendNs) / kNsPerMs : kNoTime; }
    double itlMs() const { return firstTokenNs >= 0 && outputTokens >= 2 ? double(endNs - firstTokenNs) / kNsPerMs / double(outputTokens - 1) : kNoTime; }

private:
    static constexpr double kNsPerMs = 1e6;
    static constexpr double kNoTime = std::numeric_limits<double>::quiet_NaN();
};

} // namespace sb
