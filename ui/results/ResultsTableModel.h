#pragma once
// One row per cell: server, load point (concurrency or request rate), run, status, request counts, key metrics, hook outcomes and
// traces. It reads the Results view's shared snapshot (results/ResultSnapshot.h) and keeps no copy
// of its own: a whole new set via setResults (a model reset); a snapshot one cell newer via
// updateCell (dataChanged on replace, a row insert for a new cell) so a view's selection and scroll
// position survive a running sweep.
#include "results/HookSummary.h"
#include "results/ResultSnapshot.h"
#include <QAbstractTableModel>
#include <QHash>
#include <QIcon>

namespace sb::ui {

class ResultsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        ServerColumn,
        LoadColumn,   // the cell's sweep point: concurrency, or request rate (its cap in the tooltip)
        RepeatColumn, // which run of its point; the view hides it when no point ran twice
        StatusColumn,
        OkColumn,
        FailedColumn,
        TtftP50Column,
        TtftP99Column,
        ItlAvgColumn,
        LatencyP50Column,
        OutputThroughputColumn,
        RequestThroughputColumn,
        ResetColumn,
        ProfilerStartColumn,
        ProfilerStopColumn,
        TracesColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers as numbers, for QSortFilterProxyModel
        CellIndexRole,               // CellResult::index of the row
        CsvRole,                     // unformatted value for export (full precision, hook text)
        HookStateRole,               // int(HookState) in hook columns
        TracePathsRole,              // QStringList of absolute trace paths (any column)
    };

    explicit ResultsTableModel(QObject *parent = nullptr);

    void setResults(ResultSnapshot results);
    void setResults(const SweepResults &results) { setResults(makeSnapshot(results)); }
    // `next` is the current snapshot with the cell of index `cellIndex` replaced or added
    // (withCell); any other difference resets the model.
    void updateCell(ResultSnapshot next, int cellIndex);
    void updateCell(const CellResult &cell) { updateCell(withCell(m_results, cell), cell.index); }
    void clear();
    const ResultSnapshot &snapshot() const { return m_results; }

    const CellResult *cellAt(int row) const;
    bool hasRepeats() const; // some cell is a second (or later) run of its point
    // The catalogue metric and stat a metric column shows; false for other columns.
    static bool metricOfColumn(int column, QString *metric, Stat *stat);
    int rowOfCell(int cellIndex) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayData(const CellResult &cell, int column) const;
    QVariant rawData(const CellResult &cell, int column) const;
    HookKind hookKind(int column) const; // of a hook column
    QIcon icon(HookState state) const;

    void noteAxes(); // the load column's heading follows the axes of the cells shown

    const QList<CellResult> &cells() const { return m_results->cells; }

    ResultSnapshot m_results = makeSnapshot();
    bool m_anyClosedLoop = false, m_anyOpenLoop = false;
    mutable QHash<int, QIcon> m_icons;
};

} // namespace sb::ui
