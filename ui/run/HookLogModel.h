#pragma once
// Live log of every control-hook call of a run. Rows arrive in batches from the run tab's
// throttle timer (one beginInsertRows per batch), so thousands of calls never mean thousands of
// view updates.
#include "results/Results.h"
#include <QAbstractTableModel>

namespace sb::ui {

class HookLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Cell, Hook, Verdict, Status, Attempts, Latency, Message, ColumnCount };

    struct Entry {
        int cellIndex = -1;
        QString server;   // filled from the cell when known
        QString point;    // results/SweepAxis.h pointLabel(): "c=8", "2 req/s"
        HookOutcome outcome;
    };

    using QAbstractTableModel::QAbstractTableModel;

    void append(const QList<Entry> &entries); // one insert for the whole batch
    void clear();
    const QList<Entry> &entries() const { return m_entries; }
    int failures() const { return m_failures; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<Entry> m_entries;
    int m_failures = 0;
};

} // namespace sb::ui
