#include "load/RecordLine.h"
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

namespace sb {

namespace {

// Writes the line into one reused buffer and appends it to the output once: this runs once per
// request on the IO thread, and building it from QByteArray temporaries (a literal joined to
// QByteArray::number, ~25 allocations a line) was 14 % of the client's CPU against a fast
// server; QByteArray::append per piece still cost 3 %.
class LineWriter
{
public:
    explicit LineWriter(std::string &buf) : m_buf(buf) { m_buf.clear(); }
    LineWriter &raw(std::string_view s)
    {
        m_buf.append(s);
        return *this;
    }
    LineWriter &bytes(const QByteArray &s)
    {
        m_buf.append(s.constData(), std::size_t(s.size()));
        return *this;
    }
    LineWriter &integer(std::int64_t v)
    {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        m_buf.append(buf, std::size_t(r.ptr - buf));
        return *this;
    }
    // `decimals` places, rounded as QByteArray::number(v, 'f', decimals) does (exactly); NaN is null.
    LineWriter &fixed(double v, int decimals)
    {
        if (std::isnan(v))
            return raw("null");
        char buf[64];
        const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
        if (r.ec != std::errc()) // beyond 64 characters: no time a request can take
            return raw("null");
        m_buf.append(buf, std::size_t(r.ptr - buf));
        return *this;
    }
    LineWriter &orNull(std::int64_t v) { return v >= 0 ? integer(v) : raw("null"); }
    LineWriter &boolean(bool v) { return raw(v ? std::string_view("true") : std::string_view("false")); }

private:
    std::string &m_buf;
};

} // namespace

void appendRecordLine(QByteArray &out, const RecordLineInput &in)
{
    const RequestRecord &r = *in.record;
    const std::int64_t base = in.phaseStartNs;
    const auto rel = [base](std::int64_t t) { return t > 0 ? t - base : -1; };
    const std::size_t gaps = in.gapsUs ? in.gapsUs->size() : 0;
    thread_local std::string line; // keeps its capacity from line to line
    LineWriter w(line);
    w.raw("{\"i\":").integer(r.ticket);
    w.raw(",\"request_id\":\"").bytes(in.requestId).raw("\"");
    if (!in.origin.isEmpty())
        w.raw(",\"origin\":\"").bytes(in.origin).raw("\"");
    w.raw(",\"send_ns\":").integer(rel(r.sendNs));
    if (r.scheduledNs > 0) { // open loop: when it was due, and how long it waited for a free slot
        w.raw(",\"scheduled_ns\":").integer(r.scheduledNs - base);
        w.raw(",\"queue_ns\":").integer(std::max<std::int64_t>(0, r.queueNs - r.scheduledNs));
    }
    w.raw(",\"first_token_ns\":").integer(r.firstTokenNs >= 0 ? rel(r.firstTokenNs) : -1);
    w.raw(",\"end_ns\":").integer(rel(r.endNs));
    w.raw(",\"ttft_ms\":").fixed(r.ttftMs(), 3);
    w.raw(",\"ttfo_ms\":").fixed(r.ttfoMs(), 3);
    w.raw(",\"latency_ms\":").fixed(r.latencyMs(), 3);
    w.raw(",\"itl_ms\":").fixed(r.itlMs(), 4);
    w.raw(",\"status\":").integer(r.status);
    w.raw(",\"ok\":").boolean(r.ok());
    w.raw(",\"error_kind\":\"").bytes(in.errorKey).raw("\"");
    w.raw(",\"error\":");
    if (in.errorJson.isEmpty())
        w.raw("\"\"");
    else
        w.bytes(in.errorJson);
    w.raw(",\"input_tokens\":").integer(r.inputTokens);
    w.raw(",\"output_tokens\":").integer(r.outputTokens);
    w.raw(",\"requested_input_tokens\":").orNull(r.requestedInputTokens);
    w.raw(",\"requested_output_tokens\":").orNull(r.requestedOutputTokens);
    w.raw(",\"cached_tokens\":").orNull(r.cachedTokens);
    if (r.turn > 0) {
        w.raw(",\"session_id\":").integer(r.sessionId).raw(",\"turn\":").integer(r.turn);
        w.raw(",\"history_tokens\":").orNull(r.historyTokens);
    }
    if (r.prefix >= 0)
        w.raw(",\"prefix\":").integer(r.prefix);
    w.raw(r.usageTokens ? std::string_view(",\"token_source\":\"usage\"") : std::string_view(",\"token_source\":\"counted\""));
    if (r.reasoningTokens >= 0) { // only answers that thought: null would say nothing more
        w.raw(",\"reasoning_tokens\":").integer(r.reasoningTokens);
        w.raw(r.usageReasoning ? std::string_view(",\"reasoning_token_source\":\"usage\"")
                               : std::string_view(",\"reasoning_token_source\":\"counted\""));
    }
    w.raw(",\"resent\":").boolean(r.resent);
    if (r.images > 0) { // workload.images: how many, and their files' bytes
        w.raw(",\"images\":").integer(r.images);
        w.raw(",\"image_bytes\":").integer(r.imageBytes);
    }
    if (!in.timingsJson.isEmpty())
        w.raw(",\"timings\":").bytes(in.timingsJson);
    w.raw(",\"inter_chunk_us\":[");
    for (std::size_t i = 0; i < gaps; ++i) {
        if (i)
            w.raw(",");
        w.integer((*in.gapsUs)[i]);
    }
    w.raw("]");
    if (in.gapsOmitted > 0) // the list is capped: say how many gaps it leaves out
        w.raw(",\"inter_chunk_omitted\":").integer(in.gapsOmitted);
    w.raw("}\n");
    out.append(line.data(), qsizetype(line.size()));
}

} // namespace sb
