#pragma once
// The one clock every timed part shares: std::chrono::steady_clock (CLOCK_MONOTONIC on Linux) in
// nanoseconds. Request records, the IO threads' due timers, the server-metrics scraper's plan and
// kernel receive stamps (load/RxStamp) are all compared on it, so they must read the same clock.
#include <chrono>
#include <cstdint>

namespace sb {

inline std::int64_t steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace sb
