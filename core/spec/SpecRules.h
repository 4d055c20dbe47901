#pragma once
// Limits and defaults of the sweep spec that the loader, the validator and the writer must
// agree on. The expectation phrases are shared so a type error from the loader and a range
// error from the validator read the same ("expected an integer ≥ 1, got ...").
#include <QString>
#include <algorithm>

namespace sb::spec {

inline constexpr int kMaxConcurrency = 100000;
inline constexpr int kDefaultRequestsPerCell = 100; // when neither requests_per_cell nor duration_s
inline constexpr double kDefaultHookTimeoutS = 30;
inline constexpr double kDefaultResetRetryS = 60;
inline constexpr double kDefaultStopTimeoutS = 600;
// Every timeout and duration (request_timeout_s, duration_s, hook timeout_seconds,
// stop_timeout_seconds, max_retry_seconds) is at most a day: more is a typo, and Qt timers take
// an int of milliseconds (2^31 ms is under 25 days; beyond it a timer never fires).
inline constexpr double kMaxSeconds = 86400;
inline QString expectSeconds() { return QStringLiteral("a number of seconds from 0 to %1 (a day)").arg(kMaxSeconds); }
// JSON bodies we send (start_body) or read (hook answers) nest at most this deep: nothing real
// does, and a parser (ours or the server's) may recurse once per level.
inline constexpr int kMaxJsonDepth = 32;
inline QString tooDeepJson() { return QStringLiteral("nested deeper than %1 levels; expected a flatter JSON body").arg(kMaxJsonDepth); }
// A seconds value as a timer interval: clamped to [0, a day] so it always fits a Qt timer's int.
inline int timerMs(double seconds)
{
    if (!(seconds > 0)) // also NaN
        return 0;
    return int(std::min(seconds, kMaxSeconds) * 1000.0);
}
// launch.log_keep_mib: the head and the tail of a launched server's log each keep at most this.
inline constexpr double kMaxLaunchLogMib = 1024;
// launch.variants: a server runs once per variant, each a full series of restarts and cells;
// more than this is a typo in a matrix (checked on the product, before anything is expanded).
inline constexpr int kMaxLaunchVariants = 64;
inline constexpr int kMaxVariantNameLength = 120;
inline const QString kMockDefaultModel = QStringLiteral("demo-model");
// The most thinking tokens an embedded mock (`mock: {reasoning_tokens}`) or `mock-server
// --reasoning-tokens` is asked to play before its answer.
inline constexpr int kMaxMockReasoningTokens = 1000000;

inline QString expectPositiveInt() { return QStringLiteral("an integer ≥ 1"); }
inline QString expectNonNegativeInt() { return QStringLiteral("an integer ≥ 0"); }
inline QString expectPositiveNumber() { return QStringLiteral("a number > 0"); }
inline QString expectNonNegativeNumber() { return QStringLiteral("a number ≥ 0"); }
inline QString expectFraction() { return QStringLiteral("a fraction from 0 to 1 (0.01 = 1 %)"); }
// Open-loop points: a rate above this is a typo (no client keeps up with it); a burstiness
// outside these bounds makes gamma gaps that are all zero or all equal.
inline constexpr double kMaxRequestRate = 100000;
inline constexpr double kMinBurstiness = 0.01, kMaxBurstiness = 100;
inline QString expectRequestRate() { return QStringLiteral("a number of requests per second > 0 and ≤ %1").arg(kMaxRequestRate); }
inline QString expectBurstiness() { return QStringLiteral("a number from %1 to %2 (1 = Poisson, < 1 burstier)").arg(kMinBurstiness).arg(kMaxBurstiness); }
inline constexpr int kSloPercentiles[] = {50, 75, 90, 95, 99};
inline QString expectSloPercentile() { return QStringLiteral("one of 50, 75, 90, 95, 99"); }
inline constexpr int kMaxRepeats = 100;
inline QString expectRepeats() { return QStringLiteral("an integer from 1 to %1").arg(kMaxRepeats); }
inline QString expectSeed() { return QStringLiteral("an integer ≥ 0"); }
// `cost:` — a GPU count past this is a typo; a price per GPU-hour past this too (the dearest
// cloud GPUs rent for tens of dollars an hour).
inline constexpr int kMaxCostGpus = 65536;
inline constexpr double kMaxGpuHourPrice = 10000;
inline QString expectGpus() { return QStringLiteral("an integer from 1 to %1 (the GPUs the server occupies)").arg(kMaxCostGpus); }
// nvidia-smi's sampling period (`telemetry: [{nvidia_smi: true, interval_ms}]`): it prints one
// line per GPU per period; faster than 100 ms its own NVML queries start to cost a core.
inline constexpr int kMinNvidiaSmiIntervalMs = 100;
inline constexpr int kMaxNvidiaSmiIntervalMs = 10000;
inline QString expectNvidiaSmiInterval()
{
    return QStringLiteral("milliseconds from %1 to %2").arg(kMinNvidiaSmiIntervalMs).arg(kMaxNvidiaSmiIntervalMs);
}
inline QString expectGpuHour() { return QStringLiteral("dollars per GPU-hour, a number > 0 and ≤ %1").arg(kMaxGpuHourPrice); }
inline QString expectConcurrency() { return QStringLiteral("an integer from 1 to %1").arg(kMaxConcurrency); }

} // namespace sb::spec
