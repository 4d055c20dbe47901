#include "results/HookVocabulary.h"

namespace sb {

namespace {
constexpr HookKind kKinds[] = {HookKind::Reset, HookKind::ProfilerStart, HookKind::ProfilerStop, HookKind::Reachability,
                               HookKind::ModelList, HookKind::Restart, HookKind::GpuTelemetry};
constexpr HookVerdict kVerdicts[] = {HookVerdict::Ok,           HookVerdict::Refused, HookVerdict::Busy,
                                     HookVerdict::RouteMissing, HookVerdict::Timeout, HookVerdict::Error};
} // namespace

QString hookKindName(HookKind k)
{
    switch (k) {
    case HookKind::Reset: return QStringLiteral("reset_kv_cache");
    case HookKind::ProfilerStart: return QStringLiteral("profiler_start");
    case HookKind::ProfilerStop: return QStringLiteral("profiler_stop");
    case HookKind::Reachability: return QStringLiteral("reachability");
    case HookKind::ModelList: return QStringLiteral("model_list");
    case HookKind::Restart: return QStringLiteral("restart");
    case HookKind::GpuTelemetry: return QStringLiteral("gpu_telemetry");
    }
    return QString();
}

std::optional<HookKind> hookKindFromString(QStringView s)
{
    for (HookKind k : kKinds)
        if (s == hookKindName(k))
            return k;
    return std::nullopt;
}

QString hookVerdictName(HookVerdict v)
{
    switch (v) {
    case HookVerdict::Ok: return QStringLiteral("ok");
    case HookVerdict::Refused: return QStringLiteral("refused");
    case HookVerdict::Busy: return QStringLiteral("busy");
    case HookVerdict::RouteMissing: return QStringLiteral("route_missing");
    case HookVerdict::Timeout: return QStringLiteral("timeout");
    case HookVerdict::Error: return QStringLiteral("error");
    }
    return QString();
}

std::optional<HookVerdict> hookVerdictFromString(QStringView s)
{
    for (HookVerdict v : kVerdicts)
        if (s == hookVerdictName(v))
            return v;
    return std::nullopt;
}

QString cacheProofName(CacheProof p)
{
    switch (p) {
    case CacheProof::None: return QString();
    case CacheProof::Consistent: return QStringLiteral("consistent");
    case CacheProof::Contradicted: return QStringLiteral("contradicted");
    }
    return QString();
}

CacheProof cacheProofFromString(QStringView s)
{
    for (CacheProof p : {CacheProof::Consistent, CacheProof::Contradicted})
        if (s == cacheProofName(p))
            return p;
    return CacheProof::None;
}

QString metricsVerdictName(MetricsVerdict v)
{
    switch (v) {
    case MetricsVerdict::None: return QString();
    case MetricsVerdict::Confirmed: return QStringLiteral("confirmed");
    case MetricsVerdict::NotConfirmed: return QStringLiteral("not_confirmed");
    case MetricsVerdict::NoMetrics: return QStringLiteral("no_metrics");
    }
    return QString();
}

MetricsVerdict metricsVerdictFromString(QStringView s)
{
    for (MetricsVerdict v : {MetricsVerdict::Confirmed, MetricsVerdict::NotConfirmed, MetricsVerdict::NoMetrics})
        if (s == metricsVerdictName(v))
            return v;
    return MetricsVerdict::None;
}

QString hookPlacementName(HookPlacement p)
{
    switch (p) {
    case HookPlacement::None: return QString();
    case HookPlacement::BeforeWarmup: return QStringLiteral("before_warmup");
    case HookPlacement::AfterWarmup: return QStringLiteral("after_warmup");
    case HookPlacement::Rollback: return QStringLiteral("rollback");
    case HookPlacement::Preflight: return QStringLiteral("preflight");
    }
    return QString();
}

HookPlacement hookPlacementFromString(QStringView s)
{
    for (HookPlacement p : {HookPlacement::BeforeWarmup, HookPlacement::AfterWarmup, HookPlacement::Rollback, HookPlacement::Preflight})
        if (s == hookPlacementName(p))
            return p;
    return HookPlacement::None;
}

} // namespace sb
