// sweepbench-openloopbench: how well the open-loop client keeps to its schedule. Not a
// test: runs the real SweepEngine against an in-process mock server at each target rate and prints
// one JSON object per rate point on stdout — target vs achieved rate, the scheduled and the sent
// gaps' mean and coefficient of variation beside what the arrival process implies, schedule lag
// p50/p99/max (the goal: p99 under 1 ms at 1,000 req/s) beside the machine's floor, and
// client-queue figures.
//
//   sweepbench-openloopbench [--rates 2,8,32,1000] [--arrival poisson|constant|gamma]
//                            [--burstiness B] [--seconds S] [--output-tokens N] [--url URL]
//
// --url measures against a server in another process (e.g. `sweepbench mock-server`, pinned to
// its own core with taskset: tests/bench/run-openloop-bench.sh), so the lag is the client's and
// not the in-process mock's competition for the same CPUs.
//
// The gaps between arrivals as the server saw them (`cv_server`, `gap_sd_server_ms`, and the share
// of arrivals more than 1 ms off the ideal grid for constant arrivals) come from the mock's kernel
// receive stamps of the measured requests (/mock/timings), so what the client's sends look like
// after its sockets and the kernel is measured, not assumed.
//
// The reference beside each figure is the machine's own floor: while the cell runs, a bare thread
// in this process sleeps to an arrival schedule of the same rate (clock_nanosleep to an absolute
// time, nothing else to do) and records how late it wakes (`floor_lag_*`). No client can send
// earlier than a thread that only waits; on a virtual machine whose vCPUs the host preempts, that
// floor alone can exceed 1 ms at p99, and `steal_ms` (from /proc/stat) shows how much CPU time the
// host took during the cell.
#include "MockRoutes.h"
#include "engine/SweepEngine.h"
#include "load/HostSteal.h"
#include "metrics/Stats.h"
#include "mock/MockServer.h"
#include "results/ResultsStore.h"
#include <QCoreApplication>
#include <QEventLoop>
#include <QSet>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>
#include <sys/prctl.h>
#include <time.h>

using namespace sb;

namespace {

struct Gaps {
    double mean = 0, cv = 0;
};

struct ServerGaps {
    Gaps gaps;
    double sdMs = NAN;        // standard deviation of the gaps
    double offGridShare = NAN; // constant arrivals: share of gaps more than 1 ms from 1/rate
    int matched = 0;           // measured requests the server stamped
};

Gaps gapsOf(std::vector<double> t);

// Arrival stamps (ns) of the requests in `ids` as the mock's kernel took them.
ServerGaps serverGaps(const QList<MockTiming> &timings, const QSet<QByteArray> &ids, double rate, bool constant)
{
    std::vector<double> at;
    for (const MockTiming &t : timings)
        if (t.kernelArrival && ids.contains(t.requestId))
            at.push_back(double(t.arrivalNs));
    ServerGaps g;
    g.matched = int(at.size());
    g.gaps = gapsOf(at);
    if (at.size() < 3)
        return g;
    std::sort(at.begin(), at.end());
    double sum2 = 0;
    int off = 0;
    for (std::size_t i = 1; i < at.size(); ++i) {
        const double gapMs = (at[i] - at[i - 1]) / 1e6;
        sum2 += (gapMs - g.gaps.mean * 1e3) * (gapMs - g.gaps.mean * 1e3);
        off += std::abs(gapMs - 1e3 / rate) > 1.0;
    }
    g.sdMs = std::sqrt(sum2 / double(at.size() - 1));
    g.offGridShare = constant ? double(off) / double(at.size() - 1) : NAN;
    return g;
}

Gaps gapsOf(std::vector<double> t)
{
    std::sort(t.begin(), t.end());
    Gaps g;
    if (t.size() < 3)
        return g;
    double sum = 0, sum2 = 0;
    for (std::size_t i = 1; i < t.size(); ++i) {
        const double d = (t[i] - t[i - 1]) / 1e9;
        sum += d;
        sum2 += d * d;
    }
    const double n = double(t.size() - 1);
    g.mean = sum / n;
    g.cv = std::sqrt(std::max(0.0, sum2 / n - g.mean * g.mean)) / g.mean;
    return g;
}

std::int64_t monotonicNs()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return std::int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

struct Percentiles {
    double p50 = NAN, p99 = NAN, max = NAN;
};

// The same percentile as the engine's schedule lag (metrics/Stats.h), so the two compare.
Percentiles percentilesMs(const std::vector<std::int64_t> &ns)
{
    Percentiles p;
    if (ns.empty())
        return p;
    std::vector<double> ms;
    ms.reserve(ns.size());
    for (const std::int64_t v : ns)
        ms.push_back(double(v) / 1e6);
    std::sort(ms.begin(), ms.end());
    p.p50 = percentileSorted(ms, 50);
    p.p99 = percentileSorted(ms, 99);
    p.max = ms.back();
    return p;
}

// The floor: a thread that only sleeps to a Poisson schedule at `rate` until `stop`, recording how
// late each wake-up is.
class FloorProbe
{
public:
    explicit FloorProbe(double rate)
        : m_thread([this, rate] { run(rate); })
    {
    }
    Percentiles finish()
    {
        m_stop = true;
        m_thread.join();
        return percentilesMs(m_lags);
    }

private:
    void run(double rate)
    {
        prctl(PR_SET_TIMERSLACK, 1UL); // no 50 µs default slack: the floor is as strict as it gets
        std::mt19937_64 rng(7);
        std::exponential_distribution<double> gap(rate);
        std::int64_t due = monotonicNs();
        while (!m_stop) {
            due += std::int64_t(gap(rng) * 1e9);
            const timespec at{time_t(due / 1'000'000'000), long(due % 1'000'000'000)};
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr);
            m_lags.push_back(monotonicNs() - due);
        }
    }
    std::atomic<bool> m_stop{false};
    std::vector<std::int64_t> m_lags;
    std::thread m_thread;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QList<double> rates{2, 8, 32, 1000};
    Arrival arrival = Arrival::Poisson;
    double burstiness = 1, seconds = 5;
    int outputTokens = 4;
    QString url;
    const QStringList args = app.arguments().mid(1);
    for (int i = 0; i + 1 < args.size(); i += 2) {
        const QString &k = args[i], &v = args[i + 1];
        if (k == QLatin1String("--rates")) {
            rates.clear();
            for (const QString &r : v.split(QLatin1Char(',')))
                rates.append(r.toDouble());
        } else if (k == QLatin1String("--arrival")) {
            arrival = arrivalFromString(v).value_or(Arrival::Poisson);
        } else if (k == QLatin1String("--burstiness")) {
            burstiness = v.toDouble();
        } else if (k == QLatin1String("--seconds")) {
            seconds = v.toDouble();
        } else if (k == QLatin1String("--output-tokens")) {
            outputTokens = v.toInt();
        } else if (k == QLatin1String("--url")) {
            url = v;
        }
    }
    // A mock far from saturation: 5 ms a step whatever the batch, prompts nearly free.
    MockConfig cfg = mockDefaults(Flavor::Vllm);
    cfg.stepBaseMs = 5;
    cfg.stepPerSeqMs = 0;
    cfg.prefillPerTokenMs = 0.001;
    cfg.maxBatch = 4096;
    QString error;
    std::unique_ptr<MockServer> mock;
    if (url.isEmpty() && !(mock = MockServer::start(cfg, &error))) {
        std::fprintf(stderr, "mock: %s\n", qPrintable(error));
        return 2;
    }
    SweepSpec spec;
    spec.name = QStringLiteral("open-loop-bench");
    ServerSpec server;
    server.name = QStringLiteral("mock");
    server.urls = {mock ? mock->url().toString() : url};
    server.model = QStringLiteral("demo-model");
    server.flavor = Flavor::Vllm;
    spec.servers = {server};
    spec.openLoop.arrival = arrival;
    spec.openLoop.burstiness = burstiness;
    spec.openLoop.maxConcurrency = 1024;
    spec.workload.inputTokens = 16;
    spec.workload.outputTokens = outputTokens;
    spec.workload.requestsPerCell = 0;
    spec.workload.durationS = seconds;
    spec.workload.calibratePrompts = false;
    spec.workload.requestTimeoutS = 60;
    const double expectedCv = arrival == Arrival::Constant ? 0 : arrival == Arrival::Poisson ? 1 : 1 / std::sqrt(burstiness);
    // One run per rate, so the floor probe covers exactly that rate's cell.
    for (const double rate : rates) {
        spec.openLoop.rates = {rate};
        QTemporaryDir out;
        SweepEngine engine(spec, RunOptions{out.path(), false});
        QEventLoop loop;
        QObject::connect(&engine, &SweepEngine::finished, &loop, &QEventLoop::quit);
        const double stealBefore = hostStealMs();
        FloorProbe probe(rate);
        engine.start();
        loop.exec();
        const Percentiles floor = probe.finish();
        const double stealAfter = hostStealMs();
        const double steal = stealBefore >= 0 && stealAfter >= 0 ? stealAfter - stealBefore : NAN;
        for (const CellResult &cell : engine.results().cells) {
            if (!cell.openLoop)
                continue;
            QFile f(out.filePath(cell.recordsPath));
            std::vector<double> scheduled, sent;
            QSet<QByteArray> ids;
            if (f.open(QIODevice::ReadOnly)) {
                for (const QByteArray &line : f.readAll().split('\n')) {
                    const QJsonObject o = QJsonDocument::fromJson(line).object();
                    if (o.isEmpty() || o.value("send_ns").toDouble() < 0)
                        continue;
                    scheduled.push_back(o.value("scheduled_ns").toDouble());
                    sent.push_back(o.value("send_ns").toDouble());
                    ids.insert(o.value("request_id").toString().toUtf8());
                }
            }
            const Gaps s = gapsOf(scheduled), a = gapsOf(sent);
            const ServerGaps seen = serverGaps(mock ? mock->timings() : sbbench::remoteTimings(url), ids, rate, arrival == Arrival::Constant);
            const OpenLoopResult &o = *cell.openLoop;
            const QJsonObject row{
                {"target_rate", o.targetRate},
                {"achieved_rate", o.achievedRate},
                {"arrival", o.arrival},
                {"requests", int(sent.size())},
                {"gap_mean_target_s", 1 / o.targetRate},
                {"gap_mean_scheduled_s", s.mean},
                {"gap_mean_sent_s", a.mean},
                {"cv_target", expectedCv},
                {"cv_scheduled", s.cv},
                {"cv_sent", a.cv},
                {"cv_server", seen.gaps.cv},
                {"gap_sd_server_ms", seen.sdMs},
                {"off_grid_1ms_server", seen.offGridShare},
                {"server_stamped", seen.matched},
                {"lag_p50_ms", o.lagP50Ms},
                {"lag_p99_ms", o.lagP99Ms},
                {"lag_max_ms", o.lagMaxMs},
                {"floor_lag_p50_ms", floor.p50},
                {"floor_lag_p99_ms", floor.p99},
                {"floor_lag_max_ms", floor.max},
                {"steal_ms", steal},
                {"queued", o.queued},
                {"client_cpu_max", cell.clientCpuMax},
                {"client_wait_max", cell.clientWaitMax},
                {"status", cellStatusName(cell.status)},
            };
            std::printf("%s\n", QJsonDocument(row).toJson(QJsonDocument::Compact).constData());
            std::fflush(stdout);
        }
    }
    return 0;
}
