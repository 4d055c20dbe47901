#pragma once
// One benchmark connection: a closed loop that takes a ticket, sends a request, reads the
// response (SSE or JSON) with exact timestamps, records it, and immediately sends the next.
// C of these give exactly C requests in flight. Lives on one IO thread. In an open-loop phase
// the connection is a slot of the max_concurrency cap: it takes the next ticket when free and
// sends it at the ticket's scheduled time (at once when that has passed: the request waited in
// the client queue for a free slot).
//
// Keep-alive is used, but never trusted: an idle connection is checked before reuse (the peer
// may have closed it, or sent bytes nobody asked for), `Connection: close` and `Keep-Alive:
// max=/timeout=` are honoured, and a request whose *reused* connection dies before any response
// byte is re-sent once on a fresh connection, its clocks restarted at that send
// (docs/ARCHITECTURE.md §11).
#include "io/JsonScan.h"
#include "load/HttpResponseParser.h"
#include "load/PhaseState.h"
#include "load/SessionRun.h"
#include "load/SseParser.h"
#include <QObject>
#include <QTimer>
#include <climits>
#include <memory>
#include <vector>

class QTcpSocket;

namespace sb {

class DueTimer;
class IoReactor;
class StampedSocket;
struct ChunkInfo;

class HttpConnection : public QObject, private HttpResponseParser::Sink
{
    Q_OBJECT
public:
    HttpConnection(std::shared_ptr<PhaseState> state, WorkerData *data, int targetIndex, IoReactor *reactor, QObject *parent);
    ~HttpConnection() override;
    void start();
    void abortForCancel();

private:
    void next();
    // Sessions: the ticket taken goes to the current session's next turn, or opens a new session.
    void takeTurn(int ticket);
    void sendTurnNow(); // after the think time: send on the open connection or connect first
    // The wait before a later turn: the dataset's `delay`, what is left of a replayed trace's
    // gap, else the workload's think time.
    int thinkBefore(const RequestShape &shape, int turn) const;
    // Open loop: connects shortly before the request's scheduled time and sends at it.
    void onDue();
    bool reusable();
    void connectSocket();
    void onConnected();
    void scheduleNext();
    void send();
    void onReadyRead();
    void onStampedReadable();
    // Feeds one read's bytes to the parser; false when the request ended (the caller stops).
    bool consume(const char *p, std::size_t n);
    void dropConnection(); // closes whichever transport is open
    void onDisconnected();
    // The connection broke or closed while `m_busy`: re-send, complete a close-delimited body,
    // or fail the request.
    void connectionLost(const QString &why);
    bool canResend() const;
    void onTimeout();
    void finishRequest(ErrorKind error, const QString &message);
    // The verdict on a complete 2xx answer: is it what was asked for?
    ErrorKind judgeStream(QString *message) const;
    ErrorKind judgeBody(QString *message);
    void streamFailed(ErrorKind kind, const QString &message);
    void takeUsage(const ChunkInfo &info);
    void retire();
    void onHeaders(int status) override;
    void onBody(const char *p, std::size_t n) override;
    void handleEvent(std::string_view data);
    void appendJsonl();
    // The per-event block of members below (m_state to m_jsonResume).
    const void *hotMemory() const { return &m_state; }
    std::size_t hotBytes() const;

    // Read for every event of a stream, so kept together from m_state to m_jsonResume: the
    // IO thread fetches this block ahead of the socket's event (hotMemory(), IoReactor::addHotMemory).
    // Keep what an event reads inside it, and what it does not outside.
    std::shared_ptr<PhaseState> m_state;
    WorkerData *m_data;
    IoReactor *m_reactor;        // the IO thread's, watching m_raw
    StampedSocket *m_raw = nullptr;       // plain TCP once connected: reads carry kernel stamps
    bool m_busy = false;      // a request is outstanding
    bool m_inRead = false;    // m_nowNs belongs to the read being parsed
    bool m_gotBytes = false;  // any response byte arrived for the outstanding request
    bool m_sawDone = false;
    bool m_streamError = false;
    std::int64_t m_nowNs = 0; // arrival time of the bytes being parsed
    std::int64_t m_events = 0;           // SSE data events of the outstanding answer
    std::int64_t m_eventLimit = 0;       // streamEventLimit of its max_tokens
    std::int64_t m_bodyBytes = 0;
    HttpResponseParser m_parser;
    SseParser m_sse;
    RequestRecord m_rec;
    std::vector<std::uint32_t> m_gapsUs; // reused across requests; at most kMaxRecordGaps
    JsonResumePoint m_jsonResume; // the JSON check of this connection's previous event (load/ChunkScanner.h)
    // ---- end of the per-event block

    const PhaseTarget &m_target; // the server URL this connection serves
    QTcpSocket *m_socket = nullptr;       // connecting, and TLS connections
    QTimer m_timeout;
    std::unique_ptr<DueTimer> m_due; // open loop only
    bool m_retired = false;
    bool m_connected = false;
    int m_connectionsOpened = 0;
    // Keep-alive bookkeeping of the open connection.
    int m_requestsOnConnection = 0;   // answered on it so far
    int m_connectionLimit = INT_MAX;  // from Keep-Alive: max=
    std::int64_t m_idleLimitNs = 0;   // from Keep-Alive: timeout= (0 = none)
    std::int64_t m_idleSinceNs = 0;
    bool m_reused = false;    // the outstanding request went out on a connection that had answered before
    // A server that announces keep-alive but closes after every answer (llama-server after a
    // stream) makes reuse a race lost most of the time: after kDeadReuseLimit reuses in a row
    // found the connection dead, this slot stops reusing and opens a fresh one per request.
    int m_deadReuses = 0;
    bool m_reuseOff = false;
    SessionRun m_session;     // workload.sessions only
    std::int64_t m_sessionDueNs = 0; // when the current session's first turn was due (or sent)
    QByteArray m_turnRequest; // the outstanding turn's request bytes
    QTimer m_think;           // the think time before a session's next turn
    std::uint32_t m_gapsOmitted = 0;     // gaps past kMaxRecordGaps (in the histogram only)
    ErrorKind m_streamErrorKind = ErrorKind::None;
    QString m_streamErrorMessage;
    bool m_badUsage = false;
    QByteArray m_body;        // non-streaming or error bodies (bounded)
    QByteArray m_timings;     // the server's timing object, compact JSON
};

} // namespace sb
