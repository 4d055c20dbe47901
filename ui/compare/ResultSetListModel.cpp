#include "compare/ResultSetListModel.h"
#include "results/Provenance.h"
#include "report/DisplayText.h"
#include "charts/ChartFactory.h"
#include "compare/SeriesSwatch.h"
#include <QDir>

namespace sb::ui {


ResultSetListModel::ResultSetListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

int ResultSetListModel::freeStyleIndex() const
{
    for (int s = 0;; ++s) {
        bool used = false;
        for (const Set &set : m_sets)
            used = used || set.styleIndex == s;
        if (!used)
            return s;
    }
}

void ResultSetListModel::add(const LoadedResults &loaded, const QString &path)
{
    Set set{loaded, path, loaded.displayName, freeStyleIndex()};
    if (set.name.isEmpty())
        set.name = loaded.results.sweepName.isEmpty() ? QStringLiteral("set %1").arg(m_sets.size() + 1) : loaded.results.sweepName;
    beginInsertRows({}, int(m_sets.size()), int(m_sets.size()));
    m_sets.append(set);
    endInsertRows();
}

void ResultSetListModel::remove(int row)
{
    if (row < 0 || row >= m_sets.size())
        return;
    beginRemoveRows({}, row, row);
    m_sets.removeAt(row);
    endRemoveRows();
}

void ResultSetListModel::clear()
{
    beginResetModel();
    m_sets.clear();
    endResetModel();
}

QList<ChartSeriesInput> ResultSetListModel::chartInputs() const
{
    QList<ChartSeriesInput> out;
    for (const Set &s : m_sets)
        out.append(ChartSeriesInput{s.name, s.loaded.results, s.styleIndex});
    return out;
}

int ResultSetListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sets.size());
}

QVariant ResultSetListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Set &s = m_sets.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return s.name;
    case Qt::DecorationRole: return seriesSwatch(s.styleIndex, QColor(0x44, 0x44, 0x44)); // sets are grey: colours belong to servers
    case Qt::ToolTipRole:
    {
        QString tip = tr("%1\n%2 cells, %3 servers").arg(QDir::toNativeSeparators(s.path)).arg(s.loaded.results.cells.size())
                          .arg(s.loaded.results.serverNames().size());
        for (const ProvenanceField &f : provenanceOf(s.loaded.results)) // results/Provenance.h
            if (!f.value.isEmpty())
                tip += QStringLiteral("\n%1: %2").arg(f.label, displaySafe(f.value, DisplayLines::Single));
        return tip;
    }
    case PathRole: return s.path;
    case StyleIndexRole: return s.styleIndex;
    }
    return {};
}

bool ResultSetListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const QString name = value.toString().trimmed();
    if (name.isEmpty() || name == m_sets.at(index.row()).name)
        return false;
    m_sets[index.row()].name = name;
    Q_EMIT dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    return true;
}

Qt::ItemFlags ResultSetListModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractListModel::flags(index);
    return index.isValid() ? f | Qt::ItemIsEditable : f;
}

} // namespace sb::ui
