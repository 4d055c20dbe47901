#pragma once
// The IO threads' event loop (Linux): each wake-up is one epoll_wait() on one set holding the
// thread's sockets, Qt's socket notifiers and a wake-up eventfd, with the nearest timer as its
// timeout. Qt's default loop (glib) woke on the IoReactor's epoll descriptor through poll(), ran
// glib's prepare/query/check/dispatch rounds with their locks, and then the reactor asked epoll
// again: two syscalls and the glib machinery for every wake-up of a thread that wakes for nearly
// every token event it reads.
//
// A reactor made on such a thread (IoReactor) adds its sockets to this set directly
// (`attachSink`): its events come back through EpollSink with the handles it registered.
// Everything else Qt asks of an event loop works as usual on these threads: queued calls and
// posted events, QTimer (to the millisecond, rounded up), QSocketNotifier (so QTcpSocket's
// connect), quit() and moveToThread() of objects with running timers.
#include <QAbstractEventDispatcher>
#include <QHash>
#include <atomic>
#include <cstdint>
#include <vector>

struct epoll_event;

namespace sb {

// Receives the events of descriptors a reactor registered in the dispatcher's set (their
// epoll data is the reactor's own handle, below kInternalTag).
class EpollSink
{
public:
    virtual ~EpollSink() = default;
    virtual void epollEvent(std::uint64_t handle, std::uint32_t events) = 0;
    virtual void epollRoundDone() = 0; // after the round's events (and before its timers)
    // Hints that `handle`'s event is coming soon, so its memory can be fetched ahead (a hint:
    // it may do nothing). A round first hints every event at Stage::Entry, then, while one
    // event is handled, the next at Stage::Memory.
    enum class Stage { Entry, Memory };
    virtual void epollSoon(std::uint64_t handle, Stage stage) = 0;
};

class EpollDispatcher : public QAbstractEventDispatcher
{
public:
    // Epoll data at and above this tag is the dispatcher's own (wake-up, notifiers); a sink's
    // handles must stay below it.
    static constexpr std::uint64_t kInternalTag = std::uint64_t(1) << 63;
    // Events taken per wait; more stay ready (level-triggered) for the next round, so a flood on
    // some sockets cannot keep posted events and timers waiting.
    static constexpr int kEventsPerRound = 256;

    explicit EpollDispatcher(QObject *parent = nullptr);
    ~EpollDispatcher() override;
    // False when the kernel refused the epoll set or the eventfd: use Qt's own dispatcher.
    bool isValid() const { return m_epoll >= 0 && m_wakeFd >= 0; }
    // The current thread's dispatcher when it is one of these, else null.
    static EpollDispatcher *current();
    // Makes a not yet started thread's loop one of these; false (Qt's own loop stays) when the
    // kernel refused the set.
    static bool installOn(QThread *thread);

    int epollFd() const { return m_epoll; }
    // One sink per thread (its IoReactor); null detaches.
    void attachSink(EpollSink *sink) { m_sink = sink; }

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;
    void registerSocketNotifier(QSocketNotifier *notifier) override;
    void unregisterSocketNotifier(QSocketNotifier *notifier) override;
    using QAbstractEventDispatcher::registerTimer;
    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject *object) override;
    QList<TimerInfo> registeredTimers(QObject *object) const override;
    int remainingTime(int timerId) override;
    void wakeUp() override;
    void interrupt() override;

private:
    struct Watch {
        QSocketNotifier *read = nullptr, *write = nullptr, *exception = nullptr;
        bool unpollable = false; // epoll refused the descriptor (a regular file): always ready
    };
    struct Timer {
        int id = 0;
        qint64 intervalMs = 0;
        Qt::TimerType type = Qt::CoarseTimer;
        QObject *object = nullptr;
        std::int64_t dueNs = 0;
        std::uint64_t serial = 0; // tells a timer from a later one given the same released id
        bool firing = false;      // its event is being delivered: a nested loop must not repeat it
    };
    void updateWatch(int fd);
    void fireNotifiers(int fd, std::uint32_t events);
    // Milliseconds until the nearest timer (rounded up), -1 without timers.
    int timeoutMs() const;
    bool activateTimers();
    Timer *findTimer(int id, std::uint64_t serial);
    void drainWakeUp();

    int m_epoll = -1;
    int m_wakeFd = -1;
    std::atomic<bool> m_wakePending{false};
    std::atomic<bool> m_interrupted{false};
    EpollSink *m_sink = nullptr;
    QHash<int, Watch> m_watches;
    int m_unpollable = 0;
    std::vector<Timer> m_timers;
    std::uint64_t m_nextSerial = 1;
};

} // namespace sb
