#include "charts/PointLabelLayer.h"
#include <QAbstractAxis>
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QPainter>
#include <QXYSeries>

namespace sb {

PointLabelLayer::PointLabelLayer(QChart *chart)
    : QGraphicsObject(chart)
    , m_chart(chart)
{
    setZValue(100); // above series and grid, below tooltips (which are widgets)
    connect(chart, &QChart::plotAreaChanged, this, [this] { update(); });
}

void PointLabelLayer::addSeries(QXYSeries *series, const QStringList &labels)
{
    m_entries.append({series, labels});
    connect(series, &QXYSeries::pointsReplaced, this, [this] { update(); });
    connect(series, &QXYSeries::visibleChanged, this, [this] { update(); });
    // Zooming changes the ranges, not the plot area: follow both axis types the builders use.
    for (QAbstractAxis *axis : series->attachedAxes()) {
        if (auto *v = qobject_cast<QValueAxis *>(axis))
            connect(v, &QValueAxis::rangeChanged, this, [this] { update(); });
        else if (auto *l = qobject_cast<QLogValueAxis *>(axis))
            connect(l, &QLogValueAxis::rangeChanged, this, [this] { update(); });
    }
    update();
}

QStringList PointLabelLayer::labels(const QXYSeries *series) const
{
    for (const Entry &e : m_entries)
        if (e.series == series)
            return e.labels;
    return {};
}

QRectF PointLabelLayer::boundingRect() const
{
    return m_chart->rect();
}

void PointLabelLayer::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const QRectF plot = m_chart->plotArea();
    QFont font = m_chart->font();
    font.setPointSizeF(font.pointSizeF() * 0.8);
    painter->setFont(font);
    for (const Entry &e : m_entries) {
        if (!e.series || !e.series->isVisible())
            continue;
        painter->setPen(e.series->color().darker(130));
        const int n = qMin(int(e.series->count()), int(e.labels.size()));
        for (int i = 0; i < n; ++i) {
            const QPointF pos = m_chart->mapToPosition(e.series->at(i), e.series);
            if (!plot.adjusted(-1, -1, 1, 1).contains(pos))
                continue; // zoomed out of view
            // Above-right of the marker, clear of a 12 px marker.
            painter->drawText(pos + QPointF(6, -6), e.labels.at(i));
        }
    }
}

} // namespace sb
