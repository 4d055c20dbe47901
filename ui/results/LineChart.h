#pragma once
// A plain line chart (x vs y, one line per named series) for the Results side panes: server
// metrics over time and per sweep point, metrics per time slice. Value axes sized to the data,
// chrome in the palette's colours (charts/ChartColors.h), series in the servers' colours.
#include <QList>
#include <QPointF>
#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
class QPalette;
QT_END_NAMESPACE

namespace sb::ui {

struct LineChartSeries {
    QString name;
    QList<QPointF> points;
    int colorIndex = 0;        // charts/ChartStyle.h serverColor()
    bool rightAxis = false;    // a second quantity on its own axis
    bool markers = false;      // draw the points too (few points: per sweep point, per slice)
};

struct LineChartAxes {
    QString x, yLeft, yRight; // titles with units
    bool namedSeries = false; // the legend shows even one line's name (a server's, not a quantity's)
    bool wholeX = false;      // x counts (turns): a tick per whole number, labels without decimals
};

QChart *buildLineChart(const QList<LineChartSeries> &series, const LineChartAxes &axes, const QPalette &palette);

} // namespace sb::ui
