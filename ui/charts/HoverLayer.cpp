#include "charts/HoverLayer.h"
#include "charts/ChartColors.h"
#include <QChart>
#include <QFontMetricsF>
#include <QPainter>

namespace sb::ui {

namespace {
constexpr qreal kPad = 6;

QFont readoutFont(const QChart *chart)
{
    QFont f = chart->font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    return f;
}
} // namespace

HoverLayer::HoverLayer(QChart *chart)
    : QGraphicsObject(chart)
    , m_chart(chart)
{
    setZValue(110); // above the point labels (100)
    setAcceptedMouseButtons(Qt::NoButton); // clicks go to the series below
}

void HoverLayer::setMouse(std::optional<QPointF> pos, const Readout &readout)
{
    m_mouse = pos;
    m_readout = pos ? readout : Readout();
    update();
}

QRectF HoverLayer::readoutBox() const
{
    if (!m_mouse || m_readout.text.isEmpty())
        return {};
    const QFontMetricsF fm(readoutFont(m_chart));
    const QRectF text = fm.boundingRect(QRectF(0, 0, 1e4, 1e4), Qt::AlignLeft | Qt::AlignTop, m_readout.text);
    const QRectF plot = m_chart->plotArea();
    QRectF box(plot.topLeft() + QPointF(kPad, kPad), text.size() + QSizeF(2 * kPad, 2 * kPad));
    // Top left of the plot, unless the mouse or the point is under it: then top right.
    if (box.adjusted(-8, -8, 8, 8).contains(*m_mouse) || box.adjusted(-8, -8, 8, 8).contains(m_readout.position))
        box.moveTopRight(plot.topRight() + QPointF(-kPad, kPad));
    return box;
}

QRectF HoverLayer::boundingRect() const
{
    return m_chart->rect();
}

void HoverLayer::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const QRectF plot = m_chart->plotArea();
    if (!m_mouse || !plot.contains(*m_mouse))
        return;
    const bool dark = chartIsDark(m_chart);
    const QColor ink = dark ? QColor(230, 230, 230) : QColor(40, 40, 40);
    QColor faint = ink;
    faint.setAlpha(140);
    painter->setPen(QPen(faint, 1, Qt::DashLine));
    painter->drawLine(QPointF(m_mouse->x(), plot.top()), QPointF(m_mouse->x(), plot.bottom()));
    painter->drawLine(QPointF(plot.left(), m_mouse->y()), QPointF(plot.right(), m_mouse->y()));
    if (!m_readout.isValid())
        return;
    painter->setPen(QPen(ink, 1.5));
    painter->setBrush(Qt::NoBrush);
    painter->drawEllipse(m_readout.position, 9, 9);
    const QRectF box = readoutBox();
    QColor fill = dark ? QColor(30, 30, 30) : QColor(255, 255, 255);
    fill.setAlpha(230);
    painter->setPen(QPen(faint, 1));
    painter->setBrush(fill);
    painter->drawRoundedRect(box, 3, 3);
    painter->setFont(readoutFont(m_chart));
    painter->setPen(ink);
    painter->drawText(box.adjusted(kPad, kPad, -kPad, -kPad), Qt::AlignLeft | Qt::AlignTop, m_readout.text);
}

} // namespace sb::ui
