#pragma once
// The Results view's "Server" tab (docs/server-metrics.md): for the selected cell, the reset's
// metrics verdict and any scraped server metric over time (its server_metrics.jsonl, read on a
// worker thread and bounded: servermetrics/ServerSeries.h); for the whole set, a key aggregate per
// server against the sweep point (results.json cells[].server_metrics).
#include "results/ResultSnapshot.h"
#include "servermetrics/ServerSeries.h"
#include <QFutureWatcher>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace sb::ui {

class InteractiveChartView;

class ServerMetricsPane : public QWidget
{
    Q_OBJECT
public:
    explicit ServerMetricsPane(QWidget *parent = nullptr);
    ~ServerMetricsPane() override;

    // The Results view's shared snapshot, read by the aggregates chart. `redraw` false: keep the
    // chart (the new snapshot changed no server metric), but read this snapshot from now on.
    void setResults(ResultSnapshot results, bool redraw = true);
    const ResultSnapshot &snapshot() const { return m_results; }
    // The selected cell (nullptr: none); its series file is read relative to `folder`.
    void setCell(const CellResult *cell, const QString &folder);
    bool isLoading() const { return m_loading; }
    const ServerSeriesData &series() const { return m_data; }
    QStringList aggregateKeys() const { return m_aggregateKeys; }
    qsizetype plottedSeriesPoints() const { return m_plottedSeriesPoints; }
    qsizetype plottedAggregatePoints() const { return m_plottedAggregatePoints; }

Q_SIGNALS:
    void loaded(); // series() is up to date and the chart drawn

private:
    void onFinished();
    void startRead();
    void drawSeries();
    void drawAggregates();

    QLabel *m_verdict;
    QComboBox *m_metric;
    QLabel *m_status;
    InteractiveChartView *m_seriesView;
    QComboBox *m_aggregate;
    InteractiveChartView *m_aggregateView;
    QFutureWatcher<ServerSeriesData> *m_watcher;
    ServerSeriesData m_data;
    ResultSnapshot m_results = makeSnapshot();
    QStringList m_aggregateKeys;
    QString m_path;
    quint64 m_generation = 0, m_watchedGeneration = 0;
    bool m_loading = false;
    qsizetype m_plottedSeriesPoints = 0, m_plottedAggregatePoints = 0;
};

} // namespace sb::ui
