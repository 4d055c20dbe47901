#pragma once
// State the server thread writes and any other thread reads: counters, the timing ring and the
// control-event log, behind one mutex. Written per request or per control call, never per
// token, so the lock is cheap next to the socket work.
#include "mock/MockServer.h"
#include <QMutex>
#include <vector>

namespace sb {

struct MockShared {
    static constexpr int kTimingCapacity = 200000;

    mutable QMutex mutex;
    MockStats stats;
    std::vector<MockTiming> ring;   // grows to kTimingCapacity, then wraps at ringHead
    size_t ringHead = 0;
    QList<MockControlEvent> events;

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
