#include "results/CacheEffect.h"
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
// -1 and NaN both mean "not known"; written as null.
QJsonValue known(double v) { return std::isfinite(v) && v >= 0 ? QJsonValue(v) : QJsonValue(QJsonValue::Null); }
double knownFrom(const QJsonValue &v) { return v.isDouble() && v.toDouble() >= 0 ? v.toDouble() : -1; }
int countFrom(const QJsonValue &v) { return int(std::clamp(v.toDouble(0), 0.0, 2147483647.0)); }
} // namespace

QJsonArray turnStatsJson(const std::vector<TurnStats> &rows)
{
    QJsonArray out;
    for (const TurnStats &t : rows)
        out.append(QJsonObject{{QStringLiteral("turn"), t.turn},
                               {QStringLiteral("completed"), t.completed},
                               {QStringLiteral("failed"), t.failed},
                               {QStringLiteral("ttft_p50_ms"), known(t.ttftP50Ms)},
                               {QStringLiteral("ttft_avg_ms"), known(t.ttftAvgMs)},
                               {QStringLiteral("latency_p50_ms"), known(t.latencyP50Ms)},
                               {QStringLiteral("input_tokens_avg"), known(t.inputTokensAvg)},
                               {QStringLiteral("history_tokens_avg"), known(t.historyTokensAvg)},
                               {QStringLiteral("cached_tokens_avg"), known(t.cachedTokensAvg)}});
    return out;
}

std::vector<TurnStats> turnStatsFromJson(const QJsonArray &json)
{
    std::vector<TurnStats> rows;
    for (const QJsonValue &v : json) {
        if (int(rows.size()) >= kMaxTurnRows)
            break;
        const QJsonObject o = v.toObject();
        TurnStats t;
        t.turn = countFrom(o.value(QStringLiteral("turn")));
        t.completed = countFrom(o.value(QStringLiteral("completed")));
        t.failed = countFrom(o.value(QStringLiteral("failed")));
        t.ttftP50Ms = knownFrom(o.value(QStringLiteral("ttft_p50_ms")));
        t.ttftAvgMs = knownFrom(o.value(QStringLiteral("ttft_avg_ms")));
        t.latencyP50Ms = knownFrom(o.value(QStringLiteral("latency_p50_ms")));
        t.inputTokensAvg = knownFrom(o.value(QStringLiteral("input_tokens_avg")));
        t.historyTokensAvg = knownFrom(o.value(QStringLiteral("history_tokens_avg")));
        t.cachedTokensAvg = knownFrom(o.value(QStringLiteral("cached_tokens_avg")));
        rows.push_back(t);
    }
    return rows;
}

QJsonObject toJson(const PrefixCacheStats &p)
{
    return QJsonObject{{QStringLiteral("shared_prefixes"), p.sharedPrefixes},
                       {QStringLiteral("prefix_tokens"), p.prefixTokens >= 0 ? QJsonValue(p.prefixTokens) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("sessions"), p.sessions},
                       {QStringLiteral("block_tokens"), p.blockTokens},
                       {QStringLiteral("ideal_share"), known(p.idealShare)},
                       {QStringLiteral("reported_share"), known(p.reportedShare)},
                       {QStringLiteral("metrics_share"), known(p.metricsShare)}};
}

std::optional<PrefixCacheStats> prefixCacheFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject o = v.toObject();
    PrefixCacheStats p;
    p.sharedPrefixes = countFrom(o.value(QStringLiteral("shared_prefixes")));
    p.prefixTokens = o.value(QStringLiteral("prefix_tokens")).isDouble() ? countFrom(o.value(QStringLiteral("prefix_tokens"))) : -1;
    p.sessions = o.value(QStringLiteral("sessions")).toBool();
    p.blockTokens = std::max(1, countFrom(o.value(QStringLiteral("block_tokens"))));
    p.idealShare = knownFrom(o.value(QStringLiteral("ideal_share")));
    p.reportedShare = knownFrom(o.value(QStringLiteral("reported_share")));
    p.metricsShare = knownFrom(o.value(QStringLiteral("metrics_share")));
    return p;
}

} // namespace sb
