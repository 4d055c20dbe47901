#pragma once
// The one vocabulary of control hooks: which hook a call was and what its answer meant
// (docs/ARCHITECTURE.md §5). The enums are used everywhere in C++; the strings exist only where
// results.json, CSV, reports and logs are written and read (the CellStatus pattern: *Name and
// *FromString, never an ADL toString that would hide QTest's from QCOMPARE).
#include <QString>
#include <QStringView>
#include <optional>

namespace sb {

enum class HookKind {
    Reset,         // reset_kv_cache
    ProfilerStart, // profiler_start
    ProfilerStop,  // profiler_stop
    // Not hooks but the preflight's checks of the server itself (`hooks check`, the designer's
    // Check button), reported the same way so one table and one severity rule show them:
    Reachability,  // reachability: a TCP connect and an HTTP answer from the origin
    ModelList,     // model_list: GET /v1/models lists the spec's model
    // reset_kv_cache: restart on a launched server: stop, start, wait for its ready path; the
    // cache reset of a server SweepBench started itself (its latency is the whole restart).
    Restart,       // restart
    // The preflight's look at a server's GPU telemetry (engine/TelemetryPreflight.h): an
    // exporter's one scrape, or nvidia-smi's one reading. Never in a cell's hooks.
    GpuTelemetry,  // gpu_telemetry
};
// The hooks that empty the cache before a cell: the reset route, or a restart.
inline bool isCacheReset(HookKind k) { return k == HookKind::Reset || k == HookKind::Restart; }
// Views with one column per hook kind show a restart in the reset's column (it is that cell's reset).
inline bool shownAs(HookKind outcome, HookKind column) { return outcome == column || (column == HookKind::Reset && isCacheReset(outcome)); }

enum class HookVerdict {
    Ok,           // the answer says it was done
    Refused,      // 2xx that says no (vLLM {"success": false})
    Busy,         // retryable refusal (SGLang 400 while not idle, 409/423/429/503)
    RouteMissing, // 404: the server lacks the route (with a per-flavor hint)
    Timeout,      // no whole answer in time
    Error,        // anything else (transport error, cancelled, other status)
};

QString hookKindName(HookKind k); // "reset_kv_cache", "profiler_start", "profiler_stop", "reachability", "model_list", "restart", "gpu_telemetry"
std::optional<HookKind> hookKindFromString(QStringView s);
QString hookVerdictName(HookVerdict v); // "ok", "refused", "busy", "route_missing", "timeout", "error"
std::optional<HookVerdict> hookVerdictFromString(QStringView s);

// What the first measured requests say of a reset that came right before them (engine/ResetProof):
// "consistent" or "contradicted"; None = no evidence (not written to results.json).
enum class CacheProof { None, Consistent, Contradicted };
// What the server's own prefix-cache counter says of that reset (docs/server-metrics.md):
// "confirmed", "not_confirmed", "no_metrics"; None = not judged (not written).
enum class MetricsVerdict { None, Confirmed, NotConfirmed, NoMetrics };

// Where in the cell a hook call ran, when its kind alone does not say: a cache reset before or
// after the warmup (the spec's reset_kv_cache.placement; `both` runs one of each), a profiler
// stop rolling back a failed start, a restart made by the hook check. None is not written.
enum class HookPlacement { None, BeforeWarmup, AfterWarmup, Rollback, Preflight };

QString cacheProofName(CacheProof p); // "" for None
CacheProof cacheProofFromString(QStringView s); // None for "" and unknown words
QString metricsVerdictName(MetricsVerdict v); // "" for None
MetricsVerdict metricsVerdictFromString(QStringView s);
QString hookPlacementName(HookPlacement p); // "" for None, "before_warmup", "after_warmup", "rollback", "preflight"
HookPlacement hookPlacementFromString(QStringView s); // None for "" and unknown words

} // namespace sb
