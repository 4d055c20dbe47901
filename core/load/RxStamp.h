#pragma once
// When did bytes really arrive? The kernel's software receive timestamp, not the time an event
// loop got round to reading them. The mock stamps request arrival with it (a loop busy writing
// 256 streams reads late, and that lateness is server time); the benchmark client stamps
// response bytes with it (an IO thread draining a burst of 256 events reads the last one late,
// and that lateness must not land in TTFT or ITL).
//
// Linux: SO_TIMESTAMPING (software receive stamps) on the listening and every accepted socket;
// each recvmsg() then carries an SCM_TIMESTAMPING message with the time the most recent skb of
// that read entered the network stack (on loopback: inside the sender's send() call). Elsewhere,
// or when the option is refused, reads carry no stamp and the caller falls back to its own clock.
#include <QtGlobal>
#include <cstddef>

namespace sb {

// Turns receive timestamps on for `fd` (a listening socket passes them on to accepted ones and
// switches the kernel's stamping on before the first client arrives). False when not available.
bool enableRxTimestamps(int fd);

// One recvmsg() without blocking. Returns what recv() returns (errno set on -1). *realtimeNs is
// the kernel's CLOCK_REALTIME receive stamp of the newest bytes read, 0 when the read carried none.
// `flags` are added to MSG_DONTWAIT. For TCP the stamp is that of the newest segment the call
// consumed (segments merged while unread carry the newer one's).
qint64 readStamped(int fd, char *buf, std::size_t size, qint64 *realtimeNs, int flags = 0);

// Converts those CLOCK_REALTIME stamps to steadyNowNs() and MockServer::nowNs() (steady_clock = CLOCK_MONOTONIC).
// The offset realtime - monotonic is sampled as the tightest of a few (monotonic, realtime,
// monotonic) triples, so it is off by at most half that window (tens of ns). NTP slewing changes
// both clocks' rate alike and leaves the offset alone; only a step of the wall clock moves it.
// It is re-sampled every second, and at once when a converted stamp lies in the future (a step
// forward since the last sample); a step backward goes unseen for up to a second. So the error
// bound is half the sampling window, plus any wall-clock step in the last second.
class RxClock
{
public:
    // The steady time of kernel stamp `realtimeNs`, never later than `readNs` (the steady time
    // of the read that returned it: the bytes were there before the read).
    qint64 toSteady(qint64 realtimeNs, qint64 readNs);
    qint64 windowNs() const { return m_windowNs; } // width of the last sampling window

private:
    void sample(qint64 steadyNow);
    qint64 m_offsetNs = 0;      // realtime - steady
    qint64 m_sampledAtNs = 0;   // steady time of the last sample; 0 = never
    qint64 m_windowNs = 0;
};

} // namespace sb
