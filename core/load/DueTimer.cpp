#include "load/DueTimer.h"
#include "load/IoReactor.h"
#include "load/PhaseState.h"
#include <algorithm>
#include <unistd.h>
#ifdef Q_OS_LINUX
#include <sys/timerfd.h>
#endif

namespace sb {

DueTimer::DueTimer(IoReactor *reactor, std::function<void()> onDue) : m_reactor(reactor), m_onDue(std::move(onDue))
{
    m_fallback.setSingleShot(true);
    m_fallback.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_fallback, &QTimer::timeout, [this] { fired(); });
#ifdef Q_OS_LINUX
    // steadyNowNs() is std::chrono::steady_clock, which is CLOCK_MONOTONIC on Linux.
    m_fd = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (m_fd >= 0)
        m_handle = m_reactor->add(m_fd, [this] { fired(); }, {});
#endif
}

DueTimer::~DueTimer()
{
    if (m_fd >= 0) {
        m_reactor->remove(m_handle);
        ::close(m_fd);
    }
}

void DueTimer::arm(std::int64_t steadyNs)
{
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        itimerspec spec{};
        const std::int64_t at = std::max<std::int64_t>(steadyNs, 1); // 0 would disarm
        spec.it_value.tv_sec = at / 1'000'000'000;
        spec.it_value.tv_nsec = at % 1'000'000'000;
        if (::timerfd_settime(m_fd, TFD_TIMER_ABSTIME, &spec, nullptr) == 0)
            return;
    }
#endif
    const std::int64_t waitNs = steadyNs - steadyNowNs();
    m_fallback.start(int(std::clamp<std::int64_t>((waitNs + 999'999) / 1'000'000, 0, 86'400'000)));
}

void DueTimer::disarm()
{
    m_fallback.stop();
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        itimerspec off{};
        ::timerfd_settime(m_fd, TFD_TIMER_ABSTIME, &off, nullptr);
        std::uint64_t expirations = 0; // a tick that fired before the disarm must not run later
        while (::read(m_fd, &expirations, sizeof expirations) > 0) {
        }
    }
#endif
}

void DueTimer::fired()
{
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        std::uint64_t expirations = 0;
        if (::read(m_fd, &expirations, sizeof expirations) != ssize_t(sizeof expirations))
            return; // spurious (disarmed meanwhile): level-triggered epoll reported a drained fd
    }
#endif
    m_onDue();
}

} // namespace sb
