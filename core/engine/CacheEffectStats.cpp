#include "engine/CacheEffectStats.h"
#include "metrics/Stats.h"
#include <QMap>
#include <algorithm>
#include <cmath>

namespace sb {

std::vector<TurnStats> turnStats(const std::vector<RequestRecord> &records, bool streaming)
{
    struct Acc {
        std::vector<double> ttft, latency;
        double input = 0, history = 0, cached = 0;
        int inputN = 0, historyN = 0, cachedN = 0, completed = 0, failed = 0;
    };
    QMap<int, Acc> byTurn;
    for (const RequestRecord &r : records) {
        if (r.turn <= 0 || r.error == ErrorKind::Cancelled)
            continue;
        Acc &a = byTurn[std::min<int>(r.turn, kMaxTurnRows)];
        if (!r.ok()) {
            ++a.failed;
            continue;
        }
        ++a.completed;
        if (streaming && r.firstTokenNs >= 0)
            a.ttft.push_back(r.ttftMs());
        a.latency.push_back(r.latencyMs());
        if (r.usageTokens && r.inputTokens >= 0)
            a.input += r.inputTokens, ++a.inputN;
        if (r.historyTokens >= 0)
            a.history += r.historyTokens, ++a.historyN;
        if (r.cachedTokens >= 0)
            a.cached += r.cachedTokens, ++a.cachedN;
    }
    std::vector<TurnStats> out;
    for (auto it = byTurn.begin(); it != byTurn.end(); ++it) {
        Acc &a = it.value();
        TurnStats t;
        t.turn = it.key();
        t.completed = a.completed;
        t.failed = a.failed;
        if (!a.ttft.empty()) {
            const MetricStats s = computeStats(a.ttft, QString());
            t.ttftP50Ms = s.p50;
            t.ttftAvgMs = s.avg;
        }
        if (!a.latency.empty())
            t.latencyP50Ms = computeStats(a.latency, QString()).p50;
        const auto mean = [](double sum, int n) { return n > 0 ? sum / n : -1.0; };
        t.inputTokensAvg = mean(a.input, a.inputN);
        t.historyTokensAvg = mean(a.history, a.historyN);
        t.cachedTokensAvg = mean(a.cached, a.cachedN);
        out.push_back(t);
    }
    return out;
}

namespace {
// The server's own count of prompt tokens served from its prefix cache over the phase, as a
// share of the prompt tokens it looked up; -1 when it exports no such counters.
double metricsShare(const ServerMetricAggregates &m)
{
    const auto delta = [&](const char *name) {
        const auto it = m.constFind(QString::fromLatin1(name));
        return it == m.constEnd() ? NAN : it->delta;
    };
    // hits, and either every prompt token looked up (hits among them) or only those computed
    // (llama.cpp's prompt_tokens_total counts the evaluated ones, its cached ones apart).
    struct Counters {
        const char *hits, *prompt;
        bool promptExcludesHits;
    };
    const Counters pairs[] = {
        {"vllm:prefix_cache_hits_total", "vllm:prefix_cache_queries_total", false},
        {"sglang:cached_tokens_total", "sglang:prompt_tokens_total", false},
        {"llamacpp:prompt_tokens_cached_total", "llamacpp:prompt_tokens_total", true},
    };
    for (const Counters &c : pairs) {
        const double h = delta(c.hits), p = delta(c.prompt);
        const double all = c.promptExcludesHits ? h + p : p;
        if (std::isfinite(h) && std::isfinite(p) && all > 0)
            return std::clamp(h / all, 0.0, 1.0);
    }
    return -1;
}
} // namespace

std::optional<PrefixCacheStats> prefixCacheStats(const PrefixCacheInput &in)
{
    if (in.sharedPrefixes <= 0 && !in.sessions)
        return std::nullopt;
    PrefixCacheStats p;
    p.sharedPrefixes = in.sharedPrefixes;
    p.prefixTokens = in.sharedPrefixes > 0 && in.prefixCalibrated ? in.prefixTokens : -1;
    p.sessions = in.sessions;
    p.blockTokens = std::max(1, in.blockTokens);
    // The ideal in send order: a prefix is cached once a request that carried it has ended (a
    // request sent while the first one is still being prefilled may find nothing yet), or once
    // it was sent where the server caches at scheduling; a later turn finds its whole history
    // (its earlier turns and their answers) cached.
    std::vector<const RequestRecord *> sent;
    for (const RequestRecord &r : *in.records)
        if (r.sendNs > 0)
            sent.push_back(&r);
    std::sort(sent.begin(), sent.end(), [](const RequestRecord *a, const RequestRecord *b) { return a->sendNs < b->sendNs; });
    QMap<int, std::int64_t> cachedSince; // prefix -> when its first carrier ended
    for (int k : in.warmPrefixes)
        cachedSince.insert(k, 0);
    double prompt = 0, ideal = 0, reportedPrompt = 0, reported = 0;
    for (const RequestRecord *r : sent) {
        if (r->ok() && r->usageTokens && r->inputTokens > 0) {
            double cacheable = 0;
            if (r->turn > 1 && r->historyTokens >= 0)
                cacheable = r->historyTokens;
            else if (r->prefix >= 0 && cachedSince.contains(r->prefix) && cachedSince.value(r->prefix) <= r->sendNs)
                cacheable = in.prefixTokens;
            if (in.blockTokens > 1)
                cacheable = std::floor(cacheable / in.blockTokens) * in.blockTokens;
            prompt += r->inputTokens;
            ideal += std::min<double>(cacheable, r->inputTokens);
            if (r->cachedTokens >= 0) {
                reportedPrompt += r->inputTokens;
                reported += std::min<double>(r->cachedTokens, r->inputTokens);
            }
        }
        if (r->ok() && r->prefix >= 0 && (r->turn <= 1)) {
            const auto it = cachedSince.find(r->prefix);
            const std::int64_t since = in.cachedWhenScheduled ? r->sendNs : r->endNs;
            if (it == cachedSince.end() || it.value() > since)
                cachedSince.insert(r->prefix, since);
        }
    }
    if (prompt > 0)
        p.idealShare = ideal / prompt;
    if (reportedPrompt > 0)
        p.reportedShare = reported / reportedPrompt;
    if (in.serverMetrics)
        p.metricsShare = metricsShare(*in.serverMetrics);
    return p;
}

QStringList prefixCacheWarnings(const PrefixCacheStats &p, bool cacheReset)
{
    QStringList out;
    if (!cacheReset || p.idealShare < 0)
        return out;
    const auto pct = [](double v) { return QString::number(v * 100, 'f', 1) + QStringLiteral(" %"); };
    const auto judge = [&](double share, const QString &source) {
        if (share < 0)
            return;
        const double slack = kPrefixShareTolerance * std::max(p.idealShare, 0.05);
        if (share < p.idealShare - slack)
            out.append(QStringLiteral("%1 says %2 of prompt tokens came from the prefix cache, the ideal is %3: the cache kept less than "
                                      "the requests could share (eviction: %4 prefixes or the sessions' histories do not fit, or no prefix caching)")
                           .arg(source, pct(share), pct(p.idealShare))
                           .arg(p.sharedPrefixes));
        else if (share > p.idealShare + slack)
            out.append(QStringLiteral("%1 says %2 of prompt tokens came from the prefix cache, more than the ideal %3: the cache was not "
                                      "empty when the cell began, or prompts share more than the workload meant")
                           .arg(source, pct(share), pct(p.idealShare)));
    };
    judge(p.reportedShare, QStringLiteral("the server's cached_tokens"));
    judge(p.metricsShare, QStringLiteral("the server's prefix-cache counters"));
    return out;
}

} // namespace sb
