#include "load/IoReactor.h"
#include <cerrno>
#include <unistd.h>
#ifdef Q_OS_LINUX
#include <sys/epoll.h>
#endif

namespace sb {

IoReactor::IoReactor(QObject *parent) : QObject(parent)
{
#ifdef Q_OS_LINUX
    if (EpollDispatcher *d = EpollDispatcher::current(); d && d->isValid()) {
        m_dispatcher = d;
        m_epoll = d->epollFd();
        d->attachSink(this);
        return;
    }
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    if (m_epoll >= 0) {
        m_notifier = std::make_unique<QSocketNotifier>(m_epoll, QSocketNotifier::Read);
        connect(m_notifier.get(), &QSocketNotifier::activated, this, [this] { dispatch(); });
    }
#endif
}

IoReactor::~IoReactor()
{
    m_notifier.reset();
    m_slots.clear();
    if (m_dispatcher) {
        m_dispatcher->attachSink(nullptr);
        return; // the set is the dispatcher's (sockets close themselves out of it)
    }
    if (m_epoll >= 0)
        ::close(m_epoll);
}

IoReactor::Entry *IoReactor::find(quint64 handle)
{
    const std::uint32_t slot = std::uint32_t(handle);
    if (slot >= m_slots.size())
        return nullptr;
    Entry *e = m_slots[slot].get();
    return e->live && !e->removed && e->generation == std::uint32_t(handle >> 32) ? e : nullptr;
}

void IoReactor::freeSlot(std::uint32_t slot)
{
    Entry &e = *m_slots[slot];
    const std::uint32_t generation = e.generation;
    e = Entry{};
    // 31 bits: handles stay below EpollDispatcher::kInternalTag in the dispatcher's set.
    e.generation = (generation + 1) & 0x7fff'ffffu;
    m_freeSlots.push_back(slot);
}

quint64 IoReactor::add(int fd, Callback onReadable, Callback onWritable)
{
    std::uint32_t slot = 0;
    if (!m_freeSlots.empty()) {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        slot = std::uint32_t(m_slots.size());
        m_slots.push_back(std::make_unique<Entry>());
    }
    Entry &e = *m_slots[slot];
    e.live = true;
    e.fd = fd;
    e.onReadable = std::move(onReadable);
    e.onWritable = std::move(onWritable);
    ++m_watched;
    // Not the descriptor: a number closed and reused is a new handle, and so is a reused slot.
    const quint64 handle = (quint64(e.generation) << 32) | slot;
#ifdef Q_OS_LINUX
    if (m_epoll >= 0) {
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLRDHUP;
        ev.data.u64 = handle;
        if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev) == 0)
            return handle;
    }
#endif
    e.readNotifier = std::make_unique<QSocketNotifier>(fd, QSocketNotifier::Read);
    connect(e.readNotifier.get(), &QSocketNotifier::activated, this, [this, handle] { invoke(handle, false); });
    return handle;
}

void IoReactor::setWriteInterest(quint64 handle, bool on)
{
    Entry *found = find(handle);
    if (!found || found->writeInterest == on)
        return;
    Entry &e = *found;
    e.writeInterest = on;
    if (e.readNotifier) { // no epoll
        if (!e.writeNotifier) {
            e.writeNotifier = std::make_unique<QSocketNotifier>(e.fd, QSocketNotifier::Write);
            connect(e.writeNotifier.get(), &QSocketNotifier::activated, this, [this, handle] { invoke(handle, true); });
        }
        e.writeNotifier->setEnabled(on);
        return;
    }
#ifdef Q_OS_LINUX
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | (on ? EPOLLOUT : 0u);
    ev.data.u64 = handle;
    ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, e.fd, &ev);
#endif
}

void IoReactor::addHotMemory(quint64 handle, const void *begin, std::size_t bytes)
{
    Entry *e = find(handle);
    if (!e || e->hotSpans >= kHotSpans || !begin || bytes == 0)
        return;
    e->hot[e->hotSpans++] = Span{static_cast<const char *>(begin), bytes};
}

void IoReactor::remove(quint64 handle)
{
    Entry *found = find(handle);
    if (!found)
        return;
    Entry &e = *found;
#ifdef Q_OS_LINUX
    if (!e.readNotifier && m_epoll >= 0)
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, e.fd, nullptr);
#endif
    // Notifiers of the fallback path may be the sender of the running slot: delete them later.
    // Off now (the descriptor is closed right after), deleted later (one may be running).
    for (auto *n : {&e.readNotifier, &e.writeNotifier}) {
        if (*n) {
            (*n)->setEnabled(false);
            n->release()->deleteLater();
        }
    }
    --m_watched;
    if (m_depth > 0) {
        e.removed = true;
        m_removed.push_back(std::uint32_t(handle));
    } else {
        freeSlot(std::uint32_t(handle));
    }
}

bool IoReactor::invoke(quint64 handle, bool writable)
{
    Entry *e = find(handle);
    if (!e)
        return false;
    // The entry is a heap node: slots added by the callback do not move it.
    const Callback &cb = writable ? e->onWritable : e->onReadable;
    if (!cb || (writable && !e->writeInterest))
        return true;
    ++m_depth;
    cb();
    --m_depth;
    const bool alive = !e->removed; // freeing waits for the outermost callback
    if (m_depth == 0 && !m_removed.empty()) {
        for (std::uint32_t slot : m_removed)
            freeSlot(slot);
        m_removed.clear();
    }
    return alive;
}

void IoReactor::defer(QObject *context, std::function<void()> fn)
{
    if (m_dispatching)
        m_deferred.push_back({context, std::move(fn)});
    else
        QMetaObject::invokeMethod(context, std::move(fn), Qt::QueuedConnection);
}

void IoReactor::runDeferred()
{
    // One pass over what this round collected; what those calls defer in turn goes through the
    // event loop, so timers and queued calls are never starved.
    m_dispatching = false;
    m_running.swap(m_deferred);
    for (Deferred &d : m_running)
        if (d.context)
            d.fn();
    m_running.clear();
}

void IoReactor::dispatch()
{
#ifdef Q_OS_LINUX
    // As many per round as the dispatcher takes; the rest stay ready and the notifier fires again.
    epoll_event events[EpollDispatcher::kEventsPerRound];
    const int n = ::epoll_wait(m_epoll, events, EpollDispatcher::kEventsPerRound, 0);
    for (int i = 0; i < n; ++i)
        epollSoon(events[i].data.u64, Stage::Entry);
    for (int i = 0; i < n; ++i) {
        if (i + 1 < n)
            epollSoon(events[i + 1].data.u64, Stage::Memory);
        epollEvent(events[i].data.u64, events[i].events);
    }
    epollRoundDone();
#endif
}

namespace {
inline void prefetch(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p); // a hint: never faults, even on memory freed meanwhile
#else
    Q_UNUSED(p);
#endif
}
constexpr std::size_t kCacheLine = 64;
} // namespace

void IoReactor::epollSoon(std::uint64_t handle, Stage stage)
{
    const std::uint32_t slot = std::uint32_t(handle);
    if (slot >= m_slots.size())
        return;
    const Entry *e = m_slots[slot].get();
    if (stage == Stage::Entry) {
        prefetch(e);
        return;
    }
    if (!e->live || e->removed)
        return;
    for (int k = 0; k < e->hotSpans; ++k) {
        const Span &span = e->hot[k];
        for (std::size_t off = 0; off < span.bytes; off += kCacheLine)
            prefetch(span.begin + off);
        prefetch(span.begin + span.bytes - 1); // the last line, when the span starts mid-line
    }
}

void IoReactor::epollEvent(std::uint64_t handle, std::uint32_t what)
{
#ifdef Q_OS_LINUX
    // Looked up per event (in invoke()): an earlier callback of this round may have removed it.
    m_dispatching = true;
    if ((what & EPOLLOUT) && !invoke(handle, true))
        return;
    if (what & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
        invoke(handle, false);
#else
    Q_UNUSED(handle);
    Q_UNUSED(what);
#endif
}

void IoReactor::epollRoundDone()
{
    runDeferred();
}

} // namespace sb
