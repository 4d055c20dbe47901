#include "engine/CellValidity.h"
#include "metrics/MetricCatalogue.h"
#include <algorithm>
#include <cmath>
#include <unistd.h>

namespace sb {

namespace {
// Below these the figures describe the client or the machine more than the server.
constexpr double kSteadyShare = 0.9; // of C held in flight between ramp-up and drain
constexpr double kCpuBound = 0.9;    // of an IO thread's wall time spent on a CPU
constexpr double kRunQueue = 0.1;    // of an IO thread's wall time spent waiting for a CPU
constexpr double kHostSteal = 0.02;  // of the machine's CPU time (wall x CPUs) taken by the hypervisor
constexpr long kSpareDescriptors = 64; // files, pipes and Qt's own besides the connections
// When at least this share of the requests that could have gone out on an open connection
// (all but each slot's first) needed a new one, a low in-flight mean is the server's doing and
// is named so: no request is in flight while a slot connects, and no client can save that time.
constexpr double kReconnectShare = 0.5;
} // namespace

QStringList lengthWarnings(const CellMetricsOutput &metrics, const WorkloadSpec &w)
{
    QStringList out;
    if (metrics.tokenSource != TokenSource::Usage && metrics.tokenSource != TokenSource::Mixed)
        return out;
    const auto describe = [](const MetricStats &s) {
        return QStringLiteral("avg %1 (min %2, max %3)").arg(s.avg, 0, 'f', 1).arg(s.min, 0, 'f', 0).arg(s.max, 0, 'f', 0);
    };
    // Measured against what the same requests asked for (a distribution's draws, a dataset's
    // lengths); the spec's one length when the records carry none.
    const auto requested = [&](const QString &key, int fallback) {
        const MetricStats r = metrics.metrics.value(key);
        return r.count > 0 ? r.avg : double(fallback);
    };
    const MetricStats isl = metrics.metrics.value(tag::inputLength);
    // A session's later turns carry its history too (their lengths are in the cell's by_turn rows);
    // with images the server's prompt_tokens add each image's tokens, which only the model knows:
    // the asked-for length is the text's, so the two are not compared.
    const bool islAsked = !w.sessions && !w.images && (!w.dataset || metrics.metrics.value(tag::requestedInputLength).count > 0);
    const double wantIn = requested(tag::requestedInputLength, w.inputTokens);
    if (isl.count > 0 && islAsked && wantIn > 0 && std::abs(isl.avg - wantIn) > kLengthTolerance * wantIn)
        out.append(QStringLiteral("measured input length %1 tokens is %2 % off the requested %3")
                       .arg(describe(isl))
                       .arg((isl.avg - wantIn) / wantIn * 100, 0, 'f', 1)
                       .arg(wantIn, 0, 'f', w.inputLengths || w.dataset ? 1 : 0));
    const MetricStats osl = metrics.metrics.value(tag::outputLength);
    const double wantOut = requested(tag::requestedOutputLength, w.outputTokens);
    if (osl.count > 0 && wantOut > 0 && osl.avg < (1 - kLengthTolerance) * wantOut)
        out.append(QStringLiteral("measured output length %1 tokens is short of max_tokens %2: the server stopped early (EOS; %3)")
                       .arg(describe(osl))
                       .arg(wantOut, 0, 'f', w.outputLengths || w.dataset ? 1 : 0)
                       .arg(w.ignoreEos ? QStringLiteral("ignore_eos was sent but not honoured") : QStringLiteral("ignore_eos is off")));
    return out;
}

QStringList validityWarnings(const PhaseOutcome &phase, const CellMetricsOutput &metrics, int concurrency, bool closedLoop)
{
    QStringList w;
    if (!phase.cancelled && closedLoop) { // open loop: engine/OpenLoopCell.h judges keeping to the schedule
        const auto sent = std::count_if(phase.records.begin(), phase.records.end(), [](const RequestRecord &r) { return r.sendNs > 0; });
        if (sent >= concurrency && metrics.maxInFlight < concurrency)
            w.append(QStringLiteral("achieved concurrency %1 is below the target %2").arg(metrics.maxInFlight).arg(concurrency));
        // The peak can reach C while the client still loses time between an answer and the
        // next send; the steady mean shows that.
        else if (metrics.steadyMeanInFlight >= 0 && metrics.steadyMeanInFlight < kSteadyShare * concurrency) {
            const QString low = QStringLiteral("only %1 requests in flight on average (target %2) while requests were still being sent: ")
                                    .arg(metrics.steadyMeanInFlight, 0, 'f', 1)
                                    .arg(concurrency);
            if (phase.reconnects > 0 && double(phase.reconnects) >= kReconnectShare * double(std::max<qsizetype>(1, sent - concurrency)))
                w.append(low + QStringLiteral("the server closed its connections, so %1 of %2 requests waited for a new connection "
                                              "(no request is in flight while one connects): keep-alive on the server would raise throughput")
                                   .arg(phase.reconnects)
                                   .arg(sent));
            else
                w.append(low + QStringLiteral("the client did not keep up, so throughput is understated"));
        }
    }
    // Each connection holds a descriptor; beyond the hard limit connections fail to open.
    if (phase.descriptorLimit > 0 && concurrency + kSpareDescriptors > phase.descriptorLimit)
        w.append(QStringLiteral("the process may open only %1 files and sockets (its hard limit), too few for %2 connections: "
                                "raise it (ulimit -Hn, or LimitNOFILE= for a service)")
                     .arg(phase.descriptorLimit)
                     .arg(concurrency));
    if (phase.maxThreadWait > kRunQueue)
        w.append(QStringLiteral("a client IO thread waited for a CPU %1% of the time (the machine is oversubscribed): "
                                "latencies may include scheduling delay")
                     .arg(qRound(phase.maxThreadWait * 100)));
    // Steal is summed over every CPU of the machine (/proc/stat), so it is set against all of
    // them, not only those this process may run on (taskset).
    if (const double cpuMs = phase.wallS * 1000.0 * double(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
        phase.hostStealMs > 0 && cpuMs > 0 && phase.hostStealMs > kHostSteal * cpuMs)
        w.append(QStringLiteral("the hypervisor took %1 ms of this machine's CPU time during the phase (%2 % steal): "
                                "every thread stalls meanwhile, so latencies include it")
                     .arg(phase.hostStealMs, 0, 'f', 0)
                     .arg(phase.hostStealMs / cpuMs * 100, 0, 'f', 1));
    if (phase.maxThreadCpu > kCpuBound)
        w.append(QStringLiteral("a client IO thread was CPU-bound (%1%): latencies may include client delay").arg(qRound(phase.maxThreadCpu * 100)));
    if (metrics.tokenSource == TokenSource::Counted)
        w.append(QStringLiteral("the server sent no usage: output tokens are counted content chunks"));
    return w;
}

QStringList traceWarnings(const TraceSummary &summary, int maxFiles)
{
    QStringList w;
    if (summary.rankCheck == RankCheck::Mismatch) {
        QStringList ranks;
        for (const TraceFileSummary &f : summary.files) {
            if (f.rank < 0)
                continue;
            QString r = QStringLiteral("rank %1: %2 steps").arg(f.rank).arg(f.stats.steps);
            if (!f.profileId.isEmpty())
                r += QStringLiteral(", profile %1").arg(f.profileId.left(64));
            ranks.append(r);
        }
        w.append(QStringLiteral("the rank traces of the profiler window disagree (%1): every rank runs every step of one window, "
                                "so a rank missed steps or the files come from different windows")
                     .arg(ranks.join(QStringLiteral("; "))));
    }
    for (const TraceFileSummary &f : summary.files)
        if (!f.error.isEmpty())
            w.append(QStringLiteral("trace %1 was not read to the end (%2): its summary covers what was read")
                         .arg(f.path.left(300), f.error.left(300)));
    if (summary.filesNotRead > 0)
        w.append(QStringLiteral("%1 more trace files were not summarised (at most %2 per cell)").arg(summary.filesNotRead).arg(maxFiles));
    return w;
}

} // namespace sb
