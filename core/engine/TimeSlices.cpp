#include "engine/TimeSlices.h"
#include "metrics/Stats.h"
#include <QJsonObject>
#include <algorithm>
#include <cmath>

namespace sb {

std::vector<TimeSlice> computeTimeSlices(const std::vector<RequestRecord> &records, double sliceS)
{
    std::int64_t first = 0, last = 0;
    for (const RequestRecord &r : records) {
        if (r.sendNs <= 0)
            continue;
        first = first ? std::min(first, r.sendNs) : r.sendNs;
        last = std::max(last, std::max(r.endNs, r.sendNs));
    }
    if (!first || !(sliceS > 0))
        return {};
    const double spanS = double(last - first) / 1e9;
    if (spanS / sliceS > kMaxTimeSlices)
        sliceS = std::ceil(spanS / kMaxTimeSlices);
    const std::int64_t sliceNs = std::int64_t(sliceS * 1e9);
    const std::size_t count = std::size_t((last - first) / sliceNs) + 1;
    std::vector<TimeSlice> slices(count);
    std::vector<std::vector<double>> ttfts(count);
    for (std::size_t i = 0; i < count; ++i) {
        slices[i].startS = double(i) * sliceS;
        slices[i].lengthS = sliceS;
    }
    const auto sliceOf = [&](std::int64_t t) { return std::min(count - 1, std::size_t((t - first) / sliceNs)); };
    for (const RequestRecord &r : records) {
        if (r.sendNs <= 0)
            continue;
        const std::size_t s = sliceOf(r.sendNs);
        ++slices[s].sent;
        if (r.ok() && r.firstTokenNs >= r.sendNs)
            ttfts[s].push_back(double(r.firstTokenNs - r.sendNs) / 1e6);
        const std::size_t e = sliceOf(std::max(r.endNs, r.sendNs));
        if (r.ok()) {
            ++slices[e].completed;
            slices[e].outputTokens += r.outputTokens;
        } else if (r.error != ErrorKind::Cancelled) {
            ++slices[e].failed;
        }
        // In flight from send to end: its share of each slice it overlaps.
        const std::int64_t end = std::max(r.endNs, r.sendNs);
        for (std::size_t k = s; k <= e; ++k) {
            const std::int64_t lo = std::max(r.sendNs, first + std::int64_t(k) * sliceNs);
            const std::int64_t hi = std::min(end, first + std::int64_t(k + 1) * sliceNs);
            if (hi > lo)
                slices[k].meanInFlight += double(hi - lo) / double(sliceNs);
        }
    }
    for (std::size_t i = 0; i < count; ++i) {
        std::sort(ttfts[i].begin(), ttfts[i].end());
        if (!ttfts[i].empty()) {
            slices[i].ttftP50Ms = percentileSorted(ttfts[i], 50);
            slices[i].ttftP99Ms = percentileSorted(ttfts[i], 99);
        }
    }
    // The last slice ends at the last response: its in-flight mean is over what it covers.
    const double lastLen = double(last - first) / 1e9 - slices.back().startS;
    if (lastLen > 0 && lastLen < sliceS)
        slices.back().meanInFlight *= sliceS / lastLen, slices.back().lengthS = lastLen;
    return slices;
}

QJsonArray timeSlicesJson(const std::vector<TimeSlice> &slices)
{
    QJsonArray out;
    for (const TimeSlice &s : slices) {
        const auto ms = [](double v) { return v >= 0 ? QJsonValue(v) : QJsonValue(QJsonValue::Null); };
        out.append(QJsonObject{{QStringLiteral("t_s"), s.startS},
                               {QStringLiteral("length_s"), s.lengthS},
                               {QStringLiteral("sent"), s.sent},
                               {QStringLiteral("completed"), s.completed},
                               {QStringLiteral("failed"), s.failed},
                               {QStringLiteral("output_tokens"), qint64(s.outputTokens)},
                               {QStringLiteral("output_token_throughput"), sliceThroughput(s)},
                               {QStringLiteral("mean_in_flight"), s.meanInFlight},
                               {QStringLiteral("ttft_p50_ms"), ms(s.ttftP50Ms)},
                               {QStringLiteral("ttft_p99_ms"), ms(s.ttftP99Ms)}});
    }
    return out;
}

std::vector<TimeSlice> timeSlicesFromJson(const QJsonArray &json)
{
    std::vector<TimeSlice> out;
    out.reserve(std::size_t(json.size()));
    for (const QJsonValue &v : json) {
        const QJsonObject o = v.toObject();
        TimeSlice s;
        s.startS = o.value(QStringLiteral("t_s")).toDouble();
        s.lengthS = o.value(QStringLiteral("length_s")).toDouble();
        s.sent = o.value(QStringLiteral("sent")).toInt();
        s.completed = o.value(QStringLiteral("completed")).toInt();
        s.failed = o.value(QStringLiteral("failed")).toInt();
        s.outputTokens = o.value(QStringLiteral("output_tokens")).toInteger();
        s.meanInFlight = o.value(QStringLiteral("mean_in_flight")).toDouble();
        s.ttftP50Ms = o.value(QStringLiteral("ttft_p50_ms")).toDouble(-1); // null: nothing streamed in the slice
        s.ttftP99Ms = o.value(QStringLiteral("ttft_p99_ms")).toDouble(-1);
        out.push_back(s);
    }
    return out;
}

} // namespace sb
