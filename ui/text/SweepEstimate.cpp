#include "text/SweepEstimate.h"
#include "engine/CalibrationReport.h"
#include "engine/SweepTimeEstimate.h"
#include "metrics/SloSearch.h"
#include "spec/LaunchVariants.h"
#include <QObject>
#include <algorithm>
#include <cmath>

namespace sb::ui {

SweepEstimate estimateSweep(const SweepSpec &given)
{
    const SweepSpec spec = withLaunchVariantsExpanded(given); // each launch variant runs every point
    SweepEstimate e;
    e.servers = int(spec.servers.size());
    e.cells = int(spec.servers.size() * spec.cellsPerServer());
    e.searchCells = e.servers * sloSearchCellsAtMost(spec);
    int mocks = 0;
    for (const ServerSpec &server : spec.servers) {
        mocks += server.mock.isEmpty() || !flavorFromString(server.mock) ? 0 : 1;
        e.seconds += estimateServerSeconds(spec, server);
    }
    if (mocks == spec.servers.size())
        e.assumption = QObject::tr("from the mock servers' timing model");
    else if (mocks > 0)
        e.assumption = QObject::tr("mocks by their timing model, real servers at ~%1 tok/s per stream").arg(assumedTokensPerStreamSecond());
    else
        e.assumption = QObject::tr("assumes ~%1 tok/s per stream").arg(assumedTokensPerStreamSecond());
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
        return QObject::tr("No cells yet: add a server and a concurrency level or request rate");
    // The lengths asked for and how prompts are sized (engine/CalibrationReport).
    const int servers = e.servers, points = int(spec.pointCount()), runs = std::max(1, spec.repeats);
    const QString pointWord = spec.openLoop.active() ? (points == 1 ? QObject::tr("rate") : QObject::tr("rates"))
                                                     : (points == 1 ? QObject::tr("level") : QObject::tr("levels"));
    QString shape = QObject::tr("%1 %2 × %3 %4")
                        .arg(servers)
                        .arg(servers == 1 ? QObject::tr("server") : QObject::tr("servers"))
                        .arg(points)
                        .arg(pointWord);
    if (runs > 1)
        shape += QObject::tr(" × %1 runs").arg(runs);
    QString cells = QObject::tr("%1 %2 (%3)").arg(e.cells).arg(e.cells == 1 ? QObject::tr("cell") : QObject::tr("cells"), shape);
    if (e.searchCells > 0)
        cells += QObject::tr(" + up to %1 SLO search %2").arg(e.searchCells).arg(e.searchCells == 1 ? QObject::tr("cell") : QObject::tr("cells"));
    return QObject::tr("%1 · roughly %2 (%3) · %4").arg(cells, formatDuration(e.seconds), e.assumption, workloadEstimateLine(spec.workload));
}

} // namespace sb::ui
