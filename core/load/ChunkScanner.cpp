#include "load/ChunkScanner.h"
#include <algorithm>
#include <array>
#include <cstring>

namespace sb {

namespace {
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// A string value at pos is non-empty when it is not `""`; null / missing count as empty.
bool nonEmptyStringAt(std::string_view text, std::size_t pos)
{
    return pos < text.size() - 1 && text[pos] == '"' && text[pos + 1] != '"';
}
} // namespace

std::size_t findJsonKeyValue(std::string_view text, std::string_view key, std::size_t from)
{
    const std::size_t klen = key.size();
    if (klen == 0)
        return std::string_view::npos;
    while (from < text.size()) {
        // memchr for the key's first letter, then an inline compare: string_view::find called
        // memcmp for every candidate, and glibc's memmem (generic two-way) was slower still
        // (callgrind). A key is at least one quote shorter than the text it sits in.
        if (from + klen > text.size())
            return std::string_view::npos;
        const char *hit = static_cast<const char *>(std::memchr(text.data() + from, key[0], text.size() - klen + 1 - from));
        if (!hit)
            return std::string_view::npos;
        const std::size_t q = std::size_t(hit - text.data());
        from = q + 1;
        std::size_t k = 1;
        while (k < klen && text[q + k] == key[k])
            ++k;
        if (k < klen)
            continue;
        // key must be quoted: `"key"` with the opening quote unescaped
        if (q == 0 || text[q - 1] != '"' || q + klen >= text.size() || text[q + klen] != '"')
            continue;
        if (q >= 2 && text[q - 2] == '\\')
            continue;
        std::size_t p = q + klen + 1;
        while (p < text.size() && isSpace(text[p]))
            ++p;
        if (p >= text.size() || text[p] != ':')
            continue;
        ++p;
        while (p < text.size() && isSpace(text[p]))
            ++p;
        return p;
    }
    return std::string_view::npos;
}

std::int64_t parseJsonInt(std::string_view text, std::size_t pos)
{
    if (pos >= text.size())
        return -1;
    if (text[pos] == '-')
        return kJsonIntInvalid;
    if (text[pos] < '0' || text[pos] > '9')
        return -1;
    constexpr std::int64_t kMax = 0x7fffffff;
    std::int64_t v = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        v = v * 10 + (text[pos++] - '0');
        if (v > kMax) // stop before the 64-bit value could overflow on a longer run of digits
            return kJsonIntInvalid;
    }
    if (pos < text.size() && (text[pos] == '.' || text[pos] == 'e' || text[pos] == 'E'))
        return kJsonIntInvalid;
    return v;
}

std::string_view jsonObjectAt(std::string_view text, std::size_t pos, std::size_t maxBytes)
{
    if (pos >= text.size() || text[pos] != '{')
        return {};
    const std::size_t end = std::min(text.size(), pos + maxBytes);
    int depth = 0;
    bool inString = false;
    for (std::size_t i = pos; i < end; ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0)
                return text.substr(pos, i + 1 - pos);
        }
    }
    return {};
}

std::string_view jsonStringBody(std::string_view fromQuote)
{
    if (fromQuote.empty() || fromQuote.front() != '"')
        return {};
    for (std::size_t i = 1; i < fromQuote.size(); ++i) {
        if (fromQuote[i] == '\\')
            ++i;
        else if (fromQuote[i] == '"')
            return fromQuote.substr(1, i - 1);
    }
    return {};
}

namespace {
// The members either kind of answer is read for; a whole answer also has its `choices` found
// (a chunk's may be empty: the usage chunk's is), which the per-event scan does not look up.
constexpr std::string_view kNames[] = {"error", "object", "content", "text", "usage", "timings", "reasoning_content", "reasoning", "choices"};
enum { Error, Object, Content, Text, Usage, Timings, ReasoningContent, Reasoning, Choices };
constexpr std::size_t kChunkNames = Choices;

ChunkInfo scan(std::string_view data, JsonResumePoint *resume, bool wholeAnswer)
{
    const std::string_view t = trim(data);
    ChunkInfo info;
    if (!wholeAnswer && t == "[DONE]") {
        info.done = true;
        return info;
    }
    // One pass checks the whole text as JSON (`{not json}`, a broken tail or a cut string would
    // otherwise count as an answer) and finds the members read below, where searching the text
    // for each key again used to cost as much as the check.
    std::array<std::size_t, std::size(kNames)> at{};
    at.fill(std::string_view::npos);
    // Events of one answer differ from the first text member on: the check resumes there.
    constexpr std::uint64_t kResumeAt = 1u << Content | 1u << Text | 1u << ReasoningContent | 1u << Reasoning;
    const std::size_t names = wholeAnswer ? std::size(kNames) : kChunkNames;
    const JsonMembers members{std::span(kNames, names), std::span(at.data(), names), kResumeAt};
    info.json = resume ? checkJson(t, members, *resume) : checkJson(t, &members);
    if (info.json.ok && t.front() != '{')
        info.json = JsonCheck{false, 0, "a JSON object"};
    if (!info.json.ok) {
        info.malformed = true;
        info.json.offset += std::size_t(t.data() - data.data()); // into the text as sent
        return info;
    }
    const auto has = [&](int k) { return at[std::size_t(k)] != std::string_view::npos; };
    // Errors arrive as {"error": {...}} (vLLM mid-stream) or {"object": "error", ...}.
    if ((has(Error) && t[at[Error]] == '{') || (has(Object) && t.substr(at[Object], 7) == "\"error\"")) {
        info.error = true;
        return info;
    }
    if (wholeAnswer) { // `choices` missing, not an array, or `[]`
        std::size_t p = has(Choices) && t[at[Choices]] == '[' ? at[Choices] + 1 : t.size();
        while (p < t.size() && isSpace(t[p]))
            ++p;
        info.noChoices = p >= t.size() || t[p] == ']';
    }
    if (has(Content) && (info.hasContent = nonEmptyStringAt(t, at[Content])))
        info.contentFrom = t.substr(at[Content]);
    if (!info.hasContent && has(Text) && (info.hasContent = nonEmptyStringAt(t, at[Text])))
        info.contentFrom = t.substr(at[Text]);
    if (has(ReasoningContent) && (info.hasReasoning = nonEmptyStringAt(t, at[ReasoningContent])))
        info.reasoningFrom = t.substr(at[ReasoningContent]);
    if (!info.hasReasoning && has(Reasoning) && (info.hasReasoning = nonEmptyStringAt(t, at[Reasoning])))
        info.reasoningFrom = t.substr(at[Reasoning]);
    if (const std::size_t u = at[Usage]; has(Usage) && t[u] == '{') {
        info.hasUsage = true; // one chunk per answer: its counts are looked up in the text
        const auto count = [&](std::string_view key, std::int64_t &out) {
            if (const auto p = findJsonKeyValue(t, key, u); p != std::string_view::npos) {
                out = parseJsonInt(t, p);
                // A count that is a string, an object or a boolean is as wrong as a negative one;
                // only null stands for "not counted".
                if (out == kJsonIntInvalid || (out < 0 && t[p] != 'n')) {
                    info.badUsage = true;
                    out = -1;
                }
            }
        };
        count("prompt_tokens", info.promptTokens);
        count("completion_tokens", info.completionTokens);
        count("cached_tokens", info.cachedTokens);
        count("reasoning_tokens", info.reasoningTokens);
    }
    if ((wholeAnswer || !info.hasContent || info.hasUsage) && has(Timings))
        info.timings = jsonObjectAt(t, at[Timings], kMaxTimingsBytes);
    return info;
}
} // namespace

ChunkInfo scanChunk(std::string_view data, JsonResumePoint *resume)
{
    return scan(data, resume, false);
}

ChunkInfo scanAnswer(std::string_view body)
{
    return scan(body, nullptr, true);
}

} // namespace sb
