#pragma once
// What the crosshair read-out says about the point nearest the mouse: the series (server, or
// "set: server"), the point's label ("c=8", "8 req/s", results/SweepAxis.h), x and y with the
// names and units the chart builder tagged on its axes (metrics/MetricCatalogue.h), and the SLO
// search's sentence when the point is the one it found (metrics/SloSearch.h). Pure lookups on
// the built chart: hovering never rebuilds it.
#include <QPointF>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QXYSeries;
QT_END_NAMESPACE

namespace sb::ui {

// `label` names the value on this axis ("TTFT p99"), `unit` its short unit ("ms"). An axis whose
// value is the sweep point itself is tagged with an empty label: the point label already says it.
void tagAxis(QAbstractAxis *axis, const QString &label, const QString &unit);
// One label per point of a tagged series ("c=8").
void tagPointLabels(QXYSeries *series, const QStringList &labels);
QString pointLabelOf(const QXYSeries *series, int pointIndex);
// More lines per point, shown after the values (a Pareto point's interval and its standing on
// the frontier); empty strings add nothing.
void tagPointDetails(QXYSeries *series, const QStringList &details);
QString pointDetailsOf(const QXYSeries *series, int pointIndex);

// The SLO search's marker of one curve: the ring series, its curve and the sentence.
void tagSloMarker(QXYSeries *ring, int setIndex, const QString &server, const QString &sentence);
QString sloSentenceOf(const QXYSeries *ring); // empty for any other series
QList<QXYSeries *> sloMarkers(const QChart *chart);

struct Readout {
    QXYSeries *series = nullptr; // the tagged (scatter) series of the point
    int index = -1;
    QPointF value;               // in axis units
    QPointF position;            // chart coordinates
    QString text;                // multi-line, display-safe
    QString sloSentence;         // non-empty when the point is the SLO search's finding
    bool isValid() const { return series && index >= 0; }
};

// The tagged point nearest to `pos` (chart coordinates) inside the plot area and within `radius`
// pixels; invalid when there is none.
Readout readoutAt(QChart *chart, QPointF pos, qreal radius = 40);

} // namespace sb::ui
