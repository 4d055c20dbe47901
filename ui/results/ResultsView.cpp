#include "results/ResultsView.h"
#include "results/Provenance.h"
#include "report/DisplayText.h"
#include "charts/ChartsPanel.h"
#include "charts/DifferencePanel.h"
#include "report/ResultsLoader.h"
#include "results/CellDetail.h"
#include "results/DistributionPane.h"
#include "results/ResultsTableModel.h"
#include "results/ResultsTableView.h"
#include "results/RepeatsTree.h"
#include "results/ServerMetricsPane.h"
#include "results/SweepAxis.h"
#include "results/TimeSlicesPane.h"
#include "results/CachePane.h"
#include "results/TraceTab.h"
#include "results/ResultsWorkspace.h"
#include "style/ElidedLabel.h"
#include "style/Theme.h"
#include "results/TraceActions.h"
#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QLabel>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace sb::ui {

ResultsView::ResultsView(QWidget *parent)
    : QWidget(parent)
{
    m_model = new ResultsTableModel(this);
    m_table = new ResultsTableView(m_model, this);
    m_table->setObjectName(QStringLiteral("cellTable"));
    m_charts = new ChartsPanel(this);
    m_charts->setObjectName(QStringLiteral("chartsPanel"));
    m_detail = new QTextBrowser(this);
    m_detail->setObjectName(QStringLiteral("cellDetail"));
    m_detail->setOpenLinks(false); // file links go to the desktop's handler, not the browser
    m_distribution = new DistributionPane(this);
    m_distribution->setObjectName(QStringLiteral("distributionPane"));
    m_server = new ServerMetricsPane(this);
    m_server->setObjectName(QStringLiteral("serverPane"));
    m_slices = new TimeSlicesPane(this);
    m_slices->setObjectName(QStringLiteral("timeSlicesPane"));
    m_cache = new CachePane(this);
    m_cache->setObjectName(QStringLiteral("cachePane"));
    m_trace = new TraceTab(this);
    m_trace->setObjectName(QStringLiteral("traceTab"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("resultsSummary"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setOpenExternalLinks(true);
    m_summary->setTextInteractionFlags(Qt::TextBrowserInteraction);
    // Wraps rather than setting the table dock's minimum width to the length of a line that
    // ends in a long folder path (the two docks then overlapped at 1024 px).
    m_summary->setWordWrap(true);
    m_origin = new ElidedLabel(this);
    m_origin->setObjectName(QStringLiteral("resultsOrigin"));

    m_side = new QTabWidget(this);
    m_side->setObjectName(QStringLiteral("cellTabs"));
    // Short tab names, and every tab in view: no scroll arrows hiding Trace at 1024 px; the pane
    // asks for the width its tabs need instead.
    m_side->setUsesScrollButtons(false);
    m_side->setDocumentMode(true);
    m_side->addTab(m_detail, tr("Cell"));
    m_side->addTab(m_distribution, tr("Distribution"));
    m_side->addTab(m_slices, tr("Over time"));
    m_side->addTab(m_server, tr("Server"));
    m_side->addTab(m_cache, tr("Cache"));
    m_side->addTab(m_trace, tr("Trace"));
    // Any two servers of the set side by side, on the metric the right chart shows.
    m_differences = new DifferencePanel(this);
    m_differences->setObjectName(QStringLiteral("resultsDifferences"));
    m_tableTabs = new QTabWidget(this);
    m_tableTabs->setObjectName(QStringLiteral("tableTabs"));
    m_tableTabs->setDocumentMode(true);
    m_tableTabs->addTab(m_table, tr("Cells"));
    m_tableTabs->addTab(m_differences, tr("Differences"));
    // Repeated points: mean ± CI per server × point with its runs beneath (shown only then).
    m_repeats = new RepeatsTree(this);
    m_tableTabs->addTab(m_repeats, tr("By point"));
    auto *tableBox = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_summary);
    tableLayout->addWidget(m_origin);
    tableLayout->addWidget(m_tableTabs, 1);
    // The charts are what a result set is read by: they get the middle and most of the height;
    // the table and the cell pane are docks a user can rearrange (results/ResultsWorkspace.h).
    m_workspace = new ResultsWorkspace(m_charts, tableBox, m_side, QStringLiteral("results/docks"), this);
    // Nothing loaded: say what to do instead of showing empty 0–1.5 axes.
    m_empty = new QLabel(tr("<h3>No results yet</h3>"
                            "<p>Run a sweep (<b>Run → Run sweep</b>, Ctrl+R), open a results folder or zip "
                            "(<b>File → Open results folder…</b>, Ctrl+Shift+O), or drop a results folder, a "
                            "report zip or a results.json onto this window.</p>"),
                         this);
    m_empty->setObjectName(QStringLiteral("resultsEmptyState"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setTextFormat(Qt::RichText);
    m_empty->setMargin(24);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_empty);
    m_pages->addWidget(m_workspace);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pages);

    connect(m_table, &ResultsTableView::currentCellChanged, this, [this](int cellIndex) {
        if (cellIndex == m_currentCell)
            return;
        m_currentCell = cellIndex;
        m_charts->setHighlight({cellIndex >= 0 ? 0 : -1, cellIndex});
        showDetail(true);
        Q_EMIT cellSelected(cellIndex);
    });
    connect(m_charts, &ChartsPanel::chartsRebuilt, this, &ResultsView::updateDifferences);
    connect(m_repeats, &RepeatsTree::cellChosen, this, &ResultsView::selectCell);
    connect(m_differences, &DifferencePanel::rowsChanged, this,
            [this](int n) { m_tableTabs->setTabText(1, n == 0 ? tr("Differences") : tr("Differences (%1)").arg(n)); });
    connect(m_charts, &ChartsPanel::pointClicked, this, [this](ChartPointRef ref) { selectCell(ref.cellIndex); });
    // A trace link opens like the table's: a visible error when the desktop cannot open it.
    connect(m_detail, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.isLocalFile())
            openWithDesktop(url.toLocalFile(), this);
        else
            QDesktopServices::openUrl(url);
    });
    clear();
}

ResultsView::~ResultsView() = default;

const CellResult *ResultsView::cell(int index) const
{
    const int row = rowOfCell(*m_results, index);
    return row >= 0 ? &m_results->cells.at(row) : nullptr;
}

void ResultsView::feedCharts()
{
    m_charts->setInputs({ChartSeriesInput{QString(), *m_results, 0}});
}

void ResultsView::updateRepeats()
{
    const bool repeats = m_model->hasRepeats();
    m_tableTabs->setTabVisible(m_tableTabs->indexOf(m_repeats), repeats);
    m_repeats->setResults(repeats ? *m_results : SweepResults());
}

void ResultsView::updateDifferences()
{
    m_differences->setInputs({NamedResults{QString(), *m_results}}, m_charts->metric(), m_charts->stat());
}

void ResultsView::updateSummary()
{
    int done = 0, degraded = 0, failed = 0, cancelled = 0;
    for (const CellResult &c : m_results->cells) {
        done += c.status == CellStatus::Completed;
        degraded += c.status == CellStatus::Degraded;
        failed += c.status == CellStatus::Failed;
        cancelled += c.status == CellStatus::Cancelled;
    }
    QString text = m_results->sweepName.isEmpty() ? QString() : QStringLiteral("<b>%1</b> · ").arg(m_results->sweepName.toHtmlEscaped());
    text += tr("%1 cells, %2 completed, %3 failed").arg(m_results->cells.size()).arg(done).arg(failed);
    if (degraded > 0)
        text += tr(", <span style=\"color:%1\">%2 degraded (too many failed requests)</span>")
                    .arg(cellStatusColor(CellStatus::Degraded).name())
                    .arg(degraded);
    if (cancelled > 0) // a cancelled run says so here too, not only in the Status column
        text += tr(", %1 cancelled").arg(cancelled);
    if (!m_folder.isEmpty())
        text += QStringLiteral(" · ") + linkHtml(QUrl::fromLocalFile(m_folder).toString(), QDir::toNativeSeparators(m_folder), palette());
    m_summary->setText(text);
    // Where the set came from (results/Provenance.h), on a line of its own that elides rather
    // than wrapping into the table's height; the tooltip has every field, the command too.
    QString origin = displaySafe(provenanceLine(*m_results), DisplayLines::Single);
    if (m_results->sourceTool != QLatin1String("sweepbench") && !m_results->cells.isEmpty())
        origin = tr("Imported from %1").arg(origin);
    m_origin->setFullText(origin);
    m_origin->setVisible(!origin.isEmpty() && !m_results->cells.isEmpty());
    QString tip;
    for (const ProvenanceField &f : provenanceOf(*m_results))
        if (!f.value.isEmpty())
            tip += QStringLiteral("<b>%1</b>: %2<br>").arg(f.label.toHtmlEscaped(), displaySafe(f.value, DisplayLines::Single).toHtmlEscaped());
    m_origin->setToolTip(tip);
    m_pages->setCurrentIndex(m_results->cells.isEmpty() ? 0 : 1);
}

void ResultsView::showDetail(bool reloadFiles)
{
    const CellResult *c = cell(m_currentCell);
    m_detail->setHtml(c ? cellDetailHtml(*c, m_folder) : tr("<p>Select a cell in the table or a point in a chart.</p>"));
    m_slices->setCell(c);
    m_cache->setCell(c);
    if (!reloadFiles)
        return;
    if (c && !c->recordsPath.isEmpty() && !m_folder.isEmpty())
        m_distribution->setRecordsFile(QDir(m_folder).filePath(c->recordsPath), QStringLiteral("%1 %2").arg(c->server, pointLabel(*c)));
    else
        m_distribution->setRecordsFile(QString(), QString());
    m_server->setCell(c, m_folder);
    m_trace->setCell(c);
}

void ResultsView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateSummary();
}

void ResultsView::setResults(const SweepResults &results, const QString &folder)
{
    m_results = makeSnapshot(results);
    m_folder = folder;
    m_table->setFolder(folder);
    m_model->setResults(m_results); // resets the table → currentCellChanged(-1)
    m_currentCell = -1;
    m_charts->setHighlight({});
    feedCharts();
    m_charts->flush(); // a whole new set: draw at once, no reason to wait
    m_server->setResults(m_results);
    updateRepeats();
    updateSummary();
    showDetail(true);
}

bool ResultsView::openResults(const QString &path, QString *error)
{
    const std::optional<LoadedResults> loaded = loadResults(path, error);
    if (!loaded)
        return false;
    setResults(loaded->results, loaded->folder);
    return true;
}

void ResultsView::clear()
{
    setResults(SweepResults(), QString());
}

void ResultsView::updateCell(const CellResult &cell)
{
    const bool hadServerMetrics = [&] {
        const CellResult *old = this->cell(cell.index);
        return old && !old->serverMetrics.isEmpty();
    }();
    m_results = withCell(m_results, cell);
    m_model->updateCell(m_results, cell.index);
    // Every reader gets the new snapshot; the aggregates chart is redrawn only when a server
    // metric can have changed.
    m_server->setResults(m_results, hadServerMetrics || !cell.serverMetrics.isEmpty());
    feedCharts(); // coalesced: at most one chart rebuild per ChartsPanel::kRebuildDelayMs
    if (cell.repeat > 0 || m_model->hasRepeats())
        updateRepeats();
    updateSummary();
    if (cell.index == m_currentCell)
        showDetail(cell.status != CellStatus::Pending);
}

void ResultsView::showTraceTab()
{
    if (!cell(m_currentCell))
        for (const CellResult &c : std::as_const(m_results->cells))
            if (!c.traces.isEmpty() || c.traceSummary) {
                selectCell(c.index);
                break;
            }
    m_side->setCurrentWidget(m_trace);
}

void ResultsView::selectCell(int cellIndex)
{
    m_table->selectCell(cellIndex);
}

} // namespace sb::ui
