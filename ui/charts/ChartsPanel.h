#pragma once
// The two sweep charts side by side with their controls: throughput vs a chosen latency (or, by
// the chart switch, the Pareto view of throughput vs tok/s/user or TTFT: charts/ParetoChart.h),
// and a chosen metric/stat vs concurrency, each with a log-scale switch. Inputs may change many times a second during a run: rebuilds
// are coalesced by a single-shot timer (one rebuild per ~100 ms however many updates arrive).
#include "charts/ChartFactory.h"
#include "charts/ChartPoints.h"
#include "report/ParetoFrontier.h"
#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QTimer;
QT_END_NAMESPACE

namespace sb::ui {

class ElidedLines;

class InteractiveChartView;

class ChartsPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kRebuildDelayMs = 100;

    explicit ChartsPanel(QWidget *parent = nullptr);

    // Schedules a rebuild; cheap to call on every cell update.
    void setInputs(const QList<ChartSeriesInput> &inputs);
    // Rebuilds now if a rebuild is pending (tests, exports).
    void flush();
    int rebuildCount() const { return m_rebuilds; }
    // The metric chart's choice (a results.json key and a stat), for views that tabulate it.
    QString metric() const;
    Stat stat() const;
    // Off: the charts draw no legend of their own (Compare lists the series in a table instead,
    // so long set names never eat the plot).
    void setLegendVisible(bool visible);

    void setHighlight(ChartPointRef ref);
    void setLatencyChoice(LatencyChoice choice);
    // The left chart: throughput vs latency (default) or the Pareto view with its x axis.
    void setParetoView(bool on, ParetoX x = ParetoX::TokensPerUser);
    bool paretoView() const;
    void setMetric(const QString &metric, Stat stat);
    // Log axis for the latency of the throughput chart / the metric of the other (default linear);
    // the same switch as each chart's context menu.
    void setLogLatency(bool on);
    void setLogMetric(bool on);
    // What both charts say when there is nothing to plot (InteractiveChartView::setEmptyText).
    void setEmptyText(const QString &text);

    InteractiveChartView *throughputView() const { return m_throughput; }
    InteractiveChartView *metricView() const { return m_metric; }

Q_SIGNALS:
    void pointClicked(sb::ui::ChartPointRef ref);
    // After every rebuild (inputs or choices changed): the charts hold the new series.
    void chartsRebuilt();

private:
    int m_paretoWanted = int(ParetoX::TokensPerUser); // the Pareto x asked for, shown when a set has it
    void scheduleRebuild();
    void rebuild();
    void refillPareto();  // the Pareto x axes: energy and cost only where a set has them
    void refillMetrics(); // the metric menu: request-rate figures only when a set has request-rate cells
    void refillLatency(bool ttfo);
    void refillStats();

    QList<ChartSeriesInput> m_inputs;
    QComboBox *m_kindCombo;      // throughput vs latency | Pareto
    QComboBox *m_paretoCombo;    // the Pareto view's x: tok/s/user | TTFT
    QLabel *m_latencyLabel;
    QComboBox *m_latencyCombo;
    QComboBox *m_metricCombo;
    QComboBox *m_statCombo;
    QCheckBox *m_logLatency;
    QCheckBox *m_logMetric;
    InteractiveChartView *m_throughput;
    InteractiveChartView *m_metric;
    ElidedLines *m_knee;         // the knee explained from the traces; hidden without profiled cells
    QLabel *m_paretoLeftOut;     // Pareto view: the runs not drawn and why; hidden when every run is a point
    QTimer *m_timer;
    int m_rebuilds = 0;
    bool m_legendVisible = true;
};

} // namespace sb::ui
