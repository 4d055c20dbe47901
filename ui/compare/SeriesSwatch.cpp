#include "compare/SeriesSwatch.h"
#include "charts/ChartStyle.h"
#include <QPainter>
#include <QPixmap>
#include <cmath>

namespace sb::ui {

QIcon seriesSwatch(int styleIndex, const QColor &color)
{
    QPixmap pm(kSwatchWidth, kSwatchHeight);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    QPen pen(color, 2, setPenStyle(styleIndex));
    p.setPen(pen);
    p.drawLine(QPointF(1, 8), QPointF(35, 8));
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    const QPointF c(18, 8);
    switch (setMarkerShape(styleIndex)) {
    case QScatterSeries::MarkerShapeRectangle: p.drawRect(QRectF(c - QPointF(4, 4), QSizeF(8, 8))); break;
    case QScatterSeries::MarkerShapeRotatedRectangle:
        p.drawPolygon(QPolygonF({c + QPointF(0, -5), c + QPointF(5, 0), c + QPointF(0, 5), c + QPointF(-5, 0)}));
        break;
    case QScatterSeries::MarkerShapeTriangle:
        p.drawPolygon(QPolygonF({c + QPointF(0, -5), c + QPointF(5, 4), c + QPointF(-5, 4)}));
        break;
    case QScatterSeries::MarkerShapeStar:
    case QScatterSeries::MarkerShapePentagon: {
        QPolygonF poly;
        for (int i = 0; i < 5; ++i) {
            const double a = -M_PI / 2 + i * 2 * M_PI / 5;
            poly << c + QPointF(5.5 * std::cos(a), 5.5 * std::sin(a));
        }
        p.drawPolygon(poly);
        break;
    }
    default: p.drawEllipse(c, 4.5, 4.5); break;
    }
    return QIcon(pm);
}

} // namespace sb::ui
