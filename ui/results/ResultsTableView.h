#pragma once
// The per-cell table: sortable, multi-row selection, Ctrl+C / context menu copies CSV, trace and
// records files openable from the context menu. Speaks in cell indices (CellResult::index), not
// rows, so sorting and live inserts never confuse callers.
#include <QTableView>

QT_BEGIN_NAMESPACE
class QSortFilterProxyModel;
QT_END_NAMESPACE

namespace sb::ui {

class ResultsTableModel;

class ResultsTableView : public QTableView
{
    Q_OBJECT
public:
    explicit ResultsTableView(ResultsTableModel *model, QWidget *parent = nullptr);

    int currentCellIndex() const;
    void selectCell(int cellIndex); // -1 clears
    // CSV of the selected rows in view order; all rows when nothing is selected.
    QString selectionCsv() const;
    QString allCsv() const;
    void copySelectionAsCsv() const;
    void copyAllAsCsv() const;
    // Folder that records paths are relative to (for "open records").
    void setFolder(const QString &folder) { m_folder = folder; }

Q_SIGNALS:
    void currentCellChanged(int cellIndex);

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    QList<int> selectedSourceRows() const;
    void fitColumns();
    ResultsTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QString m_folder;
};

} // namespace sb::ui
