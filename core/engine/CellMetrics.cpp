#include "engine/CellMetrics.h"
#include "metrics/MetricCatalogue.h"
#include "metrics/Stats.h"
#include <algorithm>
#include <cmath>
#include <limits>

namespace sb {

namespace {
bool meetsSlo(const RequestRecord &r, const SloSpec &slo, bool streaming)
{
    if (slo.latencyMs && r.latencyMs() > *slo.latencyMs)
        return false;
    if (streaming && slo.ttftMs) {
        if (r.firstTokenNs < 0 || r.ttftMs() > *slo.ttftMs)
            return false;
    }
    if (streaming && slo.itlMs) {
        const double itl = r.itlMs();
        if (!std::isnan(itl) && itl > *slo.itlMs)
            return false;
    }
    return true;
}

// Max and time-weighted mean of requests in flight, from their [send, end] intervals; and the
// mean over the steady span, where ramp-up (before the C-th send) and drain (after the last
// send) cannot pull it down, so a value below C means the client failed to keep C in flight.
void inFlightStats(const std::vector<RequestRecord> &records, double durationNs, int concurrency, CellMetricsOutput &out)
{
    std::vector<std::pair<std::int64_t, int>> events;
    events.reserve(records.size() * 2);
    double busyNs = 0;
    for (const auto &r : records) {
        if (r.sendNs <= 0)
            continue;
        events.emplace_back(r.sendNs, +1);
        events.emplace_back(r.endNs, -1);
        busyNs += double(r.endNs - r.sendNs);
    }
    // ends sort before sends at the same instant: a slot handed on is not two in flight
    std::sort(events.begin(), events.end());
    int cur = 0;
    for (const auto &e : events) {
        cur += e.second;
        out.maxInFlight = std::max(out.maxInFlight, cur);
    }
    out.meanInFlight = durationNs > 0 ? busyNs / durationNs : 0;

    std::vector<std::int64_t> sends;
    sends.reserve(events.size() / 2);
    for (const auto &e : events)
        if (e.second > 0)
            sends.push_back(e.first);
    if (concurrency < 1 || int(sends.size()) <= concurrency)
        return;
    const std::int64_t from = sends[std::size_t(concurrency - 1)], to = sends.back();
    if (to <= from)
        return;
    double area = 0;
    cur = 0;
    std::int64_t prev = from;
    for (const auto &e : events) {
        const std::int64_t t = std::clamp(e.first, from, to);
        area += double(cur) * double(t - prev);
        prev = t;
        cur += e.second;
    }
    out.steadyMeanInFlight = area / double(to - from);
}
} // namespace

CellMetricsOutput computeCellMetrics(const CellMetricsInput &in)
{
    CellMetricsOutput out;
    const auto &records = *in.records;
    std::vector<double> ttft, ttfo, itl, latency, osl, isl, requestedIsl, requestedOsl, reasoning;
    bool reasoned = false; // some answer carried reasoning: the cell gets TTFO and reasoning tokens
    std::vector<double> images, imageBytes; // workload.images, when the requests carried some
    std::int64_t firstSend = std::numeric_limits<std::int64_t>::max(), lastEnd = 0;
    double outputTokens = 0;
    int good = 0, usage = 0, counted = 0;
    for (const auto &r : records) {
        if (r.sendNs > 0) {
            firstSend = std::min(firstSend, r.sendNs);
            lastEnd = std::max(lastEnd, r.endNs);
        }
        if (!r.ok()) {
            if (r.error != ErrorKind::Cancelled)
                ++out.failed;
            continue;
        }
        ++out.completed;
        latency.push_back(r.latencyMs());
        osl.push_back(r.outputTokens);
        if (r.inputTokens >= 0)
            isl.push_back(r.inputTokens);
        if (r.requestedInputTokens >= 0) // the same requests' asked-for lengths, to set beside the measured
            requestedIsl.push_back(r.requestedInputTokens);
        if (r.requestedOutputTokens >= 0)
            requestedOsl.push_back(r.requestedOutputTokens);
        outputTokens += r.outputTokens;
        reasoned = reasoned || r.reasoningTokens > 0;
        reasoning.push_back(std::max(r.reasoningTokens, 0));
        if (r.images > 0) {
            images.push_back(r.images);
            imageBytes.push_back(double(r.imageBytes));
        }
        (r.usageTokens ? usage : counted) += 1;
        if (in.streaming && r.firstTokenNs >= 0) {
            ttft.push_back(r.ttftMs());
            if (r.firstOutputNs >= 0) // an answer that was all thinking has no TTFO
                ttfo.push_back(r.ttfoMs());
            const double v = r.itlMs();
            if (!std::isnan(v))
                itl.push_back(v);
        }
        if (in.slo.any() && meetsSlo(r, in.slo, in.streaming))
            ++good;
    }
    const double durationNs = lastEnd > firstSend ? double(lastEnd - firstSend) : 0;
    out.durationS = durationNs / 1e9;
    inFlightStats(records, durationNs, in.concurrency, out);
    out.tokenSource = usage && counted ? TokenSource::Mixed : usage ? TokenSource::Usage : counted ? TokenSource::Counted : TokenSource::None;

    if (in.streaming) {
        out.metrics.insert(tag::ttft, computeStats(ttft, unit::ms));
        if (reasoned) // without reasoning TTFO is TTFT: not stored twice
            out.metrics.insert(tag::ttfo, computeStats(ttfo, unit::ms));
        out.metrics.insert(tag::itl, computeStats(itl, unit::ms));
        if (in.interChunkUs)
            out.metrics.insert(tag::interChunk, statsFromHistogramMs(*in.interChunkUs));
    }
    out.metrics.insert(tag::latency, computeStats(latency, unit::ms));
    out.metrics.insert(tag::outputLength, computeStats(osl, unit::tokens));
    out.metrics.insert(tag::inputLength, computeStats(isl, unit::tokens));
    if (reasoned)
        out.metrics.insert(tag::reasoningTokens, computeStats(reasoning, unit::tokens));
    if (!images.empty()) {
        out.metrics.insert(tag::imageCount, computeStats(images, unit::images));
        out.metrics.insert(tag::imageBytes, computeStats(imageBytes, unit::bytes));
    }
    if (!requestedIsl.empty())
        out.metrics.insert(tag::requestedInputLength, computeStats(requestedIsl, unit::tokens));
    if (!requestedOsl.empty())
        out.metrics.insert(tag::requestedOutputLength, computeStats(requestedOsl, unit::tokens));
    const double seconds = out.durationS;
    out.metrics.insert(tag::outputThroughput,
                       singleValue(seconds > 0 ? outputTokens / seconds : 0, unit::tokensPerS));
    out.metrics.insert(tag::requestThroughput,
                       singleValue(seconds > 0 ? out.completed / seconds : 0, unit::requestsPerS));
    if (in.slo.any()) {
        out.metrics.insert(tag::goodput, singleValue(seconds > 0 ? good / seconds : 0, unit::requestsPerS));
        out.metrics.insert(tag::goodFraction,
                           singleValue(out.completed ? double(good) / out.completed : 0, unit::fraction));
    }
    return out;
}

} // namespace sb
