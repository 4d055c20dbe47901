#include "engine/TimeSlices.h"
#include "metrics/Stats.h"
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

} // namespace sb
