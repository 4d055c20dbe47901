#pragma once
// The Pareto section of report.html and of an exported comparison (report/ParetoFrontier.h): a
// sentence per server naming its frontier points and the runs left out, and a table of every
// point (mean ± 95 % CI with repeats), frontier points marked. report.html adds the same for each
// x axis that prices the throughput (energy per output token, cost per million output tokens)
// when the set's cells have it. Server names are escaped.
#include "report/ParetoFrontier.h"
#include <QList>
#include <QMap>

namespace sb {

// The bundle's Pareto charts (charts/<stem>.svg and .png, ui/report/ReportCharts): report.html
// shows each inside its Pareto part rather than with the other charts.
inline const QString kParetoChartStem = QStringLiteral("pareto_throughput_vs_tok_s_user");
QString paretoChartStem(ParetoX x);
// The caption of that chart: "Pareto frontier: output throughput vs energy per output token".
QString paretoChartTitle(ParetoX x);
// The x axes report.html draws a frontier for: tok/s/user, then energy per output token and cost
// per million output tokens where a cell of the set has them (paretoXAvailable). TTFT is a
// column of the tok/s/user table rather than a chart of its own.
QList<ParetoX> reportParetoXs(const SweepResults &results);

// What the section shows and how the frontier is judged (one paragraph).
QString paretoIntroHtml();
// The sentences and the table of one result set; empty when no cell has a point.
QString paretoSetHtml(const SweepResults &results);
// A priced x axis's part for one set of an exported comparison: report.html's part without its
// chart, under the set's heading. Empty when no cell of the set has the figure.
QString paretoPricedSetHtml(const SweepResults &results, ParetoX x);
// report.html's section: an <h2>, the paragraph, the set and the tok/s/user chart's <figure>,
// then a part per priced x axis (reportParetoXs) with its sentences, table and <figure>; the
// figures by x axis, any may be missing. Empty when no cell has a point on any of them.
QString paretoSectionHtml(const SweepResults &results, const QMap<ParetoX, QString> &figures = {});

} // namespace sb
