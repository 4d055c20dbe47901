#include "results/RepeatsTree.h"
#include "charts/DifferencePanel.h"
#include "charts/MetricFormat.h"
#include "metrics/MetricCatalogue.h"
#include "report/DisplayText.h"
#include "results/PointSummary.h"
#include "results/ResultsTableModel.h"
#include "results/SweepAxis.h"
#include <QHash>
#include <QHeaderView>
#include <cmath>

namespace sb::ui {

namespace {
enum { ServerCol, LoadCol, RunsCol, FirstMetricCol };

// The table's metric columns, in its order: one home for which figures a row shows.
QList<QPair<QString, Stat>> metricColumns()
{
    QList<QPair<QString, Stat>> out;
    for (int c = 0; c < ResultsTableModel::ColumnCount; ++c) {
        QString metric;
        Stat stat = Stat::Avg;
        if (ResultsTableModel::metricOfColumn(c, &metric, &stat))
            out.append({metric, stat});
    }
    return out;
}
} // namespace

RepeatsTree::RepeatsTree(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("repeatsTree"));
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    setRootIsDecorated(true);
    header()->setStretchLastSection(true);
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item && item->data(0, Qt::UserRole).isValid())
            Q_EMIT cellChosen(item->data(0, Qt::UserRole).toInt());
    });
}

void RepeatsTree::setResults(const SweepResults &results)
{
    clear();
    const QList<QPair<QString, Stat>> metrics = metricColumns();
    QStringList headings{tr("Server"), axisOf(results) == SweepAxis::RequestRate ? tr("Rate") : tr("Conc."), tr("Runs")};
    for (const auto &[metric, stat] : metrics)
        headings << valueHeading(metric, stat);
    setColumnCount(int(headings.size()));
    setHeaderLabels(headings);
    QHash<int, const CellResult *> byIndex;
    for (const CellResult &c : results.cells)
        byIndex.insert(c.index, &c);
    for (const PointSummary &p : summarizePoints(results)) {
        auto *group = new QTreeWidgetItem(this);
        group->setText(ServerCol, displaySafe(p.server, DisplayLines::Single));
        group->setText(LoadCol, formatPoint(p.axis, p.point));
        group->setText(RunsCol, QString::number(p.runs()));
        for (int i = 0; i < metrics.size(); ++i) {
            const QString key = pointKey(metrics.at(i).first, metrics.at(i).second);
            const MeanCi ci = p.stats.value(key);
            group->setText(FirstMetricCol + i, meanCiText(ci, metrics.at(i).first));
            group->setToolTip(FirstMetricCol + i, ci.n >= 2 ? tr("mean ± 95 % confidence interval over %1 runs").arg(ci.n) : tr("one run"));
            group->setTextAlignment(FirstMetricCol + i, Qt::AlignRight | Qt::AlignVCenter);
        }
        for (int cellIndex : p.cells) {
            const CellResult *c = byIndex.value(cellIndex);
            if (!c)
                continue;
            auto *run = new QTreeWidgetItem(group);
            run->setData(0, Qt::UserRole, c->index);
            run->setText(ServerCol, runLabel(*c));
            run->setText(LoadCol, pointLabel(*c));
            run->setToolTip(LoadCol, pointDescription(*c));
            for (int i = 0; i < metrics.size(); ++i) {
                const double v = cellValue(*c, metrics.at(i).first, metrics.at(i).second);
                run->setText(FirstMetricCol + i, std::isfinite(v) ? formatNumber(v) : QStringLiteral("–"));
                run->setTextAlignment(FirstMetricCol + i, Qt::AlignRight | Qt::AlignVCenter);
            }
        }
    }
    for (int c = 0; c < columnCount(); ++c)
        resizeColumnToContents(c);
}

} // namespace sb::ui
