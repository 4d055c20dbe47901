#pragma once
// The Results tab: per-cell table, the differences between any two of its servers (per point,
// significance by Welch's t-test on the runs), detail pane, throughput/latency and metric charts, and for the
// selected cell its request distribution and the server's side (scraped metrics). Fed a whole set
// (setResults) or cell by cell while a run is going (updateCell); either way it holds one shared,
// immutable snapshot (results/ResultSnapshot.h) that its table model and server pane read, and
// hands them each new one. Chart rebuilds are coalesced so a fast run never stalls the UI.
#include "results/ResultSnapshot.h"
#include <QWidget>

class QLabel;
class QStackedWidget;
class QTabWidget;
class QTextBrowser;

namespace sb::ui {

class ChartsPanel;
class DifferencePanel;
class RepeatsTree;
class DistributionPane;
class ResultsTableModel;
class ResultsTableView;
class ServerMetricsPane;
class TimeSlicesPane;
class CachePane;
class TraceTab;
class ResultsWorkspace;
class ElidedLabel;

class ResultsView : public QWidget
{
    Q_OBJECT
public:
    explicit ResultsView(QWidget *parent = nullptr);
    ~ResultsView() override;
    // Its charts (the Pareto switch of `--chart`: GuiMain).
    ChartsPanel *chartsPanel() const { return m_charts; }

    // Shows a whole result set. `folder` holds the files; cell.recordsPath is relative to it.
    void setResults(const SweepResults &results, const QString &folder);
    // Opens a folder/zip/other tool's format via sb::loadResults. False + *error on failure.
    bool openResults(const QString &path, QString *error = nullptr);
    void clear();
    // Live during a run: a new snapshot with the cell inserted, or in place of the one with the
    // same cell.index.
    void updateCell(const CellResult &cell);

    const SweepResults &results() const { return *m_results; }
    const ResultSnapshot &snapshot() const { return m_results; }
    QString folder() const { return m_folder; }
    // Selects the row of the cell with this cell.index (-1 clears the selection).
    void selectCell(int cellIndex);
    int selectedCell() const { return m_currentCell; } // cell.index or -1
    // Opens the cell pane's Trace tab, selecting the first cell with traces when none is selected
    // (the `--tab trace` screenshot).
    void showTraceTab();
    TraceTab *traceTab() const { return m_trace; }
    // The docks' arrangement: View menu toggles and "Reset layout".
    ResultsWorkspace *workspace() const { return m_workspace; }

Q_SIGNALS:
    void cellSelected(int cellIndex);

protected:
    void changeEvent(QEvent *event) override; // the summary's link follows the palette

private:
    const CellResult *cell(int index) const;
    void feedCharts();
    void updateDifferences();
    void updateRepeats();
    void updateSummary();
    void showDetail(bool reloadFiles);

    ResultSnapshot m_results = makeSnapshot();
    QString m_folder;
    int m_currentCell = -1;
    ResultsTableModel *m_model = nullptr;
    ResultsTableView *m_table = nullptr;
    ChartsPanel *m_charts = nullptr;
    QTextBrowser *m_detail = nullptr;
    DistributionPane *m_distribution = nullptr;
    ServerMetricsPane *m_server = nullptr;
    TimeSlicesPane *m_slices = nullptr;
    CachePane *m_cache = nullptr;
    TraceTab *m_trace = nullptr;
    QStackedWidget *m_pages = nullptr; // the empty state, or the results
    ResultsWorkspace *m_workspace = nullptr; // charts in the middle, table and cell pane docked
    QLabel *m_empty = nullptr;
    QTabWidget *m_side = nullptr;
    QTabWidget *m_tableTabs = nullptr; // the cells, and the differences between two servers
    DifferencePanel *m_differences = nullptr;
    RepeatsTree *m_repeats = nullptr; // repeated points grouped: mean ± CI with the runs beneath
    QLabel *m_summary = nullptr;
    ElidedLabel *m_origin = nullptr; // where the set came from, one line; every field in its tooltip
};

} // namespace sb::ui
