#pragma once
// Which cell a chart point came from. The chart builders tag every scatter series with its set
// index and, per point, the cell index (CellResult::index) and a tooltip, so views can map a click
// or hover back to a table row and highlight a row's points, without keeping parallel tables.
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QChart;
class QXYSeries;
QT_END_NAMESPACE

namespace sb::ui {

struct ChartPointRef {
    int setIndex = -1;
    int cellIndex = -1;
    bool isValid() const { return setIndex >= 0 && cellIndex >= 0; }
    bool operator==(const ChartPointRef &) const = default;
};

// Attaches refs to a series; cellIndices and toolTips have one entry per point.
void tagSeries(QXYSeries *series, int setIndex, const QString &server, const QList<int> &cellIndices,
               const QStringList &toolTips);
bool isTagged(const QXYSeries *series);
int seriesSetIndex(const QXYSeries *series);
QString seriesServer(const QXYSeries *series);
ChartPointRef pointRef(const QXYSeries *series, int pointIndex);
QString pointToolTip(const QXYSeries *series, int pointIndex);
// Index of the point of `series` closest to `value` on screen; -1 when the series is empty.
int nearestPointIndex(QChart *chart, QXYSeries *series, const QPointF &value);
// Tagged series of a chart (the scatter series of the builders).
QList<QXYSeries *> taggedSeries(const QChart *chart);
// Selects the points of that cell in every tagged series and deselects all others; an invalid ref
// clears the highlight. Returns how many points are highlighted.
int highlightCell(QChart *chart, ChartPointRef ref);
// Highlighted refs, for tests and for keeping the highlight across rebuilds.
QList<ChartPointRef> highlightedPoints(const QChart *chart);

} // namespace sb::ui
