#pragma once
// Finds a secret in text whatever form it was written in. A key a server echoes, or a writer
// escapes, rarely stays byte-for-byte the key: JSON writes it with \uXXXX or \/ escapes, HTML with
// &#65; / &#x41; entities, a URL with %XX, an Authorization header as base64 ("Basic", or the
// "Bearer <key>" line base64-encoded whole), a hostile server splits it with zero-width spaces,
// lower-cases it, or names a Prometheus series after it with '-' turned into '_'.
//
// One pass over the bytes decodes as it goes (JSON escapes, HTML entities, %XX, each also when
// escaped again: "\\u0041", "&amp;#65;", "%2541"), drops zero-width characters (U+200B, U+200C,
// U+200D, U+2060, U+FEFF), folds ASCII case and '_' to '-', and runs every needle at once through
// one Aho-Corasick automaton. A match maps back to the bytes it was decoded from, which are what
// gets replaced. Base64 needs no decoding pass: each secret's base64 is precomputed for the three
// byte offsets at which it can start inside a longer base64 string (standard and URL alphabets),
// and those needles are matched with their case intact (base64 is case-sensitive).
//
// SecretSet (spec/SecretSet.h) is the one user: every scrub and the export's final check go
// through it, so both see the same forms.
#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace sb {

class SecretMatcher
{
public:
    SecretMatcher() = default;
    // `secrets` are searched for as given: the caller drops the ones too short to search for.
    explicit SecretMatcher(const QStringList &secrets);

    bool isEmpty() const { return m_needles.empty(); }

    struct Span {
        qsizetype begin = 0; // byte offsets into the searched data, [begin, end)
        qsizetype end = 0;
    };
    // Every place a secret occurs, overlapping ones merged, in order. `firstOnly` stops at the
    // first (a yes/no question).
    QList<Span> find(QByteArrayView data, bool firstOnly = false) const;
    // `data` with each span of find() replaced by `mask`; the number of spans through `count`.
    QByteArray replace(QByteArray data, const QByteArray &mask, int *count) const;

private:
    struct Needle {
        QByteArray exact;     // the decoded bytes, compared as they are when caseSensitive
        int length = 0;       // in normalised bytes
        bool caseSensitive = false;
    };
    void addNeedle(const QByteArray &normalised, const QByteArray &exact, bool caseSensitive);
    void build();

    std::vector<Needle> m_needles;
    std::vector<QByteArray> m_folded; // per needle: the bytes the automaton matches
    // The automaton: m_delta[state * m_classes + m_class[byte]], a complete transition table.
    std::uint16_t m_class[256] = {};
    int m_classes = 1;
    std::vector<std::int32_t> m_delta;
    std::vector<std::vector<int>> m_outputs; // per state: the needles ending there, longest first
    std::vector<std::uint8_t> m_final;       // per state: any needle ends there (the hot loop's test)
    std::uint8_t m_skippable[256] = {};     // plain bytes that keep the root state at the root
    int m_maxLength = 0;
};

} // namespace sb
