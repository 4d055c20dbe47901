#include "engine/OpenLoopCell.h"
#include "metrics/Stats.h"
#include <algorithm>

namespace sb {

OpenLoopSpec repeatArrivals(const OpenLoopSpec &spec, int repeat)
{
    OpenLoopSpec o = spec;
    o.seed = int((std::int64_t(spec.seed) + std::max(0, repeat)) % 2147483648LL); // stays a valid seed
    return o;
}

std::shared_ptr<ArrivalSchedule> scheduleFor(const OpenLoopSpec &spec, double ratePerS, const std::vector<double> &traceMs,
                                             int requests, double durationS)
{
    if (spec.arrival == Arrival::Trace)
        return std::make_shared<ArrivalSchedule>(traceMs, ratePerS);
    // N requests span N - 1 gaps, which is what the achieved rate (sent - 1 over first -> last
    // send) divides by; a timed phase sends about rate x duration of them.
    int exactBlock = 0;
    if (spec.rateMean == RateMean::Exact)
        exactBlock = requests > 0 ? requests - 1 : int(std::clamp(std::llround(ratePerS * durationS), 1LL, 10'000'000LL));
    return std::make_shared<ArrivalSchedule>(spec.arrival, ratePerS, spec.burstiness, std::uint64_t(spec.seed), exactBlock);
}

QString traceArrivalProblem(const Dataset &dataset)
{
    const std::vector<double> traceMs = dataset.timestampsMs();
    const QString what = QStringLiteral("sweep.arrival: trace cannot replay %1: ").arg(dataset.path);
    if (traceMs.empty())
        return what + QStringLiteral("not every entry has a \"timestamp\" (milliseconds)");
    for (std::size_t i = 1; i < traceMs.size(); ++i)
        if (traceMs[i] < traceMs[i - 1])
            return what + QStringLiteral("line %1: timestamp %2 ms comes before the previous entry's %3 ms; sort the trace by timestamp")
                              .arg(dataset.entries[i].line)
                              .arg(dataset.entries[i].timestampMs, 0, 'f', 0)
                              .arg(dataset.entries[i - 1].timestampMs, 0, 'f', 0);
    if (ArrivalSchedule::traceRate(traceMs) <= 0)
        return what + QStringLiteral("it needs at least 2 entries at different times to have a rate");
    return QString();
}

OpenLoopResult openLoopStats(const std::vector<RequestRecord> &records, const OpenLoopSpec &spec, double ratePerS)
{
    OpenLoopResult r;
    r.targetRate = ratePerS;
    r.arrival = toString(spec.arrival);
    r.burstiness = spec.arrival == Arrival::Gamma ? spec.burstiness : 1.0;
    r.seed = spec.seed;
    r.rateMean = toString(spec.arrival == Arrival::Poisson || spec.arrival == Arrival::Gamma ? spec.rateMean : RateMean::Sampled);
    r.maxConcurrency = spec.maxConcurrency;
    std::vector<double> lag, queue;
    std::int64_t firstSend = 0, lastSend = 0;
    for (const RequestRecord &rec : records) {
        if (rec.sendNs <= 0 || rec.scheduledNs <= 0)
            continue; // never sent (connect failed, cancelled)
        firstSend = firstSend ? std::min(firstSend, rec.sendNs) : rec.sendNs;
        lastSend = std::max(lastSend, rec.sendNs);
        // A request taken after its time waited for a free slot; from then on any delay is the client's.
        const std::int64_t waited = std::max<std::int64_t>(0, rec.queueNs - rec.scheduledNs);
        const std::int64_t couldSend = rec.scheduledNs + waited;
        lag.push_back(double(std::max<std::int64_t>(0, rec.sendNs - couldSend)) / 1e6);
        if (waited > 0) {
            ++r.queued;
            queue.push_back(double(waited) / 1e6);
        }
    }
    if (lag.size() >= 2 && lastSend > firstSend)
        r.achievedRate = double(lag.size() - 1) / (double(lastSend - firstSend) / 1e9);
    std::sort(lag.begin(), lag.end());
    std::sort(queue.begin(), queue.end());
    if (!lag.empty()) {
        r.lagP50Ms = percentileSorted(lag, 50);
        r.lagP99Ms = percentileSorted(lag, 99);
        r.lagMaxMs = lag.back();
    }
    if (!queue.empty()) {
        r.queueP50Ms = percentileSorted(queue, 50);
        r.queueP99Ms = percentileSorted(queue, 99);
        r.queueMaxMs = queue.back();
    }
    r.capHit = r.queued > 0;
    return r;
}

QStringList openLoopWarnings(const OpenLoopResult &r, double hostStealMs, double clientWaitMax)
{
    QStringList w;
    if (r.lagP99Ms > kMaxLagP99Ms) {
        QString late = QStringLiteral("the client sent late: schedule lag p99 %1 ms (max %2 ms) at %3 req/s; the arrivals are not the %4 process asked for")
                           .arg(r.lagP99Ms, 0, 'f', 2)
                           .arg(r.lagMaxMs, 0, 'f', 1)
                           .arg(r.targetRate)
                           .arg(r.arrival);
        if (hostStealMs >= 1)
            late += QStringLiteral(" (the hypervisor took %1 ms of this machine's CPU time meanwhile: steal delays any client, "
                                   "a dedicated machine keeps the schedule better)")
                        .arg(hostStealMs, 0, 'f', 0);
        if (clientWaitMax >= kNotableClientWait)
            late += QStringLiteral(" (a client IO thread waited for a CPU %1 % of the cell: other work on the client's cores "
                                   "delays its sends; give the client cores of its own, e.g. with taskset)")
                        .arg(clientWaitMax * 100, 0, 'f', 1);
        w.append(late);
    }
    if (r.capHit)
        w.append(QStringLiteral("max_concurrency %1 was reached: %2 requests waited in the client queue (p99 %3 ms, max %4 ms; "
                                "not counted in TTFT or latency), so the server saw fewer than %5 req/s")
                     .arg(r.maxConcurrency)
                     .arg(r.queued)
                     .arg(r.queueP99Ms, 0, 'f', 1)
                     .arg(r.queueMaxMs, 0, 'f', 1)
                     .arg(r.targetRate));
    return w;
}

} // namespace sb
