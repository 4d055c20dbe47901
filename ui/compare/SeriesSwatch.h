#pragma once
// A legend key drawn as the chart draws the series: the set's dash pattern through its marker
// (charts/ChartStyle.h), in the series' colour (the server's) or neutral grey for a whole set.
#include <QColor>
#include <QIcon>

namespace sb::ui {

inline constexpr int kSwatchWidth = 36;
inline constexpr int kSwatchHeight = 16;

QIcon seriesSwatch(int styleIndex, const QColor &color);

} // namespace sb::ui
