#include "results/OpenLoopResult.h"

namespace sb {

QJsonObject toJson(const OpenLoopResult &o)
{
    QJsonObject j{
        {QStringLiteral("target_rate"), o.targetRate},
        {QStringLiteral("arrival"), o.arrival},
        {QStringLiteral("burstiness"), o.burstiness},
        {QStringLiteral("seed"), o.seed},
        {QStringLiteral("max_concurrency"), o.maxConcurrency},
        {QStringLiteral("achieved_rate"), o.achievedRate},
        {QStringLiteral("schedule_lag_ms"), QJsonObject{{QStringLiteral("p50"), o.lagP50Ms}, {QStringLiteral("p99"), o.lagP99Ms}, {QStringLiteral("max"), o.lagMaxMs}}},
        {QStringLiteral("queued_requests"), o.queued},
        {QStringLiteral("queue_ms"), QJsonObject{{QStringLiteral("p50"), o.queueP50Ms}, {QStringLiteral("p99"), o.queueP99Ms}, {QStringLiteral("max"), o.queueMaxMs}}},
        {QStringLiteral("cap_hit"), o.capHit},
    };
    if (o.traceSpeed > 0)
        j.insert(QStringLiteral("trace_speed"), o.traceSpeed);
    if (o.rateMean != QLatin1String("sampled"))
        j.insert(QStringLiteral("rate_mean"), o.rateMean);
    return j;
}

OpenLoopResult openLoopResultFromJson(const QJsonObject &j)
{
    OpenLoopResult o;
    o.targetRate = j.value(QStringLiteral("target_rate")).toDouble();
    o.arrival = j.value(QStringLiteral("arrival")).toString();
    o.burstiness = j.value(QStringLiteral("burstiness")).toDouble(1);
    o.seed = j.value(QStringLiteral("seed")).toInt();
    o.maxConcurrency = j.value(QStringLiteral("max_concurrency")).toInt();
    o.achievedRate = j.value(QStringLiteral("achieved_rate")).toDouble();
    const QJsonObject lag = j.value(QStringLiteral("schedule_lag_ms")).toObject();
    o.lagP50Ms = lag.value(QStringLiteral("p50")).toDouble();
    o.lagP99Ms = lag.value(QStringLiteral("p99")).toDouble();
    o.lagMaxMs = lag.value(QStringLiteral("max")).toDouble();
    o.queued = j.value(QStringLiteral("queued_requests")).toInt();
    const QJsonObject queue = j.value(QStringLiteral("queue_ms")).toObject();
    o.queueP50Ms = queue.value(QStringLiteral("p50")).toDouble();
    o.queueP99Ms = queue.value(QStringLiteral("p99")).toDouble();
    o.queueMaxMs = queue.value(QStringLiteral("max")).toDouble();
    o.capHit = j.value(QStringLiteral("cap_hit")).toBool();
    o.traceSpeed = j.value(QStringLiteral("trace_speed")).toDouble();
    o.rateMean = j.value(QStringLiteral("rate_mean")).toString(QStringLiteral("sampled"));
    return o;
}

} // namespace sb
