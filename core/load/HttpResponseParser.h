#pragma once
// Incremental HTTP/1.1 response parser for the benchmark client: status line, headers,
// then a body framed by Content-Length, chunked transfer-encoding, or connection close.
// Body bytes are handed out as they arrive (no buffering), so streaming timestamps stay exact.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sb {

class HttpResponseParser
{
public:
    enum class Result { NeedMore, Complete, Error };

    struct Sink {
        virtual ~Sink() = default;
        virtual void onHeaders(int status) = 0;
        virtual void onBody(const char *p, std::size_t n) = 0;
    };

    void reset();
    // Feeds bytes; stops at the end of one response. *consumed tells how many bytes were used
    // (the rest belongs to the next response on the connection).
    Result feed(const char *p, std::size_t n, Sink &sink, std::size_t *consumed);
    // The peer closed the connection: completes a close-delimited body.
    Result finishOnClose(Sink &sink);

    int status() const { return m_status; }
    bool keepAlive() const { return m_keepAlive; }
    // `Keep-Alive: timeout=T, max=N` of the last response; -1 when not sent.
    int keepAliveMax() const { return m_keepAliveMax; }
    int keepAliveTimeoutS() const { return m_keepAliveTimeoutS; }
    // A Content-Encoding other than identity (we ask for identity): the body cannot be read.
    bool encoded() const { return m_encoded; }
    // The last failure was a size bound (header line or block), not malformed framing.
    bool oversize() const { return m_oversize; }
    bool isEventStream() const { return m_eventStream; }
    const std::string &error() const { return m_error; }
    bool headersDone() const { return m_state > State::Headers; }

private:
    enum class State { StatusLine, Headers, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailers, Done, Failed };
    bool headerLine(std::string_view line, Sink &sink);
    bool fail(const char *why);
    bool failOversize(const char *why);

    State m_state = State::StatusLine;
    std::string m_line;
    int m_status = 0;
    bool m_http10 = false;
    bool m_keepAlive = true;
    bool m_chunked = false;
    bool m_eventStream = false;
    bool m_encoded = false;
    bool m_oversize = false;
    int m_keepAliveMax = -1;
    int m_keepAliveTimeoutS = -1;
    std::size_t m_headerBytes = 0; // of the current header block, bounded
    std::int64_t m_contentLength = -1;
    std::int64_t m_remaining = 0;
    std::string m_error;
};

} // namespace sb
