// Fuzzes the benchmark client's HTTP/1.1 response parser through its public API with what a
// server could send on one keep-alive connection: responses back to back, then a close.
// Oracle beyond "no crash, no sanitizer report": the parser is incremental, so feeding the bytes
// in small pieces must give exactly what feeding them at once gives (the network splits reads
// anywhere), and it must never claim to consume more than it was given or stall.
#include "FuzzSupport.h"
#include "load/HttpResponseParser.h"
#include <string>
#include <vector>

namespace {

struct Outcome {
    int result = 0;
    int status = 0;
    bool keepAlive = false;
    bool eventStream = false;
    std::string body;
    bool operator==(const Outcome &) const = default;
};

struct CollectSink : sb::HttpResponseParser::Sink {
    int status = 0;
    std::string body;
    void onHeaders(int s) override { status = s; }
    void onBody(const char *p, std::size_t n) override { body.append(p, n); }
};

constexpr int kMaxResponses = 64; // a bound on one input's work, not on the parser

std::vector<Outcome> parseConnection(const std::string &bytes, std::size_t piece)
{
    using R = sb::HttpResponseParser::Result;
    std::vector<Outcome> out;
    sb::HttpResponseParser parser;
    CollectSink sink;
    std::size_t offset = 0;
    auto record = [&](R r) {
        out.push_back({int(r), sink.status, parser.keepAlive(), parser.isEventStream(), sink.body});
        sink = CollectSink();
    };
    while (int(out.size()) < kMaxResponses) {
        if (offset == bytes.size()) { // the peer closed the connection
            record(parser.finishOnClose(sink));
            break;
        }
        const std::size_t n = std::min(piece, bytes.size() - offset);
        std::size_t used = n + 1;
        const R r = parser.feed(bytes.data() + offset, n, sink, &used);
        if (used > n)
            sbfuzz::broken("feed() consumed more bytes than it was given");
        if (r == R::NeedMore && used != n)
            sbfuzz::broken("feed() asked for more without using what it had");
        offset += used;
        if (r == R::Error) {
            if (parser.error().empty())
                sbfuzz::broken("an error without a message");
            record(r);
            break;
        }
        if (r == R::Complete) {
            record(r);
            parser.reset();
        }
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 1)
        return 0;
    // The first byte picks how the network splits the stream: 1..32 bytes per read.
    const std::size_t piece = 1 + data[0] % 32;
    const std::string bytes(reinterpret_cast<const char *>(data + 1), size - 1);
    const auto whole = parseConnection(bytes, bytes.size() + 1);
    const auto split = parseConnection(bytes, piece);
    if (whole != split)
        sbfuzz::broken("the outcome depends on how the bytes were split into reads");
    return 0;
}
