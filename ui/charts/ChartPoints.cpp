#include "charts/ChartPoints.h"
#include "charts/PointSizeRepair.h"
#include <QChart>
#include <QScatterSeries>
#include <QXYSeries>
#include <limits>

namespace sb::ui {

namespace {
constexpr char kSetIndex[] = "sbSetIndex";
constexpr char kServer[] = "sbServer";
constexpr char kCells[] = "sbCellIndices";
constexpr char kToolTips[] = "sbToolTips";
// The size configuration each highlighted point had before (invalid: none), so that the next
// highlight restores a degraded or dominated point's own size instead of clearing it.
constexpr char kSizesBeforeHighlight[] = "sbSizesBeforeHighlight";
// How much bigger a highlighted marker is drawn.
constexpr qreal kHighlightScale = 1.8;
} // namespace

void tagSeries(QXYSeries *series, int setIndex, const QString &server, const QList<int> &cellIndices,
               const QStringList &toolTips)
{
    series->setProperty(kSetIndex, setIndex);
    series->setProperty(kServer, server);
    series->setProperty(kCells, QVariant::fromValue(cellIndices));
    series->setProperty(kToolTips, toolTips);
}

bool isTagged(const QXYSeries *series)
{
    return series && series->property(kSetIndex).isValid();
}

int seriesSetIndex(const QXYSeries *series)
{
    return isTagged(series) ? series->property(kSetIndex).toInt() : -1;
}

QString seriesServer(const QXYSeries *series)
{
    return series ? series->property(kServer).toString() : QString();
}

ChartPointRef pointRef(const QXYSeries *series, int pointIndex)
{
    if (!isTagged(series))
        return {};
    const auto cells = series->property(kCells).value<QList<int>>();
    if (pointIndex < 0 || pointIndex >= cells.size())
        return {};
    return {seriesSetIndex(series), cells.at(pointIndex)};
}

QString pointToolTip(const QXYSeries *series, int pointIndex)
{
    const QStringList tips = series ? series->property(kToolTips).toStringList() : QStringList();
    return pointIndex >= 0 && pointIndex < tips.size() ? tips.at(pointIndex) : QString();
}

int nearestPointIndex(QChart *chart, QXYSeries *series, const QPointF &value)
{
    const QPointF target = chart->mapToPosition(value, series);
    int best = -1;
    qreal bestDist = std::numeric_limits<qreal>::max();
    for (int i = 0; i < series->count(); ++i) {
        const QPointF d = chart->mapToPosition(series->at(i), series) - target;
        const qreal dist = QPointF::dotProduct(d, d);
        if (dist < bestDist) {
            bestDist = dist;
            best = i;
        }
    }
    return best;
}

QList<QXYSeries *> taggedSeries(const QChart *chart)
{
    QList<QXYSeries *> out;
    for (QAbstractSeries *s : chart->series())
        if (auto *xy = qobject_cast<QXYSeries *>(s); isTagged(xy))
            out.append(xy);
    return out;
}

int highlightCell(QChart *chart, ChartPointRef ref)
{
    int highlighted = 0;
    for (QXYSeries *series : taggedSeries(chart)) {
        const auto cells = series->property(kCells).value<QList<int>>();
        QList<int> select;
        if (ref.isValid() && seriesSetIndex(series) == ref.setIndex)
            for (int i = 0; i < cells.size(); ++i)
                if (cells.at(i) == ref.cellIndex)
                    select.append(i);
        series->deselectAllPoints();
        const auto before = series->property(kSizesBeforeHighlight).value<QHash<int, QVariant>>();
        for (auto it = before.cbegin(); it != before.cend(); ++it) {
            if (it.value().isValid())
                series->setPointConfiguration(it.key(), QXYSeries::PointConfiguration::Size, it.value());
            else
                series->clearPointConfiguration(it.key(), QXYSeries::PointConfiguration::Size);
        }
        series->setProperty(kSizesBeforeHighlight, QVariant());
        if (select.isEmpty())
            continue;
        keepPointSizesPlaced(chart); // the highlighted markers' larger size
        series->selectPoints(select);
        // Colour alone is weak for small markers; the size change makes the selection visible.
        if (auto *scatter = qobject_cast<QScatterSeries *>(series)) {
            QHash<int, QVariant> sizes;
            for (int i : select) {
                const QVariant own = series->pointConfiguration(i).value(QXYSeries::PointConfiguration::Size);
                sizes.insert(i, own);
                const qreal base = own.isValid() ? own.toReal() : scatter->markerSize();
                series->setPointConfiguration(i, QXYSeries::PointConfiguration::Size, base * kHighlightScale);
            }
            series->setProperty(kSizesBeforeHighlight, QVariant::fromValue(sizes));
        }
        highlighted += int(select.size());
    }
    return highlighted;
}

QList<ChartPointRef> highlightedPoints(const QChart *chart)
{
    QList<ChartPointRef> out;
    for (QXYSeries *series : taggedSeries(chart))
        for (int i = 0; i < series->count(); ++i)
            if (series->isPointSelected(i))
                out.append(pointRef(series, i));
    return out;
}

} // namespace sb::ui
