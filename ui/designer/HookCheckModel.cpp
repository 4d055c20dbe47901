#include "designer/HookCheckModel.h"
#include "text/HookOutcomeText.h"
#include "report/DisplayText.h"
#include "style/Theme.h"
#include <algorithm>

namespace sb::ui {

void HookCheckModel::begin(const QList<Row> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

void HookCheckModel::clear()
{
    begin({});
}

void HookCheckModel::setServerChecked(const QString &server, const QList<HookOutcome> &outcomes, const QStringList &hints)
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].server != server)
            continue;
        m_rows[i].checked = true;
        m_rows[i].outcomes = outcomes;
        m_rows[i].hints = hints;
        Q_EMIT dataChanged(index(i, 0), index(i, ColumnCount - 1));
        return;
    }
}

void HookCheckModel::keepOnly(const QStringList &servers)
{
    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        if (servers.contains(m_rows[i].server))
            continue;
        beginRemoveRows({}, i, i);
        m_rows.removeAt(i);
        endRemoveRows();
    }
}

const HookOutcome *HookCheckModel::outcome(const Row &row, HookKind hook) const
{
    for (const HookOutcome &o : row.outcomes)
        if (o.hook == hook)
            return &o;
    return nullptr;
}

QString HookCheckModel::rowVerdict(int r) const
{
    const Row &row = m_rows.at(r);
    if (!row.resetOn && !row.profilerOn)
        return QStringLiteral("off");
    if (!row.checked)
        return QStringLiteral("pending");
    HookSeverity worst = HookSeverity::Ok;
    for (const HookOutcome &o : row.outcomes)
        worst = std::max(worst, hookSeverity(o));
    switch (worst) {
    case HookSeverity::Ok: return QStringLiteral("ok");
    case HookSeverity::Retried:
    case HookSeverity::Warning: return QStringLiteral("warning");
    case HookSeverity::Failed: break;
    }
    return QStringLiteral("failed");
}

int HookCheckModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int HookCheckModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HookCheckModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    if (index.column() == Server)
        return role == Qt::DisplayRole ? QVariant(row.server) : QVariant();
    if (index.column() == Advice) {
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
            return row.hints.join(role == Qt::DisplayRole ? QStringLiteral("; ") : QStringLiteral("\n"));
        return {};
    }
    static const HookKind hooks[] = {HookKind::Reset /* Server: answered above */, HookKind::Reset, HookKind::ProfilerStart,
                                     HookKind::ProfilerStop};
    const bool on = index.column() == Reset ? row.resetOn : row.profilerOn;
    const HookOutcome *o = outcome(row, hooks[index.column()]);
    switch (role) {
    case Qt::DisplayRole:
        if (!on)
            return tr("off");
        if (!row.checked)
            return tr("checking…");
        if (!o)
            return tr("not called");
        return o->status ? QStringLiteral("%1 · %2 · %3 ms").arg(hookVerdictText(*o)).arg(o->status).arg(o->latencyMs, 0, 'f', 0)
                         : QStringLiteral("%1 · %2 ms").arg(hookVerdictText(*o)).arg(o->latencyMs, 0, 'f', 0);
    case Qt::DecorationRole:
        if (!on)
            return {};
        if (!row.checked)
            return hookPendingIcon();
        if (!o)
            return hookSkippedIcon();
        return hookSeverityIcon(hookSeverity(*o));
    case Qt::ToolTipRole:
        return o ? hookOutcomeToolTip(*o) : QVariant();
    default:
        return {};
    }
}

QVariant HookCheckModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Server: return tr("Server");
    case Reset: return tr("Cache reset");
    case ProfilerStart: return tr("Profiler start");
    case ProfilerStop: return tr("Profiler stop");
    case Advice: return tr("Advice");
    }
    return {};
}

} // namespace sb::ui
