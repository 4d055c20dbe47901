#pragma once
// One readiness set per IO thread: the thread's sockets sit in one epoll set, and Qt's event loop
// watches only that set's descriptor. With a QSocketNotifier per connection, every
// wake-up of an IO thread polled all of its (up to 1024) descriptors and dispatched one Qt event
// per ready one — a quarter of the thread's time at C=256 went to poll() alone, and an IO thread
// that drains a server step's burst slowly reads the last streams' events late (late enough that
// the kernel merges them with the next step's and dates them by it). One epoll_wait() returns
// just the ready sockets, so a wake-up costs what is ready, not what is open.
//
// On an IO thread whose loop is an EpollDispatcher (load/EpollDispatcher.h) the sockets go into
// the dispatcher's own set instead, and a wake-up is a single epoll_wait(). Where epoll is not
// available (not Linux) each socket gets its own pair of QSocketNotifiers, as before.
#include "load/EpollDispatcher.h"
#include <QObject>
#include <QPointer>
#include <QSocketNotifier>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace sb {

class IoReactor : public QObject, private EpollSink
{
public:
    explicit IoReactor(QObject *parent = nullptr);
    ~IoReactor() override;

    using Callback = std::function<void()>;
    // Watches `fd` (which stays the caller's) for reading; `onWritable` runs only while write
    // interest is on. Returns a handle for the calls below. Callbacks run on the reactor's thread.
    quint64 add(int fd, Callback onReadable, Callback onWritable);
    void setWriteInterest(quint64 handle, bool on);
    // Memory the readable callback of `handle` reads first: the per-read state of the objects
    // it runs on (at most kHotSpans spans; more are ignored). An IO thread woken with a batch of
    // ready sockets fetches the next socket's spans while it reads the current one: between two
    // events of one stream the kernel's receive and ACK work for the other streams evicts
    // them, and fetching them one cold line after another was about a third of the client's
    // own CPU per streamed event (docs/ARCHITECTURE.md §9).
    static constexpr int kHotSpans = 2;
    void addHotMemory(quint64 handle, const void *begin, std::size_t bytes);
    // Stops watching (call before closing the descriptor). Safe from inside any callback: events
    // of this round for a removed handle are dropped.
    void remove(quint64 handle);
    // Runs `fn` (unless `context` is gone by then) once the current round of readiness callbacks
    // is over, before the thread goes back to its event loop; outside a round, as a queued call
    // from the event loop. A connection that finished an answer starts its next request this
    // way: not from inside the callback that read the answer, and without a posted event and an
    // eventfd wake-up per request.
    void defer(QObject *context, std::function<void()> fn);
    int watched() const { return m_watched; }
    // True when the sockets sit in the thread's EpollDispatcher set (one syscall per wake-up).
    bool inDispatcherSet() const { return !m_dispatcher.isNull(); }
    // The thread's read buffer, shared by its connections (a callback consumes what it read
    // before it returns): 64 KiB per thread, not per connection (1024 connections once held 64 MB).
    std::vector<char> &readBuffer() { return m_readBuffer; }

private:
    struct Span {
        const char *begin = nullptr;
        std::size_t bytes = 0;
    };
    struct Entry { // what an event reads first comes first: one cache line for the look-up and the hints
        int fd = -1;
        std::uint32_t generation = 0; // the handle's upper half (31 bits): a reused slot is a new handle
        bool live = false;
        bool removed = false; // removed inside a callback; freed when the callback returns
        int hotSpans = 0;
        Span hot[kHotSpans];
        Callback onReadable, onWritable;
        bool writeInterest = false;
        std::unique_ptr<QSocketNotifier> readNotifier, writeNotifier; // without epoll only
    };
    void dispatch(); // the reactor's own set became ready (not on an EpollDispatcher thread)
    void epollEvent(std::uint64_t handle, std::uint32_t events) override;
    void epollRoundDone() override;
    void epollSoon(std::uint64_t handle, Stage stage) override;
    void runDeferred();
    // The live entry of `handle`, or null (removed, or a slot reused since).
    Entry *find(quint64 handle);
    void freeSlot(std::uint32_t slot);
    // Runs an entry's callback; entries removed meanwhile are freed afterwards (the running
    // std::function must not be destroyed under its own feet). False when the entry is gone.
    bool invoke(quint64 handle, bool writable);

    int m_epoll = -1;                            // the reactor's own set, or the dispatcher's
    QPointer<EpollDispatcher> m_dispatcher;      // set when m_epoll is the dispatcher's
    std::unique_ptr<QSocketNotifier> m_notifier; // on the reactor's own epoll descriptor
    // Slots indexed by the handle's lower half: an event finds its entry without hashing (the
    // hash lookup was 3 % of a streaming client's CPU). Entries are heap nodes, so a callback's
    // reference survives slots added while it runs.
    std::vector<std::unique_ptr<Entry>> m_slots;
    std::vector<std::uint32_t> m_freeSlots;
    int m_watched = 0;
    int m_depth = 0;                       // callbacks running
    bool m_dispatching = false;            // inside dispatch(): defer() collects
    struct Deferred {
        QPointer<QObject> context;
        std::function<void()> fn;
    };
    std::vector<Deferred> m_deferred, m_running; // collected this round; being run (kept for their capacity)
    std::vector<std::uint32_t> m_removed;  // slots to free when none is
    std::vector<char> m_readBuffer = std::vector<char>(64 * 1024);
};

} // namespace sb
