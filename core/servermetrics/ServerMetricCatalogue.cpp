#include "servermetrics/ServerMetricCatalogue.h"
#include <cmath>

namespace sb {

const std::vector<ServerMetricFamily> &serverMetricFamilies()
{
    using T = MetricType;
    using C = SeriesCombine;
    // Names measured on the real servers (vLLM 0.32 CPU build, llama-server with --metrics) and
    // from SGLang's documentation (--enable-metrics). llama.cpp's *_seconds throughput gauges
    // reset on every read: they are not aggregated (averaging them would average our own reads).
    static const std::vector<ServerMetricFamily> all = {
        {"vllm:",
         "vllm",
         {{"vllm:num_requests_running", T::Gauge, "requests", "running requests", C::Sum},
          {"vllm:num_requests_waiting", T::Gauge, "requests", "waiting requests", C::Sum},
          {"vllm:kv_cache_usage_perc", T::Gauge, "fraction", "KV-cache usage", C::Mean},
          {"vllm:prefix_cache_queries_total", T::Counter, "tokens", "prefix-cache queries", C::Sum},
          {"vllm:prefix_cache_hits_total", T::Counter, "tokens", "prefix-cache hits", C::Sum},
          {"vllm:prompt_tokens_cached_total", T::Counter, "tokens", "cached prompt tokens", C::Sum},
          {"vllm:num_preemptions_total", T::Counter, "requests", "preemptions", C::Sum},
          {"vllm:prompt_tokens_total", T::Counter, "tokens", "prompt tokens", C::Sum},
          {"vllm:generation_tokens_total", T::Counter, "tokens", "generated tokens", C::Sum},
          {"vllm:time_to_first_token_seconds", T::Histogram, "seconds", "server TTFT", C::Sum}},
         {"vllm:prefix_cache_hits_total", "prefix-cache hit tokens"},
         "vllm:time_to_first_token_seconds",
         "vllm:num_requests_running",
         "vllm:num_requests_waiting"},
        {"sglang:",
         "sglang",
         {{"sglang:num_running_reqs", T::Gauge, "requests", "running requests", C::Sum},
          {"sglang:num_queue_reqs", T::Gauge, "requests", "queued requests", C::Sum},
          {"sglang:token_usage", T::Gauge, "fraction", "KV-cache usage", C::Mean},
          {"sglang:cache_hit_rate", T::Gauge, "fraction", "cache hit rate", C::Mean},
          {"sglang:cached_tokens_total", T::Counter, "tokens", "cached tokens", C::Sum},
          {"sglang:prompt_tokens_total", T::Counter, "tokens", "prompt tokens", C::Sum},
          {"sglang:generation_tokens_total", T::Counter, "tokens", "generated tokens", C::Sum},
          {"sglang:time_to_first_token_seconds", T::Histogram, "seconds", "server TTFT", C::Sum}},
         {"sglang:cached_tokens_total", "cached tokens"},
         "sglang:time_to_first_token_seconds",
         "sglang:num_running_reqs",
         "sglang:num_queue_reqs"},
        {"llamacpp:",
         "llamacpp",
         {{"llamacpp:prompt_tokens_total", T::Counter, "tokens", "prompt tokens evaluated", C::Sum},
          {"llamacpp:prompt_tokens_cached_total", T::Counter, "tokens", "cached prompt tokens", C::Sum},
          {"llamacpp:tokens_predicted_total", T::Counter, "tokens", "generated tokens", C::Sum},
          {"llamacpp:n_decode_total", T::Counter, "calls", "decode calls", C::Sum},
          {"llamacpp:requests_processing", T::Gauge, "requests", "processing requests", C::Sum},
          {"llamacpp:requests_deferred", T::Gauge, "requests", "deferred requests", C::Sum},
          {"llamacpp:n_busy_slots_per_decode", T::Gauge, "slots", "busy slots per decode", C::Mean}},
         {"llamacpp:prompt_tokens_cached_total", "cached prompt tokens"},
         nullptr,
         "llamacpp:requests_processing",
         "llamacpp:requests_deferred"},
    };
    return all;
}

QString describeMetricsVerdict(MetricsVerdict verdict, qint64 cachedTokens)
{
    const QString tokens = cachedTokens >= 0 ? QStringLiteral(" (%1 cached tokens)").arg(cachedTokens) : QString();
    switch (verdict) {
    case MetricsVerdict::None: return QString();
    case MetricsVerdict::Confirmed: return QStringLiteral("confirmed by metrics") + tokens;
    case MetricsVerdict::NotConfirmed: return QStringLiteral("NOT confirmed by metrics") + tokens;
    case MetricsVerdict::NoMetrics: return QStringLiteral("no metrics to confirm it");
    }
    return QString();
}

const ServerMetricFamily *detectServerFamily(const MetricsScrape &scrape)
{
    for (const ServerMetricFamily &f : serverMetricFamilies())
        for (const MetricSample &s : scrape.samples)
            if (s.name.startsWith(f.prefix))
                return &f;
    return nullptr;
}

const ServerMetricInfo *findKeyMetric(const ServerMetricFamily &family, const QByteArray &familyName)
{
    for (const ServerMetricInfo &k : family.keys)
        if (familyName == k.name)
            return &k;
    return nullptr;
}

bool isKeySample(const MetricsScrape &scrape, const MetricSample &s)
{
    const QByteArray family = scrape.familyOf(s.name);
    for (const ServerMetricFamily &f : serverMetricFamilies())
        if (s.name.startsWith(f.prefix) && (findKeyMetric(f, family) || findKeyMetric(f, s.name)))
            return true;
    return false;
}

ServerLoad serverLoad(const MetricsScrape &scrape)
{
    // Per family: its running and its waiting gauge (key metrics above).
    ServerLoad load;
    for (const MetricSample &s : scrape.samples) {
        if (!std::isfinite(s.value))
            continue;
        for (const ServerMetricFamily &f : serverMetricFamilies()) {
            double *into = s.name == f.runningGauge ? &load.running : s.name == f.waitingGauge ? &load.waiting : nullptr;
            if (into)
                *into = std::max(*into, 0.0) + s.value;
        }
    }
    return load;
}

ServerLoad ServerLoadSum::add(const QString &origin, const ServerLoad &load)
{
    m_latest.insert(origin, load);
    ServerLoad sum;
    for (const ServerLoad &l : std::as_const(m_latest)) {
        if (l.running >= 0)
            sum.running = std::max(sum.running, 0.0) + l.running;
        if (l.waiting >= 0)
            sum.waiting = std::max(sum.waiting, 0.0) + l.waiting;
    }
    return sum;
}

} // namespace sb
