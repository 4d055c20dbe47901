#include "results/ResultSnapshot.h"

namespace sb {

ResultSnapshot makeSnapshot(SweepResults results)
{
    return std::make_shared<const SweepResults>(std::move(results));
}

ResultSnapshot withCell(const ResultSnapshot &from, const CellResult &cell)
{
    SweepResults next = from ? *from : SweepResults();
    const int row = rowOfCell(next, cell.index);
    if (row >= 0) {
        next.cells[row] = cell;
    } else {
        qsizetype at = next.cells.size();
        while (at > 0 && next.cells.at(at - 1).index > cell.index)
            --at;
        next.cells.insert(at, cell);
    }
    return makeSnapshot(std::move(next));
}

int rowOfCell(const SweepResults &results, int cellIndex)
{
    for (qsizetype i = 0; i < results.cells.size(); ++i)
        if (results.cells.at(i).index == cellIndex)
            return int(i);
    return -1;
}

} // namespace sb
