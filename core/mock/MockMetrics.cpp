#include "mock/MockMetrics.h"
#include "mock/MockScheduler.h"
#include "servermetrics/PrometheusText.h"

namespace sb {

void MockMetrics::onPrefill(int promptTokens, int cachedTokens)
{
    m_promptTokens += promptTokens;
    m_cachedTokens += cachedTokens;
    m_requests += 1;
}

void MockMetrics::onFirstToken(double ttftS)
{
    ++m_ttftCount;
    m_ttftSum += ttftS;
    for (std::size_t i = 0; i < kTtftBuckets.size(); ++i)
        if (ttftS <= kTtftBuckets[i]) {
            ++m_ttftBuckets[i];
            return;
        }
}

namespace {
struct Writer {
    QByteArray out;
    QByteArray labels;
    void family(const char *name, const char *type, const char *help)
    {
        out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n';
    }
    void sample(const QByteArray &name, double v, const QByteArray &extra = {})
    {
        QByteArray l = labels;
        if (!extra.isEmpty())
            l = l.isEmpty() ? extra : l + ',' + extra;
        out += name + (l.isEmpty() ? QByteArray() : '{' + l + '}') + ' ' + formatMetricValue(v) + '\n';
    }
};
} // namespace

int MockMetrics::answer(const MockConfig &cfg, const MockScheduler &s, QByteArray *contentType, QByteArray *body)
{
    const double usage = cfg.cacheBlocks > 0 ? double(s.cachedBlocks()) / cfg.cacheBlocks : 0;
    if (cfg.flavor == Flavor::Trtllm) {
        *contentType = "application/json";
        *body = R"([{"iter":)" + QByteArray::number(s.stepsDone()) + R"(,"numActiveRequests":)" + QByteArray::number(s.running())
                + R"(,"numQueuedRequests":)" + QByteArray::number(s.waiting()) + R"(,"kvCacheStats":{"usedNumBlocks":)"
                + QByteArray::number(s.cachedBlocks()) + R"(,"maxNumBlocks":)" + QByteArray::number(cfg.cacheBlocks)
                + R"(,"cacheHitRate":)" + formatMetricValue(m_promptTokens > 0 ? m_cachedTokens / m_promptTokens : 0) + "}}]";
        return 200;
    }
    if (cfg.flavor == Flavor::Llamacpp && !cfg.metrics) {
        *contentType = "application/json";
        *body = R"({"error":{"code":501,"message":"This server does not support metrics endpoint. Start it with `--metrics`","type":"not_supported_error"}})";
        return 501;
    }
    *contentType = "text/plain; version=0.0.4; charset=utf-8";
    Writer w;
    auto histogram = [&](const char *name, const char *help) {
        w.family(name, "histogram", help);
        double cumulative = 0;
        for (std::size_t i = 0; i < kTtftBuckets.size(); ++i) {
            cumulative += m_ttftBuckets[i];
            w.sample(QByteArray(name) + "_bucket", cumulative, "le=\"" + formatMetricValue(kTtftBuckets[i]) + '"');
        }
        w.sample(QByteArray(name) + "_bucket", m_ttftCount, "le=\"+Inf\"");
        w.sample(QByteArray(name) + "_count", m_ttftCount);
        w.sample(QByteArray(name) + "_sum", m_ttftSum);
    };
    if (cfg.flavor == Flavor::Llamacpp) {
        // Real llama-server: prompt_tokens_total counts evaluated tokens only, cached ones apart.
        const qint64 now = MockServer::nowNs();
        const double seconds = m_lastReadNs > 0 ? double(now - m_lastReadNs) / 1e9 : 0;
        const double evaluated = m_promptTokens - m_cachedTokens;
        w.family("llamacpp:prompt_tokens_total", "counter", "Number of prompt tokens processed.");
        w.sample("llamacpp:prompt_tokens_total", evaluated);
        w.family("llamacpp:prompt_seconds_total", "counter", "Prompt process time");
        w.sample("llamacpp:prompt_seconds_total", evaluated * cfg.prefillPerTokenMs / 1000);
        w.family("llamacpp:tokens_predicted_total", "counter", "Number of generation tokens processed.");
        w.sample("llamacpp:tokens_predicted_total", m_generated);
        w.family("llamacpp:prompt_tokens_cached_total", "counter", "Number of prompt tokens served from the cache.");
        w.sample("llamacpp:prompt_tokens_cached_total", m_cachedTokens);
        w.family("llamacpp:n_decode_total", "counter", "Total number of llama_decode() calls");
        w.sample("llamacpp:n_decode_total", double(s.stepsDone()));
        w.family("llamacpp:n_busy_slots_per_decode", "gauge", "Average number of busy slots per llama_decode() call");
        w.sample("llamacpp:n_busy_slots_per_decode", s.running());
        w.family("llamacpp:prompt_tokens_seconds", "gauge", "Average prompt throughput in tokens/s.");
        w.sample("llamacpp:prompt_tokens_seconds", seconds > 0 ? (evaluated - m_promptAtRead) / seconds : 0);
        w.family("llamacpp:predicted_tokens_seconds", "gauge", "Average generation throughput in tokens/s.");
        w.sample("llamacpp:predicted_tokens_seconds", seconds > 0 ? (m_generated - m_generatedAtRead) / seconds : 0);
        w.family("llamacpp:requests_processing", "gauge", "Number of requests processing.");
        w.sample("llamacpp:requests_processing", s.running());
        w.family("llamacpp:requests_deferred", "gauge", "Number of requests deferred.");
        w.sample("llamacpp:requests_deferred", s.waiting());
        m_promptAtRead = evaluated; // these two gauges restart with every read, as the real ones
        m_generatedAtRead = m_generated;
        m_lastReadNs = now;
    } else if (cfg.flavor == Flavor::Sglang) {
        w.labels = "model_name=\"" + cfg.model.toUtf8() + '"';
        w.family("sglang:num_running_reqs", "gauge", "The number of running requests.");
        w.sample("sglang:num_running_reqs", s.running());
        w.family("sglang:num_queue_reqs", "gauge", "The number of requests in the waiting queue.");
        w.sample("sglang:num_queue_reqs", s.waiting());
        w.family("sglang:token_usage", "gauge", "The token usage.");
        w.sample("sglang:token_usage", usage);
        w.family("sglang:cache_hit_rate", "gauge", "The prefix cache hit rate.");
        w.sample("sglang:cache_hit_rate", m_promptTokens > 0 ? m_cachedTokens / m_promptTokens : 0);
        w.family("sglang:prompt_tokens_total", "counter", "Number of prefill tokens processed.");
        w.sample("sglang:prompt_tokens_total", m_promptTokens);
        w.family("sglang:generation_tokens_total", "counter", "Number of generation tokens processed.");
        w.sample("sglang:generation_tokens_total", m_generated);
        w.family("sglang:cached_tokens_total", "counter", "Number of cached prompt tokens.");
        w.sample("sglang:cached_tokens_total", m_cachedTokens);
        histogram("sglang:time_to_first_token_seconds", "Histogram of time to first token in seconds.");
    } else { // vllm (and openai, which plays vLLM)
        w.labels = "engine=\"0\",model_name=\"" + cfg.model.toUtf8() + '"';
        w.family("vllm:num_requests_running", "gauge", "Number of requests in model execution batches.");
        w.sample("vllm:num_requests_running", s.running());
        w.family("vllm:num_requests_waiting", "gauge", "Number of requests waiting to be processed.");
        w.sample("vllm:num_requests_waiting", s.waiting());
        w.family("vllm:kv_cache_usage_perc", "gauge", "KV-cache usage. 1 means 100 percent usage.");
        w.sample("vllm:kv_cache_usage_perc", usage);
        w.family("vllm:prefix_cache_queries_total", "counter", "Prefix cache queries, in terms of number of queried tokens.");
        w.sample("vllm:prefix_cache_queries_total", m_promptTokens);
        w.family("vllm:prefix_cache_hits_total", "counter", "Prefix cache hits, in terms of number of cached tokens.");
        w.sample("vllm:prefix_cache_hits_total", m_cachedTokens);
        w.family("vllm:prompt_tokens_cached_total", "counter", "Number of cached prompt tokens (local + external).");
        w.sample("vllm:prompt_tokens_cached_total", m_cachedTokens);
        w.family("vllm:num_preemptions_total", "counter", "Cumulative number of preemption from the engine.");
        w.sample("vllm:num_preemptions_total", 0);
        w.family("vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.");
        w.sample("vllm:prompt_tokens_total", m_promptTokens);
        w.family("vllm:generation_tokens_total", "counter", "Number of generation tokens processed.");
        w.sample("vllm:generation_tokens_total", m_generated);
        w.family("vllm:request_success_total", "counter", "Count of successfully processed requests.");
        w.sample("vllm:request_success_total", m_ttftCount, "finished_reason=\"length\"");
        histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.");
    }
    *body = w.out;
    return 200;
}

} // namespace sb
