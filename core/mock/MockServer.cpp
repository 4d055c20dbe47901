// MockServer: the thread-owning facade of the mock (see MockWorker for the insides) and the
// per-personality performance defaults.
#include "mock/MockServer.h"
#include "load/DescriptorLimit.h"
#include "mock/MockShared.h"
#include "mock/MockWorker.h"
#include <chrono>

namespace sb {

MockConfig mockDefaults(Flavor flavor)
{
    MockConfig c;
    c.flavor = flavor;
    switch (flavor) {
    case Flavor::Vllm:
    case Flavor::Openai:
        c.stepBaseMs = 4.0;
        c.stepPerSeqMs = 0.12;
        c.prefillPerTokenMs = 0.04;
        c.maxBatch = 128;
        c.cacheBlocks = 16384;
        break;
    case Flavor::Sglang: // cheapest batching, largest batch: wins at high concurrency
        c.stepBaseMs = 5.0;
        c.stepPerSeqMs = 0.06;
        c.prefillPerTokenMs = 0.035;
        c.maxBatch = 256;
        c.cacheBlocks = 32768;
        break;
    case Flavor::Trtllm: // quickest single stream, small batch: saturates first
        c.stepBaseMs = 3.0;
        c.stepPerSeqMs = 0.2;
        c.prefillPerTokenMs = 0.03;
        c.maxBatch = 48;
        c.cacheBlocks = 8192;
        break;
    case Flavor::Llamacpp: // few slots, no paged blocks: a prefix is matched token by token
        c.stepBaseMs = 4.0;
        c.stepPerSeqMs = 0.25;
        c.prefillPerTokenMs = 0.05;
        c.maxBatch = 8;
        c.blockTokens = 1;
        c.cacheBlocks = 262144; // the host-RAM cache, in tokens, when cacheRamMiB > 0
        c.metrics = false;      // like llama-server without --metrics
        break;
    }
    return c;
}

qint64 MockServer::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::unique_ptr<MockServer> MockServer::start(const MockConfig &cfg, QString *error)
{
    raiseDescriptorLimit(); // one socket per client connection: C=1024 must not meet a soft 1024
    std::unique_ptr<MockServer> s(new MockServer);
    s->m_config = cfg;
    s->m_shared = std::make_shared<MockShared>();
    s->m_thread = std::make_unique<QThread>();
    s->m_thread->setObjectName(QStringLiteral("sweepbench-mock-%1").arg(toString(cfg.flavor)));
    s->m_worker = new MockWorker(cfg, s->m_shared);
    s->m_worker->moveToThread(s->m_thread.get());
    // The documented way to delete an object in its own thread once that thread ends.
    QObject::connect(s->m_thread.get(), &QThread::finished, s->m_worker, &QObject::deleteLater);
    s->m_thread->start();
    bool ok = false;
    QString err;
    quint16 port = 0;
    MockWorker *w = s->m_worker;
    QMetaObject::invokeMethod(w, [w, &ok, &err, &port] { ok = w->listen(&err, &port); },
                              Qt::BlockingQueuedConnection);
    if (!ok) {
        if (error)
            *error = err;
        return nullptr; // the destructor stops the thread
    }
    s->m_port = port;
    return s;
}

MockServer::~MockServer()
{
    if (!m_thread)
        return;
    if (m_worker) {
        MockWorker *w = m_worker;
        QMetaObject::invokeMethod(w, [w] { w->shutdown(); }, Qt::BlockingQueuedConnection);
    }
    m_thread->quit();
    m_thread->wait();
}

QUrl MockServer::url() const
{
    QUrl u;
    u.setScheme(QStringLiteral("http"));
    u.setHost(m_config.host);
    u.setPort(m_port);
    return u;
}

quint16 MockServer::port() const
{
    return m_port;
}

MockStats MockServer::stats() const
{
    return m_shared->snapshot();
}

void MockServer::resetStats()
{
    m_shared->reset();
}

QList<MockTiming> MockServer::timings() const
{
    return m_shared->timings();
}

QList<MockControlEvent> MockServer::controlEvents() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->events;
}

void MockServer::clearControlEvents()
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->events.clear();
}

} // namespace sb
