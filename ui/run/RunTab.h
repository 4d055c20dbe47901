#pragma once
// The Run tab: starts a SweepEngine on a spec, shows overall and per-cell progress with ETA,
// live figures and chart, the hook-call log and the engine log. The engine runs on its own
// thread; its signals are only buffered here and drawn by one single-shot ~100 ms timer
// (the PlotJuggler pattern), so the UI stays responsive whatever the engine's rate.
#include "engine/SweepEngine.h"
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <QElapsedTimer>
#include <QHash>
#include <QMap>
#include <QPointer>
#include <QWidget>
#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTimer;

namespace sb::ui {

class ElidedLabel;
class HookLogModel;
class LiveChart;
class ServerLogPane;

class RunTab : public QWidget
{
    Q_OBJECT
public:
    explicit RunTab(QWidget *parent = nullptr);
    ~RunTab() override;

    // ~/SweepBench/results/<sweep-name>-<yyyyMMdd-HHmmss>
    static QString defaultOutDir(const SweepSpec &spec);

    // Starts the sweep. `outDir` empty = the folder typed in the tab, else the default.
    // Returns false (and says why in the log) when a run is already going.
    bool start(const SweepSpec &spec, const QString &outDir = QString());
    void cancel();
    bool isRunning() const;
    QString outDir() const { return m_outDir; }
    SweepResults results() const; // snapshot of the finished cells
    int lastExitCode() const { return m_exitCode; }

    HookLogModel *hookLog() const { return m_hookLog; }
    LiveChart *liveChart() const { return m_chart; }
    QProgressBar *sweepProgress() const { return m_sweepBar; }
    QProgressBar *cellProgress() const { return m_cellBar; }
    ServerLogPane *logPane() const { return m_logPane; }

    void setSpecForDisplay(const SweepSpec &spec); // what Start would run (title, cell count)

    // How the last run ended, as the sweep bar is coloured: "" while idle or running,
    // "completed", "problems" (some cells failed or degraded), "failed" (none measured), "cancelled".
    QString outcome() const { return m_outcome; }

Q_SIGNALS:
    void startRequested();                  // the tab's own Start button (the window supplies the spec)
    void runningChanged(bool running);
    void cellFinished(const sb::CellResult &cell);
    void runFinished(int exitCode, const QString &outDir);
    void statusMessage(const QString &text);

private:
    void scheduleFlush();
    void flush();
    void onFinished(int exitCode);
    void setRunning(bool running);
    void chooseOutDir();
    void noteProgress(const ProgressSnapshot &s); // on arrival: cell boundaries are never coalesced away
    void showCellHooks();
    void setOutcome(const QString &outcome, CellStatus colourOf);
    QString finishedText(int exitCode) const;

    std::unique_ptr<SweepEngine> m_engine;
    QString m_outDir;
    int m_exitCode = -1;
    bool m_cancelling = false;
    bool m_userCancelled = false; // cancel() was called during this run
    QElapsedTimer m_clock;

    // Buffered between ticks; the timer flushes them in one go.
    QTimer *m_flushTimer = nullptr;
    std::optional<ProgressSnapshot> m_pendingSnapshot;
    QList<QPair<CellKey, HookOutcome>> m_pendingHooks;
    QStringList m_pendingLog;
    QMap<CellStatus, int> m_statusCounts;        // of the cells finished in this run
    QList<CellResult> m_problemCells;            // finished in this run, not completed (for the message)
    int m_finishedCell = -1;                     // the last finished cell and its outcome line
    QString m_finishedLine;
    bool m_hooksDirty = false;
    ProgressSnapshot m_last;
    int m_boundaryCell = -1;                     // the cell whose start the chart marked last
    int m_hooksCell = -1;                        // the cell m_cellHooks belongs to
    QList<HookOutcome> m_cellHooks;              // the running cell's hook calls so far
    QString m_outcome;
    // The folder field shows the folder being written; when the app filled it (not the user),
    // the next run gets a fresh default instead of writing into the same folder again.
    bool m_outDirFromRun = false;

    ElidedLabel *m_title = nullptr; // elides (…) in a narrow window; the whole text in its tooltip
    QLineEdit *m_outDirEdit = nullptr;
    QPushButton *m_startButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QProgressBar *m_sweepBar = nullptr;
    QProgressBar *m_cellBar = nullptr;
    QLabel *m_sweepLabel = nullptr;
    QLabel *m_cellLabel = nullptr;
    QLabel *m_counts = nullptr;
    QWidget *m_hooksRow = nullptr;
    QLabel *m_figures = nullptr;
    LiveChart *m_chart = nullptr;
    HookLogModel *m_hookLog = nullptr;
    QTableView *m_hookView = nullptr;
    QPlainTextEdit *m_log = nullptr;
    ServerLogPane *m_logPane = nullptr; // the engine log, and each launched server's log
};

} // namespace sb::ui
