#include "mock/MockWorker.h"
#include <QDateTime>
#include <QSocketNotifier>
#include <QTcpServer>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <functional>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sb {

namespace {
// vLLM: /version, and /server_info in dev mode (its config as Python's repr text); SGLang:
// /get_server_info (its server args, flat, with its version); trtllm-serve: /version. llama.cpp's
// /props is answered with its other routes (MockWorkerLlama.cpp). The settings follow the mock's
// own (--max-batch is max_num_seqs / max_running_requests), so launch variants show in them.
QByteArray mockIdentityAnswer(const MockConfig &cfg, const QByteArray &path)
{
    const QByteArray version = QByteArrayLiteral("0.0.0+sweepbench-mock-" SWEEPBENCH_VERSION);
    const QByteArray model = cfg.model.toUtf8();
    switch (cfg.flavor) {
    case Flavor::Vllm:
    case Flavor::Openai:
        if (path == "/version")
            return R"({"version":")" + version + R"("})";
        if (path == "/server_info" && cfg.devMode)
            return R"({"vllm_config":"model=')" + model + R"(', max_seq_len=32768, dtype=torch.bfloat16, )"
                   R"(tensor_parallel_size=1, enable_prefix_caching=True, chunked_prefill_enabled=True, )"
                   R"(max_num_seqs=)" + QByteArray::number(cfg.maxBatch) + R"(, max_num_batched_tokens=)"
                   + QByteArray::number(cfg.maxPrefillTokens) + R"(, block_size=)" + QByteArray::number(cfg.blockTokens) + R"("})";
        return {};
    case Flavor::Sglang:
        if (path == "/get_server_info")
            return R"({"model_path":")" + model + R"(","tp_size":1,"dp_size":1,"max_running_requests":)" + QByteArray::number(cfg.maxBatch)
                   + R"(,"chunked_prefill_size":)" + QByteArray::number(cfg.maxPrefillTokens) + R"(,"page_size":)"
                   + QByteArray::number(cfg.blockTokens) + R"(,"api_key":null,"version":")" + version + R"("})";
        return {};
    case Flavor::Trtllm:
        return path == "/version" ? R"({"version":")" + version + R"("})" : QByteArray();
    case Flavor::Llamacpp:
        return {};
    }
    return {};
}

// Accepted connections stay bare descriptors: the worker reads them itself (MockWorker.h).
class Listener : public QTcpServer
{
public:
    Listener(std::function<void(qintptr)> accept, QObject *parent)
        : QTcpServer(parent), m_accept(std::move(accept))
    {
        // QTcpServer stops accepting for good when accept() fails (out of descriptors, say).
        // A server keeps going: the waiting clients are taken once descriptors are free again.
        connect(this, &QTcpServer::acceptError, this, [this] {
            QTimer::singleShot(50, this, [this] { resumeAccepting(); });
        });
    }

protected:
    void incomingConnection(qintptr fd) override { m_accept(fd); }

private:
    std::function<void(qintptr)> m_accept;
};

constexpr std::size_t kReadBytes = 64 * 1024;
// Reads remembered per connection for stamping requests; beyond this (a client trickling bytes
// without completing a request) the oldest two merge, keeping the later stamp.
constexpr std::size_t kMaxMarks = 64;
} // namespace

MockWorker::MockWorker(const MockConfig &cfg, std::shared_ptr<MockShared> shared)
    : m_cfg(cfg), m_shared(std::move(shared)), m_rng(cfg.seed)
{
}

MockWorker::~MockWorker() = default;

bool MockWorker::listen(QString *error, quint16 *port)
{
    m_scheduler = new MockScheduler(m_cfg, this);
    m_scheduler->setCallbacks(
        [this](quint64 seq, int index, bool last) { onToken(seq, index, last); },
        [this](const MockStepRecord &step) {
            m_profiler->onStep(step);
            m_dcgm.onStep(step);
        },
        [this](int hits, int misses) {
            QMutexLocker lock(&m_shared->mutex);
            m_shared->stats.cacheHitBlocks += hits;
            m_shared->stats.cacheMissBlocks += misses;
        });
    m_scheduler->setPrefillCallback([this](quint64 seq, int cachedTokens) {
        const auto it = m_bySeq.find(seq);
        Connection *c = it == m_bySeq.end() ? nullptr : connection(it->second);
        if (c && c->exchange && c->exchange->seq == seq) {
            c->exchange->cachedTokens = cachedTokens;
            m_metrics.onPrefill(c->exchange->promptTokens, cachedTokens);
            c->exchange->prefilledNs = MockServer::nowNs();
        }
    });
    m_profiler = std::make_unique<MockProfiler>(m_cfg);
    m_flushPoll = new QTimer(this);
    m_flushPoll->setInterval(5);
    connect(m_flushPoll, &QTimer::timeout, this, &MockWorker::pollFlushes);

    m_server = new Listener([this](qintptr fd) { onNewConnection(fd); }, this);
    // 1024 clients may connect at once: a short backlog would drop SYNs and cost them a
    // one-second retransmit.
    m_server->setListenBacklogSize(4096);
    m_server->setMaxPendingConnections(4096);
    QHostAddress address;
    if (!address.setAddress(m_cfg.host)) {
        address = m_cfg.host == QLatin1String("localhost") ? QHostAddress(QHostAddress::LocalHost) : QHostAddress();
        if (address.isNull()) {
            *error = QStringLiteral("mock server: invalid host address '%1'").arg(m_cfg.host);
            return false;
        }
    }
    if (!m_server->listen(address, m_cfg.port)) {
        *error = QStringLiteral("mock server: cannot listen on %1:%2: %3")
                     .arg(m_cfg.host).arg(m_cfg.port).arg(m_server->errorString());
        return false;
    }
    *port = m_server->serverPort();
    // On the listener: accepted sockets inherit it, and the kernel's stamping (switched on
    // lazily for the whole system) is on before the first request arrives.
    enableRxTimestamps(int(m_server->socketDescriptor()));
    m_readBuf.resize(kReadBytes);
    return true;
}

void MockWorker::shutdown()
{
    m_flushPoll->stop();
    if (m_server)
        m_server->close();
    for (auto &[id, c] : m_connections) {
        if (c->dead)
            continue; // already closed
        c->dead = true;
        c->readNotifier.reset();
        c->writeNotifier.reset();
        ::close(c->fd);
        c->fd = -1;
    }
    m_connections.clear();
    m_bySeq.clear();
    m_writeQueue.clear();
    delete m_scheduler; // its timer belongs to this thread: stop it here
    m_scheduler = nullptr;
}

MockWorker::Connection *MockWorker::connection(quint64 id) const
{
    auto it = m_connections.find(id);
    return it == m_connections.end() || it->second->dead ? nullptr : it->second.get();
}

void MockWorker::onNewConnection(qintptr descriptor)
{
    const int fd = int(descriptor);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    // Token chunks are small writes: without this, Nagle holds them back (docs/ARCHITECTURE.md §9).
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    enableRxTimestamps(fd); // inherited from the listener where supported; set it to be sure
    auto c = std::make_unique<Connection>();
    c->id = m_nextConnection++;
    c->fd = fd;
    c->readNotifier = std::make_unique<QSocketNotifier>(fd, QSocketNotifier::Read);
    Connection *raw = c.get();
    connect(c->readNotifier.get(), &QSocketNotifier::activated, this, [this, raw] { onReadable(raw); });
    m_connections.emplace(c->id, std::move(c));
}

void MockWorker::onReadable(Connection *c)
{
    if (c->dead)
        return;
    for (;;) {
        qint64 stamp = 0;
        const qint64 n = readStamped(c->fd, m_readBuf.data(), m_readBuf.size(), &stamp);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n <= 0) { // 0: the peer closed; else reset or another error
            onDisconnected(c);
            return;
        }
        if (c->closing) { // answered with Connection: close; the rest is dropped
            if (std::size_t(n) < m_readBuf.size())
                break;
            continue;
        }
        ReadMark m;
        m.readNs = MockServer::nowNs();
        m.kernel = stamp > 0;
        m.arrivalNs = m.kernel ? m_rxClock.toSteady(stamp, m.readNs) : m.readNs;
        c->in.append(m_readBuf.data(), qsizetype(n));
        m.end = c->inOffset + c->in.size();
        if (c->marks.size() >= kMaxMarks)
            c->marks.pop_front(); // its bytes now count as arrived with the next read's
        c->marks.push_back(m);
        if (std::size_t(n) < m_readBuf.size())
            break; // drained; the notifier is level-triggered and fires again for more
    }
    processInput(c);
}

void MockWorker::processInput(Connection *c)
{
    while (!c->dead && !c->busy && !c->closing && !c->in.isEmpty()) {
        MockHttpRequest req;
        int status = 0;
        const qsizetype before = c->in.size();
        const MockParse r = parseHttpRequest(c->in, req, &status);
        if (r == MockParse::NeedMore)
            return;
        if (r == MockParse::Error) {
            c->busy = true;
            c->keepAlive = false;
            c->in.clear();
            c->marks.clear();
            respond(c, status, "application/json", R"({"detail":")" + httpReason(status) + "\"}");
            return;
        }
        // The request is stamped with the read that brought its last byte. Reads wholly
        // consumed are forgotten; one that also brought the next request's first bytes stays.
        const qint64 end = c->inOffset + (before - c->in.size());
        c->inOffset = end;
        const auto mark = std::find_if(c->marks.begin(), c->marks.end(), [end](const ReadMark &m) { return m.end >= end; });
        if (mark != c->marks.end()) {
            c->request = *mark;
        } else { // cannot happen: every byte in `in` came with a read
            c->request = ReadMark();
            c->request.readNs = c->request.arrivalNs = MockServer::nowNs();
        }
        while (!c->marks.empty() && c->marks.front().end <= end)
            c->marks.pop_front();
        c->busy = true;
        c->keepAlive = req.keepAlive;
        dispatch(c, std::move(req));
    }
}

void MockWorker::closeConnection(Connection *c)
{
    if (c->dead)
        return;
    c->closing = true;
    c->in.clear();
    c->marks.clear();
    writeOut(c); // whatever is still queued goes first
    if (c->dead || !c->unsent.isEmpty())
        return; // gone already, or onWritable() closes once the kernel took the rest
    // Unread input at close() would make the kernel answer with a reset, which can destroy
    // the answer before the client reads it: read what is there first (and drop it).
    for (int i = 0; i < 16; ++i) {
        qint64 stamp = 0;
        if (readStamped(c->fd, m_readBuf.data(), m_readBuf.size(), &stamp) <= 0)
            break;
    }
    onDisconnected(c);
}

void MockWorker::onDisconnected(Connection *c)
{
    if (c->dead)
        return;
    c->dead = true;
    if (c->exchange)
        endExchange(c, true);
    c->pendingFlush.reset();
    c->out = QByteArray(); // nobody to read it
    c->unsent = QByteArray();
    // No more callbacks into the soon-erased Connection; the notifiers go with it.
    c->readNotifier->setEnabled(false);
    if (c->writeNotifier)
        c->writeNotifier->setEnabled(false);
    ::close(c->fd);
    c->fd = -1;
    // Erase later: we may be deep inside a write to this very connection.
    const quint64 id = c->id;
    QMetaObject::invokeMethod(this, [this, id] { m_connections.erase(id); }, Qt::QueuedConnection);
}

void MockWorker::respond(Connection *c, int status, QByteArrayView contentType, QByteArrayView body,
                         QByteArrayView extraHeaders)
{
    QByteArray extra = extraHeaders.toByteArray();
    if (c->keepAlive)
        extra.append(llamaHeaders());
    send(c, httpResponse(status, contentType, body, c->keepAlive, extra));
    responseDone(c);
}

void MockWorker::responseDone(Connection *c)
{
    if (c->dead)
        return;
    c->busy = false;
    if (!c->keepAlive) {
        closeConnection(c);
        return;
    }
    if (!c->in.isEmpty()) { // a pipelined request waited for this answer
        const quint64 id = c->id;
        QMetaObject::invokeMethod(this, [this, id] {
            if (Connection *cc = connection(id))
                processInput(cc);
        }, Qt::QueuedConnection);
    }
}

void MockWorker::dispatch(Connection *c, MockHttpRequest &&req)
{
    const QByteArray &p = req.path;
    if (p == "/v1/chat/completions" || p == "/v1/completions") {
        if (req.method != "POST")
            return respond(c, 405, "application/json", R"({"detail":"Method Not Allowed"})");
        return startCompletion(c, std::move(req), p == "/v1/chat/completions");
    }
    if (p == "/health") {
        if (req.method != "GET" && req.method != "HEAD")
            return respond(c, 405, "application/json", R"({"detail":"Method Not Allowed"})");
        return respond(c, 200, {}, {});
    }
    if (req.method == "GET") // how the real servers describe themselves (engine/ServerIdentity.h)
        if (const QByteArray body = mockIdentityAnswer(m_cfg, p); !body.isEmpty())
            return respond(c, 200, "application/json", body);
    if (p == "/v1/models") {
        if (req.method != "GET")
            return respond(c, 405, "application/json", R"({"detail":"Method Not Allowed"})");
        const QByteArray owner = m_cfg.flavor == Flavor::Sglang ? "sglang"
                                 : m_cfg.flavor == Flavor::Trtllm ? "tensorrt_llm"
                                 : m_cfg.flavor == Flavor::Llamacpp ? "llamacpp" : "vllm";
        const QByteArray body = R"({"object":"list","data":[{"id":)" + jsonQuoted(m_cfg.model.toUtf8())
                                + R"(,"object":"model","created":)"
                                + QByteArray::number(QDateTime::currentSecsSinceEpoch())
                                + R"(,"owned_by":")" + owner + R"(","root":)" + jsonQuoted(m_cfg.model.toUtf8())
                                + R"(,"max_model_len":32768}]})";
        return respond(c, 200, "application/json", body);
    }
    if (p == "/metrics" && req.method == "GET") {
        QByteArray type, body;
        const int status = m_metrics.answer(m_cfg, *m_scheduler, &type, &body);
        if (m_profiler->active()) {
            QMutexLocker lock(&m_shared->mutex);
            ++m_shared->stats.metricsInWindow;
        }
        return respond(c, status, type, body);
    }
    if (p == "/dcgm/metrics" && req.method == "GET") {
        QByteArray type, body;
        const int status = m_dcgm.answer(m_cfg, *m_scheduler, &type, &body);
        return respond(c, status, type, body);
    }
    if (routeIntrospection(c, req) || routeControl(c, req))
        return;
    if (m_cfg.flavor == Flavor::Llamacpp && routeLlamacpp(c, req))
        return;
    respond(c, 404, "application/json", R"({"detail":"Not Found"})");
}

double MockWorker::uniform()
{
    return double(m_rng() >> 11) * (1.0 / 9007199254740992.0);
}

void MockWorker::changeInFlight(int delta)
{
    m_inFlight += delta;
    QMutexLocker lock(&m_shared->mutex);
    m_shared->stats.inFlight = m_inFlight;
    m_shared->stats.maxInFlight = std::max(m_shared->stats.maxInFlight, m_inFlight);
    if (delta > 0)
        m_shared->stats.requests += delta;
}

void MockWorker::startCompletion(Connection *c, MockHttpRequest &&req, bool chat)
{
    auto ex = std::make_unique<Exchange>();
    ex->arrivalNs = c->request.arrivalNs;
    ex->readNs = c->request.readNs;
    ex->kernelArrival = c->request.kernel;
    if (m_cfg.loopBlockMs > 0) // fault: a busy server loop; nothing else is read meanwhile
        QThread::msleep(ulong(m_cfg.loopBlockMs));
    const quint64 number = ++m_requestCounter;
    ex->requestId = req.header("x-request-id");
    if (ex->requestId.isEmpty())
        ex->requestId = "mock-" + QByteArray::number(number);
    const bool llamacpp = m_cfg.flavor == Flavor::Llamacpp;
    const QString err = parseCompletionRequest(req.body, chat, m_cfg.defaultMaxTokens, &ex->req, llamacpp);
    if (!err.isEmpty()) {
        const QByteArray body = llamacpp ? R"({"error":{"code":400,"message":)" + jsonQuoted(err.toUtf8())
                                               + R"(,"type":"invalid_request_error"}})"
                                         : R"({"object":"error","message":)" + jsonQuoted(err.toUtf8())
                                               + R"(,"type":"BadRequestError","param":null,"code":400})";
        return respond(c, 400, "application/json", body);
    }
    if (ex->req.model.isEmpty())
        ex->req.model = m_cfg.model.toUtf8();
    for (quint64 image : ex->req.imageHashes) // each image's tokens, the same for the same image
        for (int k = 0; k < m_cfg.imageTokens; ++k)
            ex->req.promptTokens.push_back(quint32((image + quint64(k) * 0x9e3779b97f4a7c15ULL) >> 40) % 32000u);
    ex->promptTokens = int(ex->req.promptTokens.size());
    if (llamacpp && ex->promptTokens >= m_cfg.slotContext) {
        // llama-server refuses a prompt that does not fit a slot's context, as a clear 400.
        const QByteArray n = QByteArray::number(ex->promptTokens), ctx = QByteArray::number(m_cfg.slotContext);
        return respond(c, 400, "application/json",
                       R"({"error":{"code":400,"message":"request ()" + n + R"( tokens) exceeds the available context size ()"
                           + ctx + R"( tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":)" + n
                           + R"(,"n_ctx":)" + ctx + "}}");
    }
    ex->fmt.emplace(ex->req, number, QDateTime::currentSecsSinceEpoch(), llamacpp);
    ex->fmt->setReasoning(m_cfg.reasoningTokens);

    // Three draws per request whatever the rates, so one seed gives one fault pattern.
    const double uError = uniform(), uDisconnect = uniform(), uMalformed = uniform();
    const int half = ex->req.maxTokens / 2;
    if (uDisconnect < m_cfg.disconnectRate)
        ex->disconnectAt = std::max(0, half - 1);
    if (uMalformed < m_cfg.malformedRate)
        ex->malformedAt = half;
    if (m_cfg.stallMs > 0 && ex->req.stream && ex->req.maxTokens >= 2)
        ex->stallAfter = std::max(0, half - 1);

    c->exchange = std::move(ex);
    changeInFlight(+1);
    if (uError < m_cfg.errorRate) {
        const QByteArray body = R"({"object":"error","message":"mock: injected internal server error","type":"InternalServerError","param":null,"code":500})";
        send(c, httpResponse(500, "application/json", body, c->keepAlive, c->keepAlive ? llamaHeaders() : QByteArrayView()));
        endExchange(c, false);
        return responseDone(c);
    }
    if (m_cfg.firstByteDelayMs > 0) {
        const quint64 id = c->id;
        QTimer::singleShot(m_cfg.firstByteDelayMs, Qt::PreciseTimer, this, [this, id] {
            if (Connection *cc = connection(id))
                admit(cc);
        });
        return;
    }
    admit(c);
}

void MockWorker::admit(Connection *c)
{
    Exchange *ex = c->exchange.get();
    if (!ex || ex->admitted)
        return;
    ex->admitted = true;
    ex->admittedNs = MockServer::nowNs();
    if (ex->req.stream) {
        // Headers and the role-only chunk in one write, as vLLM sends them first.
        QByteArray out = httpChunkedHead(200, "text/event-stream; charset=utf-8", c->keepAlive,
                                         c->keepAlive ? llamaHeaders() : QByteArrayView());
        if (ex->req.chat)
            appendChunk(out, ex->fmt->roleEvent());
        send(c, out);
    }
    std::vector<quint64> blocks = MockPrefixCache::chainHashes(ex->req.promptTokens, m_cfg.blockTokens);
    ex->req.promptTokens = {}; // the hashes are all the scheduler needs
    ex->seq = m_scheduler->submit(ex->promptTokens, std::move(blocks), ex->req.maxTokens);
    m_bySeq.emplace(ex->seq, c->id);
}

void MockWorker::onToken(quint64 seq, int index, bool last)
{
    auto it = m_bySeq.find(seq);
    if (it == m_bySeq.end())
        return;
    Connection *c = connection(it->second);
    if (!c || !c->exchange || c->exchange->seq != seq)
        return;
    Exchange *ex = c->exchange.get();
    const QByteArray token = mockToken(ex->req.contentSeed, index);
    m_metrics.onToken();
    // Appended to the connection's out-buffer; written by the next write pass (MockWorkerWrite.cpp).
    QByteArray &out = c->out;
    if (ex->req.stream) {
        if (index == ex->malformedAt)
            appendChunk(out, ex->fmt->malformedEvent());
        appendChunk(out, ex->fmt->thinking(index) ? ex->fmt->reasoningEvent(token, last) : ex->fmt->tokenEvent(token, last));
        m_shared->streamEvents.fetch_add(1, std::memory_order_relaxed);
        if (index == 0)
            ex->firstTokenQueued = true;
        if (last) {
            if (m_cfg.flavor == Flavor::Llamacpp)
                appendChunk(out, ex->fmt->llamaFinalEvents(llamaUsage(*ex, index + 1)));
            else if (ex->req.includeUsage)
                appendChunk(out, ex->fmt->usageEvent(ex->promptTokens, index + 1));
            appendChunk(out, MockChunkFormatter::doneEvent());
            out += lastChunk();
            // llama-server closes the connection after a stream although its headers said
            // "Keep-Alive: timeout=5, max=100": clients must notice before reusing it.
            if (m_cfg.flavor == Flavor::Llamacpp)
                c->keepAlive = false;
        }
    } else {
        (ex->fmt->thinking(index) ? ex->reasoning : ex->text) += token;
        if (last) {
            QByteArray body = m_cfg.flavor == Flavor::Llamacpp
                                  ? ex->fmt->llamaFullBody(ex->text, llamaUsage(*ex, index + 1))
                                  : ex->fmt->fullBody(ex->text, ex->promptTokens, index + 1, ex->reasoning);
            if (ex->malformedAt >= 0)
                body.truncate(body.size() / 2); // a broken JSON document, honestly sized
            out += httpResponse(200, "application/json", body, c->keepAlive, c->keepAlive ? llamaHeaders() : QByteArrayView());
            ex->firstTokenQueued = true;
        }
    }
    if (last) {
        // The answer ends now, with whatever is still queued: the next request on this
        // connection (or its close) must come after these bytes. Book the request as finished
        // before they leave, so that a client that has read them never sees it still in flight
        // in stats(); the first-token time is stamped as writeOut() would have.
        if (ex->firstTokenQueued) {
            ex->firstTokenQueued = false;
            ex->firstTokenNs = MockServer::nowNs();
        }
        endExchange(c, false);
        writeOut(c);
        responseDone(c);
        return;
    }
    if (index == ex->disconnectAt) {
        // Fault: close half way through, without the terminating chunk or [DONE].
        writeOut(c);
        if (c->dead)
            return; // the write found the peer gone; onDisconnected cleaned up
        c->keepAlive = false;
        endExchange(c, true);
        c->busy = false;
        closeConnection(c);
        return;
    }
    queueWrite(c);
    if (index == ex->stallAfter)
        m_scheduler->pause(seq, m_cfg.stallMs);
}

void MockWorker::endExchange(Connection *c, bool aborted)
{
    std::unique_ptr<Exchange> ex = std::move(c->exchange);
    if (!ex)
        return;
    if (ex->seq) {
        m_bySeq.erase(ex->seq);
        if (aborted)
            m_scheduler->cancel(ex->seq);
    }
    MockTiming t;
    t.requestId = ex->requestId;
    t.arrivalNs = ex->arrivalNs;
    t.readNs = ex->readNs;
    t.kernelArrival = ex->kernelArrival;
    t.firstTokenWriteNs = ex->firstTokenNs;
    t.endNs = MockServer::nowNs();
    if (!aborted && ex->firstTokenNs > 0)
        m_metrics.onFirstToken(double(ex->firstTokenNs - ex->admittedNs) / 1e9);
    m_shared->addTiming(std::move(t));
    changeInFlight(-1);
    if (m_inFlight == 0)
        pollFlushes(); // a waiting sglang flush can answer now
}

} // namespace sb
