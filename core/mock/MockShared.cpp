#include "mock/MockShared.h"

namespace sb {

void MockShared::reset()
{
    {
        QMutexLocker lock(&mutex);
        const int inFlight = stats.inFlight;
        stats = MockStats();
        stats.inFlight = inFlight;
        stats.maxInFlight = inFlight;
    }
    streamEvents.store(0, std::memory_order_relaxed);
    socketWrites.store(0, std::memory_order_relaxed);
    clearTimings();
}

} // namespace sb
