#pragma once
// Builds the HTTP/1.1 request bytes for one benchmark request. The constant parts (request line,
// headers, JSON around the prompt, filler text) are built once; per request only the unique
// prompt tag and Content-Length change, so building is a few appends.
#include "spec/SweepSpec.h"
#include <QByteArray>
#include <QString>

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
// scheme://host:port with the default port made explicit.
QString originOf(const QString &url);
// The API key for a server: api_key, else the value of api_key_env, else empty.
QString resolveApiKey(const ServerSpec &server);

class RequestFactory
{
public:
    // `uniqueTag` makes prompts unique per sweep and cell (no prefix-cache hits across cells).
    // `fillerChars`: the filler's length in characters found by calibrating against the server's
    // own tokenizer (engine/PromptCalibration); -1 = one word per requested token, a guess that
    // real tokenizers miss by 17 % to 125 %.
    RequestFactory(const ServerSpec &server, const ServerTarget &target, const WorkloadSpec &workload,
                   const QByteArray &uniqueTag, int fillerChars = -1);
    // Whole request (headers + body) for request number `ticket`.
    QByteArray build(int ticket) const;
    // The JSON body alone (for calibration probes sent through the control client).
    QByteArray body(int ticket) const;
    // The X-Request-Id of request number `ticket` (also the prompt's unique tag), so a record can
    // be matched to the server's logs and traces.
    // Fixed width, so that every prompt of a cell tokenizes to the same length.
    QByteArray requestId(int ticket) const { return m_tag + '-' + QByteArray::number(ticket).rightJustified(7, '0'); }
    int promptTokens() const { return m_promptTokens; }

private:
    QByteArray m_head;      // request line + fixed headers, up to "Content-Length: "
    QByteArray m_bodyStart; // JSON up to the prompt's opening quote
    QByteArray m_sharedPrefix;
    QByteArray m_filler;
    QByteArray m_bodyEnd;   // closing quote and the rest of the JSON
    QByteArray m_tag;
    int m_promptTokens = 0;
};

} // namespace sb
