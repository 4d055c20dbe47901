// The mock's output path. Token events are not written from inside the scheduler's step: the
// step appends each event to its connection's out-buffer, and a write pass, run from the event
// loop right after the step, hands each connection's pending bytes to the kernel in one send().
//
// While the writer keeps up, that is one send() per event at its step's time, as before. When
// it lags (1024 streams at near-zero step cost), the pass yields to the model when the next
// step is due, so the model keeps its own clock instead of being stretched by socket work, and
// the connections the pass has not reached yet collect several events that then leave in one
// send(), as they would from a real server's transport buffer. On loopback TCP the kernel's
// cost is per segment far more than per byte (the receiver's side runs in the sender's
// context), so this is what lets two cores carry 1024 streams at well over 100k events/s.
#include "mock/MockWorker.h"
#include <QSocketNotifier>
#include <algorithm>
#include <cerrno>
#include <limits>
#include <sys/socket.h>

namespace sb {

namespace {
// A write pass yields at the model's next step or after this long, whichever comes first, so
// that new requests and control calls are read promptly even while the writer lags.
constexpr qint64 kMaxPassNs = 2'000'000;
// ...but always writes this many connections first, so that output progresses even when the
// model is permanently due (its step is cheaper than one pass).
constexpr int kMinWritesPerPass = 16;
// Out-buffers keep their capacity between writes (one allocation per connection, not per
// event), unless a backlog made them larger than this.
constexpr qsizetype kKeepCapacity = 64 * 1024;
} // namespace

void MockWorker::send(Connection *c, QByteArrayView bytes)
{
    if (c->dead)
        return;
    c->out += bytes; // behind anything still queued, so the byte order holds
    writeOut(c);
}

void MockWorker::queueWrite(Connection *c)
{
    if (!c->queued) {
        c->queued = true;
        m_writeQueue.push_back(c->id);
    }
    if (!m_writePassPosted) {
        m_writePassPosted = true;
        QMetaObject::invokeMethod(this, [this] { writePass(); }, Qt::QueuedConnection);
    }
}

void MockWorker::writePass()
{
    m_writePassPosted = false;
    const qint64 start = MockServer::nowNs();
    const qint64 wake = m_scheduler ? m_scheduler->nextWakeNs() : 0;
    const qint64 until = std::min(start + kMaxPassNs, wake > 0 ? wake : std::numeric_limits<qint64>::max());
    int written = 0;
    while (!m_writeQueue.empty()) {
        if (written >= kMinWritesPerPass && MockServer::nowNs() >= until) {
            // The rest waits for the next pass, after the model's step (their events pile up).
            m_writePassPosted = true;
            QMetaObject::invokeMethod(this, [this] { writePass(); }, Qt::QueuedConnection);
            return;
        }
        const quint64 id = m_writeQueue.front();
        m_writeQueue.pop_front();
        if (Connection *c = connection(id)) {
            c->queued = false;
            writeOut(c);
            ++written;
        }
    }
}

void MockWorker::writeOut(Connection *c)
{
    if (c->dead || c->out.isEmpty())
        return;
    if (c->exchange && c->exchange->firstTokenQueued) {
        // The timing the benchmark compares against: when the first content bytes reach the socket.
        c->exchange->firstTokenQueued = false;
        c->exchange->firstTokenNs = MockServer::nowNs();
    }
    const QByteArray &bytes = c->out;
    m_shared->socketWrites.fetch_add(1, std::memory_order_relaxed);
    // A direct send(), no write notifier per call (with 1024 streams that cost more than the
    // writes). A write notifier is on only while the kernel buffer is full (a slow reader), and
    // the order holds: nothing is sent directly while earlier bytes wait in c->unsent.
    if (c->unsent.isEmpty()) {
        qsizetype done = ::send(c->fd, bytes.constData(), size_t(bytes.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (done < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                c->out = QByteArray();
                onDisconnected(c); // the peer is gone
                return;
            }
            done = 0;
        }
        if (done < bytes.size()) {
            c->unsent = bytes.sliced(done);
            if (!c->writeNotifier) {
                c->writeNotifier = std::make_unique<QSocketNotifier>(c->fd, QSocketNotifier::Write);
                connect(c->writeNotifier.get(), &QSocketNotifier::activated, this, [this, c] { onWritable(c); });
            }
            c->writeNotifier->setEnabled(true);
        }
    } else {
        c->unsent += bytes;
    }
    if (c->out.capacity() > kKeepCapacity)
        c->out = QByteArray();
    else
        c->out.resize(0);
}

void MockWorker::onWritable(Connection *c)
{
    if (c->dead)
        return;
    while (!c->unsent.isEmpty()) {
        const qsizetype done = ::send(c->fd, c->unsent.constData(), size_t(c->unsent.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (done < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return; // still full: the notifier fires again
            onDisconnected(c); // the peer is gone
            return;
        }
        c->unsent.remove(0, done);
    }
    c->unsent = QByteArray();
    c->writeNotifier->setEnabled(false);
    if (c->closing)
        closeConnection(c);
}

} // namespace sb
