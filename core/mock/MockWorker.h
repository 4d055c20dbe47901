#pragma once
// The mock server's insides, all living in the server thread: the listening socket, every
// connection and its HTTP state, the OpenAI completion exchanges fed by the scheduler, the
// control routes of the chosen personality and the introspection routes. MockServer owns the
// thread and talks to this object only through blocking queued calls and MockShared.
//
// Connections are bare descriptors with socket notifiers, not QTcpSocket: QTcpSocket drains the
// kernel's queue before it says readyRead, which loses the kernel's receive timestamps that
// MockTiming::arrivalNs is taken from (load/RxStamp.h). Output goes out with ::send() directly.
#include "mock/MockHttp.h"
#include "mock/MockDcgm.h"
#include "mock/MockMetrics.h"
#include "mock/MockOpenAi.h"
#include "mock/MockProfiler.h"
#include "load/RxStamp.h"
#include "mock/MockScheduler.h"
#include "mock/MockServer.h"
#include "mock/MockShared.h"
#include <QObject>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <unordered_map>
#include <vector>

class QSocketNotifier;
class QTcpServer;
class QTimer;

namespace sb {

class MockWorker : public QObject
{
    Q_OBJECT
public:
    MockWorker(const MockConfig &cfg, std::shared_ptr<MockShared> shared);
    ~MockWorker() override;

    bool listen(QString *error, quint16 *port); // call in the server thread
    void shutdown();                            // closes everything; call in the server thread

private:
    struct Exchange {
        MockCompletionRequest req;
        std::optional<MockChunkFormatter> fmt;
        QByteArray requestId;
        quint64 seq = 0;
        qint64 arrivalNs = 0;   // see MockTiming
        qint64 readNs = 0;
        bool kernelArrival = false;
        qint64 firstTokenNs = 0;
        int promptTokens = 0;
        int disconnectAt = -1;  // output token index after which the connection is closed
        int malformedAt = -1;   // output token index before which a broken frame is sent
        int stallAfter = -1;    // output token index after which the stream goes silent
        bool admitted = false;
        int cachedTokens = 0;   // prompt tokens served from a cache (known once prefilled)
        qint64 prefilledNs = 0; // when the prompt was processed (llamacpp timings)
        qint64 admittedNs = 0;  // handed to the scheduler: where the /metrics TTFT starts, as an engine's does
        bool firstTokenQueued = false; // the first content bytes wait in Connection::out
        QByteArray text;        // non-streaming answer so far
        QByteArray reasoning;   // non-streaming thinking so far (MockConfig::reasoningTokens)
    };
    struct PendingControl {     // a control call being answered later (sglang flush timeout)
        QByteArray method, target;
        qint64 receivedNs = 0;
        int inFlightAtReceive = 0;
        qint64 deadlineNs = 0;
        int slot = -1;          // llamacpp: an erase waiting for this busy slot (no deadline)
    };
    struct ReadMark {           // one read: its bytes end at `end` (offset in the stream)
        qint64 end = 0;
        qint64 arrivalNs = 0;   // kernel stamp of the read's newest bytes, else readNs
        qint64 readNs = 0;
        bool kernel = false;
    };
    struct Connection {
        quint64 id = 0;
        int fd = -1;
        std::unique_ptr<QSocketNotifier> readNotifier;
        std::unique_ptr<QSocketNotifier> writeNotifier; // created when the kernel first refuses bytes
        QByteArray in;
        qint64 inOffset = 0;        // stream offset of in[0]
        std::deque<ReadMark> marks; // the reads that brought the bytes in `in`, oldest first
        ReadMark request;           // of the request being dispatched: the read that completed it
        bool busy = false;          // a response is in progress; later requests wait
        bool keepAlive = true;
        bool closing = false;       // close once `unsent` is gone; input is ignored
        bool dead = false;
        QByteArray out;             // bytes produced but not yet handed to the socket
        QByteArray unsent;          // handed over but refused by a full kernel buffer (slow reader)
        bool queued = false;        // listed in m_writeQueue
        std::unique_ptr<Exchange> exchange;
        std::optional<PendingControl> pendingFlush;
    };

    // connections and HTTP (MockWorker.cpp)
    void onNewConnection(qintptr fd);
    void onReadable(Connection *c);
    void processInput(Connection *c);
    void closeConnection(Connection *c); // after what is queued has left, like disconnectFromHost()
    void onDisconnected(Connection *c);  // the peer is gone or we closed: clean up, close the fd
    void dispatch(Connection *c, MockHttpRequest &&req);
    void respond(Connection *c, int status, QByteArrayView contentType, QByteArrayView body,
                 QByteArrayView extraHeaders = {});
    void responseDone(Connection *c);
    Connection *connection(quint64 id) const;

    // the output path (MockWorkerWrite.cpp)
    void send(Connection *c, QByteArrayView bytes); // after anything queued, written now
    void queueWrite(Connection *c);                 // c->out grew: the next write pass sends it
    void writeOut(Connection *c);                   // hands c->out to the socket in one send()
    void onWritable(Connection *c);                 // the kernel takes more of c->unsent
    void writePass();

    // completions (MockWorker.cpp)
    void startCompletion(Connection *c, MockHttpRequest &&req, bool chat);
    void admit(Connection *c);
    void onToken(quint64 seq, int index, bool last);
    void endExchange(Connection *c, bool aborted);
    void changeInFlight(int delta);
    double uniform();

    // control and introspection routes (MockWorkerControl.cpp)
    bool routeControl(Connection *c, const MockHttpRequest &req);
    bool routeIntrospection(Connection *c, const MockHttpRequest &req);
    void answerControl(Connection *c, const QByteArray &method, const QByteArray &target,
                       qint64 receivedNs, int inFlightAtReceive, const MockAnswer &a);
    void pollFlushes();
    void flushNow();

    // llama-server's own routes (MockWorkerLlama.cpp): /slots, /props, /tokenize, /apply-template
    bool routeLlamacpp(Connection *c, const MockHttpRequest &req);
    QByteArray eraseSlotAnswer(int slot);
    MockLlamaUsage llamaUsage(const Exchange &ex, int completionTokens) const;
    QByteArrayView llamaHeaders() const; // Keep-Alive header on llamacpp answers, else nothing

    MockConfig m_cfg;
    std::shared_ptr<MockShared> m_shared;
    QTcpServer *m_server = nullptr;
    MockScheduler *m_scheduler = nullptr;
    std::unique_ptr<MockProfiler> m_profiler;
    MockMetrics m_metrics;
    MockDcgm m_dcgm;
    QTimer *m_flushPoll = nullptr;
    std::unordered_map<quint64, std::unique_ptr<Connection>> m_connections;
    std::unordered_map<quint64, quint64> m_bySeq; // scheduler sequence -> connection id
    std::deque<quint64> m_writeQueue;   // connections with queued output, oldest first
    RxClock m_rxClock;
    std::vector<char> m_readBuf;
    bool m_writePassPosted = false;
    quint64 m_nextConnection = 1;
    quint64 m_requestCounter = 0;
    int m_inFlight = 0;
    std::mt19937_64 m_rng;
};

} // namespace sb
