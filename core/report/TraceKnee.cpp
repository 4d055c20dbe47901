#include "report/TraceKnee.h"
#include "metrics/MetricCatalogue.h"
#include "results/SweepAxis.h"
#include <QMap>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {

QString fmt(double v, int decimals) { return QString::number(v, 'f', decimals); }

// Means per load point of one server's profiled cells.
QList<TraceKneePoint> pointsOf(const SweepResults &results, const QString &server)
{
    struct Sum {
        double step = 0, batch = 0, thr = 0, ttft = 0;
        int n = 0, nBatch = 0, nThr = 0, nTtft = 0;
    };
    QMap<double, Sum> sums;
    for (const CellResult &c : results.cells) {
        if (c.server != server || !c.traceSummary)
            continue;
        const double step = cellValue(c, tag::engineStepTime, Stat::P50);
        if (!std::isfinite(step))
            continue;
        Sum &s = sums[pointValue(c)];
        s.step += step;
        ++s.n;
        if (const double b = cellValue(c, tag::engineBatchSize, Stat::Avg); std::isfinite(b))
            s.batch += b, ++s.nBatch;
        if (const double t = cellValue(c, tag::outputThroughput, Stat::Avg); std::isfinite(t))
            s.thr += t, ++s.nThr;
        if (const double t = cellValue(c, tag::ttft, Stat::P50); std::isfinite(t))
            s.ttft += t, ++s.nTtft;
    }
    QList<TraceKneePoint> out;
    for (auto it = sums.cbegin(); it != sums.cend(); ++it) {
        const Sum &s = it.value();
        out.append({it.key(), s.step / s.n, s.nBatch == s.n ? s.batch / s.nBatch : -1, s.nThr == s.n ? s.thr / s.nThr : -1,
                    s.nTtft == s.n ? s.ttft / s.nTtft : -1});
    }
    return out;
}

// The first point whose value no later point exceeds by more than kKneeFlatShare; -1 when the
// value grows up to the last point.
int kneeOf(const QList<TraceKneePoint> &p, double TraceKneePoint::*value)
{
    for (int i = 0; i + 1 < p.size(); ++i) {
        bool flat = true;
        for (int j = i + 1; j < p.size() && flat; ++j)
            flat = p[j].*value <= p[i].*value * (1 + kKneeFlatShare);
        if (flat)
            return i;
    }
    return -1;
}

QString sentenceOf(const TraceKnee &k, SweepAxis axis)
{
    const TraceKneePoint &first = k.points.first(), &last = k.points.last();
    const auto at = [axis](double x) { return axis == SweepAxis::Concurrency ? QStringLiteral("concurrency %1").arg(formatPoint(axis, x))
                                                                               : formatPoint(axis, x); };
    if (k.kneeIndex < 0) {
        const QString steps = QStringLiteral("step time p50 %1 → %2 ms").arg(fmt(first.stepP50Ms, 2), fmt(last.stepP50Ms, 2));
        if (k.byBatch)
            return QStringLiteral("%1: the batch grows with the load up to %2 (%3 → %4 requests per step; %5): no knee within the sweep.")
                .arg(k.server, at(last.point), fmt(first.batch, 1), fmt(last.batch, 1), steps);
        return QStringLiteral("%1: output throughput grows with the load up to %2 (%3; the steps carry no batch sizes): no knee "
                              "within the sweep.")
            .arg(k.server, at(last.point), steps);
    }
    const TraceKneePoint &knee = k.points[k.kneeIndex];
    const QString steps = k.stepsRising
        ? QStringLiteral("the step time keeps rising (p50 %1 → %2 ms at %3)").arg(fmt(knee.stepP50Ms, 2), fmt(last.stepP50Ms, 2), at(last.point))
        : QStringLiteral("the step time stays near %1 ms").arg(fmt(knee.stepP50Ms, 2));
    const QString ttft = knee.ttftP50Ms >= 0 && last.ttftP50Ms >= 0
        ? QStringLiteral(" (TTFT p50 %1 → %2 ms)").arg(fmt(knee.ttftP50Ms, 1), fmt(last.ttftP50Ms, 1))
        : QString();
    if (k.byBatch)
        return QStringLiteral("%1: the batch stops growing at %2 (%3 requests per step there, %4 at %5) while %6: past %2 more "
                              "load waits in the server's queue instead of joining a batch%7.")
            .arg(k.server, at(knee.point), fmt(knee.batch, 1), fmt(last.batch, 1), at(last.point), steps, ttft);
    return QStringLiteral("%1: output throughput stops growing at %2 (%3 tokens/s there, %4 at %5) while %6: past %2 more load "
                          "waits rather than adds throughput%7 (the steps carry no batch sizes; vLLM's "
                          "detailed_trace_annotation adds them).")
        .arg(k.server, at(knee.point), fmt(knee.throughput, 1), fmt(last.throughput, 1), at(last.point), steps, ttft);
}

} // namespace

QList<TraceKnee> traceKnees(const SweepResults &results)
{
    QStringList servers;
    for (const CellResult &c : results.cells)
        if (!servers.contains(c.server))
            servers.append(c.server);
    const SweepAxis axis = axisOf(results);
    QList<TraceKnee> out;
    for (const QString &server : std::as_const(servers)) {
        TraceKnee k;
        k.server = server;
        k.points = pointsOf(results, server);
        if (k.points.size() < 3)
            continue;
        k.byBatch = std::all_of(k.points.cbegin(), k.points.cend(), [](const TraceKneePoint &p) { return p.batch >= 0; });
        const bool byThroughput = std::all_of(k.points.cbegin(), k.points.cend(), [](const TraceKneePoint &p) { return p.throughput >= 0; });
        if (!k.byBatch && !byThroughput)
            continue;
        k.kneeIndex = kneeOf(k.points, k.byBatch ? &TraceKneePoint::batch : &TraceKneePoint::throughput);
        k.stepsRising = k.kneeIndex >= 0 && k.points.last().stepP50Ms > k.points[k.kneeIndex].stepP50Ms * (1 + kKneeRiseShare);
        k.sentence = sentenceOf(k, axis);
        out.append(k);
    }
    return out;
}

QStringList traceKneeSentences(const SweepResults &results)
{
    QStringList out;
    for (const TraceKnee &k : traceKnees(results))
        out.append(k.sentence);
    return out;
}

} // namespace sb
