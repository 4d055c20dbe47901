#include "load/RxStamp.h"
#include <algorithm>
#include <chrono>
#include <cstring>
#include <sys/socket.h>
#include <sys/uio.h>
#ifdef Q_OS_LINUX
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#endif

namespace sb {

namespace {
qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch()).count();
}
qint64 realtimeNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch()).count();
}
constexpr qint64 kResampleNs = 1'000'000'000;
} // namespace

bool enableRxTimestamps(int fd)
{
#ifdef Q_OS_LINUX
    // Software receive stamps (taken when the packet enters the stack), reported as software.
    const int flags = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
    if (::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof flags) == 0)
        return true;
    const int on = 1; // older or restricted kernels: the same stamp as a plain timespec
    return ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0;
#else
    Q_UNUSED(fd);
    return false;
#endif
}

qint64 readStamped(int fd, char *buf, std::size_t size, qint64 *stampNs, int flags)
{
    *stampNs = 0;
    iovec iov{buf, size};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
#ifdef Q_OS_LINUX
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(scm_timestamping)) + CMSG_SPACE(sizeof(timespec))];
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
#endif
    const ssize_t n = ::recvmsg(fd, &msg, MSG_DONTWAIT | flags);
#ifdef Q_OS_LINUX
    if (n > 0) {
        for (cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
            if (cm->cmsg_level != SOL_SOCKET)
                continue;
            timespec ts{};
            if (cm->cmsg_type == SCM_TIMESTAMPING && cm->cmsg_len >= CMSG_LEN(sizeof(scm_timestamping))) {
                scm_timestamping t;
                std::memcpy(&t, CMSG_DATA(cm), sizeof t);
                ts = t.ts[0]; // [0] software, [2] hardware (never on loopback)
            } else if (cm->cmsg_type == SCM_TIMESTAMPNS && cm->cmsg_len >= CMSG_LEN(sizeof(timespec))) {
                std::memcpy(&ts, CMSG_DATA(cm), sizeof ts);
            } else {
                continue;
            }
            if (ts.tv_sec > 0)
                *stampNs = qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
        }
    }
#endif
    return qint64(n);
}

void RxClock::sample(qint64 steadyNow)
{
    qint64 best = -1;
    for (int i = 0; i < 5; ++i) {
        const qint64 m1 = steadyNs();
        const qint64 r = realtimeNs();
        const qint64 m2 = steadyNs();
        if (best < 0 || m2 - m1 < best) {
            best = m2 - m1;
            m_offsetNs = r - (m1 + (m2 - m1) / 2);
        }
    }
    m_windowNs = best;
    m_sampledAtNs = steadyNow > 0 ? steadyNow : steadyNs();
}

qint64 RxClock::toSteady(qint64 stampNs, qint64 readNs)
{
    if (m_sampledAtNs == 0 || readNs - m_sampledAtNs >= kResampleNs)
        sample(readNs);
    qint64 steady = stampNs - m_offsetNs;
    if (steady > readNs + m_windowNs) { // the wall clock stepped forward since the last sample
        sample(readNs);
        steady = stampNs - m_offsetNs;
    }
    return std::min(steady, readNs);
}

} // namespace sb
