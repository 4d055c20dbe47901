#pragma once
// Visual identity of series: colour by server (stable across sets so a server looks the same in
// every chart), pen dash and marker shape by result set (so overlaid sets stay distinguishable in
// grey-scale print too).
#include "results/TraceSummary.h"
#include <QColor>
#include <QScatterSeries>

namespace sb::ui {

QColor serverColor(int serverIndex);
Qt::PenStyle setPenStyle(int styleIndex);
QScatterSeries::MarkerShape setMarkerShape(int styleIndex);
qreal setMarkerSize(int styleIndex); // triangles and stars look smaller at equal size
// An engine step's kind (the Trace tab's timeline and legend), from the same Okabe–Ito set:
// prefill vermillion, decode blue, mixed reddish purple, unknown grey. `dark`: the palette's
// background is dark, where the darker hues are lifted to stay apart from it.
QColor stepKindColor(StepKind kind, bool dark);

} // namespace sb::ui
