#pragma once
// A connected plain-TCP socket read with recvmsg(), so that every read says when its bytes
// reached this machine's network stack (load/RxStamp.h), not when an IO thread got round to
// them. The benchmark client moves a connection here once QTcpSocket has connected it: at C=256
// a server's step emits 256 events at once and the thread that drains them reads the last one
// a millisecond late; with these stamps that lateness stays out of TTFT, ITL and latency.
// TLS connections stay on QSslSocket (decryption needs it) with the thread's own clock.
#include "load/IoReactor.h"
#include "load/RxStamp.h"
#include <QByteArray>
#include <QObject>
#include <cstdint>
#include <functional>

namespace sb {

class StampedSocket : public QObject
{
public:
    // Takes ownership of `fd` (connected, any blocking mode); `onReadable` runs when bytes or
    // the peer's close are waiting. `reactor` (the IO thread's, load/IoReactor.h) watches it.
    StampedSocket(int fd, IoReactor *reactor, std::function<void()> onReadable, QObject *parent);
    ~StampedSocket() override;

    enum : qint64 { WouldBlock = -1, Failed = -2 };
    // Bytes read (> 0), 0 when the peer closed, WouldBlock or Failed (see errorString()).
    // *arrivalNs: steadyNowNs() time the newest of these bytes arrived (the read time when the
    // kernel gave no stamp).
    qint64 read(char *buf, std::size_t size, std::int64_t *arrivalNs);
    // Queues the bytes and sends what the kernel takes now; false on a broken connection.
    bool write(const QByteArray &bytes);
    QString errorString() const { return m_error; }
    void close(); // stops notifications and closes the descriptor (the peer sees the close)
    // What an idle connection holds, looked at without consuming it: before a keep-alive
    // connection is reused, a server's close (llama.cpp closes after a stream although it
    // announces keep-alive) or bytes nobody asked for must send the request elsewhere.
    enum class IdleState { Open, PeerClosed, UnsolicitedBytes };
    IdleState idleState() const;
    // The owner's per-read state, fetched ahead of this socket's events (IoReactor::addHotMemory).
    void addHotMemory(const void *begin, std::size_t bytes);
    bool kernelStamps() const { return m_stamped; } // the last read carried a kernel stamp

private:
    void flushPending();

    int m_fd;
    IoReactor *m_reactor;
    quint64 m_handle = 0;
    QByteArray m_pending;
    RxClock m_clock;
    QString m_error;
    bool m_stamped = false;
};

} // namespace sb
