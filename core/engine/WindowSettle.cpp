#include "engine/WindowSettle.h"
#include "hooks/ControlClient.h"
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QThread>
#include <QUrl>
#include <algorithm>

namespace sb {

namespace {
// Sizes and modification times of the files the window wrote so far.
QHash<QString, QPair<qint64, qint64>> traceState(const TraceSnapshot &traces)
{
    QHash<QString, QPair<qint64, qint64>> state;
    for (const QString &path : traces.newFiles()) {
        const QFileInfo fi(path);
        state.insert(path, {fi.size(), fi.lastModified().toMSecsSinceEpoch()});
    }
    return state;
}

// Any complete HTTP answer counts (a 404 from a server without /health is an answer too).
bool answers(const HookTarget &target, double timeoutS, const std::atomic<bool> &cancel)
{
    ControlClient client;
    const ControlResponse r = client.call("GET", QUrl(target.origin + QStringLiteral("/health")), controlHeaders(target),
                                          std::nullopt, timeoutS, &cancel);
    return r.complete();
}

void sleepUnlessCancelled(double seconds, const std::atomic<bool> &cancel)
{
    QElapsedTimer t;
    t.start();
    while (!cancel && double(t.elapsed()) < seconds * 1000)
        QThread::msleep(std::min<qint64>(50, qint64(seconds * 1000) - t.elapsed() + 1));
}
} // namespace

ProfilerWindowResult settleProfilerWindow(const QList<HookTarget> &origins, const QList<HookOutcome> &stops,
                                          const TraceSnapshot &traces, const SettleOptions &options,
                                          const std::atomic<bool> &cancel)
{
    ProfilerWindowResult r;
    bool troubled = false;
    for (const HookOutcome &o : stops) {
        r.stopS = std::max(r.stopS, o.latencyMs / 1000);
        troubled = troubled || !o.ok || o.latencyMs / 1000 > kSlowStopS;
    }
    QElapsedTimer clock;
    clock.start();
    const auto elapsedS = [&] { return double(clock.elapsed()) / 1000; };
    const bool hasTraceDir = !traces.dir().isEmpty();

    if (!troubled) {
        // A quick, good stop: the server is back. One look says whether the files still grow.
        if (hasTraceDir && options.timeoutS > 0) {
            const auto before = traceState(traces);
            sleepUnlessCancelled(std::min(options.quickLookS, options.timeoutS), cancel);
            troubled = traceState(traces) != before;
        }
        if (!troubled) {
            r.settled = true;
            r.tracesComplete = true;
            r.settleS = elapsedS();
            return r;
        }
    }
    if (options.timeoutS <= 0) {
        r.settled = false;
        r.tracesComplete = false;
        r.why = QStringLiteral("not waited for (settle_timeout_seconds: 0)");
        return r;
    }
    // Settled when every origin answers and two looks a whole poll apart find the same files (a
    // shorter gap could fall between two writes of a trace still being written).
    const double pollS = std::min(options.pollS, options.timeoutS / 2);
    auto files = traceState(traces);
    QString why;
    while (!cancel) {
        bool allAnswer = true;
        for (const HookTarget &t : origins)
            if (!answers(t, std::clamp(options.timeoutS - elapsedS(), 0.5, 5.0), cancel)) {
                allAnswer = false;
                why = QStringLiteral("%1 did not answer").arg(t.origin);
                break;
            }
        if (options.timeoutS - elapsedS() < pollS)
            break;
        sleepUnlessCancelled(pollS, cancel);
        const auto now = traceState(traces);
        const bool stable = now == files;
        files = now;
        if (allAnswer && stable) {
            r.settled = true;
            // A failed stop may have cut the trace short even once the files are still.
            r.tracesComplete = std::all_of(stops.begin(), stops.end(), [](const HookOutcome &o) { return o.ok; });
            r.settleS = elapsedS();
            if (!r.tracesComplete)
                r.why = QStringLiteral("the profiler stop failed; the files it left may be cut short");
            return r;
        }
        if (allAnswer)
            why = QStringLiteral("trace files still growing");
        if (elapsedS() >= options.timeoutS)
            break;
    }
    r.settled = false;
    r.tracesComplete = false;
    r.settleS = elapsedS();
    r.why = cancel ? QStringLiteral("cancelled while waiting") : why;
    return r;
}

} // namespace sb
