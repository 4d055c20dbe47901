#pragma once
// A one-shot timer at an absolute steady-clock time with nanosecond resolution, for open-loop
// sends (a request is sent at its scheduled time, docs/spec-reference.md). On Linux a timerfd
// watched by the IO thread's IoReactor, so a due send wakes the thread like a socket does;
// a QTimer would round to whole milliseconds. Elsewhere a precise QTimer.
#include <QTimer>
#include <cstdint>
#include <functional>

namespace sb {

class IoReactor;

class DueTimer
{
public:
    DueTimer(IoReactor *reactor, std::function<void()> onDue);
    ~DueTimer();
    DueTimer(const DueTimer &) = delete;
    DueTimer &operator=(const DueTimer &) = delete;
    // Fires once at `steadyNs` (steadyNowNs()'s clock), at once when that has passed. Re-arming
    // replaces the previous time.
    void arm(std::int64_t steadyNs);
    void disarm();

private:
    void fired();
    IoReactor *m_reactor;
    std::function<void()> m_onDue;
    int m_fd = -1;
    quint64 m_handle = 0;
    QTimer m_fallback;
};

} // namespace sb
