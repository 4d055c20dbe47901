#include "load/PhaseState.h"
#include <QMutexLocker>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace sb {

double threadCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

ThreadRunDelay::ThreadRunDelay() : m_fd(::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)) {}

ThreadRunDelay::~ThreadRunDelay()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

double ThreadRunDelay::seconds() const
{
    // "<on-cpu ns> <run-queue wait ns> <timeslices>": the wait is what a busy machine adds to
    // every timestamp this thread takes, even when its own CPU share looks modest.
    char buf[128] = {};
    if (m_fd < 0 || ::pread(m_fd, buf, sizeof buf - 1, 0) <= 0)
        return 0;
    unsigned long long onCpu = 0, waitNs = 0;
    return std::sscanf(buf, "%llu %llu", &onCpu, &waitNs) == 2 ? double(waitNs) / 1e9 : 0;
}

PhaseState::PhaseState(const PhaseConfig &cfg, int workerCount) : config(cfg)
{
    for (int i = 0; i < workerCount; ++i)
        workers.push_back(std::make_unique<WorkerData>());
    if (!config.recordsPath.isEmpty()) {
        m_recording = true;
        m_recordsOk = m_records.open(config.recordsPath);
    }
}

PhaseState::~PhaseState() = default;

int PhaseState::takeTicket()
{
    if (cancelled.load(std::memory_order_relaxed))
        return -1;
    if (deadlineNs && steadyNowNs() >= deadlineNs)
        return -1;
    const int t = nextTicket.fetch_add(1, std::memory_order_relaxed);
    if (config.requests > 0 && t >= config.requests)
        return -1;
    // Open loop with a duration: requests due after the deadline are not part of the phase
    // (with sessions the schedule times sessions; their later turns check the deadline when due).
    if (config.schedule && !config.sessions && deadlineNs && startNs + config.schedule->offsetNs(t) >= deadlineNs)
        return -1;
    return t;
}

void PhaseState::requestStarted()
{
    const int now = inFlight.fetch_add(1, std::memory_order_relaxed) + 1;
    int seen = maxInFlight.load(std::memory_order_relaxed);
    while (now > seen && !maxInFlight.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
}

void PhaseState::requestEnded()
{
    inFlight.fetch_sub(1, std::memory_order_relaxed);
    finished.fetch_add(1, std::memory_order_relaxed);
}

void PhaseState::connectionDone()
{
    if (m_activeConnections.fetch_sub(1) == 1) {
        std::lock_guard lock(m_mutex);
        m_done = true;
        m_cv.notify_all();
    }
}

bool PhaseState::waitAllDone(int timeoutMs)
{
    std::unique_lock lock(m_mutex);
    return m_cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return m_done; });
}

void PhaseState::writeRecords(QByteArray &block)
{
    if (block.isEmpty())
        return;
    QMutexLocker lock(&m_fileMutex);
    if (m_recording && !m_records.write(block))
        m_recordsOk = false;
    block.clear();
}

QString PhaseState::finishRecords()
{
    QMutexLocker lock(&m_fileMutex);
    if (!m_recording)
        return {};
    m_recording = false;
    if (!m_records.finish())
        m_recordsOk = false;
    return m_records.error();
}

} // namespace sb
