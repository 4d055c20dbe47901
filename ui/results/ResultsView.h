#pragma once
// The Results tab: per-cell table, detail pane, throughput/latency and metric charts, and the
// request distribution of the selected cell. Fed a bulk snapshot (setResults) or cell by cell
// while a run is going (updateCell); chart rebuilds are coalesced so a fast run never stalls the UI.
#include "results/Results.h"
#include <QWidget>
#include <memory>

namespace sb::ui {

class ResultsViewPrivate;

class ResultsView : public QWidget
{
    Q_OBJECT
public:
    explicit ResultsView(QWidget *parent = nullptr);
    ~ResultsView() override;

    // Shows a whole result set. `folder` holds the files; cell.recordsPath is relative to it.
    void setResults(const SweepResults &results, const QString &folder);
    // Opens a folder/zip/other tool's format via sb::loadResults. False + *error on failure.
    bool openResults(const QString &path, QString *error = nullptr);
    void clear();
    // Live during a run: inserts the cell, or replaces the one with the same cell.index.
    void updateCell(const CellResult &cell);

    const SweepResults &results() const;
    QString folder() const;
    // Selects the row of the cell with this cell.index (-1 clears the selection).
    void selectCell(int cellIndex);
    int selectedCell() const; // cell.index or -1

Q_SIGNALS:
    void cellSelected(int cellIndex);

private:
    std::unique_ptr<ResultsViewPrivate> d;
};

} // namespace sb::ui
