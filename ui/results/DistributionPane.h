#pragma once
// TTFT / ITL / latency (and TTFO, when answers reasoned) distribution of the selected cell, read from its records.jsonl on a worker
// thread (files reach hundreds of MB on long cells); the last selection wins, stale reads are
// dropped when they finish.
#include "load/CellRecords.h"
#include <QFutureWatcher>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace sb::ui {

class InteractiveChartView;

class DistributionPane : public QWidget
{
    Q_OBJECT
public:
    explicit DistributionPane(QWidget *parent = nullptr);
    ~DistributionPane() override;

    // Starts reading `recordsPath` (absolute); empty clears the pane.
    void setRecordsFile(const QString &recordsPath, const QString &title);
    bool isLoading() const;
    const CellRecordSamples &samples() const { return m_samples; }
    InteractiveChartView *chartView() const { return m_view; }
    QComboBox *turnChoice() const { return m_turn; }
    QComboBox *metricChoice() const { return m_metric; } // items carry their metric key
    qsizetype shownSamples() const { return m_shown; } // in the chart now (the chosen metric and turn)

Q_SIGNALS:
    void loaded(); // samples() is up to date and the chart is drawn

private:
    void onFinished();
    void redraw();
    // The samples of the chosen turn (all without sessions or with "All turns").
    QList<double> shown(const QList<double> &values, const QList<int> &turns) const;

    QComboBox *m_metric;
    QComboBox *m_kind;
    QComboBox *m_turn; // sessions: all turns, turn 1, later turns, or one turn
    QLabel *m_status;
    InteractiveChartView *m_view;
    QFutureWatcher<CellRecordSamples> *m_watcher;
    CellRecordSamples m_samples;
    QString m_path, m_title;
    quint64 m_generation = 0, m_watchedGeneration = 0;
    bool m_loading = false;
    qsizetype m_shown = 0;
};

} // namespace sb::ui
