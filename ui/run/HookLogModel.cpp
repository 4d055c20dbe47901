#include "run/HookLogModel.h"
#include "report/DisplayText.h"
#include "text/HookOutcomeText.h"
#include "style/Theme.h"

namespace sb::ui {

void HookLogModel::append(const QList<Entry> &entries)
{
    if (entries.isEmpty())
        return;
    const int first = int(m_entries.size());
    beginInsertRows({}, first, first + int(entries.size()) - 1);
    m_entries.append(entries);
    for (const Entry &e : entries)
        m_failures += e.outcome.ok ? 0 : 1;
    endInsertRows();
}

void HookLogModel::clear()
{
    beginResetModel();
    m_entries.clear();
    m_failures = 0;
    endResetModel();
}

int HookLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int HookLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HookLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &e = m_entries.at(index.row());
    const HookOutcome &o = e.outcome;
    if (role == Qt::ToolTipRole)
        return hookOutcomeToolTip(o);
    if (role == Qt::DecorationRole && index.column() == Verdict)
        return ui::hookSeverityIcon(hookSeverity(o));
    if (role == Qt::TextAlignmentRole && (index.column() == Status || index.column() == Attempts || index.column() == Latency))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time: return o.at.isValid() ? o.at.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz")) : QString();
    case Cell:
        if (e.server.isEmpty())
            return e.cellIndex >= 0 ? QStringLiteral("#%1").arg(e.cellIndex + 1) : QString();
        return QStringLiteral("#%1 %2 %3").arg(e.cellIndex + 1).arg(displaySafe(e.server, DisplayLines::Single), e.point);
    case Hook: return o.placement == HookPlacement::None ? hookKindName(o.hook) : QStringLiteral("%1 (%2)").arg(hookKindName(o.hook), hookPlacementName(o.placement));
    case Verdict: return hookVerdictText(o);
    case Status: return o.status ? QVariant(o.status) : QVariant(QStringLiteral("—"));
    case Attempts: return o.attempts;
    case Latency: return QStringLiteral("%1 ms").arg(o.latencyMs, 0, 'f', 1);
    case Message: return displaySafe(o.message, DisplayLines::Single); // server text
    }
    return {};
}

QVariant HookLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Time: return tr("Time");
    case Cell: return tr("Cell");
    case Hook: return tr("Hook");
    case Verdict: return tr("Verdict");
    case Status: return tr("HTTP");
    case Attempts: return tr("Attempts");
    case Latency: return tr("Latency");
    case Message: return tr("Message");
    }
    return {};
}

} // namespace sb::ui
