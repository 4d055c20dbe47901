#pragma once
// Passes over JSON text that build nothing:
//  - scanJsonShape counts what a parse would build: a document tree costs 6-8 times its text
//    for number-heavy files (a 256 MB, 100k-cell results.json took 1.5 GB to parse), so the caps
//    of io/ReadLimits.h are checked before the parse;
//  - checkJson says whether text is JSON at all, where a parser would be too slow: the
//    benchmark client checks every SSE event with it, hundreds of thousands a second.
#include <QByteArrayView>
#include <QtGlobal>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sb {

struct JsonShape {
    qsizetype values = 0;     // every value at any depth (objects, arrays, strings, numbers, ...)
    qsizetype arrayItems = 0; // items of the largest top-level `key: [...]` array (0 if none)
    // The item of that array holding the most values (itself and everything inside it), and
    // its position: a results.json cell with 2 million time slices is one such item.
    qsizetype largestItemValues = 0;
    qsizetype largestItemIndex = -1;
};

// Scans `json` (which need not be valid: the parser judges that afterwards). `arrayKey` names a
// member of the top-level object whose array items are counted, e.g. "cells"; a key repeated
// in the document counts by its largest array.
JsonShape scanJsonShape(QByteArrayView json, QByteArrayView arrayKey = {});

// Containers nested deeper than this are refused: an OpenAI chunk nests about 7 deep, and a
// "[[[[..." bomb must not cost a stack frame, or memory, per level. 64 is also the most the
// checker's one-word container stack holds.
inline constexpr int kMaxJsonDepth = 64;

struct JsonCheck {
    bool ok = true;
    std::size_t offset = 0;     // of the first byte that is not JSON (text.size() when it ended early)
    const char *expected = "";  // what a parser wanted there, e.g. "',' or '}'"
};

// Where some members' values start, found by checkJson in its one pass: the client reads the
// few fields of a chunk this way instead of searching the text again for each. For each name,
// valueAt gets the position of the value of the first member so named, at any depth, or npos.
// Names are compared as written (a key spelled with escapes matches nothing).
struct JsonMembers {
    std::span<const std::string_view> names;
    std::span<std::size_t> valueAt; // as many as names
    // Bit k set: the value of the first member named names[k] is where a JsonResumePoint may
    // resume (the part of an event that changes from one event to the next, e.g. "content").
    std::uint64_t resumeNames = 0;
};

// What checkJson knew at the value of the first resume member of the last text it checked in
// full: that text's bytes up to there, the open containers and the members found before it.
// The state of a one-pass check at a position depends only on the bytes before it, so a text
// that begins with the same bytes is checked from there on alone, with the same result as a
// check from the start. A server's events differ mostly in their content string: the client
// keeps one point per connection and checks the repeated ~90 % of each event with one memcmp.
struct JsonResumePoint {
    static constexpr std::size_t kMaxPrefix = 256; // longer prefixes are not kept
    static constexpr std::size_t kMaxNames = 16;
    std::size_t offset = 0; // 0 = no point yet
    std::uint64_t objects = 0;
    int depth = 0;
    int maxDepth = 0;
    std::size_t names = 0;  // JsonMembers::names.size() the point was taken with
    std::size_t member = 0; // the index of the resume member (its value may start after spaces)
    std::array<std::size_t, kMaxNames> valueAt{};
    std::array<char, kMaxPrefix> prefix{}; // last: a check reads only its first `offset` bytes
};

// Whether `text` is exactly one JSON value (RFC 8259, surrounding whitespace allowed): strings
// closed, with valid escapes (an escaped lone surrogate is grammatical and accepted), no raw
// control characters and valid UTF-8; numbers in JSON's grammar; literals spelled out; nothing
// after the value; containers at most `maxDepth` (<= kMaxJsonDepth) deep. One pass, no
// allocation. `members`, when given, is filled on the way (valid only when the check is ok).
JsonCheck checkJson(std::string_view text, const JsonMembers *members = nullptr, int maxDepth = kMaxJsonDepth);
// The same check, resuming from `resume` when `text` begins with its prefix (same members and
// depth), else from the start, taking a new point on the way (with members whose resumeNames
// are set). The result and the members found are exactly checkJson's.
JsonCheck checkJson(std::string_view text, const JsonMembers &members, JsonResumePoint &resume, int maxDepth = kMaxJsonDepth);

} // namespace sb
