#pragma once
// The prefix cache's effect on one cell (results/CacheEffect.h), from its request records: per
// turn of multi-turn sessions, and the share of prompt tokens an ideal cache would serve set
// beside what the server reported, per request and in its own counters (docs/spec-reference.md
// "Sessions" and "Shared prefixes").
#include "load/RequestRecord.h"
#include "results/Results.h"
#include <QSet>
#include <QStringList>
#include <vector>

namespace sb {

std::vector<TurnStats> turnStats(const std::vector<RequestRecord> &records, bool streaming);

struct PrefixCacheInput {
    const std::vector<RequestRecord> *records = nullptr;
    int sharedPrefixes = 0;      // distinct shared prefixes (0 = none)
    int prefixTokens = 0;        // one prefix's length in tokens
    bool prefixCalibrated = false;
    bool sessions = false;
    // Prefixes the cache holds when the measured phase starts: those the warmup sent after the
    // cell's last reset. Without a reset the cache's state is not known, and the ideal counts
    // from an empty cache.
    QSet<int> warmPrefixes;
    const ServerMetricAggregates *serverMetrics = nullptr;
    // Tokens per KV cache block when the server says (vLLM block_size, SGLang page_size): a
    // cache serves whole blocks only, so the ideal rounds each request's cacheable part down.
    int blockTokens = 1;
    // The server caches a prompt when it schedules the request (spec/PrefixCaching.h): a
    // request sent after a prefix's first carrier hits it even while that carrier is still
    // being prefilled. Otherwise the prefix counts from when that carrier ended.
    bool cachedWhenScheduled = false;
};

// Null when the workload has neither shared prefixes nor sessions.
std::optional<PrefixCacheStats> prefixCacheStats(const PrefixCacheInput &in);

// How far the server's share may fall short of, or exceed, the ideal before the cell says so:
// block granularity (a cached prefix counts in whole KV blocks) and the template's tokens keep
// them a few per cent apart even when the cache does all it can.
inline constexpr double kPrefixShareTolerance = 0.10;
// "the server served 12 % of prompt tokens from cache, the ideal is 48 %: ..." when a cell that
// started from an emptied cache (`reset`) disagrees by more than the tolerance.
QStringList prefixCacheWarnings(const PrefixCacheStats &p, bool cacheReset);

} // namespace sb
