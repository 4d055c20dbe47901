#include "designer/SweepEstimate.h"
#include <QObject>
#include <cmath>

namespace sb::ui {

namespace {
constexpr int kDefaultRequests = 100; // the engine's default when neither requests nor duration is set
constexpr double kPerTokenS = 0.020;
constexpr double kFirstTokenS = 0.050;
} // namespace

SweepEstimate estimateSweep(const SweepSpec &spec)
{
    SweepEstimate e;
    e.cells = int(spec.servers.size() * spec.concurrency.size());
    const WorkloadSpec &w = spec.workload;
    const double perRequest = kFirstTokenS + std::max(1, w.outputTokens) * kPerTokenS;
    double total = 0;
    for (int c : spec.concurrency) {
        if (c <= 0)
            continue;
        double cell = 0;
        if (w.durationS > 0)
            cell = w.durationS + perRequest; // the last requests drain after the deadline
        else
            cell = std::ceil(double(w.requestsPerCell > 0 ? w.requestsPerCell : kDefaultRequests) / c) * perRequest;
        if (w.warmupRequests > 0)
            cell += std::ceil(double(w.warmupRequests) / c) * perRequest;
        total += cell + 1.0;
    }
    e.seconds = total * double(spec.servers.size());
    e.assumption = QObject::tr("assumes ~%1 tok/s per stream").arg(int(1 / kPerTokenS));
    return e;
}

QString formatDuration(double s)
{
    if (s < 90)
        return QObject::tr("%1 s").arg(int(std::ceil(s)));
    if (s < 3600)
        return QObject::tr("%1 min").arg(int(std::round(s / 60)));
    const int minutes = int(std::round(s / 60));
    return QObject::tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

QString estimateText(const SweepSpec &spec)
{
    const SweepEstimate e = estimateSweep(spec);
    if (e.cells == 0)
        return QObject::tr("No cells yet: add a server and a concurrency level");
    return QObject::tr("%1 cells (%2 servers × %3 levels) · roughly %4 (%5)")
        .arg(e.cells)
        .arg(spec.servers.size())
        .arg(spec.concurrency.size())
        .arg(formatDuration(e.seconds), e.assumption);
}

} // namespace sb::ui
