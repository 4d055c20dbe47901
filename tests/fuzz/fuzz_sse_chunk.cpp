// Fuzzes the SSE parser and the chunk scanner as the client chains them: event-stream body bytes
// -> SseParser events -> scanChunk on every event's data. Oracle beyond "no crash": the events
// must not depend on how the bytes were split into reads, and a token count the scanner reports
// is -1 (unknown) or within [0, 2^31-1], never a wrapped number; an event read as a chunk is JSON,
// and one refused says where it stopped being JSON; a connection's check resuming from its
// previous event (JsonResumePoint) reads every event exactly as a check from the start does; and
// no event's data is read from a read's bytes after that read (each read's buffer is freed).
#include "FuzzSupport.h"
#include "load/ChunkScanner.h"
#include "load/SseParser.h"
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

// Each read in a buffer of its own, freed when the read is parsed: the client reuses one buffer
// for every read, so the parser may keep nothing pointing into it (ASan sees such a pointer).
std::vector<std::string> events(const std::string &bytes, std::size_t piece)
{
    sb::SseParser parser;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < bytes.size(); i += piece) {
        const std::size_t n = std::min(piece, bytes.size() - i);
        const auto read = std::make_unique<char[]>(n);
        std::memcpy(read.get(), bytes.data() + i, n);
        parser.feed(read.get(), n, [&](std::string_view d) { out.emplace_back(d); });
    }
    return out;
}

// A token count is -1 (unknown) or an int32 the server can mean; never a wrapped value.
bool validCount(std::int64_t v) { return v == -1 || (v >= 0 && v <= INT32_MAX); }

void scan(const std::string &data)
{
    const sb::ChunkInfo info = sb::scanChunk(data);
    if (!validCount(info.promptTokens) || !validCount(info.completionTokens) || !validCount(info.cachedTokens))
        sbfuzz::broken("a token count outside -1 and [0, 2^31-1]");
    if (info.malformed && (info.json.ok || info.json.offset > data.size() || !*info.json.expected))
        sbfuzz::broken("a malformed event without a place inside it and what was expected there");
    if (!info.malformed && !info.done && !sb::checkJson(data).ok)
        sbfuzz::broken("an event that is not JSON was read as a chunk");
    // A whole answer is read by the same rules: where both read a JSON object, they agree on
    // everything but what only a whole answer has (choices, timings beside content).
    const sb::ChunkInfo answer = sb::scanAnswer(data);
    if (answer.done)
        sbfuzz::broken("a whole answer read as [DONE]");
    if (!info.done && (answer.malformed != info.malformed || answer.error != info.error || answer.hasContent != info.hasContent
                       || answer.contentFrom.data() != info.contentFrom.data() || answer.hasReasoning != info.hasReasoning
                       || answer.reasoningFrom.data() != info.reasoningFrom.data() || answer.hasUsage != info.hasUsage
                       || answer.badUsage != info.badUsage || answer.completionTokens != info.completionTokens
                       || answer.promptTokens != info.promptTokens || answer.cachedTokens != info.cachedTokens
                       || answer.reasoningTokens != info.reasoningTokens))
        sbfuzz::broken("a whole answer and a chunk of the same text read differently");
    // The helpers the scanner is built on, at every key the stream commonly carries.
    for (std::string_view key : {"content", "usage", "completion_tokens", "prompt_tokens", "error"}) {
        const std::size_t at = sb::findJsonKeyValue(data, key);
        if (at != std::string_view::npos) {
            if (at > data.size())
                sbfuzz::broken("findJsonKeyValue returned a position past the end");
            const std::int64_t v = sb::parseJsonInt(data, at);
            if (!validCount(v) && v != sb::kJsonIntInvalid)
                sbfuzz::broken("parseJsonInt returned neither a count, -1 nor kJsonIntInvalid");
        }
    }
}

// The events in order through one resume point, as a connection reads them, against each
// event scanned alone.
void resumeMatchesFull(const std::vector<std::string> &all)
{
    sb::JsonResumePoint point;
    for (const std::string &e : all) {
        const sb::ChunkInfo full = sb::scanChunk(e);
        const sb::ChunkInfo fast = sb::scanChunk(e, &point);
        const bool same = fast.done == full.done && fast.malformed == full.malformed && fast.json.ok == full.json.ok
            && fast.json.offset == full.json.offset && std::string_view(fast.json.expected) == full.json.expected
            && fast.error == full.error && fast.hasContent == full.hasContent && fast.contentFrom.data() == full.contentFrom.data()
            && fast.hasReasoning == full.hasReasoning && fast.reasoningFrom.data() == full.reasoningFrom.data()
            && fast.hasUsage == full.hasUsage && fast.badUsage == full.badUsage
            && fast.promptTokens == full.promptTokens && fast.completionTokens == full.completionTokens
            && fast.cachedTokens == full.cachedTokens && fast.reasoningTokens == full.reasoningTokens
            && fast.timings.data() == full.timings.data() && fast.timings.size() == full.timings.size();
        if (!same)
            sbfuzz::broken("an event checked from the previous event's resume point reads differently from a full check");
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
    resumeMatchesFull(whole);
    scan(bytes); // the scanner also sees whatever a single read holds
    return 0;
}
