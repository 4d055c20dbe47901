#pragma once
// Incremental Server-Sent Events parser (WHATWG rules that matter for OpenAI streams):
// survives events split across reads at any byte, LF / CRLF / CR line ends, `:` comment and
// keep-alive lines, multi-line `data:` fields (joined with '\n'), and other fields (ignored).
// One event is dispatched per blank line; an event without data is dropped.
// A line or an event's data past its bound stops the parser (overflowed()): a server that never
// sends a newline, or data: lines without a blank line, cannot make it grow without limit.
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace sb {

class SseParser
{
public:
    static constexpr std::size_t kMaxLine = 1024 * 1024;      // one line
    static constexpr std::size_t kMaxEvent = 4 * 1024 * 1024; // one event's joined data

    bool overflowed() const { return m_overflow; }

    // Calls onData(std::string_view data) for every complete event carrying data.
    template <typename OnData>
    void feed(const char *p, std::size_t n, OnData &&onData)
    {
        std::size_t i = 0;
        if (m_overflow)
            return;
        if (m_skipLf && n > 0) { // a CR ended the previous read; a following LF belongs to it
            if (p[0] == '\n')
                i = 1;
            m_skipLf = false;
        }
        while (i < n) {
            // Line end: the first LF or CR. memchr is vectorised; a byte loop here was a third
            // of the client's CPU per streamed request (callgrind).
            const char *lf = static_cast<const char *>(std::memchr(p + i, '\n', n - i));
            const std::size_t lfAt = lf ? std::size_t(lf - p) : n;
            const char *cr = static_cast<const char *>(std::memchr(p + i, '\r', lfAt - i));
            std::size_t end = cr ? std::size_t(cr - p) : lfAt;
            if (end == n) { // incomplete line: keep it for the next read
                if (m_line.size() + (n - i) > kMaxLine) {
                    m_overflow = true;
                    return;
                }
                m_line.append(p + i, n - i);
                break;
            }
            if (m_line.empty()) {
                processLine(std::string_view(p + i, end - i), true, onData);
            } else {
                m_line.append(p + i, end - i);
                processLine(std::string_view(m_line), false, onData);
                m_line.clear();
            }
            if (m_overflow)
                return;
            if (p[end] == '\r') {
                if (end + 1 < n) {
                    if (p[end + 1] == '\n')
                        ++end;
                } else {
                    m_skipLf = true;
                }
            }
            i = end + 1;
        }
        keepData(); // the read's bytes are the caller's only until this returns
    }

    void reset()
    {
        m_line.clear();
        m_data.clear();
        m_view = {};
        m_inView = false;
        m_hasData = false;
        m_skipLf = false;
        m_overflow = false;
    }

private:
    // `inRead`: the line lies in the bytes being fed (not in m_line), so a one-line event's
    // data can be handed on from there without a copy; only an event still open when the read
    // ends is copied (keepData).
    template <typename OnData>
    void processLine(std::string_view line, bool inRead, OnData &&onData)
    {
        if (line.empty()) { // blank line: dispatch
            if (m_hasData)
                onData(m_inView ? m_view : std::string_view(m_data));
            m_data.clear();
            m_view = {};
            m_inView = false;
            m_hasData = false;
            return;
        }
        if (line.front() == ':')
            return; // comment / keep-alive
        std::string_view field = line, value;
        if (const auto colon = line.find(':'); colon != std::string_view::npos) {
            field = line.substr(0, colon);
            value = line.substr(colon + 1);
            if (!value.empty() && value.front() == ' ')
                value.remove_prefix(1);
        }
        if (field != "data")
            return; // event:, id:, retry: carry nothing we measure
        const std::size_t held = m_inView ? m_view.size() : m_data.size();
        if (held + value.size() + 1 > kMaxEvent || line.size() > kMaxLine) {
            m_overflow = true;
            return;
        }
        if (!m_hasData && inRead) {
            m_view = value;
            m_inView = true;
            m_hasData = true;
            return;
        }
        keepData();
        if (m_hasData)
            m_data.push_back('\n');
        m_data.append(value);
        m_hasData = true;
    }

    void keepData()
    {
        if (!m_inView)
            return;
        m_data.assign(m_view);
        m_view = {};
        m_inView = false;
    }

    std::string m_line;  // partial line carried across reads
    std::string m_data;  // data of the event being assembled (when not m_inView)
    std::string_view m_view; // its data while it lies in the read being fed
    bool m_inView = false;
    bool m_hasData = false;
    bool m_skipLf = false;
    bool m_overflow = false;
};

} // namespace sb
