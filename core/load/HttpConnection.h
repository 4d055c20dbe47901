#pragma once
// One benchmark connection: a closed loop that takes a ticket, sends a request, reads the
// response (SSE or JSON) with exact timestamps, records it, and immediately sends the next.
// C of these give exactly C requests in flight. Lives on one IO thread.
#include "load/HttpResponseParser.h"
#include "load/PhaseState.h"
#include "load/SseParser.h"
#include <QObject>
#include <QTimer>
#include <memory>
#include <vector>

class QTcpSocket;

namespace sb {

class IoReactor;
class StampedSocket;

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
    void onTimeout();
    void finishRequest(ErrorKind error, const QString &message);
    void retire();
    void onHeaders(int status) override;
    void onBody(const char *p, std::size_t n) override;
    void handleEvent(std::string_view data);
    void appendJsonl();

    std::shared_ptr<PhaseState> m_state;
    WorkerData *m_data;
    const PhaseTarget &m_target; // the server URL this connection serves
    IoReactor *m_reactor;        // the IO thread's, watching m_raw
    QTcpSocket *m_socket = nullptr;       // connecting, and TLS connections
    StampedSocket *m_raw = nullptr;       // plain TCP once connected: reads carry kernel stamps
    QTimer m_timeout;
    HttpResponseParser m_parser;
    SseParser m_sse;
    bool m_busy = false;      // a request is outstanding
    bool m_retired = false;
    bool m_connected = false;
    std::int64_t m_nowNs = 0; // arrival time of the bytes being parsed
    bool m_inRead = false;    // m_nowNs belongs to the read being parsed
    RequestRecord m_rec;
    std::vector<std::uint32_t> m_gapsUs; // reused across requests
    bool m_sawDone = false;
    bool m_streamError = false;
    QString m_streamErrorMessage;
    QByteArray m_body;        // non-streaming or error bodies (capped)
};

} // namespace sb
