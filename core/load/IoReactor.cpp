#include "load/IoReactor.h"
#include <cerrno>
#include <unistd.h>
#ifdef Q_OS_LINUX
#include <sys/epoll.h>
#endif

namespace sb {

namespace {
#ifdef Q_OS_LINUX
// Events taken per round; more stay ready (level-triggered) and the notifier fires again, so a
// flood on some sockets cannot keep Qt's own events (timers, queued calls) waiting.
constexpr int kEventsPerRound = 256;
#endif
} // namespace

IoReactor::IoReactor(QObject *parent) : QObject(parent)
{
#ifdef Q_OS_LINUX
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
    m_entries.clear();
    if (m_epoll >= 0)
        ::close(m_epoll);
}

quint64 IoReactor::add(int fd, Callback onReadable, Callback onWritable)
{
    const quint64 handle = m_nextHandle++;
    Entry &e = m_entries[handle];
    e.fd = fd;
    e.onReadable = std::move(onReadable);
    e.onWritable = std::move(onWritable);
#ifdef Q_OS_LINUX
    if (m_epoll >= 0) {
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLRDHUP;
        ev.data.u64 = handle; // not the descriptor: a number closed and reused is a new handle
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
    const auto it = m_entries.find(handle);
    if (it == m_entries.end() || it->second.removed || it->second.writeInterest == on)
        return;
    Entry &e = it->second;
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

void IoReactor::remove(quint64 handle)
{
    const auto it = m_entries.find(handle);
    if (it == m_entries.end() || it->second.removed)
        return;
    Entry &e = it->second;
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
    if (m_depth > 0) {
        e.removed = true;
        m_removed.push_back(handle);
    } else {
        m_entries.erase(it);
    }
}

bool IoReactor::invoke(quint64 handle, bool writable)
{
    const auto it = m_entries.find(handle);
    if (it == m_entries.end() || it->second.removed)
        return false;
    // A reference into the node: unordered_map keeps nodes in place when others are added.
    const Callback &cb = writable ? it->second.onWritable : it->second.onReadable;
    if (!cb || (writable && !it->second.writeInterest))
        return true;
    ++m_depth;
    cb();
    --m_depth;
    const bool alive = !m_entries.at(handle).removed; // erasure waits for the outermost callback
    if (m_depth == 0 && !m_removed.empty()) {
        for (quint64 h : m_removed)
            m_entries.erase(h);
        m_removed.clear();
    }
    return alive;
}

void IoReactor::dispatch()
{
#ifdef Q_OS_LINUX
    epoll_event events[kEventsPerRound];
    const int n = ::epoll_wait(m_epoll, events, kEventsPerRound, 0);
    for (int i = 0; i < n; ++i) {
        // Looked up per event (in invoke()): an earlier callback of this round may have removed it.
        const quint64 handle = events[i].data.u64;
        const std::uint32_t what = events[i].events;
        if ((what & EPOLLOUT) && !invoke(handle, true))
            continue;
        if (what & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
            invoke(handle, false);
    }
#endif
}

} // namespace sb
