#pragma once
// Renders the report's charts (the same builders as the Results and Compare views) to SVG and PNG
// bytes for the bundle. Needs a QApplication; works under QT_QPA_PLATFORM=offscreen.
#include "report/BundleWriter.h"
#include "results/Results.h"

namespace sb::ui {

struct RenderedCharts {
    QList<BundleFile> files;    // charts/<name>.svg and charts/<name>.png
    QList<ReportChart> charts;  // for report.html
    QStringList warnings;       // a chart that failed to render (the export goes on without it)
};

RenderedCharts renderReportCharts(const SweepResults &results);

} // namespace sb::ui
