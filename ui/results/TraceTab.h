#pragma once
// The Results view's "Trace" tab (docs/traces.md "The Trace tab"): for the selected cell, the step
// timeline of its trace files (results/StepTimelineView.h) and its stored trace_summary
// (results/TraceSummaryView.h): steps per kind, the files and ranks, the top CPU ops and GPU
// kernels. The timeline needs the files themselves (the results hold only summaries): they are
// read on a worker thread (trace/TraceSteps.h) when the tab is shown, with a progress bar and a
// Cancel that stops the reader at its next block; a read still running when another cell is
// selected is cancelled and its result dropped. States say why there is nothing to show: no
// profiler window, no trace files, files no longer on disk, unreadable files, cancelled.
#include "results/Results.h"
#include "trace/TraceSteps.h"
#include <QWidget>
#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QTextBrowser;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace sb::ui {

class StepTimelineView;

class TraceTab : public QWidget
{
    Q_OBJECT
public:
    enum class State {
        NoCell,     // nothing selected
        NoProfiler, // the cell had no profiler window
        NoTraces,   // a window, but no trace file
        Missing,    // every trace file listed is gone from disk
        NotLoaded,  // files there, the tab not shown yet
        Loading,
        Loaded,     // at least one lane read (some may carry errors)
        Unreadable, // no file could be read: the reader's errors are shown
        Cancelled,
    };
    using Reader = std::function<StepTimeline(const QStringList &, const StepTimelineOptions &, const std::atomic<bool> *, TraceLoadProgress *)>;

    explicit TraceTab(QWidget *parent = nullptr);
    ~TraceTab() override;

    // The selected cell (nullptr: none). The same cell again keeps what is loaded.
    void setCell(const CellResult *cell);
    // Starts reading the cell's trace files (again); nothing when it has none on disk.
    void load();
    void cancelLoad();

    State state() const { return m_state; }
    QString statusText() const;
    StepTimelineView *timelineView() const { return m_timeline; }
    std::shared_ptr<const StepTimeline> loadedTimeline() const { return m_loaded; }
    // Tests: the function that reads the files (readStepTimeline by default), and its caps.
    void setReader(Reader reader) { m_reader = std::move(reader); }
    void setOptions(const StepTimelineOptions &options) { m_options = options; }

Q_SIGNALS:
    // A read ended (loaded, unreadable or cancelled) and its outcome is shown.
    void loadFinished();

protected:
    void showEvent(QShowEvent *event) override;   // the files are read once the tab is seen
    void changeEvent(QEvent *event) override;     // colours follow the palette

private:
    void setState(State state, const QString &text);
    void showSummary();
    void showProgress();
    void finishLoad(std::shared_ptr<const StepTimeline> timeline);
    QString legendHtml() const;

    struct Job;
    QLabel *m_status;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QPushButton *m_reload;
    QTabWidget *m_sections;
    QLabel *m_legend;
    QToolButton *m_resetZoom;
    StepTimelineView *m_timeline;
    QComboBox *m_scope;
    QWidget *m_scopeRow;
    QTextBrowser *m_steps;
    QTableWidget *m_cpuOps;
    QTableWidget *m_kernels;
    QTimer *m_poll;

    State m_state = State::NoCell;
    int m_cellIndex = -1;
    QStringList m_traces;        // trace files of the cell (isTraceFileName)
    QStringList m_onDisk;        // those still there when the cell was selected
    std::optional<TraceSummary> m_summary;
    std::shared_ptr<Job> m_job;  // the read in flight, if any
    quint64 m_generation = 0;    // bumped per read and per cell: a stale read's result is dropped
    std::shared_ptr<const StepTimeline> m_loaded;
    Reader m_reader;
    StepTimelineOptions m_options;
};

} // namespace sb::ui
