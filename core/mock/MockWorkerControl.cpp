// The control routes of each personality (docs/ARCHITECTURE.md §6) and the mock's own introspection
// routes. Every control call is logged with the in-flight count when it arrived and when it was
// answered, so tests can prove that the engine's hooks never overlap measured traffic.
#include "mock/MockWorker.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace sb {

namespace {
constexpr const char *kNotFound = R"({"detail":"Not Found"})";
constexpr const char *kNotAllowed = R"({"detail":"Method Not Allowed"})";
MockAnswer notFound() { return {404, QByteArrayLiteral("application/json"), kNotFound}; }
MockAnswer notAllowed() { return {405, QByteArrayLiteral("application/json"), kNotAllowed}; }
} // namespace

void MockWorker::answerControl(Connection *c, const QByteArray &method, const QByteArray &target,
                               qint64 receivedNs, int inFlightAtReceive, const MockAnswer &a)
{
    MockControlEvent e;
    e.method = method;
    e.target = target;
    e.receivedNs = receivedNs;
    e.answeredNs = MockServer::nowNs();
    e.inFlightAtReceive = inFlightAtReceive;
    e.inFlightAtAnswer = m_inFlight;
    e.status = a.status;
    e.body = a.body;
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->events.append(e);
    }
    respond(c, a.status, a.contentType, a.body);
}

bool MockWorker::routeControl(Connection *c, const MockHttpRequest &req)
{
    const QByteArray &p = req.path;
    const bool isReset = p == "/reset_prefix_cache";
    const bool isFlush = p == "/flush_cache";
    const bool isStart = p == "/start_profile";
    const bool isStop = p == "/stop_profile";
    if (!isReset && !isFlush && !isStart && !isStop)
        return false;
    const qint64 now = MockServer::nowNs();
    const int inFlight = m_inFlight;
    auto answer = [&](const MockAnswer &a) { answerControl(c, req.method, req.target, now, inFlight, a); };
    const bool post = req.method == "POST";
    const bool getOrPost = post || req.method == "GET";

    switch (m_cfg.flavor) {
    case Flavor::Vllm:
    case Flavor::Openai:
        if (isReset) {
            if (!m_cfg.devMode) // the route exists only with VLLM_SERVER_DEV_MODE=1
                return answer(notFound()), true;
            if (!post)
                return answer(notAllowed()), true;
            // Newer vLLM: false while running requests hold blocks, unless told to reset them.
            const bool force = req.queryValue("reset_running_requests").toLower() == "true";
            const bool ok = m_inFlight == 0 || force;
            {
                QMutexLocker lock(&m_shared->mutex);
                ++(ok ? m_shared->stats.resetsDone : m_shared->stats.resetsRefused);
            }
            if (ok)
                m_scheduler->clearCache();
            return answer({200, "application/json", ok ? R"({"success":true})" : R"({"success":false})"}), true;
        }
        if (isFlush)
            return answer(notFound()), true;
        if (!m_cfg.profiler) // profiler routes exist only when a profiler is configured
            return answer(notFound()), true;
        if (!post)
            return answer(notAllowed()), true;
        break;
    case Flavor::Sglang:
        if (isReset)
            return answer(notFound()), true;
        if (!getOrPost)
            return answer(notAllowed()), true;
        if (isFlush) {
            // Waits up to `timeout` seconds for idle; polled on a timer, never blocking the thread.
            const double timeoutS = std::max(0.0, req.queryValue("timeout").toDouble());
            if (m_inFlight == 0 || timeoutS <= 0) {
                const bool ok = m_inFlight == 0;
                if (ok)
                    flushNow();
                else {
                    QMutexLocker lock(&m_shared->mutex);
                    ++m_shared->stats.resetsRefused;
                }
                return answer(ok ? MockAnswer{200, "text/plain; charset=utf-8", "Cache flushed successfully!\n"}
                                 : MockAnswer{400, "text/plain; charset=utf-8", "Flush cache failed.\n"}), true;
            }
            c->pendingFlush = PendingControl{req.method, req.target, now, inFlight,
                                             now + qint64(timeoutS * 1e9)};
            m_flushPoll->start();
            return true;
        }
        break;
    case Flavor::Llamacpp: // llama-server has none of these: its slots are erased one by one
        return answer(notFound()), true;
    case Flavor::Trtllm:
        if (isReset || isFlush) // stock trtllm-serve has no cache-reset route
            return answer(notFound()), true;
        if (!post)
            return answer(notAllowed()), true;
        break;
    }

    if (isStart) {
        bool started = false;
        const MockAnswer a = m_profiler->start(req.body, &started);
        if (started) {
            QMutexLocker lock(&m_shared->mutex);
            ++m_shared->stats.profileWindows;
        }
        return answer(a), true;
    }
    return answer(m_profiler->stop()), true;
}

void MockWorker::flushNow()
{
    m_scheduler->clearCache();
    QMutexLocker lock(&m_shared->mutex);
    ++m_shared->stats.resetsDone;
}

void MockWorker::pollFlushes()
{
    const qint64 now = MockServer::nowNs();
    bool waiting = false;
    for (auto &[id, c] : m_connections) {
        if (c->dead || !c->pendingFlush)
            continue;
        const PendingControl p = *c->pendingFlush;
        if (p.slot >= 0) { // a llamacpp slot erase waits, without a deadline, for its slot
            if (m_scheduler->slotBusy(p.slot)) {
                waiting = true;
            } else {
                c->pendingFlush.reset();
                answerControl(c.get(), p.method, p.target, p.receivedNs, p.inFlightAtReceive,
                              {200, "application/json", eraseSlotAnswer(p.slot)});
            }
        } else if (m_inFlight == 0) {
            c->pendingFlush.reset();
            flushNow();
            answerControl(c.get(), p.method, p.target, p.receivedNs, p.inFlightAtReceive,
                          {200, "text/plain; charset=utf-8", "Cache flushed successfully!\n"});
        } else if (now >= p.deadlineNs) {
            c->pendingFlush.reset();
            {
                QMutexLocker lock(&m_shared->mutex);
                ++m_shared->stats.resetsRefused;
            }
            answerControl(c.get(), p.method, p.target, p.receivedNs, p.inFlightAtReceive,
                          {400, "text/plain; charset=utf-8", "Flush cache failed.\n"});
        } else {
            waiting = true;
        }
    }
    if (!waiting)
        m_flushPoll->stop();
}

bool MockWorker::routeIntrospection(Connection *c, const MockHttpRequest &req)
{
    const QByteArray &p = req.path;
    if (p == "/mock/stats") {
        if (req.method != "GET")
            return respond(c, 405, "application/json", kNotAllowed), true;
        const MockStats s = m_shared->snapshot();
        const QJsonObject o{{QStringLiteral("flavor"), toString(m_cfg.flavor)},
                            {QStringLiteral("in_flight"), s.inFlight},
                            {QStringLiteral("max_in_flight"), s.maxInFlight},
                            {QStringLiteral("requests"), s.requests},
                            {QStringLiteral("resets_done"), s.resetsDone},
                            {QStringLiteral("resets_refused"), s.resetsRefused},
                            {QStringLiteral("slots_erased"), s.slotsErased},
                            {QStringLiteral("profile_windows"), s.profileWindows},
                            {QStringLiteral("metrics_in_window"), s.metricsInWindow},
                            {QStringLiteral("cache_hit_blocks"), s.cacheHitBlocks},
                            {QStringLiteral("cache_miss_blocks"), s.cacheMissBlocks},
                            {QStringLiteral("stream_events"), s.streamEvents},
                            {QStringLiteral("socket_writes"), s.socketWrites},
                            {QStringLiteral("cached_blocks"), m_scheduler->cachedBlocks()},
                            {QStringLiteral("running"), m_scheduler->running()},
                            {QStringLiteral("waiting"), m_scheduler->waiting()},
                            {QStringLiteral("steps"), qint64(m_scheduler->stepsDone())}};
        return respond(c, 200, "application/json", QJsonDocument(o).toJson(QJsonDocument::Compact)), true;
    }
    if (p == "/mock/stats/reset") {
        if (req.method != "POST")
            return respond(c, 405, "application/json", kNotAllowed), true;
        m_shared->reset();
        return respond(c, 200, "application/json", R"({"success":true})"), true;
    }
    if (p == "/mock/timings") {
        if (req.method != "GET")
            return respond(c, 405, "application/json", kNotAllowed), true;
        bool filtered = false;
        const QByteArray only = req.queryValue("request_id", &filtered);
        // The semantics travel with the data (MockTiming has the long version).
        QByteArray body = R"({"clock":"steady_clock_ns",)"
                          R"("arrival_ns":"kernel receive stamp of the read that completed the request; read_ns when kernel_arrival is false",)"
                          R"("read_ns":"when the server's event loop read it","server_ttft":"first_token_write_ns - arrival_ns",)"
                          R"("timings":[)";
        bool first = true;
        for (const MockTiming &t : m_shared->timings()) {
            if (filtered && t.requestId != only)
                continue;
            if (!first)
                body += ',';
            first = false;
            body += R"({"request_id":)" + jsonQuoted(t.requestId) + R"(,"arrival_ns":)"
                    + QByteArray::number(t.arrivalNs) + R"(,"read_ns":)" + QByteArray::number(t.readNs)
                    + R"(,"kernel_arrival":)" + (t.kernelArrival ? "true" : "false") + R"(,"first_token_write_ns":)"
                    + QByteArray::number(t.firstTokenWriteNs) + R"(,"end_ns":)"
                    + QByteArray::number(t.endNs) + '}';
        }
        body += "]}";
        return respond(c, 200, "application/json", body), true;
    }
    if (p == "/mock/events") {
        if (req.method != "GET")
            return respond(c, 405, "application/json", kNotAllowed), true;
        QList<MockControlEvent> events;
        {
            QMutexLocker lock(&m_shared->mutex);
            events = m_shared->events;
        }
        QJsonArray arr;
        for (const MockControlEvent &e : events)
            arr.append(QJsonObject{{QStringLiteral("method"), QString::fromUtf8(e.method)},
                                   {QStringLiteral("target"), QString::fromUtf8(e.target)},
                                   {QStringLiteral("received_ns"), e.receivedNs},
                                   {QStringLiteral("answered_ns"), e.answeredNs},
                                   {QStringLiteral("in_flight_at_receive"), e.inFlightAtReceive},
                                   {QStringLiteral("in_flight_at_answer"), e.inFlightAtAnswer},
                                   {QStringLiteral("status"), e.status},
                                   {QStringLiteral("body"), QString::fromUtf8(e.body)}});
        return respond(c, 200, "application/json",
                       QJsonDocument(QJsonObject{{QStringLiteral("events"), arr}}).toJson(QJsonDocument::Compact)), true;
    }
    return false;
}

} // namespace sb
