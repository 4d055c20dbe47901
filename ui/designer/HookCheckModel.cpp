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

void HookCheckModel::setServerReached(const QString &server, const QList<HookOutcome> &checks, const QStringList &hints)
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].server != server)
            continue;
        m_rows[i].reached = true;
        m_rows[i].checks = checks;
        m_rows[i].checkHints = hints;
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
    // A server with several origins has one outcome per origin: show the worst.
    const HookOutcome *worst = nullptr;
    for (const QList<HookOutcome> *list : {&row.checks, &row.outcomes})
        for (const HookOutcome &o : *list)
            if (shownAs(o.hook, hook) && (!worst || hookSeverity(o) > hookSeverity(*worst)))
                worst = &o;
    return worst;
}

QString HookCheckModel::rowVerdict(int r) const
{
    const Row &row = m_rows.at(r);
    if (!row.checked && !row.reached)
        return QStringLiteral("pending");
    HookSeverity worst = HookSeverity::Ok;
    for (const QList<HookOutcome> *list : {&row.checks, &row.outcomes})
        for (const HookOutcome &o : *list)
            worst = std::max(worst, hookSeverity(o));
    if (worst != HookSeverity::Failed && !row.checked)
        return QStringLiteral("pending"); // the hooks are still to come
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
    if (index.column() == Server) // the tooltip has a name the narrow column elides
        return role == Qt::DisplayRole || role == Qt::ToolTipRole ? QVariant(row.server) : QVariant();
    if (index.column() == Advice) {
        QStringList hints = row.checkHints + row.hints;
        hints.removeDuplicates();
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
            return hints.join(role == Qt::DisplayRole ? QStringLiteral("; ") : QStringLiteral("\n"));
        return {};
    }
    HookKind hook = HookKind::Reset;
    bool on = true, arrived = row.checked;
    switch (Column(index.column())) {
    case Reachable: hook = HookKind::Reachability; arrived = row.reached; break;
    case Model: hook = HookKind::ModelList; arrived = row.reached; break;
    case Reset: hook = HookKind::Reset; on = row.resetOn; break;
    case ProfilerStart: hook = HookKind::ProfilerStart; on = row.profilerOn; break;
    case ProfilerStop: hook = HookKind::ProfilerStop; on = row.profilerOn; break;
    case Telemetry: hook = HookKind::GpuTelemetry; on = row.telemetryOn; arrived = row.reached; break;
    case Server: case Advice: case ColumnCount: break;
    }
    const bool checked = arrived;
    const HookOutcome *o = outcome(row, hook);
    switch (role) {
    case Qt::DisplayRole:
        if (!on)
            return tr("off");
        if (!checked)
            return tr("checking…");
        if (!o)
            return index.column() == Model || index.column() == Telemetry ? tr("not checked") : tr("not called");
        return o->status ? QStringLiteral("%1 · %2 · %3 ms").arg(hookVerdictText(*o)).arg(o->status).arg(o->latencyMs, 0, 'f', 0)
                         : QStringLiteral("%1 · %2 ms").arg(hookVerdictText(*o)).arg(o->latencyMs, 0, 'f', 0);
    case Qt::DecorationRole:
        if (!on)
            return {};
        if (!checked)
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
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    // Short headers, so the table fits a narrow pane; the tooltip says what each one is.
    const bool tip = role == Qt::ToolTipRole;
    switch (section) {
    case Server: return tr("Server");
    case Reachable: return tip ? tr("Reachable: a TCP connect and an HTTP answer from each origin") : tr("Up");
    case Model: return tip ? tr("Model: GET /v1/models lists the spec's model (a 404 there is a warning)") : tr("Model");
    case Reset: return tip ? tr("Cache reset hook") : tr("Reset");
    case ProfilerStart: return tip ? tr("Profiler start hook") : tr("Start");
    case ProfilerStop: return tip ? tr("Profiler stop hook") : tr("Stop");
    case Telemetry: return tip ? tr("GPU telemetry: one scrape of each DCGM exporter, or one nvidia-smi reading (a failure is a warning)") : tr("GPU");
    case Advice: return tr("Advice");
    }
    return {};
}

} // namespace sb::ui
