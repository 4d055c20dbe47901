// sweepbench-ssebench: what checking every SSE event as JSON costs the client's hot path. Not a
// test: it prints events/s of the client's per-event work (SseParser splitting a streamed answer
// into events, then the chunk scan of every event) two ways in the same run, alternating rounds:
//   brace-only   the scan before events were checked as JSON: braces at both ends, then a
//                search of the text for each key (a copy of that code, kept here as the baseline)
//   validating   load/ChunkScanner's scanChunk: io/JsonScan's checkJson over the whole event,
//                finding the members it reads in the same pass
//   resumed      the same scan as a connection runs it: checked from where the event stops
//                repeating the previous one (io/JsonScan.h JsonResumePoint)
// and checkJson alone. Two answers: the canned one tests/bench/run-client-bench.sh serves
// (64 short content events, usage, [DONE]) and vLLM's own chunk shape (id, created, model,
// logprobs, finish_reason; some tokens with escapes and non-ASCII text).
//
//   sweepbench-ssebench [--seconds S]      S per way and answer (default 3), in 10 rounds
#include "io/JsonScan.h"
#include "load/ChunkScanner.h"
#include "load/SseParser.h"
#include <QByteArray>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

using namespace sb;

namespace {

std::string stream(const std::string &head, const std::string &tail, const std::vector<std::string> &tokens, const std::string &last)
{
    std::string out;
    for (const std::string &t : tokens)
        out += "data: " + head + t + tail + "\n\n";
    return out + last + "data: [DONE]\n\n";
}

// The answer run-client-bench.sh's nginx serves, byte for byte.
std::string cannedAnswer()
{
    std::vector<std::string> tokens;
    for (int i = 0; i < 64; ++i) {
        char t[8];
        std::snprintf(t, sizeof t, "tok%02d ", i);
        tokens.emplace_back(t);
    }
    return stream(R"({"id":"cmpl-1","object":"chat.completion.chunk","model":"bench","choices":[{"index":0,"delta":{"content":")",
                  R"("}}]})", tokens,
                  "data: {\"id\":\"cmpl-1\",\"object\":\"chat.completion.chunk\",\"model\":\"bench\",\"choices\":[],"
                  "\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":64,\"total_tokens\":80}}\n\n");
}

// vLLM's chunk shape (OpenAI-compatible server, pydantic's compact JSON), 128 tokens of text.
std::string vllmAnswer()
{
    const char *words[] = {" The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", ".", "\\n", " \\\"Caf\\u00e9\\\"",
                           " na\xc3\xafve", " \xe2\x82\xac", "12", ",", " and", " then", " some", " more"};
    std::vector<std::string> tokens;
    for (int i = 0; i < 128; ++i)
        tokens.emplace_back(words[i % int(std::size(words))]);
    const std::string head = R"({"id":"chatcmpl-8f1c0c2a5b7e4d2f9a3e6b1c0d4e5f6a","object":"chat.completion.chunk","created":1733140000,)"
                             R"("model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":")";
    const std::string role = "data: " + std::string(R"({"id":"chatcmpl-8f1c0c2a5b7e4d2f9a3e6b1c0d4e5f6a","object":"chat.completion.chunk",)")
                             + R"("created":1733140000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":)"
                             + R"({"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]})" + "\n\n";
    return role + stream(head, R"("},"logprobs":null,"finish_reason":null}]})", tokens,
                         "data: {\"id\":\"chatcmpl-8f1c0c2a5b7e4d2f9a3e6b1c0d4e5f6a\",\"object\":\"chat.completion.chunk\","
                         "\"created\":1733140000,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[],"
                         "\"usage\":{\"prompt_tokens\":512,\"total_tokens\":640,\"completion_tokens\":128}}\n\n");
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

bool nonEmptyStringAt(std::string_view text, std::size_t pos) { return pos < text.size() - 1 && text[pos] == '"' && text[pos + 1] != '"'; }

// The scan as it was before every event was checked as JSON, kept here as the baseline only:
// braces at both ends, then a search of the text for each key.
ChunkInfo braceOnly(std::string_view data)
{
    ChunkInfo info;
    const std::string_view t = trimmed(data);
    if (t == "[DONE]") {
        info.done = true;
        return info;
    }
    if (t.size() < 2 || t.front() != '{' || t.back() != '}') {
        info.malformed = true;
        return info;
    }
    if (const auto e = findJsonKeyValue(t, "error"); e != std::string_view::npos && t[e] == '{') {
        info.error = true;
        return info;
    }
    if (const auto o = findJsonKeyValue(t, "object"); o != std::string_view::npos && t.substr(o, 7) == "\"error\"") {
        info.error = true;
        return info;
    }
    if (const auto c = findJsonKeyValue(t, "content"); c != std::string_view::npos)
        info.hasContent = nonEmptyStringAt(t, c);
    if (!info.hasContent)
        if (const auto x = findJsonKeyValue(t, "text"); x != std::string_view::npos)
            info.hasContent = nonEmptyStringAt(t, x);
    if (const auto u = findJsonKeyValue(t, "usage"); u != std::string_view::npos && t[u] == '{') {
        info.hasUsage = true;
        for (std::string_view key : {"prompt_tokens", "completion_tokens", "cached_tokens"})
            if (const auto p = findJsonKeyValue(t, key, u); p != std::string_view::npos)
                info.completionTokens = parseJsonInt(t, p);
    }
    if (!info.hasContent || info.hasUsage)
        if (const auto m = findJsonKeyValue(t, "timings"); m != std::string_view::npos)
            info.timings = jsonObjectAt(t, m, kMaxTimingsBytes);
    return info;
}

enum class Way { BraceOnly, Validating, Resumed, CheckOnly };

// Feeds the answer as one read (how a canned or fast answer arrives) again and again for
// `ms`; returns events per second. `sink` keeps the compiler from dropping the work.
double eventsPerSecond(const std::string &answer, Way way, qint64 ms, long *sink)
{
    SseParser parser;
    JsonResumePoint point; // one connection's, kept across its answers
    long events = 0, content = 0;
    QElapsedTimer t;
    t.start();
    qint64 elapsedNs = 0;
    do {
        for (int rep = 0; rep < 64; ++rep) {
            parser.reset();
            parser.feed(answer.data(), answer.size(), [&](std::string_view data) {
                ++events;
                if (way == Way::CheckOnly) {
                    content += checkJson(data).ok;
                    return;
                }
                const ChunkInfo info = way == Way::BraceOnly ? braceOnly(data) : scanChunk(data, way == Way::Resumed ? &point : nullptr);
                content += info.hasContent + info.malformed * 1000;
            });
        }
        elapsedNs = t.nsecsElapsed();
    } while (elapsedNs < ms * 1'000'000);
    *sink += content;
    return double(events) / (double(elapsedNs) / 1e9);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    double seconds = 3;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--seconds") && i + 1 < args.size()) {
            seconds = args[++i].toDouble();
        } else {
            std::fprintf(stderr, "usage: sweepbench-ssebench [--seconds S]\n");
            return 2;
        }
    }
    constexpr int kRounds = 10;
    const qint64 roundMs = std::max<qint64>(1, qint64(seconds * 1000 / kRounds));
    long sink = 0;
    std::printf("%-44s %14s %14s %10s %14s %10s %16s\n", "answer", "brace-only/s", "validating/s", "change", "resumed/s", "change",
                "checkJson only/s");
    for (const auto &[name, answer] : {std::pair<const char *, std::string>{"canned (run-client-bench.sh), 66 events", cannedAnswer()},
                                       std::pair<const char *, std::string>{"vLLM chunk shape, 131 events", vllmAnswer()}}) {
        // Rounds alternate the ways so that frequency changes and neighbours hit both alike;
        // each way's best round is taken (the least disturbed).
        double old = 0, now = 0, resumed = 0, check = 0;
        for (int r = 0; r < kRounds; ++r) {
            old = std::max(old, eventsPerSecond(answer, Way::BraceOnly, roundMs, &sink));
            now = std::max(now, eventsPerSecond(answer, Way::Validating, roundMs, &sink));
            resumed = std::max(resumed, eventsPerSecond(answer, Way::Resumed, roundMs, &sink));
            check = std::max(check, eventsPerSecond(answer, Way::CheckOnly, roundMs, &sink));
        }
        std::printf("%-44s %14.0f %14.0f %+9.1f%% %14.0f %+9.1f%% %16.0f\n", name, old, now, (now / old - 1) * 100, resumed,
                    (resumed / old - 1) * 100, check);
    }
    std::fprintf(stderr, "(checksum %ld)\n", sink);
    return 0;
}
