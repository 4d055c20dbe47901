#pragma once
// A tiny HTTP/1.1 client for the mock-server tests: raw QTcpSocket, no QNetworkAccessManager
// (which caps at 6 connections per host), both a blocking call for route tests and a
// closed-loop load runner for the batching and throughput tests. Header-only, test use only.
#include "mock/MockServer.h"
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTimer>
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

namespace mocktest {

struct Response {
    int status = 0;             // 0 = no complete response (connection closed or timed out)
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;            // de-chunked
    bool chunked = false;
    bool complete = false;
    qint64 sentNs = 0;
    qint64 firstContentNs = 0;  // first non-empty "content"/"text" seen
    qint64 endNs = 0;
    int contentEvents = 0;      // SSE events carrying non-empty content
    QByteArray header(const QByteArray &lower) const
    {
        for (const auto &h : headers)
            if (h.first == lower)
                return h.second;
        return {};
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QList<QByteArray> sseData() const // payloads of the "data: " lines
    {
        QList<QByteArray> out;
        for (const QByteArray &ev : body.split('\n'))
            if (ev.startsWith("data: "))
                out << ev.mid(6);
        return out;
    }
    double ttftMs() const { return (firstContentNs - sentNs) / 1e6; }
    double latencyMs() const { return (endNs - sentNs) / 1e6; }
};

// Incremental response parser.
class Reader
{
public:
    explicit Reader(Response *r) : m_r(r) {}
    bool feed(const QByteArray &bytes) // true when the response is complete
    {
        m_buf += bytes;
        if (!m_headersDone) {
            const qsizetype e = m_buf.indexOf("\r\n\r\n");
            if (e < 0)
                return false;
            const QList<QByteArray> lines = m_buf.left(e).split('\n');
            m_r->status = lines.value(0).split(' ').value(1).toInt();
            for (int i = 1; i < lines.size(); ++i) {
                const QByteArray l = lines[i].trimmed();
                const qsizetype c = l.indexOf(':');
                if (c > 0)
                    m_r->headers.append({l.left(c).toLower(), l.mid(c + 1).trimmed()});
            }
            m_r->chunked = m_r->header("transfer-encoding") == "chunked";
            m_length = m_r->header("content-length").toLongLong();
            m_buf.remove(0, e + 4);
            m_headersDone = true;
        }
        if (!m_r->chunked) {
            const qsizetype take = std::min<qsizetype>(m_buf.size(), m_length - m_r->body.size());
            m_r->body += m_buf.left(take);
            m_buf.remove(0, take);
            scan();
            if (m_r->body.size() >= m_length)
                return done();
            return false;
        }
        for (;;) {
            const qsizetype e = m_buf.indexOf("\r\n");
            if (e < 0)
                return false;
            bool ok = false;
            const qsizetype n = m_buf.left(e).toLongLong(&ok, 16);
            if (!ok)
                return done();
            if (m_buf.size() < e + 2 + n + 2)
                return false;
            if (n == 0) {
                m_buf.remove(0, e + 4);
                return done();
            }
            m_r->body += m_buf.mid(e + 2, n);
            m_buf.remove(0, e + 2 + n + 2);
            scan();
        }
    }

private:
    bool done()
    {
        m_r->complete = true;
        m_r->endNs = sb::MockServer::nowNs();
        return true;
    }
    void scan()
    {
        // Count content events in the newly added body; the role chunk's "content":"" is not one.
        for (;;) {
            qsizetype a = m_r->body.indexOf("\"content\":\"", m_scanned);
            qsizetype b = m_r->body.indexOf("\"text\":\"", m_scanned);
            qsizetype at = a < 0 ? b : (b < 0 ? a : std::min(a, b));
            if (at < 0) {
                m_scanned = std::max<qsizetype>(m_scanned, m_r->body.size() - 12);
                return;
            }
            const qsizetype v = at + (at == a ? 11 : 8);
            if (v >= m_r->body.size())
                return; // wait for more
            if (m_r->body[v] != '"') {
                ++m_r->contentEvents;
                if (!m_r->firstContentNs)
                    m_r->firstContentNs = sb::MockServer::nowNs();
            }
            m_scanned = v;
        }
    }
    Response *m_r;
    QByteArray m_buf;
    bool m_headersDone = false;
    qint64 m_length = 0;
    qsizetype m_scanned = 0;
};

inline QByteArray requestBytes(const QByteArray &method, const QByteArray &target, const QByteArray &body,
                               const QList<QPair<QByteArray, QByteArray>> &headers = {})
{
    QByteArray out = method + ' ' + target + " HTTP/1.1\r\nhost: 127.0.0.1\r\n";
    for (const auto &h : headers)
        out += h.first + ": " + h.second + "\r\n";
    if (!body.isEmpty() || method == "POST")
        out += "content-type: application/json\r\ncontent-length: " + QByteArray::number(body.size()) + "\r\n";
    out += "\r\n" + body;
    return out;
}

// A keep-alive connection for blocking calls from the test thread.
class Client
{
public:
    explicit Client(quint16 port) : m_port(port) {}
    Response call(const QByteArray &method, const QByteArray &target, const QByteArray &body = {},
                  const QList<QPair<QByteArray, QByteArray>> &headers = {}, int timeoutMs = 30000)
    {
        if (m_socket.state() != QAbstractSocket::ConnectedState) {
            m_socket.abort();
            m_socket.connectToHost(QStringLiteral("127.0.0.1"), m_port);
            if (!m_socket.waitForConnected(5000))
                return {};
        }
        Response r;
        Reader reader(&r);
        r.sentNs = sb::MockServer::nowNs();
        m_socket.write(requestBytes(method, target, body, headers));
        m_socket.flush();
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            if (m_socket.bytesAvailable() == 0 && !m_socket.waitForReadyRead(int(std::max<qint64>(1, timeoutMs - t.elapsed()))))
                break;
            if (reader.feed(m_socket.readAll()))
                return r;
        }
        r.endNs = sb::MockServer::nowNs();
        return r; // incomplete: closed or timed out
    }
    QTcpSocket &socket() { return m_socket; }

private:
    quint16 m_port;
    QTcpSocket m_socket;
};

inline QByteArray chatBody(const QString &prompt, int maxTokens, bool stream, bool usage = true)
{
    QJsonObject o{{QStringLiteral("model"), QStringLiteral("demo-model")},
                  {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                      {QStringLiteral("content"), prompt}}}},
                  {QStringLiteral("max_tokens"), maxTokens},
                  {QStringLiteral("ignore_eos"), true},
                  {QStringLiteral("stream"), stream}};
    if (stream && usage)
        o.insert(QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}});
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

inline QString words(int n, int salt)
{
    QString s;
    s.reserve(n * 8);
    for (int i = 0; i < n; ++i)
        s += QStringLiteral("w%1x%2 ").arg(i).arg(salt);
    return s;
}

// Closed loop: `concurrency` connections, each sending its next request as soon as the last one
// completed, until `total` requests are done. Runs in the calling thread's event loop.
struct LoadResult {
    std::vector<Response> responses;
    double seconds = 0;
    double requestsPerS() const { return responses.size() / seconds; }
    double medianLatencyMs() const
    {
        std::vector<double> v;
        for (const Response &r : responses)
            v.push_back(r.latencyMs());
        std::sort(v.begin(), v.end());
        return v.empty() ? 0 : v[v.size() / 2];
    }
    int failures() const
    {
        return int(std::count_if(responses.begin(), responses.end(),
                                 [](const Response &r) { return !r.complete || r.status != 200; }));
    }
};

inline LoadResult runClosedLoop(quint16 port, int concurrency, int total,
                                const std::function<QByteArray(int)> &bodyFor,
                                const QByteArray &target = "/v1/chat/completions", int timeoutMs = 120000)
{
    struct Slot {
        std::unique_ptr<QTcpSocket> socket;
        std::unique_ptr<Reader> reader;
        Response current;
    };
    LoadResult result;
    result.responses.reserve(size_t(total));
    std::vector<Slot> conns(static_cast<size_t>(concurrency));
    int started = 0, finished = 0;
    QEventLoop loop;
    QElapsedTimer clock;
    std::function<void(Slot &)> sendNext = [&](Slot &s) {
        if (started >= total)
            return;
        const int n = started++;
        s.current = Response();
        s.reader = std::make_unique<Reader>(&s.current);
        s.current.sentNs = sb::MockServer::nowNs();
        s.socket->write(requestBytes("POST", target, bodyFor(n),
                                     {{"x-request-id", "load-" + QByteArray::number(n)}}));
    };
    clock.start();
    for (Slot &s : conns) {
        s.socket = std::make_unique<QTcpSocket>();
        Slot *sp = &s;
        QObject::connect(s.socket.get(), &QTcpSocket::readyRead, &loop, [&, sp] {
            if (!sp->reader)
                return;
            if (sp->reader->feed(sp->socket->readAll())) {
                sp->reader.reset();
                result.responses.push_back(sp->current);
                if (++finished >= total)
                    loop.quit();
                else
                    sendNext(*sp);
            }
        });
        QObject::connect(s.socket.get(), &QTcpSocket::disconnected, &loop, [&, sp] {
            if (!sp->reader)
                return;
            sp->reader.reset();
            sp->current.endNs = sb::MockServer::nowNs();
            result.responses.push_back(sp->current);
            if (++finished >= total)
                loop.quit();
        });
        QObject::connect(s.socket.get(), &QTcpSocket::connected, &loop, [&, sp] { sendNext(*sp); });
        s.socket->connectToHost(QStringLiteral("127.0.0.1"), port);
    }
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    result.seconds = clock.nsecsElapsed() / 1e9;
    return result;
}

} // namespace mocktest
