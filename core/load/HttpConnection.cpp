#include "load/HttpConnection.h"
#include "load/DueTimer.h"
#include "load/RecordLine.h"
#include "load/StampedSocket.h"
#include "spec/SpecRules.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkProxy>
#include <QSslSocket>
#include <QTcpSocket>
#include <algorithm>
#include <cmath>
#include <unistd.h>

namespace sb {

namespace {
constexpr int kJsonlFlush = 256 * 1024;
constexpr std::int64_t kIdleMarginNs = 500'000'000; // reconnect this long before a server's keep-alive timeout
constexpr int kDeadReuseLimit = 2;
// Open loop: a fresh connection is opened this long before its request is due, so connecting
// is not schedule lag, yet not so early that an idle server closes it first.
constexpr std::int64_t kPreconnectNs = 100'000'000;
} // namespace

HttpConnection::HttpConnection(std::shared_ptr<PhaseState> state, WorkerData *data, int targetIndex, IoReactor *reactor, QObject *parent)
    : QObject(parent), m_state(std::move(state)), m_data(data), m_reactor(reactor),
      m_target(m_state->config.targets[std::size_t(targetIndex)])
{
    m_timeout.setSingleShot(true);
    m_timeout.setTimerType(Qt::CoarseTimer);
    connect(&m_timeout, &QTimer::timeout, this, &HttpConnection::onTimeout);
    m_gapsUs.reserve(256);
    if (m_state->config.schedule)
        m_due = std::make_unique<DueTimer>(m_reactor, [this] { onDue(); });
    m_think.setSingleShot(true);
    m_think.setTimerType(Qt::PreciseTimer);
    connect(&m_think, &QTimer::timeout, this, &HttpConnection::sendTurnNow);
}

HttpConnection::~HttpConnection() = default;

std::size_t HttpConnection::hotBytes() const
{
    // Members of one access level are laid out in declaration order.
    return std::size_t(reinterpret_cast<const char *>(&m_jsonResume + 1) - static_cast<const char *>(hotMemory()));
}

void HttpConnection::start()
{
    next();
}

void HttpConnection::next()
{
    if (m_retired)
        return;
    const int ticket = m_state->takeTicket();
    if (ticket < 0) {
        retire();
        return;
    }
    m_rec = RequestRecord();
    m_rec.ticket = ticket;
    m_rec.queueNs = steadyNowNs();
    const RequestShape shape = m_target.factory->shape(ticket); // requested lengths, kept beside the measured
    m_rec.inputTokens = shape.inputTokens;
    m_rec.requestedInputTokens = shape.inputTokens;
    m_rec.requestedOutputTokens = shape.outputTokens;
    m_rec.images = shape.images;
    m_rec.imageBytes = shape.imageBytes;
    if (m_state->config.sessions) {
        takeTurn(ticket);
        return;
    }
    m_rec.prefix = std::int16_t(m_target.factory->prefixFor(ticket));
    if (m_state->config.schedule) {
        m_rec.scheduledNs = m_state->startNs + m_state->config.schedule->offsetNs(ticket);
        onDue();
        return;
    }
    if (m_connected && !reusable())
        dropConnection();
    if (m_connected)
        send();
    else
        connectSocket();
}

void HttpConnection::takeTurn(int ticket)
{
    const PhaseConfig &cfg = m_state->config;
    const RequestFactory &factory = *m_target.factory;
    const bool first = !m_session.active();
    if (first) {
        const int id = m_state->nextSession.fetch_add(1, std::memory_order_relaxed);
        const int fromDataset = factory.datasetTurns(id); // a dataset conversation gives its own turns
        m_session.begin(id, fromDataset > 0 ? fromDataset : cfg.sessions->turnsOf(cfg.seed, id), factory.prefixFor(id),
                        factory.sendsHistory());
    }
    const int turn = m_session.nextTurn();
    // A follow-up message (or a dataset's turn) asks for its own lengths; turn 1's images are
    // re-sent by every later turn in its history.
    const RequestShape shape = factory.turnShape(ticket, m_session.id(), turn);
    m_rec.inputTokens = shape.inputTokens;
    m_rec.requestedInputTokens = shape.inputTokens;
    m_rec.requestedOutputTokens = shape.outputTokens;
    if (first)
        m_session.setImages(shape.images, shape.imageBytes);
    m_rec.images = m_session.images();
    m_rec.imageBytes = m_session.imageBytes();
    m_rec.sessionId = std::int32_t(m_session.id());
    m_rec.turn = std::int16_t(std::min(turn, int(INT16_MAX)));
    const int repeated = factory.repeatedTokens(m_session.id(), turn);
    m_rec.historyTokens = repeated >= 0 ? repeated : m_session.historyTokens();
    m_rec.prefix = std::int16_t(m_session.prefix());
    // Built once here, not in send(): a re-send on a fresh connection sends the same turn.
    QByteArray user;
    m_turnRequest = m_target.factory->buildTurn(ticket, m_session.id(), turn, m_session.prefix(), m_session.history(), &user);
    m_session.sent(std::move(user));
    if (first && cfg.schedule) { // open loop: the arrival rate counts sessions, timed by their first turn
        m_rec.scheduledNs = m_state->startNs + cfg.schedule->offsetNs(int(m_session.id()));
        m_sessionDueNs = m_rec.scheduledNs;
        if (m_state->deadlineNs > 0 && m_rec.scheduledNs >= m_state->deadlineNs) { // due after a duration phase ends
            retire();
            return;
        }
        onDue();
        return;
    }
    if (first)
        m_sessionDueNs = steadyNowNs();
    const int thinkMs = first ? 0 : thinkBefore(shape, turn);
    if (thinkMs > 0) {
        m_think.start(thinkMs);
        return;
    }
    sendTurnNow();
}

int HttpConnection::thinkBefore(const RequestShape &shape, int turn) const
{
    const PhaseConfig &cfg = m_state->config;
    const DatasetEntry *e = shape.entry;
    if (e && e->delayMs >= 0) // the trace's own think time
        return e->delayMs;
    // A trace replayed at its timestamps: a later turn is due at its own time after the
    // session's first, at the speed the point replays the trace, and never before the answer
    // it follows (the wait is what is left of the gap).
    if (e && e->timestampMs >= 0 && cfg.schedule && cfg.schedule->traceScale() > 0) {
        const DatasetEntry *opening = m_target.factory->turnShape(m_rec.ticket, m_session.id(), 1).entry;
        if (opening && opening->timestampMs >= 0) {
            const double dueNs = double(m_sessionDueNs) + (e->timestampMs - opening->timestampMs) * cfg.schedule->traceScale() * 1e6;
            const double waitMs = (dueNs - double(steadyNowNs())) / 1e6;
            return waitMs > 0 ? int(std::min<double>(std::ceil(waitMs), kMaxThinkTimeMs)) : 0;
        }
    }
    return cfg.sessions->thinkMsBefore(cfg.seed, m_session.id(), turn);
}

void HttpConnection::sendTurnNow()
{
    if (m_retired)
        return;
    const std::int64_t now = steadyNowNs();
    if (m_state->deadlineNs > 0 && now >= m_state->deadlineNs) { // a duration phase ended while the user thought
        retire();
        return;
    }
    m_rec.queueNs = now; // the think time is the user's, not a client queue
    if (m_connected && !reusable())
        dropConnection();
    if (m_connected)
        send();
    else
        connectSocket();
}

void HttpConnection::onDue()
{
    if (m_retired || m_busy)
        return;
    const std::int64_t now = steadyNowNs();
    if (!m_connected && m_rec.scheduledNs - now > kPreconnectNs) {
        m_due->arm(m_rec.scheduledNs - kPreconnectNs);
        return;
    }
    if (m_connected && now < m_rec.scheduledNs) {
        m_due->arm(m_rec.scheduledNs);
        return;
    }
    if (m_connected && !reusable())
        dropConnection();
    if (m_connected)
        send();
    else
        connectSocket(); // onConnected() waits for the due time or sends
}

bool HttpConnection::reusable()
{
    if (m_requestsOnConnection >= m_connectionLimit)
        return false;
    if (m_idleLimitNs > 0 && steadyNowNs() - m_idleSinceNs > m_idleLimitNs)
        return false;
    if (m_raw) {
        switch (m_raw->idleState()) {
        case StampedSocket::IdleState::Open: return true;
        case StampedSocket::IdleState::PeerClosed:
            m_reuseOff = ++m_deadReuses >= kDeadReuseLimit;
            return false;
        case StampedSocket::IdleState::UnsolicitedBytes:
            ++m_data->unsolicited; // never credited to the next request
            return false;
        }
    }
    if (m_socket) {
        if (m_socket->bytesAvailable() > 0) {
            ++m_data->unsolicited;
            return false;
        }
        return m_socket->state() == QAbstractSocket::ConnectedState;
    }
    return false;
}

void HttpConnection::dropConnection()
{
    m_connected = false;
    m_requestsOnConnection = 0;
    m_connectionLimit = INT_MAX;
    m_idleLimitNs = 0;
    if (m_raw) {
        // Closed now, deleted later: this may run inside the socket's own notification.
        m_raw->close();
        m_raw->deleteLater();
        m_raw = nullptr;
    }
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
        m_socket = nullptr;
    }
}

void HttpConnection::connectSocket()
{
    dropConnection();
    if (m_connectionsOpened++ > 0)
        ++m_data->reconnects; // a server that closes every connection shows here
    const auto &t = m_target.target;
    QSslSocket *ssl = t.tls ? new QSslSocket(this) : nullptr;
    m_socket = ssl ? ssl : new QTcpSocket(this);
    // Proxies would add a hop the user did not ask for; benchmark traffic goes direct.
    m_socket->setProxy(QNetworkProxy::NoProxy);
    if (ssl)
        connect(ssl, &QSslSocket::encrypted, this, [this] { onConnected(); });
    else
        connect(m_socket, &QTcpSocket::connected, this, [this] { onConnected(); });
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &HttpConnection::onDisconnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket->error() == QAbstractSocket::RemoteHostClosedError)
            return; // handled by disconnected()
        if (m_busy)
            connectionLost(m_socket->errorString());
    });
    // The request timeout also bounds connecting.
    m_busy = true;
    m_timeout.start(spec::timerMs(m_state->config.timeoutS));
    if (ssl)
        ssl->connectToHostEncrypted(t.host, t.port);
    else
        m_socket->connectToHost(t.host, t.port);
}

void HttpConnection::onConnected()
{
    m_connected = true;
    // Small request writes must not wait for Nagle (docs/ARCHITECTURE.md §9: it added ~44 ms).
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    if (!m_target.target.tls) {
        // Take the connected socket over (a duplicate of its descriptor keeps the connection
        // open when QTcpSocket lets go of its own; nothing has been read yet: HTTP servers do
        // not speak first) so that every read carries the kernel's receive time.
        const int fd = ::dup(int(m_socket->socketDescriptor()));
        if (fd >= 0) {
            m_socket->disconnect(this);
            m_socket->abort();
            m_socket->deleteLater();
            m_socket = nullptr;
            m_raw = new StampedSocket(fd, m_reactor, [this] { onStampedReadable(); }, this);
            m_raw->addHotMemory(hotMemory(), hotBytes());
        }
    }
    if (m_due && steadyNowNs() < m_rec.scheduledNs) { // connected ahead of an open-loop request's time
        m_busy = false;
        m_timeout.stop();
        m_due->arm(m_rec.scheduledNs);
        return;
    }
    send();
}

void HttpConnection::scheduleNext()
{
    if (!m_retired && !m_busy)
        m_reactor->defer(this, [this] { next(); });
}

void HttpConnection::send()
{
    m_parser.reset();
    m_sse.reset();
    m_gapsUs.clear();
    m_gapsOmitted = 0;
    m_events = 0;
    m_eventLimit = streamEventLimit(m_rec.requestedOutputTokens);
    m_body.clear();
    m_timings.clear();
    m_bodyBytes = 0;
    m_sawDone = false;
    m_streamError = false;
    m_streamErrorKind = ErrorKind::None;
    m_streamErrorMessage.clear();
    m_badUsage = false;
    m_gotBytes = false;
    m_reused = m_requestsOnConnection > 0;
    const QByteArray request = m_state->config.sessions ? m_turnRequest : m_target.factory->build(m_rec.ticket);
    m_busy = true;
    m_state->requestStarted();
    m_rec.sendNs = steadyNowNs(); // clocks start at the actual send (the one that gets the answer)
    m_timeout.start(spec::timerMs(m_state->config.timeoutS));
    if (m_raw) {
        if (!m_raw->write(request)) // the peer reset a connection we believed idle
            connectionLost(m_raw->errorString());
    } else {
        m_socket->write(request);
        m_socket->flush();
    }
}

bool HttpConnection::canResend() const
{
    // Only a request that went out on a connection that had already answered, and of which no
    // byte came back: the server cannot have acted on it in a way we saw. Once.
    return m_reused && !m_gotBytes && !m_rec.resent && m_rec.sendNs > 0 && !m_state->cancelled.load(std::memory_order_relaxed);
}

void HttpConnection::connectionLost(const QString &why)
{
    if (!m_busy) {
        dropConnection();
        return;
    }
    if (canResend()) {
        m_reuseOff = ++m_deadReuses >= kDeadReuseLimit;
        m_state->requestWithdrawn();
        m_rec.resent = true;
        m_rec.sendNs = 0; // not in flight until the fresh connection sends it
        ++m_data->resent;
        connectSocket(); // drops the dead one; onConnected() sends, restarting the clocks
        return;
    }
    const bool headers = m_parser.headersDone();
    dropConnection();
    if (headers && why.isEmpty() && m_parser.finishOnClose(*this) == HttpResponseParser::Result::Complete && !m_streamError) {
        finishRequest(ErrorKind::None, QString()); // a body delimited by the close
    } else if (m_streamError) {
        finishRequest(m_streamErrorKind, m_streamErrorMessage);
    } else {
        QString message = headers ? QStringLiteral("connection closed mid-response") : QStringLiteral("connection closed before a response");
        if (m_rec.sendNs <= 0 && !why.isEmpty()) // never sent: the connect itself failed
            message = QStringLiteral("could not connect");
        if (!why.isEmpty())
            message += QStringLiteral(" (") + why + QLatin1Char(')');
        finishRequest(ErrorKind::Connection, message);
    }
    scheduleNext();
}

void HttpConnection::onReadyRead()
{
    std::vector<char> &buf = m_reactor->readBuffer();
    if (!m_busy) { // bytes nobody asked for: this connection can no longer be trusted
        ++m_data->unsolicited;
        dropConnection();
        return;
    }
    m_nowNs = steadyNowNs(); // one timestamp per read: these bytes arrived together
    m_inRead = true;
    for (;;) {
        const qint64 n = m_socket->read(buf.data(), qint64(buf.size()));
        if (n <= 0)
            break;
        m_gotBytes = true;
        if (!consume(buf.data(), std::size_t(n)))
            break;
    }
    m_inRead = false;
}

void HttpConnection::onStampedReadable()
{
    if (!m_raw)
        return;
    m_inRead = true;
    std::vector<char> &buf = m_reactor->readBuffer();
    for (;;) {
        const qint64 n = m_raw->read(buf.data(), buf.size(), &m_nowNs);
        if (n == StampedSocket::WouldBlock)
            break;
        if (n == 0 || n == StampedSocket::Failed) {
            // A failed read carries no stamp: the request ends now, not at an earlier read's
            // time (a reset on a connection's first read dated it 0: a negative latency).
            if (n == StampedSocket::Failed)
                m_nowNs = steadyNowNs();
            connectionLost(n == 0 ? QString() : m_raw->errorString());
            break;
        }
        if (!m_busy) { // bytes nobody asked for: this connection can no longer be trusted
            ++m_data->unsolicited;
            dropConnection();
            break;
        }
        m_gotBytes = true;
        if (!consume(buf.data(), std::size_t(n)))
            break;
        // A short read took all there was: the reactor is level-triggered and reports the socket
        // again if more arrives, so the read that would only say EAGAIN is saved (a third of
        // the receive syscalls when every step brings one event per stream).
        if (std::size_t(n) < buf.size())
            break;
    }
    m_inRead = false;
}

bool HttpConnection::consume(const char *p, std::size_t n)
{
    std::size_t offset = 0;
    while (offset < n && m_busy) {
        std::size_t used = 0;
        const auto result = m_parser.feed(p + offset, n - offset, *this, &used);
        offset += used;
        if (result == HttpResponseParser::Result::Error) {
            finishRequest(m_parser.oversize() ? ErrorKind::Oversize : ErrorKind::Protocol, QString::fromStdString(m_parser.error()));
            scheduleNext();
            return false;
        }
        if (m_streamError) {
            finishRequest(m_streamErrorKind, m_streamErrorMessage);
            scheduleNext();
            return false;
        }
        if (result == HttpResponseParser::Result::Complete) {
            // Bytes after the end of the answer were not asked for: they must not become the
            // next request's answer, so the connection is not reused.
            const bool leftover = offset < n;
            if (leftover)
                ++m_data->unsolicited;
            finishRequest(ErrorKind::None, QString());
            if (m_reused)
                m_deadReuses = 0; // a reuse that worked: the server keeps connections after all
            if (m_connected && (leftover || !m_parser.keepAlive() || m_reuseOff)) {
                dropConnection();
            } else if (m_connected) {
                ++m_requestsOnConnection;
                // Keep-Alive: max= is read both as the connection's total and as what remains
                // after this answer (servers use either); the smaller bound wins.
                if (const int max = m_parser.keepAliveMax(); max >= 0)
                    m_connectionLimit = std::min(m_connectionLimit, m_requestsOnConnection + max - 1);
                if (const int t = m_parser.keepAliveTimeoutS(); t > 0)
                    m_idleLimitNs = std::max<std::int64_t>(0, std::int64_t(t) * 1'000'000'000 - kIdleMarginNs);
                m_idleSinceNs = steadyNowNs();
            }
            scheduleNext();
            return false;
        }
        if (used == 0)
            break;
    }
    return true;
}

void HttpConnection::onTimeout()
{
    if (!m_busy)
        return;
    finishRequest(ErrorKind::Timeout, QStringLiteral("no complete response within %1 s").arg(m_state->config.timeoutS));
    scheduleNext();
}

void HttpConnection::onDisconnected()
{
    connectionLost(QString());
}

void HttpConnection::finishRequest(ErrorKind error, const QString &message)
{
    if (!m_busy)
        return;
    m_timeout.stop();
    const bool sent = m_rec.sendNs > 0;
    m_rec.endNs = m_inRead ? m_nowNs : steadyNowNs(); // a response ends when its last byte arrived
    QString sample = message;
    if (error == ErrorKind::None && m_rec.status != 200) {
        error = ErrorKind::Http;
    } else if (error == ErrorKind::None && m_parser.encoded()) {
        error = ErrorKind::ContentEncoding;
        sample = QStringLiteral("the server compressed the answer (Content-Encoding) although identity was asked for");
    } else if (error == ErrorKind::None) {
        error = m_parser.isEventStream() ? judgeStream(&sample) : judgeBody(&sample);
    }
    m_rec.error = error;
    const QString kindKey = errorKey(error, m_rec.status);
    if (error == ErrorKind::Http) {
        sample = QString::fromUtf8(m_body.left(200)).simplified();
    }
    if (error != ErrorKind::None && !m_data->errorSamples.contains(kindKey)) // scrubbed: servers echo keys
        m_data->errorSamples.insert(kindKey, m_state->config.secrets ? m_state->config.secrets->scrub(sample.left(300)) : sample.left(300));
    if (!sent) // failed before sending (connect error): it never was in flight at the server
        m_rec.sendNs = 0;
    m_data->records.push_back(m_rec);
    for (auto g : m_gapsUs)
        m_data->interChunkUs.add(g);
    if (!m_state->config.recordsPath.isEmpty()) {
        appendJsonl();
        if (m_data->jsonl.size() > kJsonlFlush)
            m_state->writeRecords(m_data->jsonl);
    }
    if (error == ErrorKind::None) {
        m_state->outputTokens.fetch_add(m_rec.outputTokens, std::memory_order_relaxed);
        m_state->latencySumUs.fetch_add((m_rec.endNs - m_rec.sendNs) / 1000, std::memory_order_relaxed);
    } else {
        m_state->failed.fetch_add(1, std::memory_order_relaxed);
    }
    if (sent)
        m_state->requestEnded();
    else
        m_state->finished.fetch_add(1, std::memory_order_relaxed);
    m_busy = false;
    if (m_state->config.sessions)
        m_session.turnEnded(error == ErrorKind::None, m_rec.usageTokens ? m_rec.inputTokens : -1, m_rec.usageTokens ? m_rec.outputTokens : -1);
    if (error != ErrorKind::None) // the connection's framing is unknown after an error: start a fresh one
        dropConnection();
}

void HttpConnection::appendJsonl()
{
    RecordLineInput in;
    in.record = &m_rec;
    in.phaseStartNs = m_state->startNs;
    in.requestId = m_target.factory->requestId(m_rec.ticket);
    if (m_state->config.targets.size() > 1) // which of the server's URLs served it
        in.origin = m_target.target.origin.toUtf8();
    if (!m_rec.ok()) {
        const QString kindKey = errorKey(m_rec.error, m_rec.status);
        in.errorKey = kindKey.toLatin1();
        const QJsonArray wrap{m_data->errorSamples.value(kindKey)};
        const QByteArray enc = QJsonDocument(wrap).toJson(QJsonDocument::Compact);
        in.errorJson = enc.mid(1, enc.size() - 2); // strip [ ]
    }
    // Server-controlled like the error text: a key it echoes is scrubbed here too.
    in.timingsJson = m_state->config.secrets && !m_timings.isEmpty() ? m_state->config.secrets->scrub(m_timings) : m_timings;
    in.gapsUs = &m_gapsUs;
    in.gapsOmitted = m_gapsOmitted;
    appendRecordLine(m_data->jsonl, in);
}

void HttpConnection::abortForCancel()
{
    if (m_busy)
        finishRequest(ErrorKind::Cancelled, QStringLiteral("cancelled"));
    retire();
}

void HttpConnection::retire()
{
    if (m_retired)
        return;
    m_retired = true;
    m_timeout.stop();
    m_think.stop();
    if (m_due)
        m_due->disarm();
    dropConnection();
    m_state->connectionDone();
}

} // namespace sb
