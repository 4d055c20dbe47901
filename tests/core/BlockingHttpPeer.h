#pragma once
// A loopback HTTP/1.1 server for misbehaviour tests: plain blocking sockets on its own threads
// (one per connection), so it answers whatever thread the code under test blocks. Each
// connection reads one request (headers + Content-Length body) and hands it to the handler,
// which writes what it likes; the connection is closed when the handler returns.
#include <QByteArray>
#include <QList>
#include <QMutex>
#include <QString>
#include <arpa/inet.h>
#include <atomic>
#include <functional>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sbtest {

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

    explicit BlockingHttpPeer(Handler handler) : m_handler(std::move(handler))
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0;
        if (::bind(m_listen, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || ::listen(m_listen, 128) != 0)
            return;
        socklen_t len = sizeof addr;
        ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_acceptor = std::thread([this] { acceptLoop(); });
    }
    ~BlockingHttpPeer()
    {
        m_stop = true;
        ::shutdown(m_listen, SHUT_RDWR);
        if (m_acceptor.joinable())
            m_acceptor.join();
        for (std::thread &t : m_connections)
            t.join();
        ::close(m_listen);
    }
    BlockingHttpPeer(const BlockingHttpPeer &) = delete;
    BlockingHttpPeer &operator=(const BlockingHttpPeer &) = delete;

    quint16 port() const { return m_port; }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    bool stopping() const { return m_stop; }
    QList<Request> requests() const
    {
        QMutexLocker lock(&m_mutex);
        return m_requests;
    }

    // Writes all of `data`; false once the peer is gone (never raises SIGPIPE).
    static bool send(int fd, const QByteArray &data)
    {
        qsizetype off = 0;
        while (off < data.size()) {
            const ssize_t n = ::send(fd, data.constData() + off, size_t(data.size() - off), MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            off += n;
        }
        return true;
    }
    // Keeps the connection open, saying nothing, until the peer closes it or the server stops.
    void holdSilent(int fd) const
    {
        char buf[4096];
        while (!m_stop) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 20) > 0 && ::recv(fd, buf, sizeof buf, 0) <= 0)
                return;
        }
    }
    // Sends `piece` again and again until the peer stops reading or the server stops.
    void flood(int fd, const QByteArray &piece) const
    {
        while (!m_stop && send(fd, piece)) {
        }
    }
    static QByteArray response(int status, const QByteArray &contentType, const QByteArray &body)
    {
        return "HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: " + contentType
               + "\r\nConnection: close\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

private:
    void acceptLoop()
    {
        while (!m_stop) {
            const int fd = ::accept(m_listen, nullptr, nullptr);
            if (fd < 0)
                return;
            m_connections.emplace_back([this, fd] { serve(fd); });
        }
    }
    // recv that gives up when the server stops (an idle keep-alive connection must not hang it).
    ssize_t recvSome(int fd, char *buf, size_t size) const
    {
        while (!m_stop) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 20) > 0)
                return ::recv(fd, buf, size, 0);
        }
        return -1;
    }
    void serve(int fd)
    {
        QByteArray in;
        char buf[8192];
        qsizetype headEnd = -1;
        while (headEnd < 0) {
            const ssize_t n = recvSome(fd, buf, sizeof buf);
            if (n <= 0) {
                ::close(fd);
                return;
            }
            in.append(buf, n);
            headEnd = in.indexOf("\r\n\r\n");
        }
        Request r;
        r.head = in.left(headEnd);
        const QList<QByteArray> first = r.head.left(r.head.indexOf('\r')).split(' ');
        r.method = first.value(0);
        r.target = first.value(1);
        const qsizetype length = r.header("Content-Length").toLongLong();
        r.body = in.mid(headEnd + 4);
        while (r.body.size() < length) {
            const ssize_t n = recvSome(fd, buf, sizeof buf);
            if (n <= 0)
                break;
            r.body.append(buf, n);
        }
        {
            QMutexLocker lock(&m_mutex);
            m_requests.append(r);
        }
        m_handler(*this, fd, r);
        ::shutdown(fd, SHUT_WR);
        ::close(fd);
    }

    Handler m_handler;
    int m_listen = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_acceptor;
    std::vector<std::thread> m_connections; // touched by the acceptor only until it is joined
    mutable QMutex m_mutex;
    QList<Request> m_requests;
};

} // namespace sbtest
