#include "load/RequestFactory.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
// Words for synthetic prompts: common English words so real tokenizers give ~1 token each.
const char *const kWords[] = {"time", "year", "people", "way", "day", "man", "thing", "woman", "life", "child",
                              "world", "school", "state", "family", "student", "group", "country", "problem",
                              "hand", "part", "place", "case", "week", "company", "system", "program", "question",
                              "work", "number", "night", "point", "home", "water", "room", "mother", "area"};
constexpr int kWordCount = int(sizeof(kWords) / sizeof(kWords[0]));

// FNV-1a: the digits a tag gives are the same on every platform and Qt version.
std::uint64_t tagHash(const QByteArray &tag)
{
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : tag)
        h = (h ^ std::uint8_t(c)) * 1099511628211ull;
    return h;
}

// A prompt's lead: the kLeadDigits decimal digits of a number below kLeadRange (leading zeros
// kept), each followed by a space: "d d d d d d d d d d ".
constexpr int kLeadDigits = 10;
constexpr std::uint64_t kLeadRange = 10'000'000'000u;
void appendLead(QByteArray &out, std::uint64_t number)
{
    char lead[2 * kLeadDigits];
    for (int k = kLeadDigits - 1; k >= 0; --k, number /= 10) {
        lead[2 * k] = char('0' + number % 10);
        lead[2 * k + 1] = ' ';
    }
    out.append(lead, sizeof lead);
}

QByteArray words(int count, int seed)
{
    QByteArray out;
    out.reserve(count * 7);
    for (int i = 0; i < count; ++i) {
        out += kWords[(i * 7 + seed) % kWordCount];
        out += ' ';
    }
    return out;
}
} // namespace

ServerTarget resolveTarget(const QString &baseUrl, Endpoint endpoint)
{
    const QUrl u(baseUrl);
    ServerTarget t;
    t.tls = u.scheme() == QLatin1String("https");
    t.host = u.host();
    t.port = quint16(u.port(t.tls ? 443 : 80));
    t.origin = originOf(baseUrl);
    QString base = u.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    if (!base.endsWith(QLatin1String("/v1")))
        base += QStringLiteral("/v1");
    base += endpoint == Endpoint::Chat ? QStringLiteral("/chat/completions") : QStringLiteral("/completions");
    t.path = base.toUtf8();
    return t;
}

RequestFactory::RequestFactory(const ServerSpec &server, const ServerTarget &target, const WorkloadSpec &w,
                               const QByteArray &uniqueTag, int fillerChars)
    : m_chat(server.endpoint == Endpoint::Chat), m_fixedFiller(std::min(fillerChars, maxFillerChars(w.inputTokens))),
      m_outputTokens(w.outputTokens), m_tag(uniqueTag),
      m_offset(tagHash(uniqueTag) % kLeadRange)
{
    // Body: build the JSON once with markers for the prompt value and max_tokens, then split
    // around them; per request only the two slots are filled.
    static const QString kMarker = QStringLiteral("@@PROMPT@@");
    static const QByteArray kMaxTokensMarker = "1999999937";
    QJsonObject body{{QStringLiteral("model"), server.model}, {QStringLiteral("max_tokens"), 1999999937}};
    body.insert(m_chat ? QStringLiteral("messages") : QStringLiteral("prompt"), kMarker);
    if (w.ignoreEos)
        body.insert(QStringLiteral("ignore_eos"), true);
    if (w.streaming) {
        body.insert(QStringLiteral("stream"), true);
        body.insert(QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}});
    }
    const QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact);
    const QByteArray promptSlot = '"' + kMarker.toUtf8() + '"';
    const qsizetype p = json.indexOf(promptSlot), m = json.indexOf(kMaxTokensMarker);
    m_maxTokensFirst = m < p;
    const qsizetype first = std::min(p, m), second = std::max(p, m);
    const qsizetype firstLen = m_maxTokensFirst ? kMaxTokensMarker.size() : promptSlot.size();
    const qsizetype secondLen = m_maxTokensFirst ? promptSlot.size() : kMaxTokensMarker.size();
    m_body[0] = json.left(first);
    m_body[1] = json.mid(first + firstLen, second - first - firstLen);
    m_body[2] = json.mid(second + secondLen);

    const bool shared = w.prompts == PromptMode::SharedPrefix;
    m_prefixWords = shared ? std::min(w.sharedPrefixTokens, w.inputTokens - 1) : 0;
    m_seed = std::uint64_t(w.seed);
    if (shared) {
        // One prefix keeps the text it always had (calibrations and results stay comparable);
        // several differ from their first two words on (36² pairs), so no two share a cacheable
        // block, and are otherwise alike in length and words.
        const int count = std::clamp(w.sharedPrefixCount, 1, kMaxSharedPrefixes);
        for (int k = 0; k < count; ++k) {
            if (count == 1) {
                m_sharedPrefixes.push_back(words(m_prefixWords, 3));
                continue;
            }
            const int lead = std::min(m_prefixWords, 2);
            QByteArray p;
            if (lead >= 1)
                p += QByteArray(kWords[k % kWordCount]) + ' ';
            if (lead >= 2)
                p += QByteArray(kWords[(k / kWordCount) % kWordCount]) + ' ';
            p += words(m_prefixWords - lead, 3);
            m_sharedPrefixes.push_back(p);
        }
    }
    if (w.sessions)
        m_followUpTokens = w.sessions->followUpTokens;
    if (w.sessions && !w.sessions->header.isEmpty())
        m_sessionHeader = w.sessions->header.toLatin1() + ": ";
    // Calibrated: the filler is the same word sequence cut at the character count the server's
    // tokenizer turned into the requested length (about 6 characters per word covers any
    // tokenizer with at least one character per token), never past maxFillerChars of the
    // requested length whatever a calibration said. Not calibrated: one word per token, the
    // unique lead counting as one.
    growFiller(std::max(0, m_fixedFiller), std::max(0, std::max(w.inputTokens, m_followUpTokens) - 1));
    m_promptTokens = w.inputTokens;

    m_head = "POST " + target.path + " HTTP/1.1\r\nHost: " + target.host.toUtf8() + ':' + QByteArray::number(target.port) +
             "\r\nContent-Type: application/json\r\nAccept: " +
             (w.streaming ? QByteArray("text/event-stream") : QByteArray("application/json")) +
             "\r\nAccept-Encoding: identity\r\nConnection: keep-alive\r\nUser-Agent: sweepbench/" SWEEPBENCH_VERSION "\r\n";
    const QString key = resolveApiKey(server);
    if (!key.isEmpty())
        m_head += "Authorization: Bearer " + key.toUtf8() + "\r\n";
    for (const auto &[name, value] : server.headers)
        m_head += name.toUtf8() + ": " + value.toUtf8() + "\r\n";
}

void RequestFactory::growFiller(int chars, int wordCount)
{
    const int needWords = std::max(wordCount, chars / 4 + 2);
    if (int(m_wordEnds.size()) > needWords)
        return;
    m_filler = words(needWords, 11);
    m_wordEnds.assign(std::size_t(needWords) + 1, 0);
    int k = 0;
    for (qsizetype i = 0; i < m_filler.size(); ++i)
        if (m_filler.at(i) == ' ')
            m_wordEnds[std::size_t(++k)] = int(i + 1);
}

void RequestFactory::usePlan(std::shared_ptr<const WorkloadPlan> plan, bool warmup)
{
    m_plan = std::move(plan);
    m_warmup = warmup;
    if (!m_plan)
        return;
    // One buffer for the longest prompt of the plan, built here, not per request.
    const int longest = std::max(m_plan->maxInputTokens(), m_followUpTokens);
    growFiller(std::max(0, m_plan->fill().charsFor(longest)), std::max(0, longest - 1));
    // Calibrated prompts: the shared prefixes get the length in characters that the server's
    // tokenizer turns into shared_prefix_tokens (words alone were 2.25 tokens each on a small
    // BPE vocabulary), and the filler gives those characters up, so the whole prompt keeps its
    // calibrated length (calibration probes carry no prefix: engine/PromptCalibration).
    const FillerMap &fill = m_plan->fill();
    if (fill.calibrated() && fill.charsPerToken() > 0 && m_prefixWords > 0) {
        m_prefixChars = std::max(1, int(std::lround(m_prefixWords * fill.charsPerToken())));
        for (QByteArray &p : m_sharedPrefixes) {
            QByteArray longer = p;
            for (int seed = 5; longer.size() < m_prefixChars; seed += 2)
                longer += words(m_prefixWords + 2, seed);
            p = longer.left(m_prefixChars);
            if (p.endsWith(' ') || p.size() < 2) // the unique lead follows a space-free end
                continue;
            p[p.size() - 1] = ' ';
        }
    }
}

RequestShape RequestFactory::shape(int ticket) const
{
    if (m_plan)
        return m_plan->at(ticket, m_warmup);
    RequestShape s;
    s.inputTokens = m_promptTokens;
    s.outputTokens = m_outputTokens;
    s.fillerChars = m_fixedFiller;
    return s;
}

int RequestFactory::datasetTurns(std::int64_t session) const
{
    return m_plan ? m_plan->sessionTurns(session, m_warmup) : 0;
}

bool RequestFactory::sendsHistory() const
{
    return !(m_plan && m_plan->dataset() && m_plan->dataset()->format == DatasetFormat::Mooncake && !m_plan->dataset()->sessions.empty());
}

int RequestFactory::repeatedTokens(std::int64_t session, int turn) const
{
    if (sendsHistory() || turn <= 1)
        return -1;
    // The trace's own account of the cache: the leading blocks this turn shares with the last.
    const Dataset &d = *m_plan->dataset();
    const DatasetEntry &before = d.turnEntry(session, turn - 1, m_warmup), &now = d.turnEntry(session, turn, m_warmup);
    std::size_t k = 0;
    while (k < before.hashIds.size() && k < now.hashIds.size() && before.hashIds[k] == now.hashIds[k])
        ++k;
    return int(std::min<std::int64_t>(std::int64_t(k) * d.blockTokens, now.inputTokens));
}

RequestShape RequestFactory::turnShape(int ticket, std::int64_t session, int turn) const
{
    if (m_plan && m_plan->sessionTurns(session, m_warmup) > 0)
        return m_plan->atTurn(ticket, session, turn, m_warmup);
    RequestShape s = shape(ticket);
    if (turn <= 1 || m_followUpTokens <= 0)
        return s;
    s.inputTokens = m_followUpTokens;
    s.fillerChars = m_plan && m_plan->fill().calibrated() ? m_plan->fill().charsFor(m_followUpTokens) : -1;
    return s;
}

QByteArray RequestFactory::filler(const RequestShape &s, bool withPrefix) const
{
    if (s.fillerChars >= 0) // a calibrated prefix's characters come out of the filler
        return m_filler.left(std::max(0, s.fillerChars - (withPrefix ? m_prefixChars : 0)));
    const int n = std::clamp(s.inputTokens - 1 - (withPrefix ? m_prefixWords : 0), 0, int(m_wordEnds.size()) - 1);
    return n > 0 ? m_filler.left(m_wordEnds[std::size_t(n)] - 1) : QByteArray(); // no trailing space
}

int RequestFactory::prefixFor(std::int64_t id) const
{
    if (m_sharedPrefixes.empty())
        return -1;
    if (m_sharedPrefixes.size() == 1)
        return 0;
    LengthDistribution pick;
    pick.kind = LengthKind::Uniform;
    pick.min = 0;
    pick.max = int(m_sharedPrefixes.size()) - 1;
    return pick.sample(m_seed, kPrefixStream, id);
}

QByteArray RequestFactory::syntheticText(int ticket, const RequestShape &s, int prefix) const
{
    // The request number, scrambled into 10 digits with the cell's tag, leads the unique part:
    // prompts of one cell then differ from their first character after the template, so they
    // share no prefix a server could cache. Its digits are spaced apart, and the tag is in them
    // rather than sent as it is: spaced digits tokenize alike whatever their values on real
    // tokenizers, which hold " 0" to " 9" or split every digit (BPE merges runs of digits
    // differently per value: ISL 256 +- 2 on a real vLLM), so calibration holds for every
    // request, every cell and every later run (the tests' toy 2048-entry BPE lacks " 9": a token
    // or two per prompt). The tag as it was, 13 random letters and digits, tokenized to 15-22
    // tokens on the real llama-server, and a calibration reused by a later run missed its
    // target by up to 4. ticket * A + B mod 10^10 with A coprime to 10 is a bijection (tickets
    // are below 2^31 < 10^10, and ticket * A stays below 2^64): no two requests of a phase
    // collide. B from the tag makes each cell's (and its warmup's) sequence its own: two cells of
    // N requests share a prompt with a probability of about 2N / 10^10.
    const std::uint64_t scrambled = (std::uint64_t(ticket) * 7393913373u + m_offset) % kLeadRange;
    const QByteArray fill = filler(s, prefix >= 0);
    static const QByteArray kNone;
    const QByteArray &shared = prefix >= 0 && prefix < int(m_sharedPrefixes.size()) ? m_sharedPrefixes[std::size_t(prefix)] : kNone;
    QByteArray text;
    text.reserve(shared.size() + 2 * kLeadDigits + fill.size());
    text += shared;
    appendLead(text, scrambled);
    text += fill;
    return text;
}

QByteArray RequestFactory::blockText(const RequestShape &s) const
{
    // A mooncake request: input_length tokens in blocks of block_tokens, one per hash_id. Equal
    // ids give equal text (shared prefixes, so the trace's cache reuse is reproduced); the
    // cell's tag leads the first block, so no cell reuses another's. Full blocks have the
    // calibrated size of block_tokens; the last takes the rest of the calibrated total.
    const DatasetEntry &e = *s.entry;
    const int block = m_plan->dataset()->blockTokens;
    const FillerMap &fill = m_plan->fill();
    const double perToken = fill.calibrated() ? fill.charsPerToken() : 6.0; // ~6 characters a word
    // Calibration sized the filler after a synthetic prompt's lead: the same total in
    // characters, here in blocks. The lead has a synthetic prompt's shape so the calibrated
    // mapping fits; its number is the tag's alone, so requests of a cell can share blocks after it.
    QByteArray text;
    appendLead(text, m_offset);
    const qsizetype total = fill.calibrated() ? fill.charsFor(e.inputTokens) + text.size() : qsizetype(6) * e.inputTokens;
    const qsizetype perBlock = std::max<qsizetype>(1, std::llround(perToken * block));
    const qsizetype blocks = (e.inputTokens + block - 1) / block;
    for (qsizetype i = 0; i < blocks && text.size() < total; ++i) {
        // Blocks past the trace's list are this entry's own ('~', never equal to a listed id's).
        const bool listed = i < qsizetype(e.hashIds.size());
        const quint64 id = listed ? e.hashIds[std::size_t(i)] : quint64(e.line) * 100003u + quint64(i);
        QByteArray b = (listed ? '#' : '~') + QByteArray::number(id) + ' ';
        const int seed = int(id % 36u);
        const qsizetype want = i + 1 < blocks ? perBlock : total - text.size();
        while (b.size() < want)
            b += words(int(want / 4 + 2), seed);
        text += b.left(std::max<qsizetype>(0, want));
    }
    return text;
}

QByteArray RequestFactory::body(int ticket) const
{
    const RequestShape s = shape(ticket);
    QByteArray prompt; // the JSON value of `messages` (chat) or `prompt` (completions)
    if (s.entry && !s.entry->messagesJson.isEmpty())
        prompt = m_chat ? s.entry->messagesJson : s.entry->promptTextJson();
    else if (s.entry && !s.entry->textJson.isEmpty())
        prompt = m_chat ? "[{\"content\":" + s.entry->textJson + ",\"role\":\"user\"}]" : s.entry->textJson;
    else {
        // Synthetic and mooncake text needs no JSON escaping: digits, ASCII words, the tag.
        const QByteArray text = s.entry ? blockText(s) : syntheticText(ticket, s, prefixFor(ticket));
        const ImagePool *images = m_plan && m_chat ? m_plan->images() : nullptr;
        if (images) // the content becomes parts: the text, then the images (workload.images)
            prompt = "[{\"content\":" + images->content('"' + text + '"', ticket, m_warmup) + ",\"role\":\"user\"}]";
        else
            prompt = m_chat ? "[{\"content\":\"" + text + "\",\"role\":\"user\"}]" : '"' + text + '"';
    }
    return assemble(prompt, s);
}

QByteArray RequestFactory::assemble(const QByteArray &prompt, const RequestShape &s) const
{
    const QByteArray maxTokens = QByteArray::number(s.outputTokens);
    QByteArray body;
    body.reserve(m_body[0].size() + m_body[1].size() + m_body[2].size() + prompt.size() + maxTokens.size());
    body += m_body[0];
    body += m_maxTokensFirst ? maxTokens : prompt;
    body += m_body[1];
    body += m_maxTokensFirst ? prompt : maxTokens;
    body += m_body[2];
    return body;
}

QByteArray RequestFactory::build(int ticket) const
{
    return withHead(ticket, body(ticket), QByteArray());
}

QByteArray RequestFactory::withHead(int ticket, const QByteArray &body, const QByteArray &extraHeaders) const
{
    QByteArray req;
    req.reserve(m_head.size() + extraHeaders.size() + body.size() + 96);
    req += m_head;
    req += extraHeaders;
    req += "X-Request-Id: " + requestId(ticket) + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
    req += body;
    return req;
}

QByteArray RequestFactory::buildTurn(int ticket, std::int64_t session, int turn, int prefix, const QByteArray &history,
                                     QByteArray *userMessage) const
{
    const RequestShape s = turnShape(ticket, session, turn);
    const bool withHistory = sendsHistory();
    QByteArray content;
    if (s.entry && !s.entry->textJson.isEmpty()) // a ShareGPT turn: the user's own message
        content = s.entry->textJson;
    else if (s.entry) // a mooncake turn: the trace's whole prompt, earlier turns' blocks and all
        content = '"' + blockText(s) + '"';
    else {
        // Synthetic text needs no JSON escaping (digits, ASCII words, the tag); the shared
        // prefix, like an agent's system prompt, opens the session and stays in its history, and
        // so do turn 1's images.
        content = '"' + syntheticText(ticket, s, turn == 1 ? prefix : -1) + '"';
        if (const ImagePool *images = m_plan ? m_plan->images() : nullptr; images && turn == 1)
            content = images->content(content, ticket, m_warmup);
    }
    *userMessage = "{\"content\":" + content + ",\"role\":\"user\"}";
    QByteArray messages;
    messages.reserve(history.size() + userMessage->size() + 3);
    messages += '[';
    if (withHistory && !history.isEmpty()) {
        messages += history;
        messages += ',';
    }
    messages += *userMessage;
    messages += ']';
    QByteArray extra;
    if (!m_sessionHeader.isEmpty())
        extra = m_sessionHeader + m_tag + "-s" + QByteArray::number(session) + "\r\n";
    return withHead(ticket, assemble(messages, s), extra);
}

} // namespace sb
