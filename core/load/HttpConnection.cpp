#include "load/HttpConnection.h"
#include "spec/SpecRules.h"
#include "load/ChunkScanner.h"
#include "load/StampedSocket.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkProxy>
#include <QSslSocket>
#include <QTcpSocket>
#include <charconv>
#include <unistd.h>

namespace sb {

namespace {
constexpr int kBodyCap = 256 * 1024;
constexpr int kJsonlFlush = 256 * 1024;
} // namespace

HttpConnection::HttpConnection(std::shared_ptr<PhaseState> state, WorkerData *data, int targetIndex, IoReactor *reactor, QObject *parent)
    : QObject(parent), m_state(std::move(state)), m_data(data),
      m_target(m_state->config.targets[std::size_t(targetIndex)]), m_reactor(reactor)
{
    m_timeout.setSingleShot(true);
    m_timeout.setTimerType(Qt::CoarseTimer);
    connect(&m_timeout, &QTimer::timeout, this, &HttpConnection::onTimeout);
    m_gapsUs.reserve(256);
}

HttpConnection::~HttpConnection() = default;

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
    m_rec.inputTokens = m_target.factory->promptTokens();
    if (m_connected)
        send();
    else
        connectSocket();
}

void HttpConnection::dropConnection()
{
    m_connected = false;
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
        if (m_busy) {
            finishRequest(ErrorKind::Connection, m_socket->errorString());
            scheduleNext();
        }
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
    // Small request writes must not wait for Nagle (DESIGN.md §4: it added ~44 ms).
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
        }
    }
    send();
}

void HttpConnection::scheduleNext()
{
    if (!m_retired && !m_busy)
        QMetaObject::invokeMethod(this, &HttpConnection::next, Qt::QueuedConnection);
}

void HttpConnection::send()
{
    m_parser.reset();
    m_sse.reset();
    m_gapsUs.clear();
    m_body.clear();
    m_sawDone = false;
    m_streamError = false;
    m_streamErrorMessage.clear();
    const QByteArray request = m_target.factory->build(m_rec.ticket);
    m_busy = true;
    m_state->requestStarted();
    m_rec.sendNs = steadyNowNs(); // clocks start at the actual send, not when the slot was queued
    if (m_raw) {
        m_raw->write(request); // a broken connection shows up as a failed read right after
    } else {
        m_socket->write(request);
        m_socket->flush();
    }
    m_timeout.start(spec::timerMs(m_state->config.timeoutS));
}

void HttpConnection::onReadyRead()
{
    if (!m_busy) { // bytes nobody asked for: the server is confused; start afresh
        m_socket->readAll();
        return;
    }
    m_nowNs = steadyNowNs(); // one timestamp per read: these bytes arrived together
    m_inRead = true;
    std::vector<char> &buf = m_reactor->readBuffer();
    for (;;) {
        const qint64 n = m_socket->read(buf.data(), qint64(buf.size()));
        if (n <= 0 || !consume(buf.data(), std::size_t(n)))
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
            const QString why = n == 0 ? QString() : m_raw->errorString();
            dropConnection();
            if (!why.isEmpty() && m_busy) {
                finishRequest(ErrorKind::Connection, why);
                scheduleNext();
            } else {
                onDisconnected();
            }
            break;
        }
        if (!m_busy) // bytes nobody asked for: the server is confused; start afresh
            continue;
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
            finishRequest(ErrorKind::Protocol, QString::fromStdString(m_parser.error()));
            scheduleNext();
            return false;
        }
        if (m_streamError) {
            finishRequest(ErrorKind::Protocol, m_streamErrorMessage);
            scheduleNext();
            return false;
        }
        if (result == HttpResponseParser::Result::Complete) {
            const bool keepAlive = m_parser.keepAlive();
            finishRequest(ErrorKind::None, QString());
            if (!keepAlive)
                dropConnection();
            scheduleNext();
            return false;
        }
        if (used == 0)
            break;
    }
    return true;
}

void HttpConnection::onHeaders(int status)
{
    m_rec.status = status;
}

void HttpConnection::onBody(const char *p, std::size_t n)
{
    if (m_rec.status == 200 && m_parser.isEventStream()) {
        m_sse.feed(p, n, [this](std::string_view data) { handleEvent(data); });
        return;
    }
    if (m_body.size() < kBodyCap)
        m_body.append(p, qsizetype(std::min<std::size_t>(n, std::size_t(kBodyCap - m_body.size()))));
}

void HttpConnection::handleEvent(std::string_view data)
{
    if (m_streamError)
        return;
    const ChunkInfo info = scanChunk(data);
    if (info.done) {
        m_sawDone = true;
        return;
    }
    if (info.malformed || info.error) {
        m_streamError = true;
        m_streamErrorMessage = info.malformed ? QStringLiteral("malformed SSE event: ") + QString::fromUtf8(data.data(), int(std::min<std::size_t>(data.size(), 120)))
                                              : QStringLiteral("error event in stream: ") + QString::fromUtf8(data.data(), int(std::min<std::size_t>(data.size(), 200)));
        return;
    }
    if (info.hasContent) {
        if (m_rec.firstTokenNs < 0) {
            m_rec.firstTokenNs = m_nowNs;
            m_state->ttftSumUs.fetch_add((m_nowNs - m_rec.sendNs) / 1000, std::memory_order_relaxed);
            m_state->ttftCount.fetch_add(1, std::memory_order_relaxed);
        } else {
            const auto gapUs = std::uint32_t(std::min<std::int64_t>(std::max<std::int64_t>(m_nowNs - m_rec.lastTokenNs, 0) / 1000, UINT32_MAX));
            m_gapsUs.push_back(gapUs);
        }
        m_rec.lastTokenNs = m_nowNs;
        ++m_rec.outputTokens; // counted; replaced by usage when the server sends it
    }
    if (info.hasUsage && info.completionTokens >= 0) {
        m_rec.outputTokens = int(info.completionTokens);
        m_rec.usageTokens = true;
        if (info.promptTokens >= 0)
            m_rec.inputTokens = int(info.promptTokens);
    }
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
    m_connected = false;
    if (!m_busy)
        return;
    if (m_parser.headersDone() && m_parser.finishOnClose(*this) == HttpResponseParser::Result::Complete && !m_streamError) {
        finishRequest(ErrorKind::None, QString());
    } else {
        finishRequest(ErrorKind::Connection, m_parser.headersDone() ? QStringLiteral("connection closed mid-response")
                                                                      : QStringLiteral("connection closed before a response"));
    }
    scheduleNext();
}

void HttpConnection::finishRequest(ErrorKind error, const QString &message)
{
    if (!m_busy)
        return;
    m_timeout.stop();
    const bool sent = m_rec.sendNs > 0;
    m_rec.endNs = m_inRead ? m_nowNs : steadyNowNs(); // a response ends when its last byte arrived
    if (error == ErrorKind::None && m_rec.status != 200) {
        error = ErrorKind::Http;
    } else if (error == ErrorKind::None && m_parser.isEventStream() && !m_sawDone) {
        error = ErrorKind::Protocol;
    } else if (error == ErrorKind::None && !m_parser.isEventStream()) {
        // Non-streaming: read the answer once (not the hot path of a streaming benchmark).
        const QJsonObject obj = QJsonDocument::fromJson(m_body).object();
        const QJsonObject usage = obj.value(QStringLiteral("usage")).toObject();
        if (obj.isEmpty()) {
            error = ErrorKind::Protocol;
        } else if (usage.contains(QStringLiteral("completion_tokens"))) {
            m_rec.outputTokens = usage.value(QStringLiteral("completion_tokens")).toInt();
            m_rec.inputTokens = usage.value(QStringLiteral("prompt_tokens")).toInt(m_rec.inputTokens);
            m_rec.usageTokens = true;
        } else {
            const QJsonObject choice = obj.value(QStringLiteral("choices")).toArray().at(0).toObject();
            const QString text = choice.contains(QStringLiteral("message"))
                                     ? choice.value(QStringLiteral("message")).toObject().value(QStringLiteral("content")).toString()
                                     : choice.value(QStringLiteral("text")).toString();
            m_rec.outputTokens = int(text.split(QLatin1Char(' '), Qt::SkipEmptyParts).size());
        }
    }
    m_rec.error = error;
    QString sample = message;
    QString kindKey = QString::fromLatin1(errorKindName(error));
    if (error == ErrorKind::Http) {
        kindKey = QStringLiteral("http_%1").arg(m_rec.status);
        sample = QString::fromUtf8(m_body.left(200)).simplified();
    } else if (error == ErrorKind::Protocol && sample.isEmpty()) {
        sample = m_parser.isEventStream() ? QStringLiteral("stream ended without data: [DONE]") : QStringLiteral("response body is not a JSON object");
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
    }
    if (sent)
        m_state->requestEnded();
    else
        m_state->finished.fetch_add(1, std::memory_order_relaxed);
    m_busy = false;
    if (error != ErrorKind::None) // the connection's framing is unknown after an error: start a fresh one
        dropConnection();
}

void HttpConnection::appendJsonl()
{
    // Hand-formatted: this runs once per request and must not build a JSON DOM.
    const std::int64_t base = m_state->startNs;
    const auto rel = [base](std::int64_t t) { return t > 0 ? t - base : -1; };
    QByteArray &out = m_data->jsonl;
    out += "{\"i\":" + QByteArray::number(m_rec.ticket);
    if (m_state->config.targets.size() > 1) // which of the server's URLs served it
        out += ",\"origin\":\"" + m_target.target.origin.toUtf8() + '"';
    out += ",\"send_ns\":" + QByteArray::number(rel(m_rec.sendNs));
    out += ",\"first_token_ns\":" + QByteArray::number(m_rec.firstTokenNs >= 0 ? rel(m_rec.firstTokenNs) : -1);
    out += ",\"end_ns\":" + QByteArray::number(rel(m_rec.endNs));
    const bool timed = m_rec.sendNs > 0;
    out += ",\"ttft_ms\":" + (timed && m_rec.firstTokenNs >= 0 ? QByteArray::number(double(m_rec.firstTokenNs - m_rec.sendNs) / 1e6, 'f', 3) : QByteArray("null"));
    out += ",\"latency_ms\":" + (timed ? QByteArray::number(double(m_rec.endNs - m_rec.sendNs) / 1e6, 'f', 3) : QByteArray("null"));
    const bool hasItl = m_rec.firstTokenNs >= 0 && m_rec.outputTokens >= 2;
    out += ",\"itl_ms\":" + (hasItl ? QByteArray::number(double(m_rec.endNs - m_rec.firstTokenNs) / 1e6 / (m_rec.outputTokens - 1), 'f', 4) : QByteArray("null"));
    out += ",\"status\":" + QByteArray::number(m_rec.status);
    out += m_rec.ok() ? ",\"ok\":true" : ",\"ok\":false";
    out += ",\"error_kind\":\"" + QByteArray(errorKindName(m_rec.error)) + '"';
    out += ",\"error\":";
    if (m_rec.ok()) {
        out += "\"\"";
    } else {
        const QString kindKey = m_rec.error == ErrorKind::Http ? QStringLiteral("http_%1").arg(m_rec.status)
                                                               : QString::fromLatin1(errorKindName(m_rec.error));
        const QJsonArray wrap{m_data->errorSamples.value(kindKey)};
        const QByteArray enc = QJsonDocument(wrap).toJson(QJsonDocument::Compact);
        out += enc.mid(1, enc.size() - 2); // strip [ ]
    }
    out += ",\"input_tokens\":" + QByteArray::number(m_rec.inputTokens);
    out += ",\"output_tokens\":" + QByteArray::number(m_rec.outputTokens);
    out += m_rec.usageTokens ? ",\"token_source\":\"usage\"" : ",\"token_source\":\"counted\"";
    out += ",\"inter_chunk_us\":[";
    char num[16];
    for (std::size_t i = 0; i < m_gapsUs.size(); ++i) {
        if (i)
            out += ',';
        const auto r = std::to_chars(num, num + sizeof num, m_gapsUs[i]); // no temporary QByteArray per gap
        out.append(num, qsizetype(r.ptr - num));
    }
    out += "]}\n";
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
    dropConnection();
    m_state->connectionDone();
}

} // namespace sb
