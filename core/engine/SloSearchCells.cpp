#include "engine/SloSearchCells.h"
#include "results/ResultsStore.h"
#include "metrics/SloSearch.h"

namespace sb {

int serverIndexOf(const SweepSpec &spec, const QString &server)
{
    for (int i = 0; i < spec.servers.size(); ++i)
        if (spec.servers[i].name == server)
            return i;
    return -1;
}

std::optional<CellResult> nextSloSearchCell(const SweepSpec &spec, const SweepResults &results, const std::function<bool(int)> &ownsServer)
{
    if (!spec.sloSearch.enabled)
        return std::nullopt;
    for (int s = 0; s < spec.servers.size(); ++s) {
        if (!ownsServer(s))
            continue;
        const QString &name = spec.servers[s].name;
        const std::optional<double> next = nextSloPoint(findSlo(results, name, spec.workload.slo, spec.sloSearch.percentile), spec.sloSearch);
        if (!next)
            continue;
        CellResult cell;
        cell.index = int(results.cells.size());
        cell.server = name;
        cell.sloSearch = true;
        for (const CellResult &planned : results.cells)
            if (planned.server == name) {
                cell.origin = planned.origin;
                break;
            }
        if (spec.openLoop.active()) {
            cell.concurrency = spec.openLoop.maxConcurrency;
            cell.openLoop = OpenLoopResult();
            cell.openLoop->targetRate = *next;
        } else {
            cell.concurrency = int(*next);
        }
        cell.recordsPath = ResultsStore::cellDirName(cell.index, name, pointTag(cell) + QStringLiteral("-slo")) + QStringLiteral("/records.jsonl");
        return cell;
    }
    return std::nullopt;
}

} // namespace sb
