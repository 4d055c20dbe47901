#include "launch/NvidiaSmiSampler.h"
#include "launch/PipeDrain.h"
#include "io/SteadyClock.h"
#include "launch/ProcessSpawn.h"
#include "servermetrics/GpuTelemetry.h"
#include "servermetrics/NvidiaSmiCsv.h"
#include <QFile>
#include <QProcessEnvironment>
#include <QSet>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sb {

namespace {
constexpr int kGraceMs = 1000;   // nvidia-smi ends at SIGTERM at once; SIGKILL after this
constexpr int kQuoteBytes = 120; // of the first line that was not a reading, in a warning

// A line quoted in a warning: printable ASCII only, bounded.
QString quoted(const QByteArray &line)
{
    QByteArray q = line.left(kQuoteBytes);
    for (char &c : q)
        if (c < 0x20 || c > 0x7e)
            c = '?';
    return QString::fromLatin1(q) + (line.size() > kQuoteBytes ? QStringLiteral("…") : QString());
}
} // namespace

bool NvidiaSmiSampler::start(QString *error)
{
    const QString name = m_options.program.isEmpty() ? sourceName() : m_options.program;
    const QStringList argv{name, QStringLiteral("--query-gpu=") + QLatin1String(kNvidiaSmiQuery),
                           QStringLiteral("--format=csv,noheader,nounits"), QStringLiteral("-lms"),
                           QString::number(m_options.intervalMs)};
    QString spawnError;
    const SpawnedWithOutput spawned = spawnWithOutput(argv, QProcessEnvironment::systemEnvironment(), &spawnError);
    if (spawned.pid < 0) {
        *error = QStringLiteral("nvidia-smi not started: %1").arg(spawnError);
        return false;
    }
    m_pid = spawned.pid;
    m_reader = std::thread([this, fd = spawned.outputFd] { readOutput(fd); });
    std::unique_lock lock(m_mutex);
    m_wake.wait_for(lock, std::chrono::milliseconds(qint64(m_options.firstReadingTimeoutS * 1000)),
                    [this] { return m_readings > 0 || m_eof; });
    return true;
}

void NvidiaSmiSampler::readOutput(int fd)
{
    QByteArray line;
    bool dropping = false; // inside a line past kMaxLineBytes
    drainPipe(fd, m_stopReading, [&](const char *data, std::size_t size) {
        const std::int64_t ns = steadyNowNs();
        for (std::size_t i = 0; i < size; ++i) {
            const char c = data[i];
            if (c == '\n') {
                if (!dropping)
                    takeLine(line, ns);
                line.clear();
                dropping = false;
            } else if (!dropping) {
                line.append(c);
                if (line.size() > kMaxLineBytes) {
                    ++m_overlong;
                    dropping = true;
                    line.clear();
                }
            }
        }
    });
    std::lock_guard lock(m_mutex);
    m_eof = true;
    m_wake.notify_all();
}

void NvidiaSmiSampler::takeLine(const QByteArray &line, std::int64_t ns)
{
    if (line.trimmed().isEmpty())
        return;
    std::vector<MetricSample> samples;
    if (!parseNvidiaSmiLine(line, &samples)) {
        if (m_unparsed++ == 0)
            m_firstUnparsed = line;
        return;
    }
    // A GPU already in the current reading starts the next period's.
    const QByteArray uuid = labelValue(samples.front(), dcgm::kUuidLabel);
    QSet<QByteArray> seen;
    for (const MetricSample &s : m_current.keySamples.samples)
        seen.insert(labelValue(s, dcgm::kUuidLabel));
    if (seen.contains(uuid)) {
        pushCurrent();
        seen.clear();
    }
    if (m_current.keySamples.samples.empty())
        m_current.steadyNs = ns;
    if (!seen.contains(uuid) && seen.size() >= kMaxGpus) {
        ++m_gpuOverflow;
        return;
    }
    for (MetricSample &s : samples)
        m_current.keySamples.samples.push_back(std::move(s));
    std::lock_guard lock(m_mutex);
    if (m_readings++ == 0)
        m_wake.notify_all();
}

void NvidiaSmiSampler::pushCurrent()
{
    if (m_current.keySamples.samples.empty())
        return;
    m_current.origin = sourceName();
    m_points.push_back(std::move(m_current));
    m_current = ScrapePoint();
    if (m_points.size() >= kMaxPoints) {
        // Every other reading goes (the first and the latest stay): the integral keeps its span.
        std::vector<ScrapePoint> kept;
        kept.reserve(kMaxPoints / 2 + 1);
        for (std::size_t i = 0; i < m_points.size(); i += 2)
            kept.push_back(std::move(m_points[i]));
        if (m_points.size() % 2 == 0)
            kept.push_back(std::move(m_points.back()));
        m_points = std::move(kept);
    }
}

void NvidiaSmiSampler::stop()
{
    if (m_pid < 0)
        return;
    const std::int64_t stopNs = steadyNowNs();
    const pid_t group = m_pid;
    // Did it end on its own (a driver error, a wrong option)? WNOWAIT: the group's id stays ours
    // until it is signalled below.
    siginfo_t info;
    std::memset(&info, 0, sizeof info);
    if (waitid(P_PID, id_t(group), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == group) {
        m_exitedEarly = true;
        m_exit = info.si_code == CLD_EXITED ? QStringLiteral("exit code %1").arg(info.si_status) : QStringLiteral("signal %1").arg(info.si_status);
    }
    ::kill(-group, SIGTERM);
    int status = 0;
    bool reaped = false;
    for (int waited = 0; waited < kGraceMs; waited += 10) {
        if (waitpid(group, &status, WNOHANG) == group) {
            reaped = true;
            break;
        }
        ::usleep(10'000);
    }
    ::kill(-group, SIGKILL); // whatever is left of the group
    if (!reaped)
        waitpid(group, &status, 0);
    m_stopReading = true;
    if (m_reader.joinable())
        m_reader.join();
    m_pid = -1;
    pushCurrent();
    // Readings printed while the process was being stopped came after the phase: a slow exit
    // (a loaded machine, a sanitizer build) must not stretch the window or the energy.
    while (m_points.size() > 1 && m_points.back().steadyNs > stopNs)
        m_points.pop_back();
    // Each GPU's last reading held to the phase's end.
    if (!m_points.empty() && m_points.back().steadyNs < stopNs) {
        ScrapePoint last = m_points.back();
        last.steadyNs = stopNs;
        m_points.push_back(std::move(last));
    }
}

QStringList NvidiaSmiSampler::warnings() const
{
    QStringList w;
    if (m_exitedEarly)
        w.append(QStringLiteral("nvidia-smi exited during the phase (%1)").arg(m_exit));
    if (m_points.empty())
        w.append(QStringLiteral("nvidia-smi gave no GPU reading during the phase"));
    if (m_unparsed > 0)
        w.append(QStringLiteral("nvidia-smi printed %1 lines that are not GPU readings (first: \"%2\")").arg(m_unparsed).arg(quoted(m_firstUnparsed)));
    if (m_overlong > 0)
        w.append(QStringLiteral("nvidia-smi printed %1 lines longer than %2 bytes: dropped").arg(m_overlong).arg(kMaxLineBytes));
    if (m_gpuOverflow > 0)
        w.append(QStringLiteral("nvidia-smi listed more than %1 GPUs: the rest were not read").arg(kMaxGpus));
    return w;
}

} // namespace sb
