#pragma once
// The crosshair and read-out of InteractiveChartView: dashed lines through the mouse across the
// plot area, a ring on the nearest point and a box with its read-out (charts/ChartReadout.h) in a
// corner of the plot. A graphics child of the chart, like PointLabelLayer: moving the mouse only
// repaints this item, the chart and its series are not rebuilt.
#include "charts/ChartReadout.h"
#include <QGraphicsObject>
#include <optional>

namespace sb::ui {

class HoverLayer : public QGraphicsObject
{
    Q_OBJECT
public:
    explicit HoverLayer(QChart *chart); // child of `chart`, destroyed with it
    // Mouse at `pos` (chart coordinates), or gone (nullopt).
    void setMouse(std::optional<QPointF> pos, const Readout &readout);
    std::optional<QPointF> mouse() const { return m_mouse; }
    const Readout &readout() const { return m_readout; }
    // Where the read-out box is drawn (chart coordinates); empty when there is none.
    QRectF readoutBox() const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QChart *m_chart;
    std::optional<QPointF> m_mouse;
    Readout m_readout;
};

} // namespace sb::ui
