#include "charts/ChartReadout.h"
#include "charts/ChartPoints.h"
#include "charts/MetricFormat.h"
#include "report/DisplayText.h"
#include <QAbstractAxis>
#include <QChart>
#include <QXYSeries>
#include <limits>

namespace sb::ui {

namespace {
constexpr char kAxisLabel[] = "sbReadoutLabel";
constexpr char kAxisUnit[] = "sbReadoutUnit";
constexpr char kPointLabels[] = "sbPointLabels";
constexpr char kPointDetails[] = "sbPointDetails";
constexpr char kSloSentence[] = "toolTip"; // the ring's tooltip is the sentence
constexpr char kSloSet[] = "sbSloSet";
constexpr char kSloServer[] = "sbSloServer";

// "TTFT p99: 12.3 ms"; nothing for an axis that is the sweep point or was not tagged.
QString axisLine(const QXYSeries *series, Qt::Orientation o, double v)
{
    for (QAbstractAxis *a : const_cast<QXYSeries *>(series)->attachedAxes()) { // attachedAxes() is not const in Qt 6.4
        if (a->orientation() != o)
            continue;
        const QString label = a->property(kAxisLabel).toString();
        return label.isEmpty() ? QString() : QStringLiteral("%1: %2").arg(label, formatWithUnit(v, a->property(kAxisUnit).toString()));
    }
    return {};
}
} // namespace

void tagAxis(QAbstractAxis *axis, const QString &label, const QString &unit)
{
    axis->setProperty(kAxisLabel, label);
    axis->setProperty(kAxisUnit, unit);
}

void tagPointLabels(QXYSeries *series, const QStringList &labels)
{
    series->setProperty(kPointLabels, labels);
}

QString pointLabelOf(const QXYSeries *series, int pointIndex)
{
    const QStringList labels = series ? series->property(kPointLabels).toStringList() : QStringList();
    return pointIndex >= 0 && pointIndex < labels.size() ? labels.at(pointIndex) : QString();
}

void tagPointDetails(QXYSeries *series, const QStringList &details)
{
    series->setProperty(kPointDetails, details);
}

QString pointDetailsOf(const QXYSeries *series, int pointIndex)
{
    const QStringList details = series ? series->property(kPointDetails).toStringList() : QStringList();
    return pointIndex >= 0 && pointIndex < details.size() ? details.at(pointIndex) : QString();
}

void tagSloMarker(QXYSeries *ring, int setIndex, const QString &server, const QString &sentence)
{
    ring->setObjectName(QStringLiteral("sloPoint"));
    ring->setProperty(kSloSentence, sentence);
    ring->setProperty(kSloSet, setIndex);
    ring->setProperty(kSloServer, server);
}

QString sloSentenceOf(const QXYSeries *ring)
{
    return ring && ring->objectName() == QLatin1String("sloPoint") ? ring->property(kSloSentence).toString() : QString();
}

QList<QXYSeries *> sloMarkers(const QChart *chart)
{
    QList<QXYSeries *> out;
    for (QAbstractSeries *s : chart->series())
        if (auto *xy = qobject_cast<QXYSeries *>(s); xy && xy->objectName() == QLatin1String("sloPoint"))
            out.append(xy);
    return out;
}

Readout readoutAt(QChart *chart, QPointF pos, qreal radius)
{
    Readout best;
    const QRectF plot = chart->plotArea().adjusted(-1, -1, 1, 1);
    if (!plot.contains(pos))
        return best;
    qreal bestDist = radius * radius;
    for (QXYSeries *series : taggedSeries(chart)) {
        if (!series->isVisible())
            continue;
        for (int i = 0; i < series->count(); ++i) {
            const QPointF at = chart->mapToPosition(series->at(i), series);
            if (!plot.contains(at))
                continue; // zoomed out of view
            const QPointF d = at - pos;
            const qreal dist = QPointF::dotProduct(d, d);
            if (dist <= bestDist) {
                bestDist = dist;
                best.series = series;
                best.index = i;
                best.value = series->at(i);
                best.position = at;
            }
        }
    }
    if (!best.isValid())
        return best;
    for (QXYSeries *ring : sloMarkers(chart))
        if (ring->property(kSloSet).toInt() == seriesSetIndex(best.series) && ring->property(kSloServer).toString() == seriesServer(best.series)
            && ring->points().contains(best.value))
            best.sloSentence = displaySafe(sloSentenceOf(ring), DisplayLines::Single);
    QStringList lines;
    const QString label = pointLabelOf(best.series, best.index);
    const QString name = displaySafe(best.series->name(), DisplayLines::Single);
    lines << (label.isEmpty() ? name : QStringLiteral("%1 · %2").arg(name, label));
    for (const QString &l : {axisLine(best.series, Qt::Horizontal, best.value.x()), axisLine(best.series, Qt::Vertical, best.value.y())})
        if (!l.isEmpty())
            lines << l;
    if (const QString details = pointDetailsOf(best.series, best.index); !details.isEmpty())
        lines << displaySafe(details, DisplayLines::Keep).split(QLatin1Char('\n'));
    if (!best.sloSentence.isEmpty())
        lines << best.sloSentence;
    best.text = lines.join(QLatin1Char('\n'));
    return best;
}

} // namespace sb::ui
