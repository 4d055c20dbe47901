#include "results/ResultsTableView.h"
#include "results/ResultsTableModel.h"
#include "results/TableCsv.h"
#include "results/TraceActions.h"
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDir>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <algorithm>

namespace sb::ui {

ResultsTableView::ResultsTableView(ResultsTableModel *model, QWidget *parent)
    : QTableView(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(ResultsTableModel::SortRole);
    // Live inserts must not reshuffle rows under the user's eyes unless a sort column is chosen.
    m_proxy->setDynamicSortFilter(true);
    setModel(m_proxy);
    setSortingEnabled(true);
    sortByColumn(-1, Qt::AscendingOrder); // engine order until the user clicks a header
    setSelectionBehavior(SelectRows);
    setSelectionMode(ExtendedSelection);
    setAlternatingRowColors(true);
    setWordWrap(false);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setHighlightSections(false);
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { Q_EMIT currentCellChanged(current.isValid() ? current.data(ResultsTableModel::CellIndexRole).toInt() : -1); });
    // A reset (new result set) drops the current index without currentRowChanged.
    // A new set starts scrolled to its first column: a scroll kept from the last one would
    // hide the Server column of the next.
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        setColumnHidden(ResultsTableModel::RepeatColumn, !m_model->hasRepeats());
        fitColumns();
        horizontalScrollBar()->setValue(0);
        Q_EMIT currentCellChanged(-1);
    });
    // First rows of a live run: size columns to real content once, then leave the user's widths.
    connect(model, &QAbstractItemModel::rowsInserted, this, [this] {
        setColumnHidden(ResultsTableModel::RepeatColumn, !m_model->hasRepeats());
        if (m_model->rowCount() <= 1) {
            fitColumns();
            horizontalScrollBar()->setValue(0);
        }
    });
}

void ResultsTableView::fitColumns()
{
    resizeColumnsToContents();
    // Headers like "Prof. start" are wider than a glyph; numbers never need more than ~12 chars.
    const int cap = fontMetrics().horizontalAdvance(QLatin1Char('0')) * 11;
    for (int c = 1; c < model()->columnCount(); ++c)
        if (columnWidth(c) > cap)
            setColumnWidth(c, cap);
}

int ResultsTableView::currentCellIndex() const
{
    const QModelIndex cur = currentIndex();
    return cur.isValid() ? cur.data(ResultsTableModel::CellIndexRole).toInt() : -1;
}

void ResultsTableView::selectCell(int cellIndex)
{
    const int row = m_model->rowOfCell(cellIndex);
    if (row < 0) {
        selectionModel()->clear();
        return;
    }
    const QModelIndex idx = m_proxy->mapFromSource(m_model->index(row, 0));
    selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    scrollTo(idx);
}

QList<int> ResultsTableView::selectedSourceRows() const
{
    QList<QModelIndex> rows = selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QList<int> out;
    for (const QModelIndex &r : rows)
        out.append(m_proxy->mapToSource(r).row());
    return out;
}

QString ResultsTableView::selectionCsv() const
{
    const QList<int> rows = selectedSourceRows();
    return rows.isEmpty() ? allCsv() : tableToCsv(m_model, rows);
}

QString ResultsTableView::allCsv() const
{
    QList<int> rows; // view order, so a sorted table copies sorted
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        rows.append(m_proxy->mapToSource(m_proxy->index(r, 0)).row());
    return tableToCsv(m_model, rows);
}

void ResultsTableView::copySelectionAsCsv() const
{
    QApplication::clipboard()->setText(selectionCsv());
}

void ResultsTableView::copyAllAsCsv() const
{
    QApplication::clipboard()->setText(allCsv());
}

void ResultsTableView::keyPressEvent(QKeyEvent *event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelectionAsCsv();
        return;
    }
    QTableView::keyPressEvent(event);
}

void ResultsTableView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    const int selected = int(selectedSourceRows().size());
    menu.addAction(selected > 0 ? tr("Copy %n row(s) as CSV", nullptr, selected) : tr("Copy table as CSV"), this,
                   [this] { copySelectionAsCsv(); });
    if (selected > 0)
        menu.addAction(tr("Copy table as CSV"), this, [this] { copyAllAsCsv(); });
    const QModelIndex at = indexAt(event->pos());
    if (const CellResult *cell = at.isValid() ? m_model->cellAt(m_proxy->mapToSource(at).row()) : nullptr) {
        if (!cell->traces.isEmpty()) {
            menu.addSeparator();
            addFileActions(menu.addMenu(tr("Traces (%1)").arg(cell->traces.size())), cell->traces, this);
        }
        if (!cell->recordsPath.isEmpty() && !m_folder.isEmpty()) {
            menu.addSeparator();
            addFileActions(menu.addMenu(tr("Per-request records")), {QDir(m_folder).filePath(cell->recordsPath)}, this);
        }
    }
    menu.exec(event->globalPos());
}

} // namespace sb::ui
