#pragma once
// State the server thread writes and any other thread reads: counters, the timing ring and the
// control-event log, behind one mutex. Written per request or per control call, never per
// token, so the lock is cheap next to the socket work; the two per-token counters are atomics.
#include "mock/MockServer.h"
#include <QMutex>
#include <atomic>
#include <vector>

namespace sb {

struct MockShared {
    static constexpr int kTimingCapacity = 200000;

    mutable QMutex mutex;
    MockStats stats;                // streamEvents/socketWrites: see the atomics below
    std::vector<MockTiming> ring;   // grows to kTimingCapacity, then wraps at ringHead
    size_t ringHead = 0;
    QList<MockControlEvent> events;
    // Counted per event and per write, so atomics rather than the mutex (one writer thread;
    // relaxed: readers want a recent total, not an ordering).
    std::atomic<qint64> streamEvents{0};
    std::atomic<qint64> socketWrites{0};

    MockStats snapshot() const      // stats with the atomics filled in
    {
        QMutexLocker lock(&mutex);
        MockStats s = stats;
        s.streamEvents = streamEvents.load(std::memory_order_relaxed);
        s.socketWrites = socketWrites.load(std::memory_order_relaxed);
        return s;
    }

    // Counters and timings back to zero; in-flight requests stay counted. Out of line: inlined
    // through a shared_ptr, GCC 12 warns that the atomic stores might write through null.
    void reset();

    void addTiming(MockTiming t)
    {
        QMutexLocker lock(&mutex);
        if (ring.size() < size_t(kTimingCapacity)) {
            ring.push_back(std::move(t));
        } else {
            ring[ringHead] = std::move(t);
            ringHead = (ringHead + 1) % ring.size();
        }
    }

    QList<MockTiming> timings() const
    {
        QMutexLocker lock(&mutex);
        QList<MockTiming> out;
        out.reserve(qsizetype(ring.size()));
        for (size_t i = 0; i < ring.size(); ++i)
            out.append(ring[(ringHead + i) % ring.size()]);
        return out;
    }

    void clearTimings()
    {
        QMutexLocker lock(&mutex);
        ring.clear();
        ringHead = 0;
    }
};

} // namespace sb
