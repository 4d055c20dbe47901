#include "compare/CompareView.h"
#include "charts/ChartPoints.h"
#include "charts/ChartsPanel.h"
#include "charts/InteractiveChartView.h"
#include "compare/CompareTables.h"
#include "charts/DifferencePanel.h"
#include "compare/ComparisonExport.h"
#include "compare/ResultSetListModel.h"
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include "results/Provenance.h"
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QXYSeries>
#include <QChart>

namespace sb::ui {

namespace {
const QString kSetsKey = QStringLiteral("compare/sets");

QTableWidget *newTable(const QString &objectName, QWidget *parent)
{
    auto *t = new QTableWidget(parent);
    t->setObjectName(objectName);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setTextElideMode(Qt::ElideMiddle);
    t->setWordWrap(false);
    t->verticalHeader()->setVisible(false);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}
} // namespace

CompareView::CompareView(QWidget *parent)
    : QWidget(parent)
{
    m_model = new ResultSetListModel(this);
    m_list = new QListView(this);
    m_list->setObjectName(QStringLiteral("resultSets"));
    m_list->setModel(m_model);
    m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                            | QAbstractItemView::SelectedClicked);
    m_list->setIconSize(QSize(36, 16));
    // Long run names elide in the middle (their distinguishing ends stay visible; the full name
    // is in the tooltip and the series table) instead of scrolling sideways.
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setResizeMode(QListView::Adjust);
    m_charts = new ChartsPanel(this);
    m_charts->setObjectName(QStringLiteral("chartsPanel"));
    m_charts->setLegendVisible(false); // the legend table below lists the series
    m_charts->setMinimumHeight(kMinimumChartHeight);

    auto *addFolder = new QPushButton(tr("Add folder…"), this);
    auto *addFile = new QPushButton(tr("Add file…"), this);
    m_remove = new QPushButton(tr("Remove"), this);
    m_remove->setObjectName(QStringLiteral("removeSet"));
    m_remove->setEnabled(false);
    m_export = new QPushButton(tr("Export comparison…"), this);
    m_export->setObjectName(QStringLiteral("exportComparison"));
    m_export->setToolTip(tr("One self-contained HTML page: both sets' summaries, the charts and the difference table"));
    m_export->setEnabled(false);
    addFolder->setToolTip(tr("A SweepBench results folder, an AIPerf artifact folder or a folder of vLLM bench JSON files"));
    addFile->setToolTip(tr("An exported SweepBench zip or a vLLM bench --save-result JSON file"));

    auto *hint = new QLabel(tr("Double-click a name to rename it in the legends. Drop folders or files here."), this);
    hint->setWordWrap(true);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QGridLayout;
    buttons->addWidget(addFolder, 0, 0);
    buttons->addWidget(addFile, 0, 1);
    buttons->addWidget(m_remove, 1, 0);
    buttons->addWidget(m_export, 1, 1);
    auto *sideBox = new QWidget(this);
    auto *side = new QVBoxLayout(sideBox);
    side->setContentsMargins(0, 0, 0, 0);
    side->addWidget(new QLabel(tr("Result sets"), this));
    side->addWidget(m_list, 1);
    side->addLayout(buttons);
    side->addWidget(hint);
    side->addWidget(m_status);
    m_serverDifferences = new QLabel(this);
    m_serverDifferences->setObjectName(QStringLiteral("compareServerDifferences"));
    m_serverDifferences->setWordWrap(true);
    m_serverDifferences->setTextFormat(Qt::PlainText);
    m_serverDifferences->setTextInteractionFlags(Qt::TextSelectableByMouse);
    side->addWidget(m_serverDifferences);
    sideBox->setMinimumWidth(200);

    m_legend = newTable(QStringLiteral("legendTable"), this);
    m_differences = new DifferencePanel(this);
    m_differences->setObjectName(QStringLiteral("differencePanel"));
    connect(m_differences, &DifferencePanel::rowsChanged, this,
            [this](int n) { m_tables->setTabText(1, n == 0 ? tr("Differences") : tr("Differences (%1)").arg(n)); });
    m_tables = new QTabWidget(this);
    m_tables->addTab(m_legend, tr("Series"));
    m_tables->addTab(m_differences, tr("Differences"));
    m_tables->setMinimumHeight(120);
    m_chartSplitter = new QSplitter(Qt::Vertical, this);
    m_chartSplitter->setObjectName(QStringLiteral("compareChartSplitter"));
    m_chartSplitter->addWidget(m_charts);
    m_chartSplitter->addWidget(m_tables);
    m_chartSplitter->setChildrenCollapsible(false);
    m_chartSplitter->setStretchFactor(0, 3);
    m_chartSplitter->setStretchFactor(1, 1);
    m_chartSplitter->setSizes({560, 200});

    // Nothing loaded: say what to do instead of drawing empty 0–1 axes.
    m_empty = new QLabel(tr("<h3>Nothing to compare yet</h3>"
                            "<p>Add result sets with <b>Add folder…</b> or <b>Add file…</b>, or drop results folders, "
                            "exported zips, AIPerf artifact folders or vLLM bench JSON files here.</p>"
                            "<p>Each set is drawn in its own line style, each server in its own colour; the table under the "
                            "charts lists the series and, per point, how the sets differ.</p>"),
                         this);
    m_empty->setObjectName(QStringLiteral("compareEmptyState"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_chartSplitter);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(sideBox);
    splitter->addWidget(m_stack);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({260, 900});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    setAcceptDrops(true);

    connect(m_model, &QAbstractItemModel::dataChanged, this, &CompareView::refresh);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &CompareView::refresh);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &CompareView::refresh);
    connect(m_model, &QAbstractItemModel::modelReset, this, &CompareView::refresh);
    connect(m_charts, &ChartsPanel::chartsRebuilt, this, [this] {
        m_hoveredPoint.reset();
        watchHover();
        refreshTables();
    });
    connect(m_charts, &ChartsPanel::pointClicked, this, &CompareView::selectPoint);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &cur) { m_remove->setEnabled(cur.isValid()); });
    connect(m_remove, &QPushButton::clicked, this, [this] { removeResultSet(m_list->currentIndex().row()); });
    auto addInteractive = [this](const QString &path) {
        if (path.isEmpty())
            return;
        QString error;
        if (!addResultSet(path, &error))
            QMessageBox::warning(this, tr("Add result set"), tr("Could not open %1:\n%2").arg(path, error));
    };
    connect(addFolder, &QPushButton::clicked, this, [this, addInteractive] {
        addInteractive(QFileDialog::getExistingDirectory(this, tr("Add results folder")));
    });
    connect(addFile, &QPushButton::clicked, this, [this, addInteractive] {
        addInteractive(QFileDialog::getOpenFileName(this, tr("Add results file"), QString(),
                                                    tr("Results (*.zip *.json *.jsonl);;All files (*)")));
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export comparison"), QStringLiteral("comparison.html"),
                                                          tr("HTML page (*.html)"));
        if (path.isEmpty())
            return;
        QString error;
        if (!exportComparison(path, &error))
            QMessageBox::warning(this, tr("Export comparison"), tr("Export failed: %1").arg(error));
    });
    refresh();
}

CompareView::~CompareView() = default;

void CompareView::refresh()
{
    const bool any = m_model->rowCount() > 0;
    m_stack->setCurrentWidget(any ? static_cast<QWidget *>(m_chartSplitter) : m_empty);
    m_export->setEnabled(any);
    m_selectedPoint.reset();
    const QList<ChartSeriesInput> inputs = m_model->chartInputs();
    m_charts->setInputs(inputs);
    QStringList serverDifferences; // each set against the first (results/ServerInfo.h)
    // Where the sets came from, when that differs: tool, command, host (results/Provenance.h).
    QList<const SweepResults *> sets;
    for (const ChartSeriesInput &in : inputs)
        sets << &in.results;
    if (const QStringList origin = provenanceDifferences(sets); !origin.isEmpty())
        serverDifferences << tr("The sets differ in where they came from:") << origin;
    for (qsizetype i = 1; i < inputs.size(); ++i)
        if (const QString d = serverDifferenceSentence(inputs.first().results, inputs.at(i).results, inputs.first().name, inputs.at(i).name); !d.isEmpty())
            serverDifferences.append(d);
    m_serverDifferences->setText(serverDifferences.join(QLatin1Char('\n')));
    m_serverDifferences->setVisible(!serverDifferences.isEmpty());
    if (m_persist)
        saveSets();
    Q_EMIT resultSetsChanged();
}

void CompareView::refreshTables()
{
    const QList<ChartSeriesInput> inputs = m_model->chartInputs();
    const QString metric = m_charts->metric();
    const Stat stat = m_charts->stat();
    fillLegendTable(m_legend, legendRows(m_charts->throughputView()->chart(), inputs), inputs, metric, stat,
                    m_hoveredPoint ? m_hoveredPoint : m_selectedPoint);
    QList<NamedResults> named;
    for (const ChartSeriesInput &in : inputs)
        named.append({in.name, in.results});
    m_differences->setInputs(named, metric, stat); // the pair the user chose, or the default pairs
}

std::optional<double> CompareView::pointOf(ChartPointRef ref) const
{
    const QList<ChartSeriesInput> inputs = m_model->chartInputs();
    if (ref.setIndex >= 0 && ref.setIndex < inputs.size())
        for (const CellResult &c : inputs.at(ref.setIndex).results.cells)
            if (c.index == ref.cellIndex)
                return pointValue(c);
    return std::nullopt;
}

void CompareView::selectPoint(ChartPointRef ref)
{
    m_charts->setHighlight(ref);
    m_selectedPoint = pointOf(ref);
    refreshTables();
}

void CompareView::hoverPoint(ChartPointRef ref)
{
    const std::optional<double> at = pointOf(ref);
    if (at == m_hoveredPoint)
        return;
    m_hoveredPoint = at;
    refreshTables();
}

void CompareView::watchHover()
{
    // The builders' charts are new after every rebuild (and delete their series with them).
    for (InteractiveChartView *view : {m_charts->throughputView(), m_charts->metricView()}) {
        if (!view->chart())
            continue;
        for (QXYSeries *series : taggedSeries(view->chart()))
            connect(series, &QXYSeries::hovered, this, [this, view, series](const QPointF &point, bool state) {
                hoverPoint(state ? pointRef(series, nearestPointIndex(view->chart(), series, point)) : ChartPointRef{});
            });
    }
}

bool CompareView::addResultSet(const QString &path, QString *error)
{
    QString err;
    const std::optional<LoadedResults> loaded = loadResults(path, &err);
    if (!loaded) {
        if (error)
            *error = err;
        return false;
    }
    m_model->add(*loaded, path);
    return true;
}

void CompareView::addLoadedResults(const LoadedResults &loaded)
{
    m_model->add(loaded, loaded.folder);
}

void CompareView::removeResultSet(int row)
{
    m_model->remove(row);
    m_remove->setEnabled(m_list->currentIndex().isValid());
}

void CompareView::clear()
{
    m_model->clear();
}

int CompareView::resultSetCount() const
{
    return m_model->rowCount();
}

QString CompareView::statusText() const
{
    return m_status->text();
}

void CompareView::showStatus(const QString &message)
{
    m_status->setText(message);
    Q_EMIT statusMessage(message);
}

void CompareView::saveSets()
{
    QVariantList sets;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex i = m_model->index(row);
        const QString path = i.data(ResultSetListModel::PathRole).toString();
        if (!path.isEmpty()) // a set handed over in memory has no file to reopen
            sets.append(QVariantMap{{QStringLiteral("path"), QFileInfo(path).absoluteFilePath()},
                                    {QStringLiteral("name"), i.data(Qt::EditRole).toString()}});
    }
    if (m_settings)
        m_settings->setValue(kSetsKey, sets);
    else
        QSettings().setValue(kSetsKey, sets);
}

QStringList CompareView::restoreSavedSets(QSettings *settings)
{
    m_settings = settings;
    const QVariantList sets = (settings ? settings->value(kSetsKey) : QSettings().value(kSetsKey)).toList();
    QStringList dropped;
    for (const QVariant &v : sets) {
        const QVariantMap m = v.toMap();
        const QString path = m.value(QStringLiteral("path")).toString();
        if (path.isEmpty())
            continue;
        QString error;
        if (!QFileInfo::exists(path) || !addResultSet(path, &error)) {
            dropped.append(path);
            continue;
        }
        const QString name = m.value(QStringLiteral("name")).toString();
        if (!name.isEmpty())
            m_model->setData(m_model->index(m_model->rowCount() - 1), name);
    }
    m_persist = true;
    if (!dropped.isEmpty()) {
        saveSets(); // forget them: the next start does not try again
        showStatus(tr("Not reopened (no longer there or unreadable): %1").arg(dropped.join(QStringLiteral(", "))));
    } else if (!sets.isEmpty()) {
        showStatus(tr("Reopened %n result set(s) from the last session.", nullptr, m_model->rowCount()));
    }
    return dropped;
}

bool CompareView::exportComparison(const QString &htmlPath, QString *error)
{
    m_charts->flush();
    QString err;
    QStringList sources;
    QList<QByteArray> specs;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        sources.append(m_model->index(row).data(ResultSetListModel::PathRole).toString());
        specs.append(m_model->loadedAt(row).specYaml);
    }
    const bool ok = writeComparisonHtml(htmlPath, m_model->chartInputs(), m_charts->metric(), m_charts->stat(), &err, sources, specs);
    if (ok)
        showStatus(tr("Comparison written to %1").arg(htmlPath));
    else if (error)
        *error = err;
    return ok;
}

void CompareView::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void CompareView::dropEvent(QDropEvent *event)
{
    QStringList failures;
    for (const QUrl &url : event->mimeData()->urls()) {
        QString error;
        if (url.isLocalFile() && !addResultSet(url.toLocalFile(), &error))
            failures << QStringLiteral("%1: %2").arg(url.toLocalFile(), error);
    }
    event->acceptProposedAction();
    if (!failures.isEmpty())
        QMessageBox::warning(this, tr("Add result sets"), failures.join(QLatin1Char('\n')));
}

} // namespace sb::ui
