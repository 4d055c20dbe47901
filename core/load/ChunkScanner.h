#pragma once
// Reads what the benchmark needs from one OpenAI streaming chunk, or a whole non-streamed answer,
// without building a JSON DOM (this runs for every SSE event, hundreds of thousands a second, and
// a DOM cost a non-streamed answer more than the rest of its request): whether it is JSON at all
// (io/JsonScan's one-pass check, which also finds the members read: braces at both ends are not
// JSON), whether it carries non-empty content, a usage block, or an error. The helpers below
// read the rare rest (usage counts, the timing object); keys inside JSON strings are escaped
// (\"content\"), so their key match requires an unescaped quote.
#include "io/JsonScan.h"
#include <cstdint>
#include <string_view>

namespace sb {

struct ChunkInfo {
    bool done = false;          // data: [DONE]
    bool malformed = false;     // not a JSON object
    JsonCheck json;             // when malformed: where the text stopped being JSON, and what was expected
    bool error = false;         // {"error": ...} or "object":"error"
    bool hasContent = false;    // non-empty content (chat delta.content / completions text)
    // With hasContent: the event's text from the content string's opening quote on (its end is
    // found only when asked, jsonStringBody: sessions keep the answer, plain load does not).
    std::string_view contentFrom;
    // Non-empty thinking (delta.reasoning_content, vLLM / DeepSeek; delta.reasoning, newer vLLM /
    // OpenRouter): a token, but not an answer token (docs/ARCHITECTURE.md §7, TTFT vs TTFO).
    bool hasReasoning = false;
    std::string_view reasoningFrom; // with hasReasoning: from the thinking string's opening quote on
    bool hasUsage = false;
    bool badUsage = false;      // a usage count that is neither null nor an integer in [0, 2^31-1]
    std::int64_t promptTokens = -1;
    std::int64_t completionTokens = -1;
    std::int64_t cachedTokens = -1; // usage.prompt_tokens_details.cached_tokens
    std::int64_t reasoningTokens = -1; // usage.completion_tokens_details.reasoning_tokens
    // The server's per-request timing object (llama.cpp `timings`), as raw JSON text inside
    // `data`; empty when absent or larger than kMaxTimingsBytes. Looked for only in chunks
    // without content or with usage (where servers put it), to keep the per-event scan short.
    std::string_view timings;
    bool noChoices = false; // scanAnswer only: `choices` missing, not an array, or empty
};

inline constexpr std::size_t kMaxTimingsBytes = 4096;

// `resume`, kept per connection, lets the JSON check skip the part of an event that repeats the
// previous one byte for byte (io/JsonScan.h JsonResumePoint); the result is the same without it.
ChunkInfo scanChunk(std::string_view data, JsonResumePoint *resume = nullptr);
// A non-streamed answer's body, read by the same rules as a chunk (one place says what an error,
// content, thinking and a usage count are), plus whether it has choices; its timing object is
// looked for whatever else it carries. Never `done`.
ChunkInfo scanAnswer(std::string_view body);

// The escaped characters of the JSON string whose opening quote starts `fromQuote`, without the
// quotes (still JSON-escaped, so they can be sent back inside another JSON string as they are);
// empty when the string does not close.
std::string_view jsonStringBody(std::string_view fromQuote);

// Finds `"key"` as a JSON key (unescaped quotes, followed by ':') at or after `from`.
// Returns the position just after the colon and any whitespace, or npos.
std::size_t findJsonKeyValue(std::string_view text, std::string_view key, std::size_t from = 0);
// Parses a non-negative integer at `pos`: -1 when there is none (null, a string, no value),
// kJsonIntInvalid when it is negative, fractional, or above 2^31-1 (a token count the server
// cannot mean; never wrapped).
inline constexpr std::int64_t kJsonIntInvalid = -2;
std::int64_t parseJsonInt(std::string_view text, std::size_t pos);
// The extent of the JSON object starting at text[pos] == '{' (strings and escapes respected),
// or an empty view when it does not close within maxBytes.
std::string_view jsonObjectAt(std::string_view text, std::size_t pos, std::size_t maxBytes);

} // namespace sb
