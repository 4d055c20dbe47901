#include "charts/ChartStyle.h"
#include <QList>

namespace sb::ui {

QColor serverColor(int serverIndex)
{
    // Okabe–Ito: distinguishable for the common colour-vision deficiencies, readable on white.
    static const QList<QColor> palette = {
        QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
        QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x00, 0x00, 0x00), QColor(0xF0, 0xE4, 0x42),
    };
    const int n = int(palette.size());
    const QColor base = palette.at(((serverIndex % n) + n) % n);
    // Past the palette, repeat it darker rather than inventing near-duplicates.
    return serverIndex >= n ? base.darker(100 + 40 * (serverIndex / n)) : base;
}

QColor stepKindColor(StepKind kind, bool dark)
{
    switch (kind) {
    case StepKind::Prefill:
        return dark ? QColor(0xE8, 0x7A, 0x2A) : QColor(0xD5, 0x5E, 0x00);
    case StepKind::Decode:
        return dark ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x72, 0xB2);
    case StepKind::Mixed:
        return QColor(0xCC, 0x79, 0xA7);
    case StepKind::Unknown:
        break;
    }
    return dark ? QColor(0x9A, 0x9A, 0x9A) : QColor(0x80, 0x80, 0x80);
}

Qt::PenStyle setPenStyle(int styleIndex)
{
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
    return styles[((styleIndex % 5) + 5) % 5];
}

QScatterSeries::MarkerShape setMarkerShape(int styleIndex)
{
    static const QScatterSeries::MarkerShape shapes[] = {
        QScatterSeries::MarkerShapeCircle, QScatterSeries::MarkerShapeRectangle, QScatterSeries::MarkerShapeTriangle,
        QScatterSeries::MarkerShapeRotatedRectangle, QScatterSeries::MarkerShapeStar, QScatterSeries::MarkerShapePentagon,
    };
    return shapes[((styleIndex % 6) + 6) % 6];
}

qreal setMarkerSize(int styleIndex)
{
    switch (setMarkerShape(styleIndex)) {
    case QScatterSeries::MarkerShapeTriangle:
    case QScatterSeries::MarkerShapeStar:
    case QScatterSeries::MarkerShapePentagon:
        return 12.0;
    default:
        return 9.0;
    }
}

} // namespace sb::ui
