#include "load/RecordLine.h"
#include <algorithm>
#include <charconv>
#include <cmath>

namespace sb {

void appendRecordLine(QByteArray &out, const RecordLineInput &in)
{
    const RequestRecord &r = *in.record;
    const std::int64_t base = in.phaseStartNs;
    const auto rel = [base](std::int64_t t) { return t > 0 ? t - base : -1; };
    out += "{\"i\":" + QByteArray::number(r.ticket);
    out += ",\"request_id\":\"" + in.requestId + '"';
    if (!in.origin.isEmpty())
        out += ",\"origin\":\"" + in.origin + '"';
    out += ",\"send_ns\":" + QByteArray::number(rel(r.sendNs));
    if (r.scheduledNs > 0) { // open loop: when it was due, and how long it waited for a free slot
        out += ",\"scheduled_ns\":" + QByteArray::number(r.scheduledNs - base);
        out += ",\"queue_ns\":" + QByteArray::number(std::max<std::int64_t>(0, r.queueNs - r.scheduledNs));
    }
    out += ",\"first_token_ns\":" + QByteArray::number(r.firstTokenNs >= 0 ? rel(r.firstTokenNs) : -1);
    out += ",\"end_ns\":" + QByteArray::number(rel(r.endNs));
    const auto ms = [](double v, int decimals) { return std::isnan(v) ? QByteArray("null") : QByteArray::number(v, 'f', decimals); };
    out += ",\"ttft_ms\":" + ms(r.ttftMs(), 3);
    out += ",\"ttfo_ms\":" + ms(r.ttfoMs(), 3);
    out += ",\"latency_ms\":" + ms(r.latencyMs(), 3);
    out += ",\"itl_ms\":" + ms(r.itlMs(), 4);
    out += ",\"status\":" + QByteArray::number(r.status);
    out += r.ok() ? ",\"ok\":true" : ",\"ok\":false";
    out += ",\"error_kind\":\"" + in.errorKey + '"';
    out += ",\"error\":" + (in.errorJson.isEmpty() ? QByteArray("\"\"") : in.errorJson);
    out += ",\"input_tokens\":" + QByteArray::number(r.inputTokens);
    out += ",\"output_tokens\":" + QByteArray::number(r.outputTokens);
    out += ",\"requested_input_tokens\":" + (r.requestedInputTokens >= 0 ? QByteArray::number(r.requestedInputTokens) : QByteArray("null"));
    out += ",\"requested_output_tokens\":" + (r.requestedOutputTokens >= 0 ? QByteArray::number(r.requestedOutputTokens) : QByteArray("null"));
    out += ",\"cached_tokens\":" + (r.cachedTokens >= 0 ? QByteArray::number(r.cachedTokens) : QByteArray("null"));
    if (r.turn > 0) {
        out += ",\"session_id\":" + QByteArray::number(r.sessionId) + ",\"turn\":" + QByteArray::number(r.turn);
        out += ",\"history_tokens\":" + (r.historyTokens >= 0 ? QByteArray::number(r.historyTokens) : QByteArray("null"));
    }
    if (r.prefix >= 0)
        out += ",\"prefix\":" + QByteArray::number(r.prefix);
    out += r.usageTokens ? ",\"token_source\":\"usage\"" : ",\"token_source\":\"counted\"";
    if (r.reasoningTokens >= 0) { // only answers that thought: null would say nothing more
        out += ",\"reasoning_tokens\":" + QByteArray::number(r.reasoningTokens);
        out += r.usageReasoning ? ",\"reasoning_token_source\":\"usage\"" : ",\"reasoning_token_source\":\"counted\"";
    }
    out += r.resent ? ",\"resent\":true" : ",\"resent\":false";
    if (r.images > 0) { // workload.images: how many, and their files' bytes
        out += ",\"images\":" + QByteArray::number(r.images);
        out += ",\"image_bytes\":" + QByteArray::number(r.imageBytes);
    }
    if (!in.timingsJson.isEmpty())
        out += ",\"timings\":" + in.timingsJson;
    out += ",\"inter_chunk_us\":[";
    char num[16];
    if (in.gapsUs) {
        for (std::size_t i = 0; i < in.gapsUs->size(); ++i) {
            if (i)
                out += ',';
            const auto res = std::to_chars(num, num + sizeof num, (*in.gapsUs)[i]); // no temporary QByteArray per gap
            out.append(num, qsizetype(res.ptr - num));
        }
    }
    out += ']';
    if (in.gapsOmitted > 0) // the list is capped: say how many gaps it leaves out
        out += ",\"inter_chunk_omitted\":" + QByteArray::number(in.gapsOmitted);
    out += "}\n";
}

} // namespace sb
