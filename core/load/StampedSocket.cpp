#include "load/StampedSocket.h"
#include "load/PhaseState.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sb {


StampedSocket::StampedSocket(int fd, IoReactor *reactor, std::function<void()> onReadable, QObject *parent)
    : QObject(parent), m_fd(fd), m_reactor(reactor)
{
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    enableRxTimestamps(fd);
    m_handle = m_reactor->add(fd, std::move(onReadable), [this] { flushPending(); });
    m_reactor->addHotMemory(m_handle, this, sizeof *this); // every read starts here
}

void StampedSocket::addHotMemory(const void *begin, std::size_t bytes)
{
    if (m_handle)
        m_reactor->addHotMemory(m_handle, begin, bytes);
}

StampedSocket::~StampedSocket()
{
    close();
}

void StampedSocket::close()
{
    if (m_handle) {
        m_reactor->remove(m_handle);
        m_handle = 0;
    }
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

qint64 StampedSocket::read(char *buf, std::size_t size, std::int64_t *arrivalNs)
{
    if (m_fd < 0)
        return WouldBlock;
    // A TCP read reports the stamp of the newest segment it consumed, and the kernel merges a
    // segment into an unread one before it (keeping the newer stamp): a reader that keeps up
    // gets each event's own arrival time, one that lags gets the newest waiting bytes' time for
    // all it finds (late, never early; still earlier than its own clock would say).
    qint64 stamp = 0;
    const qint64 n = readStamped(m_fd, buf, size, &stamp);
    const std::int64_t readNs = steadyNowNs();
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return WouldBlock;
        m_error = QString::fromLocal8Bit(std::strerror(errno));
        return Failed;
    }
    m_stamped = stamp > 0;
    *arrivalNs = m_stamped ? m_clock.toSteady(stamp, readNs) : readNs;
    return n;
}

StampedSocket::IdleState StampedSocket::idleState() const
{
    if (m_fd < 0)
        return IdleState::PeerClosed;
    char c;
    const ssize_t n = ::recv(m_fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n > 0)
        return IdleState::UnsolicitedBytes;
    if (n == 0)
        return IdleState::PeerClosed;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? IdleState::Open : IdleState::PeerClosed;
}

bool StampedSocket::write(const QByteArray &bytes)
{
    m_pending += bytes;
    flushPending();
    return m_error.isEmpty();
}

void StampedSocket::flushPending()
{
    if (m_fd < 0)
        return;
    while (!m_pending.isEmpty()) {
        const ssize_t n = ::send(m_fd, m_pending.constData(), std::size_t(m_pending.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            m_pending.remove(0, qsizetype(n));
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            break; // the kernel buffer is full: continue when it drains
        m_error = QString::fromLocal8Bit(std::strerror(errno));
        m_pending.clear();
        break;
    }
    m_reactor->setWriteInterest(m_handle, !m_pending.isEmpty());
}

} // namespace sb
