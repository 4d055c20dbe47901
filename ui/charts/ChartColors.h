#pragma once
// Chart chrome (background, titles, axis labels, grid, legend) in the colours of a palette, so
// the charts follow the dark palette like the rest of the window instead of staying white
// cards. Series keep their own colours (ChartStyle.h), chosen to read on both backgrounds.
// Report exports do not pass through here: they keep Qt's light chart theme for print and HTML.
#include <QPalette>

class QChart;

namespace sb::ui {

void applyChartColors(QChart *chart, const QPalette &palette);

// True when the chart's background is dark (labels drawn over it should be lightened).
bool chartIsDark(const QChart *chart);

} // namespace sb::ui
