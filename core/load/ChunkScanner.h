#pragma once
// Reads what the benchmark needs from one OpenAI streaming chunk without building a JSON DOM
// (this runs for every SSE event, hundreds of thousands a second): whether it carries
// non-empty content, a usage block, or an error. Keys inside JSON strings are escaped
// (\"content\"), so a key match requires an unescaped quote.
#include <cstdint>
#include <string_view>

namespace sb {

struct ChunkInfo {
    bool done = false;          // data: [DONE]
    bool malformed = false;     // not a JSON object
    bool error = false;         // {"error": ...} or "object":"error"
    bool hasContent = false;    // non-empty content (chat delta.content / completions text)
    bool hasUsage = false;
    std::int64_t promptTokens = -1;
    std::int64_t completionTokens = -1;
};

ChunkInfo scanChunk(std::string_view data);

// Finds `"key"` as a JSON key (unescaped quotes, followed by ':') at or after `from`.
// Returns the position just after the colon and any whitespace, or npos.
std::size_t findJsonKeyValue(std::string_view text, std::string_view key, std::size_t from = 0);
// Parses a non-negative integer at `pos`; -1 when there is none (e.g. null).
std::int64_t parseJsonInt(std::string_view text, std::size_t pos);

} // namespace sb
