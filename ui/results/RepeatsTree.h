#pragma once
// The cells grouped by sweep point when points ran more than once (`sweep.repeats`): one row per
// server × point with the mean ± 95 % CI over its runs (results/PointSummary.h) of the table's
// metric columns, the runs beneath it, expandable. Choosing a run selects its cell.
#include "results/Results.h"
#include <QTreeWidget>

namespace sb::ui {

class RepeatsTree : public QTreeWidget
{
    Q_OBJECT
public:
    explicit RepeatsTree(QWidget *parent = nullptr);
    void setResults(const SweepResults &results);

Q_SIGNALS:
    void cellChosen(int cellIndex);
};

} // namespace sb::ui
