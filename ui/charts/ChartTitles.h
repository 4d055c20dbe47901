#pragma once
// Titles that fit. QtCharts elides an axis title that is longer than its axis ("Output thro…")
// and a chart title wider than the chart; at 1024×700 both happened. The builders give each title
// a full form ("Output throughput (tok/s)") and a short one made from the metric catalogue's
// shortLabel ("Out tok/s"); fitChartTitles shows the full form where it fits, else the short one.
#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
QT_END_NAMESPACE

namespace sb::ui {

void setAxisTitles(QAbstractAxis *axis, const QString &full, const QString &shortTitle);
void setChartTitles(QChart *chart, const QString &full, const QString &shortTitle);
// Picks each title's form for the chart's current geometry (InteractiveChartView calls it when
// the plot area changes).
void fitChartTitles(QChart *chart);
// The full form of an axis title, whichever form is shown.
QString fullAxisTitle(const QAbstractAxis *axis);
QString fullChartTitle(const QChart *chart);

} // namespace sb::ui
