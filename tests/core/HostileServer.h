#pragma once
// The one HTTP/1.1 test peer that misbehaves on purpose: each accepted connection runs a
// test-supplied handler on its own thread with blocking POSIX sockets, so a test can close at
// the worst moment, lie about lengths, never send a newline, answer twice, or block whatever
// thread the code under test blocks. Loopback only; every read and write is bounded, and the
// server stops (closing every connection) when it is destroyed. Header-only, test use only.
//  - hostile::Server: the handler gets the connection (hostile::Conn) and reads what it wants;
//  - sbtest::BlockingHttpPeer: the same server, reading one request per connection first and
//    recording it, for control-plane tests that only care about the answer.
#include <QByteArray>
#include <QList>
#include <QString>
#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <functional>
#include <memory>
#include <mutex>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace hostile {

// Writes all of `bytes`; false once the peer is gone or `stop` is set (never raises SIGPIPE).
inline bool sendAll(int fd, const QByteArray &bytes, const std::atomic<bool> *stop = nullptr)
{
    qsizetype off = 0;
    while (off < bytes.size() && !(stop && *stop)) {
        const ssize_t n = ::send(fd, bytes.constData() + off, std::size_t(bytes.size() - off), MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        off += n;
    }
    return off == bytes.size();
}

class Conn
{
public:
    explicit Conn(int fd, const std::atomic<bool> &stop) : m_fd(fd), m_stop(stop) {}
    ~Conn() { close(); }
    int index = 0; // connection number on this server, from 0

    // Reads one request (headers and a Content-Length body). Empty when the peer closed, the
    // server stops, or nothing came within timeoutMs.
    QByteArray readRequest(int timeoutMs = 10000)
    {
        for (;;) {
            const int end = m_buf.indexOf("\r\n\r\n");
            if (end >= 0) {
                const QByteArray head = m_buf.left(end + 4);
                int length = 0;
                for (const QByteArray &line : head.split('\n'))
                    if (line.toLower().startsWith("content-length:"))
                        length = line.mid(15).trimmed().toInt();
                if (m_buf.size() >= end + 4 + length) {
                    const QByteArray req = m_buf.left(end + 4 + length);
                    m_buf.remove(0, req.size());
                    return req;
                }
            }
            if (!fill(timeoutMs))
                return {};
        }
    }
    bool write(const QByteArray &bytes) { return sendAll(m_fd, bytes, &m_stop); }
    int fd() const { return m_fd; }
    // Waits until the client closes (or the server stops, or timeoutMs): true when it closed.
    bool waitClientClose(int timeoutMs)
    {
        while (fill(timeoutMs)) {
        }
        return m_peerClosed;
    }
    void close()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }
    // Closes with a TCP reset (SO_LINGER 0): the client's next read fails with ECONNRESET.
    void reset()
    {
        if (m_fd < 0)
            return;
        const linger l{1, 0};
        ::setsockopt(m_fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        close();
    }
    bool stopping() const { return m_stop; }

private:
    bool fill(int timeoutMs)
    {
        for (int waited = 0; waited < timeoutMs && !m_stop && m_fd >= 0; waited += 50) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            char tmp[16384];
            const ssize_t n = ::recv(m_fd, tmp, sizeof tmp, 0);
            if (n <= 0) {
                m_peerClosed = true;
                return false;
            }
            if (m_buf.size() > 8 * 1024 * 1024)
                return false; // a test server never needs more
            m_buf.append(tmp, qsizetype(n));
            return true;
        }
        return false;
    }

    int m_fd;
    const std::atomic<bool> &m_stop;
    QByteArray m_buf;
    bool m_peerClosed = false;
};

class Server
{
public:
    using Handler = std::function<void(Conn &)>;
    explicit Server(Handler handler) : m_handler(std::move(handler))
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        const int one = 1;
        ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_listen, reinterpret_cast<sockaddr *>(&a), sizeof a);
        ::listen(m_listen, 512);
        socklen_t len = sizeof a;
        ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_acceptor = std::thread([this] { acceptLoop(); });
    }
    ~Server()
    {
        m_stop = true;
        ::shutdown(m_listen, SHUT_RDWR);
        m_acceptor.join();
        std::vector<std::thread> threads;
        {
            std::lock_guard lock(m_mutex);
            threads.swap(m_threads);
        }
        for (auto &t : threads)
            t.join();
        ::close(m_listen);
    }
    quint16 port() const { return m_port; }
    int connections() const { return m_accepted; }
    bool stopping() const { return m_stop; }
    QByteArray url() const { return "http://127.0.0.1:" + QByteArray::number(m_port); }

private:
    void acceptLoop()
    {
        while (!m_stop) {
            pollfd p{m_listen, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            const int fd = ::accept(m_listen, nullptr, nullptr);
            if (fd < 0)
                continue;
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            const int index = m_accepted++;
            std::lock_guard lock(m_mutex);
            m_threads.emplace_back([this, fd, index] {
                Conn c(fd, m_stop);
                c.index = index;
                m_handler(c);
            });
        }
    }

    Handler m_handler;
    int m_listen = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_accepted{0};
    std::mutex m_mutex;
    std::vector<std::thread> m_threads;
    std::thread m_acceptor;
};

// A chat-completions SSE answer: `tokens` content events, a usage event, [DONE], chunked.
inline QByteArray sseBody(int tokens, const QByteArray &usageExtra = {})
{
    QByteArray events;
    events += "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
    for (int i = 0; i < tokens; ++i)
        events += "data: {\"choices\":[{\"delta\":{\"content\":\"t" + QByteArray::number(i) + " \"}}]}\n\n";
    events += "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":" + QByteArray::number(tokens) + usageExtra + "}}\n\n";
    events += "data: [DONE]\n\n";
    return events;
}

inline QByteArray chunked(const QByteArray &body)
{
    return QByteArray::number(body.size(), 16) + "\r\n" + body + "\r\n0\r\n\r\n";
}

// Headers + chunked SSE body; `extraHeaders` end with \r\n each.
inline QByteArray sseResponse(const QByteArray &body, const QByteArray &extraHeaders = {})
{
    return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n" + extraHeaders + "\r\n" +
           chunked(body);
}

inline QByteArray jsonResponse(int status, const QByteArray &json, const QByteArray &extraHeaders = {})
{
    return "HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: application/json\r\nContent-Length: " +
           QByteArray::number(json.size()) + "\r\n" + extraHeaders + "\r\n" + json;
}

// A 200 text/plain answer (a Prometheus /metrics body).
inline QByteArray textResponse(const QByteArray &body)
{
    return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

inline QByteArray headerValue(const QByteArray &request, const QByteArray &name)
{
    for (const QByteArray &line : request.split('\n'))
        if (line.toLower().startsWith(name.toLower() + ':'))
            return line.mid(name.size() + 1).trimmed();
    return {};
}

} // namespace hostile

namespace sbtest {

// A request-level view of hostile::Server: each connection reads one request (headers and a
// Content-Length body), records it and hands it to the handler, which writes what it likes on
// the socket; the connection is closed when the handler returns.
class BlockingHttpPeer
{
public:
    struct Request {
        QByteArray method, target, head, body;
        QByteArray header(const QByteArray &name) const
        {
            for (const QByteArray &line : head.split('\n')) {
                const int colon = line.indexOf(':');
                if (colon > 0 && line.left(colon).trimmed().compare(name, Qt::CaseInsensitive) == 0)
                    return line.mid(colon + 1).trimmed();
            }
            return {};
        }
    };
    using Handler = std::function<void(BlockingHttpPeer &server, int fd, const Request &request)>;

    explicit BlockingHttpPeer(Handler handler) : m_handler(std::move(handler)), m_server([this](hostile::Conn &c) { serve(c); }) {}
    BlockingHttpPeer(const BlockingHttpPeer &) = delete;
    BlockingHttpPeer &operator=(const BlockingHttpPeer &) = delete;

    quint16 port() const { return m_server.port(); }
    QString url() const { return QString::fromLatin1(m_server.url()); }
    bool stopping() const { return m_server.stopping(); }
    QList<Request> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }

    static bool send(int fd, const QByteArray &data) { return hostile::sendAll(fd, data); }
    // Keeps the connection open, saying nothing, until the peer closes it or the server stops.
    void holdSilent(int fd) const
    {
        char buf[4096];
        while (!stopping()) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 20) > 0 && ::recv(fd, buf, sizeof buf, 0) <= 0)
                return;
        }
    }
    // Sends `piece` again and again until the peer stops reading or the server stops.
    void flood(int fd, const QByteArray &piece) const
    {
        while (!stopping() && send(fd, piece)) {
        }
    }
    static QByteArray response(int status, const QByteArray &contentType, const QByteArray &body)
    {
        return "HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: " + contentType
               + "\r\nConnection: close\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

private:
    void serve(hostile::Conn &c)
    {
        const QByteArray raw = c.readRequest(60000); // empty when the client left or the server stops
        if (raw.isEmpty())
            return;
        Request r;
        const qsizetype headEnd = raw.indexOf("\r\n\r\n");
        r.head = raw.left(headEnd);
        const QList<QByteArray> first = r.head.left(r.head.indexOf('\r')).split(' ');
        r.method = first.value(0);
        r.target = first.value(1);
        r.body = raw.mid(headEnd + 4);
        {
            std::lock_guard lock(m_mutex);
            m_requests.append(r);
        }
        m_handler(*this, c.fd(), r);
        ::shutdown(c.fd(), SHUT_WR);
    }

    // Declared before m_server: its threads use them, and it is destroyed (joined) first.
    Handler m_handler;
    mutable std::mutex m_mutex;
    QList<Request> m_requests;
    hostile::Server m_server;
};

} // namespace sbtest
