#pragma once
// The benchmark client: a few IO threads, each running many HttpConnections on its own event
// loop (a lean HTTP/1.1 client: no per-host connection cap, unlike QNetworkAccessManager's 6,
// docs/ARCHITECTURE.md §9; QTcpSocket connects, then a plain connection is a raw socket in the
// thread's epoll set, load/IoReactor.h). runPhase() blocks the calling (engine) thread, never
// the GUI thread, and reports live counters every ~100 ms.
#include "load/PhaseState.h"
#include <QThread>
#include <functional>
#include <memory>
#include <vector>

namespace sb {

class IoWorker;

struct PhaseOutcome {
    std::vector<RequestRecord> records;
    LogHistogram interChunkUs;
    QMap<QString, QString> errorSamples;
    int clientMaxInFlight = 0;   // peak of the client's own in-flight counter
    double maxThreadCpu = 0;     // busiest IO thread: CPU seconds / wall seconds
    double maxThreadWait = 0;    // IO thread that waited longest for a CPU: run-queue seconds / wall seconds
    // The hypervisor's steal during the phase, all CPUs summed (load/HostSteal.h); -1 unknown.
    double hostStealMs = -1;
    double wallS = 0;            // the phase, from handing it to the IO threads to their last record
    bool cancelled = false;
    // First failure writing the records file ("cannot write PATH: REASON"); empty when every
    // line is on disk. A failed write stops the phase at once.
    QString recordsError;
    std::int64_t startNs = 0;
    long descriptorLimit = -1;   // open descriptors the process may hold (-1 = no limit known)
    int reconnects = 0;          // see WorkerData
    int resent = 0;
    int unsolicited = 0;
};

struct LiveCounters {
    int finished = 0;
    int failed = 0;   // of `finished`, ended with an error
    int inFlight = 0;
    std::int64_t outputTokens = 0;
    double elapsedS = 0;
    double ttftAvgMs = 0;
    double latencyAvgMs = 0;
};

class LoadGenerator
{
public:
    explicit LoadGenerator(int ioThreads = 0); // 0 = one per core, at most 4
    ~LoadGenerator();
    int threadCount() const { return int(m_threads.size()); }
    // IO threads whose loop is an EpollDispatcher (all of them on Linux).
    int ioThreadsOnEpoll() const;

    PhaseOutcome runPhase(const PhaseConfig &config, const std::function<void(const LiveCounters &)> &onTick = {});
    void cancel(); // thread-safe; makes the running phase (if any) end quickly

private:
    void stopPhase(); // aborts the running phase's requests without cancelling later phases

    std::vector<std::unique_ptr<QThread>> m_threads;
    std::vector<IoWorker *> m_workers;
    std::shared_ptr<PhaseState> m_current;
    std::mutex m_mutex;
    std::atomic<bool> m_cancelRequested{false};
};

} // namespace sb
