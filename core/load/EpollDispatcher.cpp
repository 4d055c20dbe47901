#include "load/EpollDispatcher.h"
#ifdef Q_OS_LINUX
#include "io/SteadyClock.h"
#include <QCoreApplication>
#include <QSocketNotifier>
#include <QThread>
#include <QTimerEvent>
#include <algorithm>
#include <cerrno>
#include <limits>
#include <memory>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace sb {

namespace {
constexpr std::uint64_t kWakeUpData = EpollDispatcher::kInternalTag;
// A notifier's descriptor, tagged as the dispatcher's own.
std::uint64_t notifierData(int fd) { return EpollDispatcher::kInternalTag | 1u | (std::uint64_t(std::uint32_t(fd)) << 1); }
} // namespace

EpollDispatcher::EpollDispatcher(QObject *parent) : QAbstractEventDispatcher(parent)
{
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    m_wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m_epoll >= 0 && m_wakeFd >= 0) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = kWakeUpData;
        if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wakeFd, &ev) != 0) {
            ::close(m_wakeFd);
            m_wakeFd = -1;
        }
    }
}

EpollDispatcher::~EpollDispatcher()
{
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

EpollDispatcher *EpollDispatcher::current()
{
    // Not qobject_cast: the class has no Q_OBJECT of its own (nothing here is a signal or slot).
    return dynamic_cast<EpollDispatcher *>(QAbstractEventDispatcher::instance());
}

bool EpollDispatcher::installOn(QThread *thread)
{
    auto dispatcher = std::make_unique<EpollDispatcher>();
    if (!dispatcher->isValid())
        return false;
    thread->setEventDispatcher(dispatcher.release());
    return true;
}

bool EpollDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags)
{
    m_interrupted.store(false, std::memory_order_relaxed);
    emit awake();
    // What was posted before this point is delivered now; what is posted from here on calls
    // wakeUp(), which makes the wait below return at once.
    QCoreApplication::sendPostedEvents();

    int timeout = 0;
    if ((flags & QEventLoop::WaitForMoreEvents) && !m_interrupted.load(std::memory_order_relaxed) && m_unpollable == 0) {
        timeout = timeoutMs();
        if (timeout != 0)
            emit aboutToBlock();
    }
    if (m_interrupted.load(std::memory_order_relaxed))
        return false;

    epoll_event events[kEventsPerRound];
    int n = ::epoll_wait(m_epoll, events, kEventsPerRound, timeout);
    if (n < 0)
        n = 0; // EINTR: a signal; the loop comes back
    bool handled = n > 0;
    bool sinkRound = false;
    const auto forSink = [&](int i) { return m_sink && i < n && !(events[i].data.u64 & kInternalTag); };
    for (int i = 0; i < n; ++i)
        if (forSink(i))
            m_sink->epollSoon(events[i].data.u64, EpollSink::Stage::Entry);
    for (int i = 0; i < n; ++i) {
        if (forSink(i + 1))
            m_sink->epollSoon(events[i + 1].data.u64, EpollSink::Stage::Memory);
        const std::uint64_t data = events[i].data.u64;
        if (data == kWakeUpData) {
            drainWakeUp();
        } else if (data & kInternalTag) {
            fireNotifiers(int(std::uint32_t(data >> 1)), events[i].events);
        } else if (m_sink) {
            sinkRound = true;
            m_sink->epollEvent(data, events[i].events);
        }
    }
    if (sinkRound && m_sink)
        m_sink->epollRoundDone();
    if (m_unpollable > 0) {
        std::vector<int> fds;
        for (auto it = m_watches.cbegin(); it != m_watches.cend(); ++it)
            if (it->unpollable)
                fds.push_back(it.key());
        for (int fd : fds)
            fireNotifiers(fd, EPOLLIN | EPOLLOUT);
        handled = handled || !fds.empty();
    }
    handled = activateTimers() || handled;
    return handled;
}

void EpollDispatcher::drainWakeUp()
{
    // Read first, then clear: cleared first, a wakeUp() landing between the two would see the
    // flag clear, write, and have that write swallowed by this read — leaving the flag set with
    // nothing in the eventfd, so every later wakeUp() (quit() included) would be skipped. This
    // way a wakeUp() that finds the flag still set happened before the clear, and its posted
    // event is delivered by the next pass's sendPostedEvents().
    std::uint64_t count = 0;
    while (::read(m_wakeFd, &count, sizeof count) > 0) {
    }
    m_wakePending.store(false);
}

void EpollDispatcher::wakeUp()
{
    // One write per batch of posted events: the flag stays set until the loop drains the eventfd.
    if (m_wakePending.exchange(true))
        return;
    const std::uint64_t one = 1;
    while (::write(m_wakeFd, &one, sizeof one) < 0 && errno == EINTR) {
    }
}

void EpollDispatcher::interrupt()
{
    m_interrupted.store(true);
    wakeUp();
}

// ---- socket notifiers

void EpollDispatcher::registerSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    Watch &w = m_watches[fd];
    switch (notifier->type()) {
    case QSocketNotifier::Read: w.read = notifier; break;
    case QSocketNotifier::Write: w.write = notifier; break;
    case QSocketNotifier::Exception: w.exception = notifier; break;
    }
    updateWatch(fd);
}

void EpollDispatcher::unregisterSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    auto it = m_watches.find(fd);
    if (it == m_watches.end())
        return;
    for (QSocketNotifier **slot : {&it->read, &it->write, &it->exception})
        if (*slot == notifier)
            *slot = nullptr;
    updateWatch(fd);
}

void EpollDispatcher::updateWatch(int fd)
{
    auto it = m_watches.find(fd);
    if (it == m_watches.end())
        return;
    Watch &w = *it;
    std::uint32_t want = 0;
    if (w.read)
        want |= EPOLLIN | EPOLLRDHUP;
    if (w.write)
        want |= EPOLLOUT;
    if (w.exception)
        want |= EPOLLPRI;
    if (w.unpollable) {
        if (want == 0) {
            --m_unpollable;
            m_watches.erase(it);
        }
        return;
    }
    epoll_event ev{};
    ev.events = want;
    ev.data.u64 = notifierData(fd);
    if (want == 0) {
        // The descriptor may be closed already (the kernel dropped it from the set then).
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
        m_watches.erase(it);
        return;
    }
    if (::epoll_ctl(m_epoll, EPOLL_CTL_MOD, fd, &ev) == 0)
        return;
    if (errno == ENOENT && ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev) == 0)
        return;
    if (errno == EPERM) { // a regular file or a directory: poll() would call it always ready
        w.unpollable = true;
        ++m_unpollable;
        return;
    }
    qWarning("EpollDispatcher: cannot watch descriptor %d (errno %d)", fd, errno);
}

void EpollDispatcher::fireNotifiers(int fd, std::uint32_t events)
{
    // Looked up before each delivery: a notifier's handler may disable or delete the others.
    const auto deliver = [&](QSocketNotifier *Watch::*slot) {
        auto it = m_watches.find(fd);
        if (it == m_watches.end())
            return;
        if (QSocketNotifier *n = (*it).*slot) {
            QEvent ev(QEvent::SockAct);
            QCoreApplication::sendEvent(n, &ev);
        }
    };
    // Errors and hang-ups wake readers and writers alike, as poll() reports them.
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
        deliver(&Watch::read);
    if (events & (EPOLLOUT | EPOLLHUP | EPOLLERR))
        deliver(&Watch::write);
    if (events & EPOLLPRI)
        deliver(&Watch::exception);
}

// ---- timers

void EpollDispatcher::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object)
{
    Timer t;
    t.id = timerId;
    t.intervalMs = std::max<qint64>(0, interval);
    t.type = timerType;
    t.object = object;
    t.dueNs = steadyNowNs() + t.intervalMs * 1'000'000;
    t.serial = m_nextSerial++;
    m_timers.push_back(t);
}

bool EpollDispatcher::unregisterTimer(int timerId)
{
    auto it = std::find_if(m_timers.begin(), m_timers.end(), [&](const Timer &t) { return t.id == timerId; });
    if (it == m_timers.end())
        return false;
    *it = m_timers.back();
    m_timers.pop_back();
    return true;
}

bool EpollDispatcher::unregisterTimers(QObject *object)
{
    const auto before = m_timers.size();
    std::erase_if(m_timers, [&](const Timer &t) { return t.object == object; });
    return m_timers.size() != before;
}

QList<QAbstractEventDispatcher::TimerInfo> EpollDispatcher::registeredTimers(QObject *object) const
{
    QList<TimerInfo> out;
    for (const Timer &t : m_timers)
        if (t.object == object)
            out.append(TimerInfo(t.id, int(std::min<qint64>(t.intervalMs, std::numeric_limits<int>::max())), t.type));
    return out;
}

int EpollDispatcher::remainingTime(int timerId)
{
    for (const Timer &t : m_timers)
        if (t.id == timerId)
            return int(std::clamp<std::int64_t>((t.dueNs - steadyNowNs() + 999'999) / 1'000'000, 0, std::numeric_limits<int>::max()));
    return -1;
}

int EpollDispatcher::timeoutMs() const
{
    std::int64_t nearest = std::numeric_limits<std::int64_t>::max();
    for (const Timer &t : m_timers)
        if (!t.firing)
            nearest = std::min(nearest, t.dueNs);
    if (nearest == std::numeric_limits<std::int64_t>::max())
        return -1;
    const std::int64_t waitNs = nearest - steadyNowNs();
    if (waitNs <= 0)
        return 0;
    // Rounded up: a timer never fires early (epoll_wait counts whole milliseconds).
    return int(std::min<std::int64_t>((waitNs + 999'999) / 1'000'000, std::numeric_limits<int>::max()));
}

EpollDispatcher::Timer *EpollDispatcher::findTimer(int id, std::uint64_t serial)
{
    for (Timer &t : m_timers)
        if (t.id == id && t.serial == serial)
            return &t;
    return nullptr;
}

bool EpollDispatcher::activateTimers()
{
    if (m_timers.empty())
        return false;
    const std::int64_t now = steadyNowNs();
    // Ids taken first: a timer's handler may start, stop or move timers (the vector changes).
    std::vector<std::pair<int, std::uint64_t>> due;
    for (const Timer &t : m_timers)
        if (!t.firing && t.dueNs <= now)
            due.emplace_back(t.id, t.serial);
    for (const auto &[id, serial] : due) {
        Timer *t = findTimer(id, serial); // a handler before this one may have stopped it
        if (!t)
            continue;
        const std::int64_t intervalNs = t->intervalMs * 1'000'000;
        t->dueNs += intervalNs;
        if (t->dueNs < now) // fell behind (a long handler, a stopped process): no burst of catch-ups
            t->dueNs = now + intervalNs;
        t->firing = true;
        QObject *object = t->object;
        QTimerEvent ev(id);
        QCoreApplication::sendEvent(object, &ev);
        if (Timer *still = findTimer(id, serial)) // the vector may have moved meanwhile
            still->firing = false;
    }
    return !due.empty();
}

} // namespace sb
#endif // Q_OS_LINUX
