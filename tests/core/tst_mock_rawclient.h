#pragma once
// A bare epoll streaming client for the mock's throughput test and benchmark
// (tests/bench/mock_bench.cpp): one thread, no Qt event loop, so that the figure measures the
// server rather than a Qt client juggling 1024 socket notifiers on the same two cores.
// Linux only. Header-only, test and benchmark use only.
#include "tst_mock_client.h"
#include <QtGlobal>
#ifdef Q_OS_LINUX
#include <arpa/inet.h>
#include <cerrno>
#include <ctime>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace mocktest {

struct RawResult {
    qint64 events = 0;          // SSE events with non-empty content
    int completed = 0;          // streams that ended with the terminating chunk
    int failed = 0;             // streams that could not connect or were closed early
    qint64 firstSendNs = 0, firstEventNs = 0, lastEndNs = 0;
    qint64 cpuNs = 0;           // this client thread's CPU time
    // Per content event after a stream's first: time since that stream's previous event, in
    // microseconds. Events that arrive in one read() with the previous one count 0.
    std::vector<qint32> gapsUs;

    double eventsPerSecond() const { return lastEndNs > firstSendNs ? events / ((lastEndNs - firstSendNs) / 1e9) : 0; }
};

inline qint64 threadCpuNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Opens `streams` connections to 127.0.0.1:port, sends each one streaming chat request for
// `tokens` tokens and reads every stream to its end (or until `timeoutS`). Call it in a thread
// of its own; it blocks.
inline RawResult runRawStreams(quint16 port, int streams, int tokens, bool keepGaps = false, int timeoutS = 110)
{
    RawResult res;
    const qint64 cpu0 = threadCpuNs();
    const int ep = ::epoll_create1(EPOLL_CLOEXEC);
    struct Conn { int fd = -1; QByteArray tail; bool done = false; qint64 lastEventNs = 0; };
    std::vector<Conn> conns(static_cast<size_t>(streams));
    if (keepGaps)
        res.gapsUs.reserve(size_t(streams) * size_t(tokens));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    res.firstSendNs = sb::MockServer::nowNs();
    for (int i = 0; i < streams; ++i) {
        Conn &c = conns[size_t(i)];
        c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (::connect(c.fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
            ++res.failed;
            c.done = true;
            continue;
        }
        const QByteArray req = requestBytes("POST", "/v1/chat/completions",
            chatBody(QStringLiteral("stream %1").arg(i), tokens, true));
        if (::send(c.fd, req.constData(), size_t(req.size()), MSG_NOSIGNAL) != req.size())
            ++res.failed;
        ::fcntl(c.fd, F_SETFL, O_NONBLOCK);
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u32 = quint32(i);
        ::epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
    }
    static const QByteArray kToken = "{\"content\":\"";
    static const QByteArray kEnd = "\r\n0\r\n\r\n";
    std::vector<char> buf(1 << 16);
    epoll_event events[256];
    const qint64 deadline = sb::MockServer::nowNs() + qint64(timeoutS) * 1000000000;
    int open = streams - res.failed;
    while (open > 0 && sb::MockServer::nowNs() < deadline) {
        const int n = ::epoll_wait(ep, events, 256, 1000);
        for (int k = 0; k < n; ++k) {
            Conn &c = conns[events[k].data.u32];
            for (;;) {
                const ssize_t got = ::read(c.fd, buf.data(), buf.size());
                if (got <= 0) {
                    if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                        if (!c.done) { c.done = true; ++res.failed; --open; }
                        ::epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);
                    }
                    break;
                }
                const qint64 now = sb::MockServer::nowNs();
                // Count token events across read boundaries: keep a short tail.
                QByteArray chunk = c.tail + QByteArray::fromRawData(buf.data(), qsizetype(got));
                for (qsizetype at = chunk.indexOf(kToken); at >= 0; at = chunk.indexOf(kToken, at + 1)) {
                    if (at + kToken.size() >= chunk.size() || chunk[at + kToken.size()] == '"')
                        continue; // the role chunk's empty content, or cut at the read's end
                    ++res.events;
                    if (!res.firstEventNs)
                        res.firstEventNs = now;
                    if (keepGaps && c.lastEventNs)
                        res.gapsUs.push_back(qint32((now - c.lastEventNs) / 1000));
                    c.lastEventNs = now;
                }
                if (!c.done && chunk.endsWith(kEnd)) {
                    c.done = true;
                    ++res.completed;
                    --open;
                    res.lastEndNs = now;
                }
                c.tail = chunk.right(kToken.size() + 1);
            }
        }
    }
    for (Conn &c : conns)
        ::close(c.fd);
    ::close(ep);
    res.cpuNs = threadCpuNs() - cpu0;
    return res;
}

} // namespace mocktest
#endif
