#pragma once
// The Results view's "Over time" tab: the selected cell's metrics per time slice
// (engine/TimeSlices, results.json cells[].time_slices) so ramp-up, drift and stalls show: output
// throughput per slice and TTFT p50 of the requests sent in it, against time from the phase start.
#include "results/Results.h"
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace sb::ui {

class InteractiveChartView;

class TimeSlicesPane : public QWidget
{
    Q_OBJECT
public:
    explicit TimeSlicesPane(QWidget *parent = nullptr);
    void setCell(const CellResult *cell); // nullptr: none selected
    qsizetype throughputPoints() const { return m_throughputPoints; }
    qsizetype ttftPoints() const { return m_ttftPoints; }

private:
    QLabel *m_status;
    InteractiveChartView *m_view;
    qsizetype m_throughputPoints = 0, m_ttftPoints = 0;
};

} // namespace sb::ui
