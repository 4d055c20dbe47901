#pragma once
// Visual identity of series: colour by server (stable across sets so a server looks the same in
// every chart), pen dash and marker shape by result set (so overlaid sets stay distinguishable in
// grey-scale print too).
#include <QColor>
#include <QScatterSeries>

namespace sb::ui {

QColor serverColor(int serverIndex);
Qt::PenStyle setPenStyle(int styleIndex);
QScatterSeries::MarkerShape setMarkerShape(int styleIndex);
qreal setMarkerSize(int styleIndex); // triangles and stars look smaller at equal size

} // namespace sb::ui
