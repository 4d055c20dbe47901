#include "results/TimeSlicesPane.h"
#include "results/TimeSlice.h"
#include "charts/InteractiveChartView.h"
#include "charts/MetricFormat.h"
#include "metrics/MetricCatalogue.h"
#include "results/LineChart.h"
#include "results/SweepAxis.h"
#include "report/DisplayText.h"
#include <QChart>
#include <QLabel>
#include <QVBoxLayout>

namespace sb::ui {

TimeSlicesPane::TimeSlicesPane(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_view(new InteractiveChartView(this))
{
    m_status->setObjectName(QStringLiteral("timeSlicesStatus"));
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the pane
    m_view->setObjectName(QStringLiteral("timeSlicesChart"));
    m_view->setExportName(QStringLiteral("cell-over-time"));
    // The cell pane shares the window's height with the charts above it: a smaller floor than
    // the main charts' keeps it from pushing them down on a 700 px screen.
    m_view->setMinimumSize(200, 180);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);
    setCell(nullptr);
}

void TimeSlicesPane::setCell(const CellResult *cell)
{
    LineChartSeries tput{metricLabel(tag::outputThroughput), {}, 0, false, true};
    LineChartSeries ttft{QStringLiteral("%1 p50").arg(metricLabel(tag::ttft)), {}, 1, true, true};
    double slice = 0;
    if (cell) {
        for (const TimeSlice &s : cell->timeSlices) {
            if (slice == 0) // the nominal length: the last slice may be cut short by the phase's end
                slice = s.lengthS;
            tput.points.append({s.startS, sliceThroughput(s)});
            if (s.ttftP50Ms >= 0) // none: nothing streamed in the slice
                ttft.points.append({s.startS, s.ttftP50Ms});
        }
    }
    m_throughputPoints = tput.points.size();
    m_ttftPoints = ttft.points.size();
    if (!cell)
        m_status->setText(tr("Select a cell to see its measured phase over time."));
    else if (tput.points.isEmpty())
        m_status->setText(tr("No time slices for this cell (not measured, or results written before slices were recorded)."));
    else
        m_status->setText(displaySafe(tr("%1 %2: %3 slices of %4 s")
                                          .arg(cell->server, pointLabel(*cell))
                                          .arg(tput.points.size())
                                          .arg(formatNumber(slice)),
                                      DisplayLines::Single));
    // The chart's empty state says what to do here: results are loaded, a cell is not chosen.
    m_view->setEmptyText(cell ? tr("No time slices for this cell.") : tr("Select a cell in the table or a point in a chart."));
    QList<LineChartSeries> lines;
    if (!tput.points.isEmpty())
        lines << tput;
    if (!ttft.points.isEmpty())
        lines << ttft;
    m_view->replaceChart(buildLineChart(lines,
                                        {tr("time from the first send (s)"), QStringLiteral("%1 (%2)").arg(metricLabel(tag::outputThroughput), shortUnit(unit::tokensPerS)),
                                         QStringLiteral("%1 p50 (%2)").arg(metricLabel(tag::ttft), unit::ms)},
                                        palette()));
}

} // namespace sb::ui
