#pragma once
// Builds the HTTP/1.1 request bytes for one benchmark request. The constant parts (request line,
// headers, JSON around the prompt, filler text) are built once; per request only the unique
// prompt tag and Content-Length change, so building is a few appends.
#include "spec/SweepSpec.h"
#include "workload/WorkloadPlan.h"
#include <QByteArray>
#include <QString>
#include <memory>
#include <vector>

namespace sb {

struct ServerTarget {
    QString host;
    quint16 port = 0;
    bool tls = false;
    QByteArray path;       // e.g. /v1/chat/completions
    QString origin;        // scheme://host:port
};

// Resolves the OpenAI route for a server base URL: ".../v1" + "/chat/completions", otherwise
// "/v1/chat/completions" appended to the base path.
ServerTarget resolveTarget(const QString &baseUrl, Endpoint endpoint);

class RequestFactory
{
public:
    // `uniqueTag` makes prompts unique per sweep and cell (no prefix-cache hits across cells).
    // `fillerChars`: the filler's length in characters found by calibrating against the server's
    // own tokenizer (engine/PromptCalibration); -1 = one word per requested token, a guess that
    // real tokenizers miss by 17 % to 125 %. At most maxFillerChars(input_tokens) is used.
    RequestFactory(const ServerSpec &server, const ServerTarget &target, const WorkloadSpec &workload,
                   const QByteArray &uniqueTag, int fillerChars = -1);
    // Per-request lengths, filler and dataset entries (workload/WorkloadPlan); without a plan
    // every request asks for input_tokens with `fillerChars` and max_tokens output_tokens.
    // `warmup`: the warmup phase's draws and entries, never the measured phase's.
    void usePlan(std::shared_ptr<const WorkloadPlan> plan, bool warmup);
    // What request number `ticket` asks for (its requested lengths go into its record).
    RequestShape shape(int ticket) const;
    // What it asks for as turn `turn` of session `session` (later turns:
    // sessions.follow_up_tokens; a dataset read as sessions: that conversation's turn).
    RequestShape turnShape(int ticket, std::int64_t session, int turn) const;
    // A dataset read as sessions: the turns of session `session` (0 = the workload's own
    // sessions.turns), whether its turns carry the earlier ones as messages (a mooncake turn
    // is the whole prompt the trace gives: its hash_ids repeat the earlier turns' blocks), and
    // the tokens of those repeated blocks a prefix cache can serve (-1 = count the history).
    int datasetTurns(std::int64_t session) const;
    bool sendsHistory() const;
    int repeatedTokens(std::int64_t session, int turn) const;
    // Whole request (headers + body) for request number `ticket`.
    QByteArray build(int ticket) const;
    // The JSON body alone (for calibration probes sent through the control client).
    QByteArray body(int ticket) const;
    // Which of the workload's shared prefixes request (or session) number `id` uses: a seeded
    // draw, the same on every cell and server; -1 without shared prefixes.
    int prefixFor(std::int64_t id) const;
    int prefixCount() const { return int(m_sharedPrefixes.size()); }
    // A shared prefix's length in tokens as sent: shared_prefix_tokens when calibrated (then
    // exact to a token or two), else the words sent (one token each only on large vocabularies).
    int prefixTokens() const { return m_prefixWords; }
    bool prefixCalibrated() const { return m_prefixChars > 0; }
    // Turn `turn` (1-based) of a chat session: `history` holds the earlier turns' messages as
    // JSON objects joined by commas (empty for turn 1), and the new user message, which turn 1
    // opens with the session's shared prefix `prefix` (-1 none) and closes with the workload's
    // images (later turns re-send them in the history, as a chat client does), is returned in
    // *userMessage so the caller can add it and the answer to the history. A dataset session's
    // turn sends its entry's message (ShareGPT) or its whole trace prompt (mooncake, no history).
    // The session id travels in the workload's session header when one is set.
    QByteArray buildTurn(int ticket, std::int64_t session, int turn, int prefix, const QByteArray &history, QByteArray *userMessage) const;
    // The X-Request-Id of request number `ticket`, so a record can be matched to the server's
    // logs and traces (the prompt's digits hold the tag's hash, which tokenizes alike whatever the tag).
    QByteArray requestId(int ticket) const { return m_tag + '-' + QByteArray::number(ticket).rightJustified(7, '0'); }
    int promptTokens() const { return m_promptTokens; }

private:
    // The synthetic prompt's text (shared prefix, unique lead, filler) for one request.
    QByteArray syntheticText(int ticket, const RequestShape &s, int prefix) const;
    QByteArray assemble(const QByteArray &prompt, const RequestShape &s) const; // the body around a prompt value
    QByteArray withHead(int ticket, const QByteArray &body, const QByteArray &extraHeaders) const;
    // A mooncake entry's prompt: one block of text per hash_id, identical for equal ids.
    QByteArray blockText(const RequestShape &s) const;
    QByteArray filler(const RequestShape &s, bool withPrefix) const;
    void growFiller(int chars, int words);

    QByteArray m_head;      // request line + fixed headers, up to "Content-Length: "
    // The JSON body around two slots, the prompt value and max_tokens' number, in body order:
    // m_body[0] slot m_body[1] slot m_body[2].
    QByteArray m_body[3];
    bool m_maxTokensFirst = false;
    bool m_chat = true;
    std::vector<QByteArray> m_sharedPrefixes; // prompts: shared_prefix, shared_prefix_count of them
    QByteArray m_sessionHeader;               // "NAME: " of workload.sessions.session_header, or empty
    std::uint64_t m_seed = 0;
    QByteArray m_filler;     // a word sequence long enough for the longest prompt
    std::vector<int> m_wordEnds; // m_filler's offset after k words (uncalibrated prompts are k words)
    int m_fixedFiller = -1;  // fillerChars of the constructor (no plan)
    int m_prefixWords = 0;
    int m_prefixChars = 0;   // calibrated prefixes' length in characters; 0 = prefixes are words
    int m_outputTokens = 0;
    int m_followUpTokens = 0; // workload.sessions.follow_up_tokens
    std::shared_ptr<const WorkloadPlan> m_plan;
    bool m_warmup = false;
    QByteArray m_tag;
    std::uint64_t m_offset = 0; // of the request-number scramble, from the tag's hash
    int m_promptTokens = 0;
};

} // namespace sb
