#pragma once
// Text labels next to chart points ("c=64"). Qt 6.4's point label format only knows @xPoint and
// @yPoint, and the throughput/latency chart needs the concurrency, which is neither axis; so this
// item draws its own labels at the points' current positions, following zoom and resizes.
#include <QGraphicsObject>
#include <QList>
#include <QPointer>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QChart;
class QXYSeries;
QT_END_NAMESPACE

namespace sb::ui {

class PointLabelLayer : public QGraphicsObject
{
    Q_OBJECT
public:
    // Child of `chart`, destroyed with it.
    explicit PointLabelLayer(QChart *chart);
    // The layer of a chart built by ChartFactory, or nullptr. (A graphics child, not a QObject
    // child: findChild does not see it.)
    static PointLabelLayer *of(const QChart *chart);
    // One label per point of `series`.
    void addSeries(QXYSeries *series, const QStringList &labels);
    QStringList labels(const QXYSeries *series) const;
    // The labels of a hovered series are all drawn, first, even where they overlap others;
    // nullptr goes back to decluttering every series alike.
    void setFocusSeries(const QXYSeries *series);

    struct Placed {
        const QXYSeries *series = nullptr;
        int index = -1;
        QString text;
        QPointF at;  // baseline origin, chart coordinates
        QRectF box;
    };
    // The labels drawn at the chart's current geometry and ranges. Dense points (low
    // concurrencies bunch up near the origin) lose the labels that would overlap one already
    // placed; zooming in spreads the points and brings them back.
    QList<Placed> layoutLabels() const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    struct Entry {
        QPointer<QXYSeries> series;
        QStringList labels;
    };
    QChart *m_chart;
    QList<Entry> m_entries;
    QPointer<const QXYSeries> m_focus;
};

} // namespace sb::ui
