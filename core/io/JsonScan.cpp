#include "io/JsonScan.h"
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace sb {

JsonShape scanJsonShape(QByteArrayView json, QByteArrayView arrayKey)
{
    JsonShape shape;
    int depth = 0;
    bool inString = false, escape = false;
    qsizetype stringStart = 0;
    QByteArrayView lastKey;     // the latest string read at depth 1 (a key of the top object)
    bool keyIsTarget = false;   // that key was followed by ':' and is arrayKey
    bool counting = false;      // inside the target array (its items are at depth 2)
    bool itemSeen = false;      // the current item of the target array has begun
    qsizetype items = 0;
    qsizetype itemValues = 0;   // values of the current item of the target array
    bool inScalar = false;      // inside a number or literal (true/false/null)
    // Values inside the target array belong to its current item.
    const auto countValue = [&] {
        ++shape.values;
        if (counting && depth >= 2)
            ++itemValues;
    };
    const auto endItem = [&] {
        if (itemValues > shape.largestItemValues) {
            shape.largestItemValues = itemValues;
            shape.largestItemIndex = items;
        }
        itemValues = 0;
    };
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"') {
                inString = false;
                if (depth == 1)
                    lastKey = json.sliced(stringStart, i - stringStart);
            }
            continue;
        }
        const bool structural = c == '"' || c == '{' || c == '[' || c == '}' || c == ']' || c == ',' || c == ':'
                                || c == ' ' || c == '\n' || c == '\r' || c == '\t';
        if (!structural) {
            if (!inScalar) {
                inScalar = true;
                countValue();
                if (counting && depth == 2)
                    itemSeen = true;
            }
            continue;
        }
        inScalar = false;
        switch (c) {
        case '"':
            inString = true;
            stringStart = i + 1;
            countValue(); // keys are counted too: they cost like values
            if (counting && depth == 2)
                itemSeen = true;
            break;
        case ':':
            if (depth == 1)
                keyIsTarget = !arrayKey.isEmpty() && lastKey == arrayKey;
            break;
        case '{':
        case '[':
            countValue();
            if (counting && depth == 2)
                itemSeen = true;
            ++depth;
            if (c == '[' && depth == 2 && keyIsTarget && !counting) {
                counting = true;
                items = 0;
                itemValues = 0;
                itemSeen = false;
            }
            break;
        case '}':
        case ']':
            if (counting && depth == 2) {
                endItem();
                shape.arrayItems = std::max(shape.arrayItems, items + (itemSeen ? 1 : 0));
                counting = false;
                keyIsTarget = false;
            }
            depth = std::max(0, depth - 1);
            break;
        case ',':
            if (counting && depth == 2) {
                endItem();
                ++items;
                itemSeen = false;
            }
            if (depth == 1)
                keyIsTarget = false;
            break;
        default:
            break;
        }
    }
    return shape;
}

namespace {

// What a byte inside a JSON string asks of the checker (the bytes plainRun stops at).
enum StringByte : std::uint8_t { Plain, Quote, Backslash, Control, NonAscii };
constexpr std::array<std::uint8_t, 256> kStringBytes = [] {
    std::array<std::uint8_t, 256> t{};
    for (int c = 0; c < 0x20; ++c)
        t[std::size_t(c)] = Control;
    for (int c = 0x80; c < 0x100; ++c)
        t[std::size_t(c)] = NonAscii;
    t['"'] = Quote;
    t['\\'] = Backslash;
    return t;
}();

bool isDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool isHex(unsigned char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// The position is passed along in locals and returned (npos = failed, the reason in m_result):
// a position kept in a member is written back to memory before every byte is read, since a
// char read may alias it, which made the loop three times slower. The client runs this on every
// SSE event, so the common case (compact JSON, short keys, ASCII text) is kept short.
class JsonChecker
{
public:
    static constexpr std::size_t npos = std::size_t(-1);

    JsonChecker(std::string_view text, const JsonMembers *members, int maxDepth)
        : m_p(reinterpret_cast<const unsigned char *>(text.data())), m_n(text.size()), m_members(members),
          m_maxDepth(std::clamp(maxDepth, 1, kMaxJsonDepth))
    {
        if (m_members) {
            std::fill(m_members->valueAt.begin(), m_members->valueAt.end(), std::string_view::npos);
            for (const std::string_view name : m_members->names)
                m_nameHashes |= std::uint64_t(1) << keyHash(name);
        }
    }

    std::size_t skipSpace(std::size_t i) const { return space(i); }
    // Takes a resume point at the first resume member's value (the checker's state there).
    void takeResumePoint(JsonResumePoint *point) { m_take = point; }

    // From the start, or from a resume point's value: `objects` and `depth` are the containers
    // open there, and the members found before it are already in m_members.
    JsonCheck run(std::size_t start = 0, std::uint64_t objects = 0, int depth = 0)
    {
        const unsigned char *const p = m_p;
        const std::size_t n = m_n;
        // The open containers are a stack of bits (1 = object), so a depth bomb costs nothing.
        std::size_t i = space(start);
        for (;;) {
            // A value starts at i.
            if (i >= n)
                return fail(i, "a value");
            switch (p[i]) {
            case '{':
            case '[': {
                if (depth == m_maxDepth)
                    return fail(i, "no deeper nesting");
                const bool object = p[i] == '{';
                const std::uint64_t bit = std::uint64_t(1) << depth;
                objects = object ? objects | bit : objects & ~bit;
                ++depth;
                i = space(i + 1);
                if (i < n && p[i] == (object ? '}' : ']')) { // empty
                    ++i;
                    --depth;
                    break;
                }
                if (object && (i = member(i)) == npos)
                    return m_result;
                if (m_atResumeMember) [[unlikely]]
                    keepResumePoint(i, objects, depth);
                continue; // the first value inside
            }
            case '"':
                if ((i = string(i)) == npos)
                    return m_result;
                break;
            case 't':
            case 'f':
            case 'n':
                if ((i = literal(i)) == npos)
                    return m_result;
                break;
            case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
                if ((i = number(i)) == npos)
                    return m_result;
                break;
            default:
                return fail(i, "a value");
            }
            // After a value: the end of the text at depth 0, else a separator or a closing bracket.
            for (;;) {
                i = space(i);
                if (depth == 0)
                    return i == n ? m_result : fail(i, "the end of the text");
                const bool object = (objects >> (depth - 1)) & 1;
                if (i < n && p[i] == ',') {
                    i = space(i + 1);
                    if (object && (i = member(i)) == npos)
                        return m_result;
                    if (m_atResumeMember) [[unlikely]]
                        keepResumePoint(i, objects, depth);
                    break; // the next value
                }
                if (i < n && p[i] == (object ? '}' : ']')) {
                    ++i;
                    --depth;
                    continue;
                }
                return fail(i, object ? "',' or '}'" : "',' or ']'");
            }
        }
    }

private:
    void keepResumePoint(std::size_t at, std::uint64_t objects, int depth)
    {
        m_atResumeMember = false;
        JsonResumePoint *point = m_take;
        m_take = nullptr; // the first resume member only
        if (at == 0 || at > JsonResumePoint::kMaxPrefix)
            return;
        std::memcpy(point->prefix.data(), m_p, at);
        point->offset = at;
        point->objects = objects;
        point->depth = depth;
        point->maxDepth = m_maxDepth;
        point->names = m_members->names.size();
        point->member = m_resumeMember;
        std::copy(m_members->valueAt.begin(), m_members->valueAt.end(), point->valueAt.begin());
    }
    JsonCheck fail(std::size_t at, const char *expected)
    {
        m_result = JsonCheck{false, std::min(at, m_n), expected};
        return m_result;
    }
    std::size_t failAt(std::size_t at, const char *expected)
    {
        fail(at, expected);
        return npos;
    }
    std::size_t space(std::size_t i) const
    {
        // Servers mostly send compact JSON: the first compare usually decides.
        while (i < m_n && m_p[i] <= ' ' && (m_p[i] == ' ' || m_p[i] == '\n' || m_p[i] == '\r' || m_p[i] == '\t'))
            ++i;
        return i;
    }
    std::size_t literal(std::size_t i) // m_p[i] is 't', 'f' or 'n'
    {
        const std::string_view word = m_p[i] == 't' ? "true" : m_p[i] == 'f' ? "false" : "null";
        if (m_n - i < word.size() || std::memcmp(m_p + i, word.data(), word.size()) != 0)
            return failAt(i, "a value");
        return i + word.size();
    }
    // An object member's key and its ':'; returns where the value starts, noting it when the
    // key is one of m_members' names.
    std::size_t member(std::size_t i)
    {
        if (i >= m_n || m_p[i] != '"')
            return failAt(i, "a '\"' opening a key");
        const std::size_t keyAt = i + 1;
        if ((i = string(i)) == npos)
            return npos;
        const std::size_t keyEnd = i - 1;
        i = space(i);
        if (i >= m_n || m_p[i] != ':')
            return failAt(i, "':'");
        i = space(i + 1);
        if (m_members)
            note(std::string_view(reinterpret_cast<const char *>(m_p) + keyAt, keyEnd - keyAt), i);
        return i;
    }
    // A 6-bit hash of a key's length and its first and last letters: one bit test turns most
    // keys of a chunk away before any name is compared.
    static unsigned keyHash(std::string_view key)
    {
        return key.empty() ? 0 : (unsigned(key.size()) + unsigned(static_cast<unsigned char>(key.front())) * 7
                                  + unsigned(static_cast<unsigned char>(key.back())) * 3) & 63;
    }
    void note(std::string_view key, std::size_t valueAt)
    {
        if (!((m_nameHashes >> keyHash(key)) & 1))
            return;
        const auto names = m_members->names;
        for (std::size_t k = 0; k < names.size(); ++k) {
            const std::string_view name = names[k];
            if (name.size() != key.size() || m_members->valueAt[k] != std::string_view::npos)
                continue;
            std::size_t c = 0; // keys are short: a loop here beats a call to memcmp
            while (c < key.size() && name[c] == key[c])
                ++c;
            if (c == key.size()) {
                m_members->valueAt[k] = valueAt;
                if (m_take && ((m_members->resumeNames >> k) & 1)) {
                    m_atResumeMember = true;
                    m_resumeMember = k;
                }
            }
        }
    }
    // Past a run of string bytes that need no look (most of every string): eight at a time,
    // flagging a quote, a backslash, a byte below 0x20 or one from 0x80 (the classic SWAR
    // zero-byte test; a borrow can only flag bytes after the first real hit, which is taken).
    std::size_t plainRun(std::size_t i) const
    {
        constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
        if constexpr (std::endian::native == std::endian::little) {
            while (m_n - i >= 8) {
                std::uint64_t x;
                std::memcpy(&x, m_p + i, 8);
                const std::uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
                const std::uint64_t hits = (((q - ones) & ~q) | ((b - ones) & ~b) | ((x - ones * 0x20) & ~x) | x) & highs;
                if (hits)
                    return i + std::size_t(std::countr_zero(hits)) / 8;
                i += 8;
            }
        }
        while (i < m_n && kStringBytes[m_p[i]] == Plain)
            ++i;
        return i;
    }
    // m_p[i] == '"'; returns the position after the closing quote. Most strings are plain: they
    // end at the first byte that needs a look, and only the others leave the inlined path.
    std::size_t string(std::size_t i)
    {
        i = plainRun(i + 1);
        if (i < m_n && m_p[i] == '"')
            return i + 1;
        return stringRest(i);
    }
    [[gnu::noinline]] std::size_t stringRest(std::size_t i)
    {
        for (;;) {
            if (i >= m_n)
                return failAt(i, "a '\"' closing the string");
            switch (kStringBytes[m_p[i]]) {
            case Quote:
                return i + 1;
            case Backslash:
                if ((i = escape(i)) == npos)
                    return npos;
                break;
            case Control:
                return failAt(i, "no raw control character in a string (it must be escaped)");
            case NonAscii:
                if (const std::size_t len = utf8Length(i); len > 0) {
                    i += len;
                    break;
                }
                return failAt(i, "valid UTF-8");
            default: // Plain: never, plainRun stops only at a byte that needs a look
                ++i;
                break;
            }
            i = plainRun(i);
        }
    }
    std::size_t escape(std::size_t i) // m_p[i] == '\\'
    {
        if (i + 1 < m_n) {
            switch (m_p[i + 1]) {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
                return i + 2;
            case 'u':
                if (m_n - i > 5 && isHex(m_p[i + 2]) && isHex(m_p[i + 3]) && isHex(m_p[i + 4]) && isHex(m_p[i + 5]))
                    return i + 6;
                break;
            default:
                break;
            }
        }
        return failAt(i, "an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and 4 hex digits");
    }
    // The length of the UTF-8 sequence at i (a byte >= 0x80), or 0 when it is not one: no stray
    // continuation byte, overlong form, encoded surrogate or code point past U+10FFFF
    // (RFC 3629, section 4).
    std::size_t utf8Length(std::size_t i) const
    {
        const unsigned c = m_p[i];
        const std::size_t left = m_n - i;
        const auto cont = [&](std::size_t k) { return (m_p[i + k] & 0xC0) == 0x80; };
        if (c >= 0xC2 && c <= 0xDF)
            return left >= 2 && cont(1) ? 2 : 0;
        if (c >= 0xE0 && c <= 0xEF) {
            if (left < 3)
                return 0;
            const unsigned c1 = m_p[i + 1];
            const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
            return c1 >= lo && c1 <= hi && cont(2) ? 3 : 0;
        }
        if (c >= 0xF0 && c <= 0xF4) {
            if (left < 4)
                return 0;
            const unsigned c1 = m_p[i + 1];
            const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
            return c1 >= lo && c1 <= hi && cont(2) && cont(3) ? 4 : 0;
        }
        return 0;
    }
    std::size_t digits(std::size_t i) const
    {
        while (i < m_n && isDigit(m_p[i]))
            ++i;
        return i;
    }
    // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    std::size_t number(std::size_t i)
    {
        if (m_p[i] == '-')
            ++i;
        if (i < m_n && m_p[i] == '0')
            ++i;
        else if (i < m_n && isDigit(m_p[i]))
            i = digits(i);
        else
            return failAt(i, "a digit");
        if (i < m_n && m_p[i] == '.') {
            if (i + 1 >= m_n || !isDigit(m_p[i + 1]))
                return failAt(i + 1, "a digit after '.'");
            i = digits(i + 1);
        }
        if (i < m_n && (m_p[i] == 'e' || m_p[i] == 'E')) {
            ++i;
            if (i < m_n && (m_p[i] == '+' || m_p[i] == '-'))
                ++i;
            if (i >= m_n || !isDigit(m_p[i]))
                return failAt(i, "a digit in the exponent");
            i = digits(i);
        }
        return i;
    }

    const unsigned char *const m_p;
    const std::size_t m_n;
    const JsonMembers *const m_members;
    std::uint64_t m_nameHashes = 0; // bit keyHash(name) set for every name of m_members
    const int m_maxDepth;
    JsonCheck m_result;
    JsonResumePoint *m_take = nullptr; // where to keep a resume point, until one is taken
    bool m_atResumeMember = false;     // note() just found the first resume member
    std::size_t m_resumeMember = 0;    // its index in m_members->names
};

} // namespace

JsonCheck checkJson(std::string_view text, const JsonMembers *members, int maxDepth)
{
    return JsonChecker(text, members, maxDepth).run();
}

JsonCheck checkJson(std::string_view text, const JsonMembers &members, JsonResumePoint &resume, int maxDepth)
{
    JsonChecker checker(text, &members, maxDepth);
    const std::size_t names = members.names.size();
    if (resume.offset > 0 && resume.offset <= text.size() && resume.names == names && names <= JsonResumePoint::kMaxNames
        && resume.maxDepth == std::clamp(maxDepth, 1, kMaxJsonDepth) && std::memcmp(text.data(), resume.prefix.data(), resume.offset) == 0) {
        std::copy_n(resume.valueAt.begin(), names, members.valueAt.begin());
        // The resume member's value starts past any whitespace this text has there.
        const std::size_t start = checker.skipSpace(resume.offset);
        members.valueAt[resume.member] = start;
        return checker.run(start, resume.objects, resume.depth);
    }
    resume.offset = 0;
    if (names <= JsonResumePoint::kMaxNames && members.resumeNames != 0)
        checker.takeResumePoint(&resume);
    return checker.run();
}

} // namespace sb
