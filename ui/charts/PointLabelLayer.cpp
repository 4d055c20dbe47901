#include "charts/PointLabelLayer.h"
#include <algorithm>
#include <cmath>
#include "charts/ChartColors.h"
#include <QAbstractAxis>
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QFontMetricsF>
#include <QPainter>
#include <QXYSeries>
#include <algorithm>

namespace sb::ui {

namespace {
QFont labelFont(const QChart *chart)
{
    QFont font = chart->font();
    if (font.pixelSize() > 0) // a document's chart (charts/ChartExport styleChartForDocument) sizes in pixels
        font.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * 0.8))));
    else
        font.setPointSizeF(font.pointSizeF() * 0.8);
    return font;
}
} // namespace

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

void PointLabelLayer::setFocusSeries(const QXYSeries *series)
{
    if (m_focus == series)
        return;
    m_focus = series;
    update();
}

QList<PointLabelLayer::Placed> PointLabelLayer::layoutLabels() const
{
    const QRectF plot = m_chart->plotArea();
    const QFontMetricsF fm(labelFont(m_chart));
    QList<Entry> order = m_entries;
    // The focused series first, so its labels win every overlap.
    std::stable_partition(order.begin(), order.end(), [this](const Entry &e) { return m_focus && e.series == m_focus; });
    QList<Placed> placed;
    for (const Entry &e : order) {
        if (!e.series || !e.series->isVisible())
            continue;
        const bool focused = m_focus && e.series == m_focus;
        const int n = qMin(int(e.series->count()), int(e.labels.size()));
        for (int i = 0; i < n; ++i) {
            const QPointF pos = m_chart->mapToPosition(e.series->at(i), e.series);
            if (!plot.adjusted(-1, -1, 1, 1).contains(pos))
                continue; // zoomed out of view
            // Above-right of the marker, clear of a 12 px marker.
            const QPointF at = pos + QPointF(6, -6);
            const QRectF box = fm.boundingRect(e.labels.at(i)).translated(at).adjusted(-1, -1, 1, 1);
            const bool overlaps = std::any_of(placed.cbegin(), placed.cend(), [&](const Placed &p) { return p.box.intersects(box); });
            if (overlaps && !focused)
                continue;
            placed.append({e.series, i, e.labels.at(i), at, box});
        }
    }
    return placed;
}

void PointLabelLayer::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->setFont(labelFont(m_chart));
    const bool dark = chartIsDark(m_chart);
    // Skipped labels are in the tooltip and the read-out; a hovered series shows all of its own.
    for (const Placed &p : layoutLabels()) {
        // A shade darker than the marker on a light chart, lighter on a dark one.
        painter->setPen(dark ? p.series->color().lighter(140) : p.series->color().darker(130));
        painter->drawText(p.at, p.text);
    }
}

} // namespace sb::ui
