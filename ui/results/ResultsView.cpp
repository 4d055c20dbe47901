#include "results/ResultsView.h"
#include "charts/ChartsPanel.h"
#include "report/ResultsLoader.h"
#include "results/CellDetail.h"
#include "results/DistributionPane.h"
#include "results/ResultsTableModel.h"
#include "results/ResultsTableView.h"
#include <QDesktopServices>
#include <QDir>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace sb::ui {

class ResultsViewPrivate
{
public:
    SweepResults results;
    QString folder;
    ResultsTableModel *model = nullptr;
    ResultsTableView *table = nullptr;
    ChartsPanel *charts = nullptr;
    QTextBrowser *detail = nullptr;
    DistributionPane *distribution = nullptr;
    QLabel *summary = nullptr;
    int currentCell = -1;

    const CellResult *cell(int index) const
    {
        for (const CellResult &c : results.cells)
            if (c.index == index)
                return &c;
        return nullptr;
    }
    void feedCharts() { charts->setInputs({ChartSeriesInput{QString(), results, 0}}); }
    void updateSummary()
    {
        int done = 0, degraded = 0, failed = 0;
        for (const CellResult &c : results.cells) {
            done += c.status == CellStatus::Completed;
            degraded += c.status == CellStatus::Degraded;
            failed += c.status == CellStatus::Failed;
        }
        QString text = results.sweepName.isEmpty() ? QString() : QStringLiteral("<b>%1</b> · ").arg(results.sweepName.toHtmlEscaped());
        text += QObject::tr("%1 cells, %2 completed, %3 failed").arg(results.cells.size()).arg(done).arg(failed);
        if (degraded > 0)
            text += QObject::tr(", <span style=\"color:#b26a00\">%1 degraded (too many failed requests)</span>").arg(degraded);
        if (results.sourceTool != QLatin1String("sweepbench"))
            text += QObject::tr(" · imported from %1").arg(results.sourceTool.toHtmlEscaped());
        if (!folder.isEmpty())
            text += QStringLiteral(" · <a href=\"%1\">%2</a>")
                        .arg(QUrl::fromLocalFile(folder).toString().toHtmlEscaped(), QDir::toNativeSeparators(folder).toHtmlEscaped());
        summary->setText(text);
    }
    void showDetail(bool reloadDistribution)
    {
        const CellResult *c = cell(currentCell);
        detail->setHtml(c ? cellDetailHtml(*c, folder) : QObject::tr("<p>Select a cell in the table or a point in a chart.</p>"));
        if (!reloadDistribution)
            return;
        if (c && !c->recordsPath.isEmpty() && !folder.isEmpty())
            distribution->setRecordsFile(QDir(folder).filePath(c->recordsPath),
                                         QStringLiteral("%1 c=%2").arg(c->server).arg(c->concurrency));
        else
            distribution->setRecordsFile(QString(), QString());
    }
};

ResultsView::ResultsView(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<ResultsViewPrivate>())
{
    d->model = new ResultsTableModel(this);
    d->table = new ResultsTableView(d->model, this);
    d->table->setObjectName(QStringLiteral("cellTable"));
    d->charts = new ChartsPanel(this);
    d->charts->setObjectName(QStringLiteral("chartsPanel"));
    d->detail = new QTextBrowser(this);
    d->detail->setObjectName(QStringLiteral("cellDetail"));
    d->detail->setOpenLinks(false); // file links go to the desktop's handler, not the browser
    d->distribution = new DistributionPane(this);
    d->distribution->setObjectName(QStringLiteral("distributionPane"));
    d->summary = new QLabel(this);
    d->summary->setObjectName(QStringLiteral("resultsSummary"));
    d->summary->setTextFormat(Qt::RichText);
    d->summary->setOpenExternalLinks(true);
    d->summary->setTextInteractionFlags(Qt::TextBrowserInteraction);

    auto *side = new QTabWidget(this);
    side->addTab(d->detail, tr("Cell details"));
    side->addTab(d->distribution, tr("Distribution"));
    auto *bottom = new QSplitter(Qt::Horizontal, this);
    auto *tableBox = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(d->summary);
    tableLayout->addWidget(d->table, 1);
    bottom->addWidget(tableBox);
    bottom->addWidget(side);
    bottom->setStretchFactor(0, 5); // the table (with hook icons and trace links) gets most of the width
    bottom->setStretchFactor(1, 1);
    bottom->setSizes({1120, 280}); // initial split; the stretch factors share any extra width
    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(d->charts);
    vertical->addWidget(bottom);
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(vertical);

    connect(d->table, &ResultsTableView::currentCellChanged, this, [this](int cellIndex) {
        if (cellIndex == d->currentCell)
            return;
        d->currentCell = cellIndex;
        d->charts->setHighlight({cellIndex >= 0 ? 0 : -1, cellIndex});
        d->showDetail(true);
        Q_EMIT cellSelected(cellIndex);
    });
    connect(d->charts, &ChartsPanel::pointClicked, this, [this](ChartPointRef ref) { selectCell(ref.cellIndex); });
    connect(d->detail, &QTextBrowser::anchorClicked, this, [](const QUrl &url) { QDesktopServices::openUrl(url); });
    clear();
}

ResultsView::~ResultsView() = default;

void ResultsView::setResults(const SweepResults &results, const QString &folder)
{
    d->results = results;
    d->folder = folder;
    d->table->setFolder(folder);
    d->model->setResults(results); // resets the table → currentCellChanged(-1)
    d->currentCell = -1;
    d->charts->setHighlight({});
    d->feedCharts();
    d->charts->flush(); // a whole new set: draw at once, no reason to wait
    d->updateSummary();
    d->showDetail(true);
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
    bool replaced = false;
    for (CellResult &c : d->results.cells)
        if (c.index == cell.index) {
            c = cell;
            replaced = true;
            break;
        }
    if (!replaced) {
        auto at = d->results.cells.end();
        while (at != d->results.cells.begin() && (at - 1)->index > cell.index)
            --at;
        d->results.cells.insert(at, cell);
    }
    d->model->updateCell(cell);
    d->feedCharts(); // coalesced: at most one chart rebuild per ChartsPanel::kRebuildDelayMs
    d->updateSummary();
    if (cell.index == d->currentCell)
        d->showDetail(cell.status != CellStatus::Pending);
}

const SweepResults &ResultsView::results() const
{
    return d->results;
}

QString ResultsView::folder() const
{
    return d->folder;
}

void ResultsView::selectCell(int cellIndex)
{
    d->table->selectCell(cellIndex);
}

int ResultsView::selectedCell() const
{
    return d->currentCell;
}

} // namespace sb::ui
