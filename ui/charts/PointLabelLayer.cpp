#include "charts/PointLabelLayer.h"
#include "charts/ChartColors.h"
#include <QAbstractAxis>
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QFontMetricsF>
#include <QPainter>
#include <QXYSeries>

namespace sb::ui {

PointLabelLayer::PointLabelLayer(QChart *chart)
    : QGraphicsObject(chart)
    , m_chart(chart)
{
    setZValue(100); // above series and grid, below tooltips (which are widgets)
    connect(chart, &QChart::plotAreaChanged, this, [this] { update(); });
}

PointLabelLayer *PointLabelLayer::of(const QChart *chart)
{
    for (QGraphicsItem *item : chart->childItems())
        if (auto *layer = dynamic_cast<PointLabelLayer *>(item))
            return layer;
    return nullptr;
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
    const QFontMetricsF fm(font);
    // Low-concurrency points bunch up near the origin: skip a label that would overlap one
    // already drawn rather than print an unreadable smear (the tooltip still has it).
    QList<QRectF> drawn;
    for (const Entry &e : m_entries) {
        if (!e.series || !e.series->isVisible())
            continue;
        // A shade darker than the marker on a light chart, lighter on a dark one.
        painter->setPen(chartIsDark(m_chart) ? e.series->color().lighter(140) : e.series->color().darker(130));
        const int n = qMin(int(e.series->count()), int(e.labels.size()));
        for (int i = 0; i < n; ++i) {
            const QPointF pos = m_chart->mapToPosition(e.series->at(i), e.series);
            if (!plot.adjusted(-1, -1, 1, 1).contains(pos))
                continue; // zoomed out of view
            // Above-right of the marker, clear of a 12 px marker.
            const QPointF at = pos + QPointF(6, -6);
            const QRectF box = fm.boundingRect(e.labels.at(i)).translated(at).adjusted(-1, -1, 1, 1);
            bool overlaps = false;
            for (const QRectF &r : drawn)
                overlaps = overlaps || r.intersects(box);
            if (overlaps)
                continue;
            drawn.append(box);
            painter->drawText(at, e.labels.at(i));
        }
    }
}

} // namespace sb::ui
