#include "results/ResultsTableModel.h"
#include "results/TraceActions.h"
#include "report/DisplayText.h"
#include "results/SweepAxis.h"
#include "charts/MetricFormat.h"
#include "style/Theme.h"
#include <QColor>
#include <QFileInfo>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <algorithm>
#include <cmath>

namespace sb::ui {

namespace {
struct MetricColumn {
    int column;
    const QString &metric; // catalogue key: heading, tooltip and unit come from there
    Stat stat;
};
const MetricColumn kMetricColumns[] = {
    {ResultsTableModel::TtftP50Column, tag::ttft, Stat::P50},
    {ResultsTableModel::TtftP99Column, tag::ttft, Stat::P99},
    {ResultsTableModel::ItlAvgColumn, tag::itl, Stat::Avg},
    {ResultsTableModel::LatencyP50Column, tag::latency, Stat::P50},
    {ResultsTableModel::OutputThroughputColumn, tag::outputThroughput, Stat::Avg},
    {ResultsTableModel::RequestThroughputColumn, tag::requestThroughput, Stat::Avg},
};

const MetricColumn *metricColumn(int column)
{
    for (const auto &m : kMetricColumns)
        if (m.column == column)
            return &m;
    return nullptr;
}

} // namespace

ResultsTableModel::ResultsTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ResultsTableModel::setResults(ResultSnapshot results)
{
    beginResetModel();
    m_results = results ? std::move(results) : makeSnapshot();
    noteAxes();
    endResetModel();
}

void ResultsTableModel::noteAxes()
{
    const bool closed = std::any_of(cells().cbegin(), cells().cend(), [](const CellResult &c) { return !c.openLoop; });
    const bool open = std::any_of(cells().cbegin(), cells().cend(), [](const CellResult &c) { return bool(c.openLoop); });
    const bool changed = closed != m_anyClosedLoop || open != m_anyOpenLoop;
    m_anyClosedLoop = closed;
    m_anyOpenLoop = open;
    if (changed)
        Q_EMIT headerDataChanged(Qt::Horizontal, LoadColumn, LoadColumn);
}

bool ResultsTableModel::metricOfColumn(int column, QString *metric, Stat *stat)
{
    const MetricColumn *m = metricColumn(column);
    if (!m)
        return false;
    *metric = m->metric;
    *stat = m->stat;
    return true;
}

bool ResultsTableModel::hasRepeats() const
{
    return std::any_of(cells().cbegin(), cells().cend(), [](const CellResult &c) { return c.repeat > 0; });
}

void ResultsTableModel::clear()
{
    setResults(makeSnapshot());
}

void ResultsTableModel::updateCell(ResultSnapshot next, int cellIndex)
{
    if (!next) {
        clear();
        return;
    }
    const qsizetype before = cells().size();
    const int oldRow = rowOfCell(cellIndex);
    const int newRow = sb::rowOfCell(*next, cellIndex);
    if (oldRow >= 0 && oldRow == newRow && next->cells.size() == before) {
        m_results = std::move(next);
        noteAxes();
        Q_EMIT dataChanged(index(oldRow, 0), index(oldRow, ColumnCount - 1));
    } else if (oldRow < 0 && newRow >= 0 && next->cells.size() == before + 1) {
        beginInsertRows({}, newRow, newRow);
        m_results = std::move(next);
        endInsertRows();
        noteAxes();
    } else {
        setResults(std::move(next)); // not one cell newer: start again
    }
}

const CellResult *ResultsTableModel::cellAt(int row) const
{
    return row >= 0 && row < cells().size() ? &cells().at(row) : nullptr;
}

int ResultsTableModel::rowOfCell(int cellIndex) const
{
    return sb::rowOfCell(*m_results, cellIndex);
}

int ResultsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(cells().size());
}

int ResultsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

HookKind ResultsTableModel::hookKind(int column) const
{
    switch (column) {
    case ProfilerStartColumn: return HookKind::ProfilerStart;
    case ProfilerStopColumn: return HookKind::ProfilerStop;
    default: return HookKind::Reset; // ResetColumn; callers ask for hook columns only
    }
}

QIcon ResultsTableModel::icon(HookState state) const
{
    auto it = m_icons.find(int(state));
    if (it == m_icons.end())
        it = m_icons.insert(int(state), hookStateIcon(state));
    return *it;
}

QVariant ResultsTableModel::rawData(const CellResult &cell, int column) const
{
    if (const MetricColumn *m = metricColumn(column)) {
        if (!hasMeasurements(cell.status)) // a failed or cancelled cell has no figures to show
            return {};
        const double v = cellValue(cell, m->metric, m->stat);
        return std::isnan(v) ? QVariant() : QVariant(v);
    }
    switch (column) {
    case ServerColumn: return cell.server;
    case LoadColumn: return pointValue(cell); // sorts by the point, not by a rate cell's cap
    case RepeatColumn: return cell.repeat + 1;
    case StatusColumn: return cellStatusName(cell.status);
    case OkColumn: return cell.completed;
    case FailedColumn: return cell.failed;
    case ResetColumn:
    case ProfilerStartColumn:
    case ProfilerStopColumn: return summarizeHooks(cell, hookKind(column)).text;
    case TracesColumn: return cell.traces.size();
    }
    return {};
}

QVariant ResultsTableModel::displayData(const CellResult &cell, int column) const
{
    if (metricColumn(column)) {
        // A cell without measurements shows a dash, not a blank that reads like "not loaded yet"
        // (or a 0 that reads like a measurement).
        if (!hasMeasurements(cell.status))
            return QStringLiteral("–");
        const QVariant v = rawData(cell, column);
        return v.isValid() ? formatNumber(v.toDouble()) : QString();
    }
    switch (column) {
    case ResetColumn:
    case ProfilerStartColumn:
    case ProfilerStopColumn: return QVariant(); // the icon says it; text is in ToolTip/CSV roles
    case TracesColumn: // the first trace's file name reads as a link; the rest are counted
        if (cell.traces.isEmpty())
            return QString();
        return displaySafe(traceDisplayName(cell.traces.first()), DisplayLines::Single) // "⚠ name" when it is gone
               + (cell.traces.size() > 1 ? QStringLiteral(" +%1").arg(cell.traces.size() - 1) : QString());
    case FailedColumn: return cell.failed ? QVariant(cell.failed) : QVariant(QStringLiteral("0"));
    case LoadColumn:
        // Under "Conc." a bare number; a rate (or a set mixing both) says its unit: "2 req/s", "c=8".
        return m_anyOpenLoop ? QVariant(pointLabel(cell)) : QVariant(cell.concurrency);
    case StatusColumn:
        // A cancelled cell that had sent requests holds a partial count: say so beside the status.
        if (cell.status == CellStatus::Cancelled && cell.completed + cell.failed > 0)
            return tr("cancelled (partial: %1 requests)").arg(cell.completed + cell.failed);
        return displaySafe(rawData(cell, column).toString(), DisplayLines::Single);
    case ServerColumn: // names come from imported files too: controls shown, not obeyed
        return displaySafe(rawData(cell, column).toString(), DisplayLines::Single);
    default: return rawData(cell, column);
    }
}

QVariant ResultsTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CellResult &cell = cells().at(index.row());
    const int col = index.column();
    const bool hookCol = col == ResetColumn || col == ProfilerStartColumn || col == ProfilerStopColumn;
    switch (role) {
    case Qt::DisplayRole: return displayData(cell, col);
    case SortRole: return rawData(cell, col);
    case CsvRole: return rawData(cell, col);
    case CellIndexRole: return cell.index;
    case TracePathsRole: return cell.traces;
    case HookStateRole:
        return hookCol ? QVariant(int(summarizeHooks(cell, hookKind(col)).state)) : QVariant();
    case Qt::DecorationRole:
        if (hookCol) {
            const HookState st = summarizeHooks(cell, hookKind(col)).state;
            return st == HookState::None ? QVariant() : QVariant(icon(st));
        }
        return {};
    case Qt::AccessibleTextRole:
        return hookCol ? rawData(cell, col) : displayData(cell, col);
    case Qt::ToolTipRole:
        if (hookCol) {
            const HookSummary s = summarizeHooks(cell, hookKind(col));
            return s.state == HookState::None ? QStringLiteral("not configured") : s.toolTip;
        }
        if (col == TracesColumn) {
            QStringList lines;
            for (const QString &t : cell.traces)
                lines << (fileOnDisk(t) ? t : QStringLiteral("%1 (no longer on disk)").arg(t));
            return cell.traces.isEmpty() ? QVariant() : QVariant(displaySafe(lines.join(QLatin1Char('\n'))));
        }
        if (col == LoadColumn)
            return displaySafe(pointDescription(cell)); // the arrival name comes from the file
        if (col == RepeatColumn)
            return tr("%1 of its point (sweep.repeats)").arg(runLabel(cell));
        if (col == StatusColumn && !cell.reason.isEmpty())
            return displaySafe(cell.reason);
        if (col == FailedColumn && !cell.errors.isEmpty()) {
            QStringList lines;
            for (auto it = cell.errors.cbegin(); it != cell.errors.cend(); ++it)
                lines << QStringLiteral("%1 × %2").arg(it.value()).arg(it.key());
            return lines.join(QLatin1Char('\n'));
        }
        return {};
    case Qt::FontRole:
        if (col == TracesColumn && !cell.traces.isEmpty()) {
            QFont f;
            f.setUnderline(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (col == ServerColumn || col == StatusColumn || col == TracesColumn)
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        if (hookCol)
            return QVariant(Qt::AlignCenter);
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (col == StatusColumn)
            if (const QColor c = cellStatusColor(cell.status); c.isValid())
                return c;
        if (col == FailedColumn && cell.failed > 0)
            return QColor(0xcf, 0x22, 0x2e);
        if (col == TracesColumn && !cell.traces.isEmpty())
            return QGuiApplication::palette().brush(QPalette::Link);
        return {};
    }
    return {};
}

QVariant ResultsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (const MetricColumn *m = metricColumn(section)) {
        const MetricInfo &info = *findMetric(m->metric);
        if (role == Qt::DisplayRole)
            return metricColumnTitle(info, m->stat, false);
        if (role == Qt::ToolTipRole)
            return metricColumnToolTip(info, m->stat);
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (section == LoadColumn) {
        if (role == Qt::DisplayRole)
            return !m_anyOpenLoop ? tr("Conc.") : !m_anyClosedLoop ? tr("Rate") : tr("Load");
        if (role == Qt::ToolTipRole)
            return !m_anyOpenLoop ? tr("Closed-loop concurrency: requests in flight during the measured phase")
                   : !m_anyClosedLoop ? tr("Open-loop request rate (the cell's tooltip gives its arrivals and max_concurrency cap)")
                                      : tr("The cell's load point: c=N closed-loop concurrency, or an open-loop request rate");
    }
    static const char *const titles[ColumnCount] = {
        "Server", "", "Run", "Status", "OK", "Failed", "", "", "",
        "", "", "", "Reset", "Prof. start", "Prof. stop", "Traces",
    };
    static const char *const tips[ColumnCount] = {
        "Server entry of the sweep",
        "", // the load column: above
        "Which run of its point (sweep.repeats), from 1",
        "completed | failed | skipped | cancelled | pending",
        "Successful requests in the measured phase",
        "Failed requests (hover for the kinds)",
        "", "", "", "", "", "", // metric columns: from the catalogue
        "KV-cache reset hook",
        "Profiler start hook",
        "Profiler stop hook",
        "Trace files written by the profiler window (right-click to open)",
    };
    if (role == Qt::DisplayRole)
        return QString::fromUtf8(titles[section]);
    if (role == Qt::ToolTipRole)
        return QString::fromUtf8(tips[section]);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace sb::ui
