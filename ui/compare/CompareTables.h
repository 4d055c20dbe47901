#pragma once
// The two tables under the Compare charts. The legend table lists every series the charts draw
// (sets × servers) with its full name, its swatch and its value at the selected point, so long
// set names never crowd the plot. The difference table is charts/DifferencePanel.
#include "charts/ChartFactory.h"
#include "charts/DifferencePanel.h" // valueHeading, meanCiText, the difference table
#include "report/SetComparison.h"
#include <QColor>
#include <QList>
#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
class QTableWidget;
QT_END_NAMESPACE

namespace sb::ui {

struct LegendRow {
    QString name;   // "set: server" as the chart names the series
    QColor color;
    int style = 0;
    int setIndex = 0;
    QString server;
};

// The series of a chart built by charts/ChartFactory, in drawing order: one source for names
// and colours, whatever the builders decide.
QList<LegendRow> legendRows(const QChart *chart, const QList<ChartSeriesInput> &inputs);

// Columns: series (swatch + full name), runs at the point, metric.stat at `at` (mean ± 95 % CI
// over repeats). Without a point the value column says to click one.
void fillLegendTable(QTableWidget *table, const QList<LegendRow> &rows, const QList<ChartSeriesInput> &inputs,
                     const QString &metric, Stat stat, std::optional<double> at);

} // namespace sb::ui
