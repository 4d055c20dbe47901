#pragma once
// TTFT / ITL / latency distribution of the selected cell, read from its records.jsonl on a worker
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

Q_SIGNALS:
    void loaded(); // samples() is up to date and the chart is drawn

private:
    void onFinished();
    void redraw();

    QComboBox *m_metric;
    QComboBox *m_kind;
    QLabel *m_status;
    InteractiveChartView *m_view;
    QFutureWatcher<CellRecordSamples> *m_watcher;
    CellRecordSamples m_samples;
    QString m_path, m_title;
    quint64 m_generation = 0, m_watchedGeneration = 0;
    bool m_loading = false;
};

} // namespace sb::ui
