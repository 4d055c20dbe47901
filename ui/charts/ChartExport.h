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

} // namespace sb::ui
