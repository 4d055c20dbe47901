#pragma once
// Saving a chart to a file: SVG (QSvgGenerator) when the suffix is .svg, otherwise a raster image
// (PNG, JPEG...) by suffix. Works offscreen (QT_QPA_PLATFORM=offscreen) and on charts that are not
// shown; animations are switched off first (an animated chart exports as an empty plot).
#include <QSize>
#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace sb::ui {

// Renders `chart` at `size` (device-independent pixels) into `path`. The chart keeps its scene and
// geometry: a chart shown in a view is rendered at the new size and restored afterwards.
bool saveChart(QChart *chart, const QString &path, QSize size, QString *error);

// Text sized and named for a document page rather than a window: a report shows a 1000 px chart
// at most 1000 px wide, where the window's 9 pt text reads as ~7 px, and SVG readers do not know
// Qt's "Sans Serif" alias (browsers drew it in their serif font). Titles 18 px, axis titles 15 px,
// tick labels, legend and point labels 13-14 px, all in the generic sans-serif family.
void styleChartForDocument(QChart *chart);
inline constexpr int kDocumentChartMinPixelSize = 13;

} // namespace sb::ui
