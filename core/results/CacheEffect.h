#pragma once
// What the prefix cache did for a cell's measured requests, as results.json keeps it: per turn
// of multi-turn sessions ("by_turn": turn 1 against later turns is the cache's effect on TTFT),
// and the share of prompt tokens served from cache, ideal against reported ("prefix_cache").
// Filled by engine/CacheEffectStats.h, read by the views and the report.
#include <QJsonArray>
#include <QJsonObject>
#include <optional>
#include <vector>

namespace sb {

// Turn rows one cell holds at most; the last row also holds every later turn.
inline constexpr int kMaxTurnRows = 64;

struct TurnStats {
    int turn = 0;             // 1-based (the last row: this turn and every later one)
    int completed = 0;
    int failed = 0;
    double ttftP50Ms = -1, ttftAvgMs = -1;     // of ok streamed requests; -1 = none
    double latencyP50Ms = -1;
    double inputTokensAvg = -1;   // prompt tokens as counted (usage), history included
    double historyTokensAvg = -1; // of those, the earlier turns' (usage); -1 = unknown
    double cachedTokensAvg = -1;  // usage.prompt_tokens_details.cached_tokens; -1 = not reported
    bool operator==(const TurnStats &) const = default;
};

struct PrefixCacheStats {
    int sharedPrefixes = 0;      // distinct shared prefixes the workload used (0 = none)
    int prefixTokens = -1;       // one prefix's length on the server's tokenizer (-1 = unknown: words asked for)
    bool sessions = false;       // later turns' history counts as cacheable too
    int blockTokens = 1;         // the server's KV block (the ideal counts whole blocks); 1 = not known
    // Shares of all prompt tokens of ok requests (usage counts):
    double idealShare = -1;      // what a cache that keeps everything would serve, from the order of the requests
    double reportedShare = -1;   // what the server said it served (cached_tokens); -1 = not reported
    double metricsShare = -1;    // the server's own prefix-cache counters over the phase; -1 = none
    bool operator==(const PrefixCacheStats &) const = default;
};

QJsonArray turnStatsJson(const std::vector<TurnStats> &rows);
std::vector<TurnStats> turnStatsFromJson(const QJsonArray &json);
QJsonObject toJson(const PrefixCacheStats &p);
std::optional<PrefixCacheStats> prefixCacheFromJson(const QJsonValue &v);

} // namespace sb
