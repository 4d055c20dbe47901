#pragma once
// The Pareto section of report.html and of an exported comparison (report/ParetoFrontier.h): a
// sentence per server naming its frontier points and the runs left out, and a table of every
// point (mean ± 95 % CI with repeats), frontier points marked. Server names are escaped.
#include "report/ParetoFrontier.h"

namespace sb {

// The bundle's Pareto chart (charts/<stem>.svg and .png, ui/report/ReportCharts): report.html
// shows it inside its Pareto section rather than with the other charts.
inline const QString kParetoChartStem = QStringLiteral("pareto_throughput_vs_tok_s_user");

// What the section shows and how the frontier is judged (one paragraph).
QString paretoIntroHtml();
// The sentences and the table of one result set; empty when no cell has a point.
QString paretoSetHtml(const SweepResults &results);
// report.html's section: an <h2>, the paragraph, the set and `figure` (the chart's <figure>, may
// be empty); empty when no cell has a point.
QString paretoSectionHtml(const SweepResults &results, const QString &figure = {});

} // namespace sb
