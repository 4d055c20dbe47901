// Fuzzes the SSE parser and the chunk scanner as the client chains them: event-stream body bytes
// -> SseParser events -> scanChunk on every event's data. Oracle beyond "no crash": the events
// must not depend on how the bytes were split into reads, and a token count the scanner reports
// is never negative other than -1 (unknown).
#include "FuzzSupport.h"
#include "load/ChunkScanner.h"
#include "load/SseParser.h"
#include <string>
#include <vector>

namespace {

std::vector<std::string> events(const std::string &bytes, std::size_t piece)
{
    sb::SseParser parser;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < bytes.size(); i += piece)
        parser.feed(bytes.data() + i, std::min(piece, bytes.size() - i), [&](std::string_view d) { out.emplace_back(d); });
    return out;
}

void scan(const std::string &data)
{
    const sb::ChunkInfo info = sb::scanChunk(data);
    if (info.promptTokens < -1 || info.completionTokens < -1)
        sbfuzz::broken("a negative token count other than -1");
    // The helpers the scanner is built on, at every key the stream commonly carries.
    for (std::string_view key : {"content", "usage", "completion_tokens", "prompt_tokens", "error"}) {
        const std::size_t at = sb::findJsonKeyValue(data, key);
        if (at != std::string_view::npos) {
            if (at > data.size())
                sbfuzz::broken("findJsonKeyValue returned a position past the end");
            if (sb::parseJsonInt(data, at) < -1)
                sbfuzz::broken("parseJsonInt returned a negative number other than -1");
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 1)
        return 0;
    const std::size_t piece = 1 + data[0] % 16; // how the network splits the stream
    const std::string bytes(reinterpret_cast<const char *>(data + 1), size - 1);
    const auto whole = events(bytes, bytes.size() + 1);
    if (events(bytes, piece) != whole)
        sbfuzz::broken("the events depend on how the bytes were split into reads");
    for (const std::string &e : whole)
        scan(e);
    scan(bytes); // the scanner also sees whatever a single read holds
    return 0;
}
