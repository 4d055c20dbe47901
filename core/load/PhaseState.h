#pragma once
// State shared by the IO threads while one load phase runs. Hot counters are atomics; each IO
// worker owns its WorkerData exclusively during the phase, so recording needs no lock.
#include "io/DurableWrite.h"
#include "io/SteadyClock.h"
#include "load/ArrivalSchedule.h"
#include "load/RequestFactory.h"
#include "load/RequestRecord.h"
#include "metrics/LogHistogram.h"
#include "spec/SecretSet.h"
#include <QByteArray>
#include <QMap>
#include <QMutex>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace sb {

double threadCpuSeconds();
// Time a thread has spent runnable but waiting for a CPU (Linux schedstat); 0 where unknown.
// Made on the thread it measures. It keeps /proc/thread-self/schedstat open and re-reads it:
// opening a file allocates a descriptor, and that waits while another thread grows the
// process's descriptor table (a UI probe opening it every 5 ms met 7-11 ms waits as the IO
// threads opened 1024 sockets).
class ThreadRunDelay
{
public:
    ThreadRunDelay();
    ~ThreadRunDelay();
    ThreadRunDelay(const ThreadRunDelay &) = delete;
    ThreadRunDelay &operator=(const ThreadRunDelay &) = delete;
    double seconds() const;

private:
    int m_fd;
};

// One URL of a server: where to connect and how to build requests for it (the Host header
// and path differ per URL).
struct PhaseTarget {
    ServerTarget target;
    const RequestFactory *factory = nullptr;
};

struct PhaseConfig {
    // Connection k of the phase serves targets[k % size] for its whole life (keep-alive), so a
    // server with several URLs gets an equal share of the in-flight requests on each.
    std::vector<PhaseTarget> targets;
    int concurrency = 1;
    std::int64_t requests = 0;   // 0 = unlimited (duration mode)
    double durationS = 0;        // 0 = no deadline
    double timeoutS = 600;
    bool streaming = true;
    QString recordsPath;         // JSONL destination; empty = keep no per-request lines
    const std::atomic<bool> *cancel = nullptr; // the caller's cancel flag, polled while waiting
    // Scrubbed from every stored error sample (a server may echo the key in a 401 body or an
    // SSE error event); null = nothing to scrub.
    std::shared_ptr<const SecretSet> secrets;
    // Open loop: request k is sent at startNs + schedule->offsetNs(k), on one of `concurrency`
    // connections (the max_concurrency cap); a request due while all are busy waits for the
    // next free one (its queue time is recorded apart). Null = closed loop.
    std::shared_ptr<ArrivalSchedule> schedule;
    // Multi-turn chat sessions (workload.sessions): each connection runs one session after
    // another, turn by turn; requests still count turns, and an open-loop schedule times each
    // session's first turn (its later turns follow their answers and think times). Null = one
    // request per ticket.
    std::optional<SessionSpec> sessions;
    std::uint64_t seed = 0;      // workload.seed: sessions' turns and think times
};

struct WorkerData {
    std::vector<RequestRecord> records;
    LogHistogram interChunkUs;
    QMap<QString, QString> errorSamples; // kind key (http_500, timeout, ...) -> first message
    QByteArray jsonl;                    // pending lines, flushed in blocks
    double cpuStartS = 0, cpuEndS = 0;
    double waitStartS = 0, waitEndS = 0; // run-queue delay
    std::int64_t wallStartNs = 0, wallEndNs = 0;
    int reconnects = 0;  // connections opened after a connection slot's first
    int resent = 0;      // requests re-sent on a fresh connection (their reused one was dead)
    int unsolicited = 0; // keep-alive connections dropped for bytes nobody asked for
};

class PhaseState
{
public:
    PhaseState(const PhaseConfig &config, int workers);
    ~PhaseState();

    const PhaseConfig config;
    std::vector<std::unique_ptr<WorkerData>> workers;
    std::atomic<bool> cancelled{false};
    std::atomic<int> nextTicket{0};
    std::atomic<int> nextSession{0};
    std::atomic<int> inFlight{0};
    std::atomic<int> maxInFlight{0};
    std::atomic<int> finished{0};          // requests ended (any outcome)
    std::atomic<int> failed{0};            // of those, ended with an error (the run monitor's live count)
    std::atomic<std::int64_t> outputTokens{0};
    std::atomic<std::int64_t> ttftSumUs{0};
    std::atomic<int> ttftCount{0};
    std::atomic<std::int64_t> latencySumUs{0};
    std::int64_t startNs = 0;
    std::int64_t deadlineNs = 0;           // 0 = none

    // Returns the next ticket, or -1 when the phase has no more requests to send.
    int takeTicket();
    void requestStarted();
    void requestEnded();
    // A sent request is taken back to be sent again (its reused connection was dead): it leaves
    // the in-flight count without counting as finished.
    void requestWithdrawn() { inFlight.fetch_sub(1, std::memory_order_relaxed); }
    // A connection has nothing more to do; the last one wakes the waiting caller.
    void connectionDone();
    bool waitAllDone(int timeoutMs);
    void addConnections(int n) { m_activeConnections += n; }

    // Appends a worker's JSONL block to the records file (thread-safe). After the first failed
    // write (full disk, file-size limit) nothing more is written and recordsOk() turns false:
    // the phase stops at once rather than measure on without records (LoadGenerator::runPhase).
    void writeRecords(QByteArray &block);
    bool recordsOk() const { return m_recordsOk.load(std::memory_order_relaxed); }
    // Syncs and closes the records file; returns the first write error, empty when all is on disk.
    QString finishRecords();

private:
    std::atomic<int> m_activeConnections{0};
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_done = false;
    QMutex m_fileMutex;
    CheckedFile m_records;                // guarded by m_fileMutex
    bool m_recording = false;
    std::atomic<bool> m_recordsOk{true};
};

} // namespace sb
