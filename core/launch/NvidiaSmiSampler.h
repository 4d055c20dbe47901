#pragma once
// GPU telemetry without an exporter (docs/gpu-telemetry.md "Without an exporter"):
// `nvidia-smi --query-gpu=... --format=csv,noheader,nounits -lms PERIOD` runs on this machine
// while one measured phase runs, and each reading becomes DCGM-named samples
// (servermetrics/NvidiaSmiCsv.h) grouped into one ScrapePoint per period, for the same summary
// the exporters get.
// nvidia-smi is started like a launched server (launch/ProcessSpawn.h: its own process group,
// PR_SET_PDEATHSIG from the fork thread that never ends), so a sweepbench that dies however it
// dies takes it along; stop() ends the group (SIGTERM, then SIGKILL) and reaps it, and the
// destructor stops it. What it prints is bounded: lines past kMaxLineBytes are dropped, at most
// kMaxGpus GPUs per reading, and the readings kept are thinned (every other one dropped) when
// they reach kMaxPoints, so a long phase keeps its whole span at a coarser step.
#include "servermetrics/MetricsScraper.h"
#include <QString>
#include <QStringList>
#include <condition_variable>
#include <mutex>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace sb {

struct NvidiaSmiOptions {
    QString program;            // empty = "nvidia-smi" from PATH
    int intervalMs = 500;
    double firstReadingTimeoutS = 5; // start() waits this long for the first reading
};

class NvidiaSmiSampler
{
public:
    static constexpr qsizetype kMaxLineBytes = 1024;
    static constexpr int kMaxGpus = 64;
    static constexpr std::size_t kMaxPoints = 1024;
    // Each point's origin: how results.json and warnings name this source.
    static QString sourceName() { return QStringLiteral("nvidia-smi"); }

    explicit NvidiaSmiSampler(NvidiaSmiOptions options) : m_options(std::move(options)) {}
    ~NvidiaSmiSampler() { stop(); }
    NvidiaSmiSampler(const NvidiaSmiSampler &) = delete;
    NvidiaSmiSampler &operator=(const NvidiaSmiSampler &) = delete;

    // Starts nvidia-smi and waits for its first reading (or its exit, or the timeout). False and
    // *error ("nvidia-smi not found in PATH", …) when it could not be started.
    bool start(QString *error);
    // Ends nvidia-smi and its reader. The readings end with one point at this moment holding each
    // GPU's last reading, so the power integral covers the phase to its end.
    void stop();

    // After stop():
    const std::vector<ScrapePoint> &points() const { return m_points; }
    // Why the readings may be incomplete: an exit before stop() (with its exit code), lines that
    // were not readings (the first quoted), overlong lines, no reading at all. Each starts
    // with "nvidia-smi".
    QStringList warnings() const;
    bool exitedEarly() const { return m_exitedEarly; }

private:
    void readOutput(int fd);
    void takeLine(const QByteArray &line, std::int64_t ns);
    void pushCurrent();

    NvidiaSmiOptions m_options;
    pid_t m_pid = -1;
    std::thread m_reader;
    std::mutex m_mutex;               // guards what the reader shares with start(): m_readings, m_eof
    std::condition_variable m_wake;
    bool m_eof = false;
    int m_readings = 0;
    std::atomic<bool> m_stopReading{false};

    // Reader thread's until stop() has joined it.
    ScrapePoint m_current;
    std::vector<ScrapePoint> m_points;
    int m_unparsed = 0, m_overlong = 0, m_gpuOverflow = 0;
    QByteArray m_firstUnparsed;
    bool m_exitedEarly = false;
    QString m_exit;                   // "exit code 1", "signal 9"
};

} // namespace sb
