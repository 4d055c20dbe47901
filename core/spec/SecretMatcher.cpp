#include "spec/SecretMatcher.h"
#include <algorithm>
#include <deque>
#include <functional>
#include <string>

namespace sb {

namespace {
using Byte = std::uint8_t;

// Bytes that may start an encoded character: JSON escape, HTML entity, %XX, and the lead bytes
// of the zero-width characters' UTF-8 forms. Every other byte stands for itself.
constexpr bool special(Byte c) { return c == '\\' || c == '&' || c == '%' || c == 0xE2 || c == 0xEF; }

// What the automaton compares: ASCII case and '-'/'_' do not tell one secret from another
// (a Prometheus series name turns '-' into '_').
constexpr Byte fold(Byte c)
{
    if (c >= 'A' && c <= 'Z')
        return Byte(c - 'A' + 'a');
    return c == '_' ? Byte('-') : c;
}

bool isZeroWidth(char32_t cp) { return cp == 0x200B || cp == 0x200C || cp == 0x200D || cp == 0x2060 || cp == 0xFEFF; }

// E2 80 8B..8D (U+200B..U+200D), E2 81 A0 (U+2060), EF BB BF (U+FEFF).
bool isZeroWidthUtf8(Byte a, Byte b, Byte c)
{
    return (a == 0xE2 && b == 0x80 && c >= 0x8B && c <= 0x8D) || (a == 0xE2 && b == 0x81 && c == 0xA0) || (a == 0xEF && b == 0xBB && c == 0xBF);
}

int hexDigit(Byte c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// The value of `count` hex digits at d[p], or -1.
long hexAt(const Byte *d, qsizetype n, qsizetype p, int count)
{
    if (p + count > n)
        return -1;
    long v = 0;
    for (int i = 0; i < count; ++i) {
        const int h = hexDigit(d[p + i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

bool startsWith(const Byte *d, qsizetype n, qsizetype p, const char *s)
{
    for (; *s; ++s, ++p)
        if (p >= n || d[p] != Byte(*s))
            return false;
    return true;
}

bool validCodePoint(long cp) { return cp > 0 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF); }

struct Decoded {
    char32_t cp = 0;
    qsizetype end = 0; // one past the last byte it was decoded from
};

// A JSON escape at d[p] == '\\'. A run of backslashes counts as one: text escaped twice
// ("\\u0041" once a JSON string is put inside another) decodes like text escaped once. A run not
// followed by an escape letter is one literal backslash.
Decoded jsonEscape(const Byte *d, qsizetype n, qsizetype p)
{
    qsizetype q = p;
    while (q < n && d[q] == '\\')
        ++q;
    if (q >= n)
        return {U'\\', q};
    switch (d[q]) {
    case '"': return {U'"', q + 1};
    case '/': return {U'/', q + 1};
    case 'b': return {U'\b', q + 1};
    case 'f': return {U'\f', q + 1};
    case 'n': return {U'\n', q + 1};
    case 'r': return {U'\r', q + 1};
    case 't': return {U'\t', q + 1};
    case 'u': {
        const long u = hexAt(d, n, q + 1, 4);
        if (u < 0)
            break;
        qsizetype end = q + 5;
        if (u >= 0xD800 && u <= 0xDBFF) { // a surrogate pair: \uD83D\uDE00
            qsizetype r = end;
            while (r < n && d[r] == '\\')
                ++r;
            const long low = r > end && r < n && d[r] == 'u' ? hexAt(d, n, r + 1, 4) : -1;
            if (low >= 0xDC00 && low <= 0xDFFF)
                return {char32_t(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)), r + 5};
        }
        return {validCodePoint(u) ? char32_t(u) : U'\uFFFD', end};
    }
    default:
        break;
    }
    return {U'\\', q};
}

// The part of an HTML character reference after '&' at d[p]: "#65;", "#x41;" (the ';' may be
// missing, as browsers allow), "amp;", "lt;", "gt;", "quot;", "apos;". end == 0 when none.
Decoded entityBody(const Byte *d, qsizetype n, qsizetype p)
{
    if (p < n && d[p] == '#') {
        const bool hex = p + 1 < n && (d[p + 1] == 'x' || d[p + 1] == 'X');
        qsizetype q = p + (hex ? 2 : 1);
        long v = 0;
        int digits = 0;
        for (; q < n && digits < 8; ++q, ++digits) {
            const int h = hex ? hexDigit(d[q]) : (d[q] >= '0' && d[q] <= '9' ? d[q] - '0' : -1);
            if (h < 0)
                break;
            v = v * (hex ? 16 : 10) + h;
        }
        if (digits == 0 || !validCodePoint(v))
            return {};
        if (q < n && d[q] == ';')
            ++q;
        return {char32_t(v), q};
    }
    static const struct { const char *name; char32_t cp; } kNamed[] = {
        {"amp;", U'&'}, {"lt;", U'<'}, {"gt;", U'>'}, {"quot;", U'"'}, {"apos;", U'\''}};
    for (const auto &e : kNamed)
        if (startsWith(d, n, p, e.name))
            return {e.cp, p + qsizetype(std::char_traits<char>::length(e.name))};
    return {};
}

// An HTML character reference at d[p] == '&'; "&amp;#65;" (escaped twice) decodes like "&#65;".
Decoded htmlEntity(const Byte *d, qsizetype n, qsizetype p)
{
    qsizetype r = p + 1;
    while (startsWith(d, n, r, "amp;") && entityBody(d, n, r + 4).end > 0)
        r += 4;
    return entityBody(d, n, r);
}

// A %XX at d[p] == '%' (the byte it stands for in cp); "%2541" (escaped twice) decodes like "%41".
Decoded percentByte(const Byte *d, qsizetype n, qsizetype p)
{
    qsizetype q = p + 1;
    while (q + 3 < n && d[q] == '2' && d[q + 1] == '5' && hexDigit(d[q + 2]) >= 0 && hexDigit(d[q + 3]) >= 0)
        q += 2;
    const long v = hexAt(d, n, q, 2);
    return v < 0 ? Decoded{} : Decoded{char32_t(v), q + 2};
}

// Walks `data` once, telling `sink` what it reads:
//  - sink.plain(d, p, n): bytes from p that are not special(); the sink consumes at least one and
//    returns where it stopped (before a special byte, at n, or once it has found enough);
//  - sink.decoded(byte, begin, end): the decoded text as UTF-8 (not folded), each byte with the
//    source range [begin, end) it came from;
//  - sink.raw(byte, begin, end): the source bytes themselves (only zero-width characters
//    dropped), so that a key written plainly is found even where decoding would swallow its
//    first characters ("\\nk-...", "%ab12...");
//  - sink.diverge(begin, end): before an escape at [begin, end), where the two differ;
//  - sink.done(): true once the sink wants no more.
template <typename Sink>
void walk(QByteArrayView data, Sink &sink)
{
    const Byte *d = reinterpret_cast<const Byte *>(data.data());
    const qsizetype n = data.size();
    auto emitCodePoint = [&](char32_t cp, qsizetype begin, qsizetype end) {
        if (isZeroWidth(cp))
            return;
        if (cp < 0x80) {
            sink.decoded(Byte(cp), begin, end);
        } else if (cp < 0x800) {
            sink.decoded(Byte(0xC0 | (cp >> 6)), begin, end);
            sink.decoded(Byte(0x80 | (cp & 0x3F)), begin, end);
        } else if (cp < 0x10000) {
            sink.decoded(Byte(0xE0 | (cp >> 12)), begin, end);
            sink.decoded(Byte(0x80 | ((cp >> 6) & 0x3F)), begin, end);
            sink.decoded(Byte(0x80 | (cp & 0x3F)), begin, end);
        } else {
            sink.decoded(Byte(0xF0 | (cp >> 18)), begin, end);
            sink.decoded(Byte(0x80 | ((cp >> 12) & 0x3F)), begin, end);
            sink.decoded(Byte(0x80 | ((cp >> 6) & 0x3F)), begin, end);
            sink.decoded(Byte(0x80 | (cp & 0x3F)), begin, end);
        }
    };
    auto rawRange = [&](qsizetype from, qsizetype to) {
        for (qsizetype i = from; i < to; ++i)
            sink.raw(d[i], i, i + 1);
    };
    qsizetype p = 0;
    while (p < n && !sink.done()) {
        const Byte c = d[p];
        if (!special(c)) {
            p = sink.plain(d, p, n);
            continue;
        }
        Decoded e;
        if (c == '\\') {
            e = jsonEscape(d, n, p);
        } else if (c == '&') {
            e = htmlEntity(d, n, p);
        } else if (c == '%') {
            e = percentByte(d, n, p);
            // A zero-width character written as three %XX bytes is dropped whole.
            if (e.end > 0 && (e.cp == 0xE2 || e.cp == 0xEF)) {
                const Decoded b = e.end < n && d[e.end] == '%' ? percentByte(d, n, e.end) : Decoded{};
                const Decoded c3 = b.end > 0 && b.end < n && d[b.end] == '%' ? percentByte(d, n, b.end) : Decoded{};
                if (c3.end > 0 && isZeroWidthUtf8(Byte(e.cp), Byte(b.cp), Byte(c3.cp))) {
                    sink.diverge(p, c3.end);
                    rawRange(p, c3.end);
                    p = c3.end;
                    continue;
                }
            }
            if (e.end > 0) { // a byte, not a code point: part of a UTF-8 sequence or ASCII
                sink.diverge(p, e.end);
                sink.decoded(Byte(e.cp), p, e.end);
                rawRange(p, e.end);
                p = e.end;
                continue;
            }
        } else if (p + 2 < n && isZeroWidthUtf8(c, d[p + 1], d[p + 2])) {
            p += 3; // dropped from both: a zero-width split hides nothing
            continue;
        }
        if (e.end == 0) { // not an escape after all: the byte stands for itself
            sink.decoded(c, p, p + 1);
            sink.raw(c, p, p + 1);
            ++p;
            continue;
        }
        sink.diverge(p, e.end);
        emitCodePoint(e.cp, p, e.end);
        rawRange(p, e.end);
        p = e.end;
    }
}

// The decoded bytes of a secret, as walk() would see them in text (not folded).
QByteArray decodedForm(const QByteArray &secret)
{
    struct Collect {
        QByteArray out;
        qsizetype plain(const Byte *d, qsizetype p, qsizetype n)
        {
            for (; p < n && !special(d[p]); ++p)
                out.append(char(d[p]));
            return p;
        }
        void decoded(Byte b, qsizetype, qsizetype) { out.append(char(b)); }
        void raw(Byte, qsizetype, qsizetype) {}
        void diverge(qsizetype, qsizetype) {}
        bool done() const { return false; }
    } collect;
    walk(secret, collect);
    return collect.out;
}

QByteArray folded(const QByteArray &s)
{
    QByteArray out = s;
    for (char &c : out)
        c = char(fold(Byte(c)));
    return out;
}

// The base64 characters that depend on the secret's bytes alone, when it starts `offset` bytes
// into a 3-byte group of a longer base64 string ("Bearer <key>" puts the key at offset 1).
QByteArray base64Core(const QByteArray &secret, int offset, QByteArray::Base64Options alphabet)
{
    const QByteArray encoded = (QByteArray(offset, '\0') + secret).toBase64(alphabet | QByteArray::OmitTrailingEquals);
    // Character i holds bits [6i, 6i + 6); the secret's bits are [8 * offset, 8 * (offset + size)).
    const qsizetype first = (8 * offset + 5) / 6;
    const qsizetype last = (8 * (offset + secret.size()) - 6) / 6; // inclusive
    return last >= first ? encoded.mid(first, last - first + 1) : QByteArray();
}
} // namespace

SecretMatcher::SecretMatcher(const QStringList &secrets)
{
    for (const QString &s : secrets) {
        const QByteArray raw = s.toUtf8();
        if (raw.isEmpty())
            continue;
        addNeedle(folded(raw), raw, false);
        const QByteArray decoded = decodedForm(raw);
        addNeedle(folded(decoded), decoded, false);
        for (const auto alphabet : {QByteArray::Base64Encoding, QByteArray::Base64UrlEncoding})
            for (int offset = 0; offset < 3; ++offset) {
                const QByteArray core = base64Core(raw, offset, alphabet);
                addNeedle(folded(core), core, true);
            }
    }
    build();
}

void SecretMatcher::addNeedle(const QByteArray &normalised, const QByteArray &exact, bool caseSensitive)
{
    if (normalised.isEmpty())
        return;
    for (std::size_t i = 0; i < m_needles.size(); ++i)
        if (m_folded[i] == normalised && (!m_needles[i].caseSensitive || (caseSensitive && m_needles[i].exact == exact)))
            return; // already found by a needle at least as wide
    m_needles.push_back({exact, int(normalised.size()), caseSensitive});
    m_folded.push_back(normalised);
    m_maxLength = std::max(m_maxLength, int(normalised.size()));
}

void SecretMatcher::build()
{
    // Byte classes: one per byte some needle holds, 0 for every other byte. Raw bytes map
    // through fold() first, so the table does the folding too.
    std::uint16_t classOfFolded[256] = {};
    for (const QByteArray &f : m_folded)
        for (const char ch : f)
            if (classOfFolded[Byte(ch)] == 0)
                classOfFolded[Byte(ch)] = std::uint16_t(m_classes++);
    for (int b = 0; b < 256; ++b)
        m_class[b] = classOfFolded[fold(Byte(b))];

    // The trie, then failure links breadth-first, completing the transition table.
    const int k = m_classes;
    m_delta.assign(std::size_t(k), -1);
    m_outputs.assign(1, {});
    for (std::size_t i = 0; i < m_folded.size(); ++i) {
        std::int32_t state = 0;
        for (const char ch : m_folded[i]) {
            std::int32_t &next = m_delta[std::size_t(state) * k + classOfFolded[Byte(ch)]];
            if (next < 0) {
                next = std::int32_t(m_outputs.size());
                m_outputs.emplace_back();
                m_delta.resize(m_delta.size() + std::size_t(k), -1);
            }
            state = m_delta[std::size_t(state) * k + classOfFolded[Byte(ch)]];
        }
        m_outputs[std::size_t(state)].push_back(int(i));
    }
    std::vector<std::int32_t> failure(m_outputs.size(), 0);
    std::deque<std::int32_t> queue;
    for (int c = 0; c < k; ++c) {
        std::int32_t &next = m_delta[std::size_t(c)];
        if (next < 0)
            next = 0;
        else
            queue.push_back(next);
    }
    while (!queue.empty()) {
        const std::int32_t state = queue.front();
        queue.pop_front();
        for (int c = 0; c < k; ++c) {
            const std::size_t at = std::size_t(state) * k + c;
            const std::int32_t viaFailure = m_delta[std::size_t(failure[std::size_t(state)]) * k + c];
            if (m_delta[at] < 0) {
                m_delta[at] = viaFailure;
            } else {
                const std::int32_t next = m_delta[at];
                failure[std::size_t(next)] = viaFailure;
                const std::vector<int> &inherited = m_outputs[std::size_t(viaFailure)];
                m_outputs[std::size_t(next)].insert(m_outputs[std::size_t(next)].end(), inherited.begin(), inherited.end());
                queue.push_back(next);
            }
        }
    }
    m_final.resize(m_outputs.size());
    for (std::size_t s = 0; s < m_outputs.size(); ++s)
        m_final[s] = !m_outputs[s].empty();
    for (int b = 0; b < 256; ++b)
        m_skippable[b] = !special(Byte(b)) && m_delta[m_class[b]] == 0;
}

namespace {
// find()'s side of walk(): the automaton run over two feeds, the decoded text and the raw bytes,
// each with a ring of the last bytes it was given and where each came from, so that a match maps
// back to the source. The raw feed differs from the decoded one only within the longest needle's
// length after an escape: elsewhere it is not run at all (its state would equal the decoded
// feed's, which it copies when the next escape comes).
struct Scan {
    struct Feed {
        std::int32_t state = 0;
        std::size_t count = 0;
        std::vector<Byte> bytes;
        std::vector<qsizetype> begins;
    };
    const std::int32_t *delta;
    const std::uint16_t *classOf;
    const std::uint8_t *isFinal;
    const std::uint8_t *skippable;
    int classes;
    qsizetype maxLength;
    std::size_t mask;
    bool firstOnly;
    // Called with a feed in a final state and the source end of its last byte.
    std::function<void(const Feed &, qsizetype)> matched;

    Feed decodedFeed, rawFeed;
    bool rawActive = false;
    qsizetype rawUntil = 0;
    bool found = false;

    void step(Feed &f, Byte b, qsizetype begin, qsizetype end)
    {
        f.bytes[f.count & mask] = b;
        f.begins[f.count & mask] = begin;
        ++f.count;
        f.state = delta[std::size_t(f.state) * std::size_t(classes) + classOf[b]];
        if (isFinal[f.state])
            matched(f, end);
    }
    qsizetype plain(const Byte *d, qsizetype p, qsizetype n)
    {
        while (p < n && !special(d[p]) && !done()) {
            if (decodedFeed.state == 0 && !rawActive) {
                // At the root nothing before matters: bytes that start no needle are skipped.
                while (p < n && skippable[d[p]])
                    ++p;
                if (p >= n || special(d[p]))
                    break;
            }
            step(decodedFeed, d[p], p, p + 1);
            if (rawActive) {
                step(rawFeed, d[p], p, p + 1);
                rawActive = p + 1 < rawUntil;
            }
            ++p;
        }
        return p;
    }
    void decoded(Byte b, qsizetype begin, qsizetype end) { step(decodedFeed, b, begin, end); }
    void raw(Byte b, qsizetype begin, qsizetype end)
    {
        if (rawActive)
            step(rawFeed, b, begin, end);
    }
    void diverge(qsizetype, qsizetype end)
    {
        if (!rawActive) {
            rawFeed.state = decodedFeed.state;
            rawFeed.count = decodedFeed.count;
            std::copy(decodedFeed.bytes.begin(), decodedFeed.bytes.end(), rawFeed.bytes.begin());
            std::copy(decodedFeed.begins.begin(), decodedFeed.begins.end(), rawFeed.begins.begin());
            rawActive = true;
        }
        rawUntil = end + maxLength;
    }
    bool done() const { return found && firstOnly; }
};
} // namespace

QList<SecretMatcher::Span> SecretMatcher::find(QByteArrayView data, bool firstOnly) const
{
    QList<Span> spans;
    if (m_needles.empty() || data.isEmpty())
        return spans;
    std::size_t ring = 1;
    while (ring < std::size_t(m_maxLength))
        ring <<= 1;
    Scan scan{m_delta.data(), m_class, m_final.data(), m_skippable, m_classes, m_maxLength, ring - 1, firstOnly, {}};
    for (Scan::Feed *f : {&scan.decodedFeed, &scan.rawFeed}) {
        f->bytes.resize(ring);
        f->begins.resize(ring);
    }
    scan.matched = [&](const Scan::Feed &f, qsizetype end) {
        for (const int i : m_outputs[std::size_t(f.state)]) {
            const Needle &nd = m_needles[std::size_t(i)];
            const std::size_t from = f.count - std::size_t(nd.length);
            if (nd.caseSensitive) {
                bool same = true;
                for (int j = 0; j < nd.length && same; ++j)
                    same = f.bytes[(from + std::size_t(j)) & scan.mask] == Byte(nd.exact[j]);
                if (!same)
                    continue;
            }
            spans.append({f.begins[from & scan.mask], end});
            scan.found = true;
            return;
        }
    };
    walk(data, scan);

    // The two feeds report in nearly, not exactly, source order.
    std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) { return a.begin < b.begin; });
    QList<Span> merged;
    for (const Span &s : std::as_const(spans)) {
        if (!merged.isEmpty() && s.begin < merged.back().end)
            merged.back().end = std::max(merged.back().end, s.end);
        else
            merged.append(s);
    }
    return merged;
}

QByteArray SecretMatcher::replace(QByteArray data, const QByteArray &mask, int *count) const
{
    const QList<Span> spans = find(data);
    if (count)
        *count = int(spans.size());
    if (spans.isEmpty())
        return data;
    QByteArray out;
    out.reserve(data.size());
    qsizetype at = 0;
    for (const Span &s : spans) {
        out.append(QByteArrayView(data).sliced(at, s.begin - at));
        out.append(mask);
        at = s.end;
    }
    out.append(QByteArrayView(data).sliced(at));
    return out;
}

} // namespace sb
