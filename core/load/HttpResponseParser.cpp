#include "load/HttpResponseParser.h"
#include <algorithm>
#include <cstring>

namespace sb {

namespace {
// HTTP's case-insensitive tokens are ASCII: no locale, and no library call per character
// (std::tolower was 1.4 % of the client's CPU at 35 k streamed answers per second).
constexpr char asciiLower(char c) { return c >= 'A' && c <= 'Z' ? char(c + ('a' - 'A')) : c; }
bool iequals(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (asciiLower(a[i]) != asciiLower(b[i]))
            return false;
    return true;
}
bool icontains(std::string_view hay, std::string_view needle)
{
    if (needle.size() > hay.size())
        return false;
    for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i)
        if (iequals(hay.substr(i, needle.size()), needle))
            return true;
    return false;
}
std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}
// Bounds on what a server controls before the body (docs/ARCHITECTURE.md §13): a header
// line, a whole header block (100-continue blocks included), and the digits of a length.
constexpr std::size_t kMaxLine = 64 * 1024;
constexpr std::size_t kMaxHeaderBlock = 256 * 1024;
constexpr int kMaxLengthDigits = 15; // 10^15 bytes: far beyond any answer, far below int64 overflow

// `timeout=5, max=100` -> the value of one parameter, or -1.
int keepAliveParam(std::string_view value, std::string_view name)
{
    for (std::size_t i = 0; i + name.size() < value.size(); ++i) {
        if (!iequals(value.substr(i, name.size()), name) || value[i + name.size()] != '=')
            continue;
        if (i > 0 && value[i - 1] != ' ' && value[i - 1] != ',' && value[i - 1] != '\t')
            continue;
        int v = 0;
        int digits = 0;
        for (std::size_t k = i + name.size() + 1; k < value.size() && value[k] >= '0' && value[k] <= '9' && digits < 9; ++k, ++digits)
            v = v * 10 + (value[k] - '0');
        return digits > 0 ? v : -1;
    }
    return -1;
}
} // namespace

void HttpResponseParser::reset()
{
    *this = HttpResponseParser();
}

bool HttpResponseParser::fail(const char *why)
{
    m_state = State::Failed;
    m_error = why;
    return false;
}

bool HttpResponseParser::failOversize(const char *why)
{
    m_oversize = true;
    return fail(why);
}

bool HttpResponseParser::headerLine(std::string_view line, Sink &sink)
{
    if (line.empty()) { // end of headers
        if (m_status / 100 == 1) { // 100 Continue etc.: another header block follows
            m_state = State::StatusLine;
            return true;
        }
        sink.onHeaders(m_status);
        if (m_status == 204 || m_status == 304) {
            m_state = State::Done;
        } else if (m_chunked) {
            m_state = State::ChunkSize;
        } else if (m_contentLength >= 0) {
            m_remaining = m_contentLength;
            m_state = m_remaining == 0 ? State::Done : State::Body;
        } else {
            m_keepAlive = false; // body runs until the server closes
            m_remaining = -1;
            m_state = State::Body;
        }
        return true;
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos)
        return fail("malformed header line");
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "content-length")) {
        if (value.empty())
            return fail("bad Content-Length");
        if (value.size() > std::size_t(kMaxLengthDigits))
            return failOversize("Content-Length too large");
        std::int64_t v = 0;
        for (char c : value) {
            if (c < '0' || c > '9')
                return fail("bad Content-Length");
            v = v * 10 + (c - '0');
        }
        // Two different lengths are a request-smuggling shape; the body's end is unknowable.
        if (m_contentLength >= 0 && m_contentLength != v)
            return fail("conflicting Content-Length headers");
        m_contentLength = v;
    } else if (iequals(name, "transfer-encoding")) {
        m_chunked = icontains(value, "chunked");
    } else if (iequals(name, "connection")) {
        if (icontains(value, "close"))
            m_keepAlive = false;
        else if (icontains(value, "keep-alive"))
            m_keepAlive = true;
    } else if (iequals(name, "keep-alive")) {
        m_keepAliveMax = keepAliveParam(value, "max");
        m_keepAliveTimeoutS = keepAliveParam(value, "timeout");
    } else if (iequals(name, "content-encoding")) {
        m_encoded = !value.empty() && !iequals(value, "identity");
    } else if (iequals(name, "content-type")) {
        m_eventStream = icontains(value, "text/event-stream");
    }
    return true;
}

HttpResponseParser::Result HttpResponseParser::feed(const char *p, std::size_t n, Sink &sink, std::size_t *consumed)
{
    std::size_t i = 0;
    auto takeLine = [&](std::string_view *out) -> bool {
        const void *nl = std::memchr(p + i, '\n', n - i);
        if (!nl) {
            m_line.append(p + i, n - i);
            i = n;
            if (m_line.size() > kMaxLine)
                failOversize("line too long");
            return false;
        }
        const std::size_t end = static_cast<const char *>(nl) - p;
        std::string_view line;
        if (m_line.empty()) {
            line = std::string_view(p + i, end - i);
        } else {
            m_line.append(p + i, end - i);
            line = m_line;
        }
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        *out = line;
        i = end + 1;
        return true;
    };

    while (i < n || m_state == State::Done) {
        switch (m_state) {
        case State::StatusLine: {
            std::string_view line;
            if (!takeLine(&line))
                break;
            if (line.empty()) { // tolerate stray CRLF between responses
                m_line.clear();
                continue;
            }
            m_headerBytes += line.size() + 2;
            if (m_headerBytes > kMaxHeaderBlock) {
                failOversize("header block too large");
                break;
            }
            if (line.size() < 12 || line.substr(0, 5) != "HTTP/") {
                fail("malformed status line");
                break;
            }
            m_http10 = line.substr(5, 3) == "1.0";
            m_keepAlive = !m_http10;
            m_status = 0;
            for (std::size_t k = 9; k < 12; ++k) {
                if (line[k] < '0' || line[k] > '9') {
                    fail("malformed status code");
                    break;
                }
                m_status = m_status * 10 + (line[k] - '0');
            }
            m_line.clear();
            if (m_state != State::Failed)
                m_state = State::Headers;
            continue;
        }
        case State::Headers: {
            std::string_view line;
            if (!takeLine(&line))
                break;
            m_headerBytes += line.size() + 2;
            if (m_headerBytes > kMaxHeaderBlock) {
                failOversize("header block too large");
                break;
            }
            const bool ok = headerLine(line, sink);
            m_line.clear();
            if (!ok)
                break;
            continue;
        }
        case State::Body: {
            std::size_t take = n - i;
            if (m_remaining >= 0)
                take = std::min<std::size_t>(take, static_cast<std::size_t>(m_remaining));
            if (take > 0)
                sink.onBody(p + i, take);
            i += take;
            if (m_remaining >= 0) {
                m_remaining -= static_cast<std::int64_t>(take);
                if (m_remaining == 0)
                    m_state = State::Done;
            }
            continue;
        }
        case State::ChunkSize: {
            std::string_view line;
            if (!takeLine(&line))
                break;
            std::int64_t size = 0;
            int digits = 0;
            for (char c : line) {
                int d;
                if (c >= '0' && c <= '9') d = c - '0';
                else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
                else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
                else break; // chunk extensions (;name=value) follow
                if (++digits > 12) // 2^48 bytes in one chunk: no answer is that big, and no overflow
                    break;
                size = size * 16 + d;
            }
            m_line.clear();
            if (digits > 12) {
                failOversize("chunk size too large");
                break;
            }
            if (digits == 0) {
                fail("malformed chunk size");
                break;
            }
            m_remaining = size;
            m_state = size == 0 ? State::Trailers : State::ChunkData;
            continue;
        }
        case State::ChunkData: {
            const std::size_t take = std::min<std::size_t>(n - i, static_cast<std::size_t>(m_remaining));
            sink.onBody(p + i, take);
            i += take;
            m_remaining -= static_cast<std::int64_t>(take);
            if (m_remaining == 0)
                m_state = State::ChunkDataEnd;
            continue;
        }
        case State::ChunkDataEnd: {
            std::string_view line;
            if (!takeLine(&line))
                break;
            m_line.clear();
            if (!line.empty()) {
                fail("missing CRLF after chunk");
                break;
            }
            m_state = State::ChunkSize;
            continue;
        }
        case State::Trailers: {
            std::string_view line;
            if (!takeLine(&line))
                break;
            m_headerBytes += line.size() + 2; // trailers share the header block's bound
            if (m_headerBytes > kMaxHeaderBlock) {
                failOversize("trailers too large");
                break;
            }
            const bool end = line.empty();
            m_line.clear();
            if (end)
                m_state = State::Done;
            continue;
        }
        case State::Done:
            *consumed = i;
            return Result::Complete;
        case State::Failed:
            break;
        }
        if (m_state == State::Failed)
            break;
    }
    *consumed = i;
    if (m_state == State::Failed)
        return Result::Error;
    return m_state == State::Done ? Result::Complete : Result::NeedMore;
}

HttpResponseParser::Result HttpResponseParser::finishOnClose(Sink &)
{
    if (m_state == State::Body && m_remaining < 0) {
        m_state = State::Done;
        return Result::Complete;
    }
    if (m_state == State::Done)
        return Result::Complete;
    fail("connection closed before the response was complete");
    return Result::Error;
}

} // namespace sb
