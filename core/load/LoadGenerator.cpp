#include "load/LoadGenerator.h"
#include "load/DescriptorLimit.h"
#include "load/EpollDispatcher.h"
#include "load/HostSteal.h"
#include "load/IoWorker.h"
#include <QMetaObject>
#include <algorithm>

namespace sb {

namespace {
constexpr std::int64_t kOpenLoopLeadNs = 100'000'000;
} // namespace

LoadGenerator::LoadGenerator(int ioThreads)
{
    if (ioThreads <= 0)
        ioThreads = std::clamp(QThread::idealThreadCount(), 1, 4);
    for (int i = 0; i < ioThreads; ++i) {
        auto thread = std::make_unique<QThread>();
        thread->setObjectName(QStringLiteral("sweepbench-io-%1").arg(i));
        auto *worker = new IoWorker(i);
#ifdef Q_OS_LINUX
        // One epoll_wait() per wake-up instead of glib's loop around the reactor's set.
        EpollDispatcher::installOn(thread.get());
#endif
        worker->moveToThread(thread.get());
        QObject::connect(thread.get(), &QThread::finished, worker, &QObject::deleteLater);
        thread->start();
        m_workers.push_back(worker);
        m_threads.push_back(std::move(thread));
    }
}

LoadGenerator::~LoadGenerator()
{
    cancel();
    for (auto &t : m_threads) {
        t->quit();
        t->wait();
    }
}

int LoadGenerator::ioThreadsOnEpoll() const
{
#ifdef Q_OS_LINUX
    return int(std::count_if(m_threads.begin(), m_threads.end(),
                             [](const auto &t) { return dynamic_cast<EpollDispatcher *>(t->eventDispatcher()) != nullptr; }));
#else
    return 0;
#endif
}

void LoadGenerator::cancel()
{
    m_cancelRequested = true;
    stopPhase();
}

void LoadGenerator::stopPhase()
{
    std::lock_guard lock(m_mutex);
    if (!m_current)
        return;
    m_current->cancelled = true;
    for (auto *w : m_workers)
        QMetaObject::invokeMethod(w, &IoWorker::cancelPhase, Qt::QueuedConnection);
}

PhaseOutcome LoadGenerator::runPhase(const PhaseConfig &config, const std::function<void(const LiveCounters &)> &onTick)
{
    PhaseOutcome outcome;
    // load/DescriptorLimit.h: C=1024 must not meet a desktop's soft limit of 1024 open files, and
    // the table holds this phase's sockets (and an embedded mock's side of them) before any opens.
    outcome.descriptorLimit = reserveDescriptors(2L * config.concurrency + 256);
    // Use no more threads than connections; spread connections evenly.
    const int nThreads = std::min<int>(int(m_workers.size()), std::max(1, config.concurrency));
    auto state = std::make_shared<PhaseState>(config, nThreads);
    state->startNs = steadyNowNs();
    // Open loop: request 0 is due a little after the IO threads got the phase, so they can open
    // its connection first; from the phase start it would be late by the thread hand-over.
    if (config.schedule)
        state->startNs += kOpenLoopLeadNs;
    if (config.durationS > 0)
        state->deadlineNs = state->startNs + std::int64_t(config.durationS * 1e9);
    state->addConnections(config.concurrency);
    {
        std::lock_guard lock(m_mutex);
        m_current = state;
        if (m_cancelRequested)
            state->cancelled = true;
    }
    Q_ASSERT(!config.targets.empty());
    const double stealStartMs = hostStealMs();
    const std::int64_t wallStartNs = steadyNowNs();
    for (int i = 0, first = 0; i < nThreads; ++i) {
        const int share = config.concurrency / nThreads + (i < config.concurrency % nThreads ? 1 : 0);
        QMetaObject::invokeMethod(m_workers[std::size_t(i)], [w = m_workers[std::size_t(i)], state, first, share] { w->startPhase(state, first, share); },
                                  Qt::QueuedConnection);
        first += share;
    }
    while (!state->waitAllDone(100)) {
        if (config.cancel && config.cancel->load() && !state->cancelled)
            cancel();
        // Measuring on without records would produce a cell nobody can check: stop now.
        if (!state->recordsOk() && !state->cancelled)
            stopPhase();
        if (onTick) {
            LiveCounters live;
            live.finished = state->finished.load();
            live.failed = state->failed.load();
            live.inFlight = state->inFlight.load();
            live.outputTokens = state->outputTokens.load();
            live.elapsedS = std::max(0.0, double(steadyNowNs() - state->startNs) / 1e9);
            const int n = state->ttftCount.load();
            live.ttftAvgMs = n ? double(state->ttftSumUs.load()) / n / 1000.0 : 0;
            const int done = std::max(1, live.finished);
            live.latencyAvgMs = double(state->latencySumUs.load()) / done / 1000.0;
            onTick(live);
        }
    }
    // Every connection is retired; let each worker flush and delete its connections, and wait
    // for that so the worker data is complete and no longer touched.
    for (int i = 0; i < nThreads; ++i)
        QMetaObject::invokeMethod(m_workers[std::size_t(i)], &IoWorker::endPhase, Qt::BlockingQueuedConnection);
    {
        std::lock_guard lock(m_mutex);
        m_current.reset();
    }
    outcome.wallS = double(steadyNowNs() - wallStartNs) / 1e9;
    if (const double stealEndMs = hostStealMs(); stealStartMs >= 0 && stealEndMs >= stealStartMs)
        outcome.hostStealMs = stealEndMs - stealStartMs;
    for (auto &w : state->workers) {
        outcome.records.insert(outcome.records.end(), w->records.begin(), w->records.end());
        outcome.interChunkUs.merge(w->interChunkUs);
        outcome.reconnects += w->reconnects;
        outcome.resent += w->resent;
        outcome.unsolicited += w->unsolicited;
        for (auto it = w->errorSamples.cbegin(); it != w->errorSamples.cend(); ++it)
            if (!outcome.errorSamples.contains(it.key()))
                outcome.errorSamples.insert(it.key(), it.value());
        const double wall = double(w->wallEndNs - w->wallStartNs) / 1e9;
        if (wall > 0.2) { // too short a phase says nothing about CPU saturation
            outcome.maxThreadCpu = std::max(outcome.maxThreadCpu, (w->cpuEndS - w->cpuStartS) / wall);
            outcome.maxThreadWait = std::max(outcome.maxThreadWait, (w->waitEndS - w->waitStartS) / wall);
        }
    }
    std::sort(outcome.records.begin(), outcome.records.end(), [](const RequestRecord &a, const RequestRecord &b) { return a.ticket < b.ticket; });
    outcome.clientMaxInFlight = state->maxInFlight.load();
    outcome.recordsError = state->finishRecords();
    outcome.cancelled = state->cancelled.load() && outcome.recordsError.isEmpty();
    outcome.startNs = state->startNs;
    return outcome;
}

} // namespace sb
