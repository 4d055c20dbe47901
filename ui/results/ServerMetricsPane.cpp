#include "results/ServerMetricsPane.h"
#include "charts/InteractiveChartView.h"
#include "report/DisplayText.h"
#include "results/LineChart.h"
#include "results/SweepAxis.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QtConcurrent/QtConcurrentRun>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace sb::ui {

namespace {
int catalogueOrder(const QString &name)
{
    int order = 0;
    for (const ServerMetricFamily &family : serverMetricFamilies())
        for (const ServerMetricInfo &info : family.keys) {
            if (name == QLatin1String(info.name))
                return order;
            ++order;
        }
    return order; // not in the catalogue: after the key metrics
}

QLabel *elidingLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    // Long text wraps inside the pane instead of widening it.
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}
} // namespace

ServerMetricsPane::ServerMetricsPane(QWidget *parent)
    : QWidget(parent)
    , m_verdict(elidingLabel(this))
    , m_metric(new QComboBox(this))
    , m_status(elidingLabel(this))
    , m_seriesView(new InteractiveChartView(this))
    , m_aggregate(new QComboBox(this))
    , m_aggregateView(new InteractiveChartView(this))
    , m_watcher(new QFutureWatcher<ServerSeriesData>(this))
{
    m_verdict->setObjectName(QStringLiteral("serverResetVerdict"));
    m_metric->setObjectName(QStringLiteral("serverMetric"));
    m_status->setObjectName(QStringLiteral("serverSeriesStatus"));
    m_seriesView->setObjectName(QStringLiteral("serverSeriesChart"));
    m_aggregate->setObjectName(QStringLiteral("serverAggregate"));
    m_aggregateView->setObjectName(QStringLiteral("serverAggregateChart"));
    m_seriesView->setExportName(QStringLiteral("server-metric-over-time"));
    m_aggregateView->setExportName(QStringLiteral("server-metric-per-point"));
    // Server-side names are long ("vllm:prefix_cache_queries_total{engine=…}"): never let the
    // pickers set the pane's width.
    for (QComboBox *box : {m_metric, m_aggregate}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
        box->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    // Two charts stacked in a short pane: each keeps a readable height and the pane scrolls,
    // rather than squeezing the charts until the "Per point" row lies over the upper chart's
    // axis title and the lower chart is cut off.
    for (InteractiveChartView *view : {m_seriesView, m_aggregateView})
        view->setMinimumSize(200, 200);
    auto *content = new QWidget(this);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("serverPaneScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_verdict);
    auto *seriesRow = new QHBoxLayout;
    seriesRow->addWidget(new QLabel(tr("Over time:"), this));
    seriesRow->addWidget(m_metric, 1);
    layout->addLayout(seriesRow);
    layout->addWidget(m_status);
    layout->addWidget(m_seriesView, 1);
    auto *aggregateRow = new QHBoxLayout;
    aggregateRow->addWidget(new QLabel(tr("Per point:"), this));
    aggregateRow->addWidget(m_aggregate, 1);
    layout->addLayout(aggregateRow);
    layout->addWidget(m_aggregateView, 1);
    connect(m_metric, &QComboBox::currentIndexChanged, this, &ServerMetricsPane::drawSeries);
    connect(m_aggregate, &QComboBox::currentIndexChanged, this, &ServerMetricsPane::drawAggregates);
    connect(m_watcher, &QFutureWatcher<ServerSeriesData>::finished, this, &ServerMetricsPane::onFinished);
    setCell(nullptr, QString());
    drawAggregates();
}

ServerMetricsPane::~ServerMetricsPane()
{
    m_watcher->waitForFinished(); // the worker only reads a file
}

void ServerMetricsPane::setResults(ResultSnapshot results, bool redraw)
{
    m_results = results ? std::move(results) : makeSnapshot();
    if (!redraw)
        return;
    QSet<QString> keys;
    for (const CellResult &c : m_results->cells)
        if (hasMeasurements(c.status))
            for (auto it = c.serverMetrics.begin(); it != c.serverMetrics.end(); ++it)
                keys.insert(it.key());
    QStringList ordered(keys.begin(), keys.end());
    std::sort(ordered.begin(), ordered.end(), [](const QString &a, const QString &b) {
        const int oa = catalogueOrder(a), ob = catalogueOrder(b);
        return oa != ob ? oa < ob : a < b;
    });
    if (ordered == m_aggregateKeys) {
        drawAggregates(); // same metrics, new values
        return;
    }
    const QString current = m_aggregate->currentData().toString();
    m_aggregateKeys = ordered;
    {
        const QSignalBlocker block(m_aggregate);
        m_aggregate->clear();
        for (const QString &key : std::as_const(m_aggregateKeys)) {
            QString label;
            for (const CellResult &c : m_results->cells)
                if (const auto o = c.serverMetrics.constFind(key); o != c.serverMetrics.constEnd()) {
                    label = QStringLiteral("%1 %2 (%3)").arg(o->label.isEmpty() ? key : o->label, QLatin1String(o->headlineName()), key);
                    break;
                }
            m_aggregate->addItem(displaySafe(label, DisplayLines::Single), key);
        }
        m_aggregate->setCurrentIndex(std::max(0, int(m_aggregateKeys.indexOf(current))));
    }
    drawAggregates();
}

void ServerMetricsPane::setCell(const CellResult *cell, const QString &folder)
{
    ++m_generation;
    m_data = {};
    m_path.clear();
    if (!cell) {
        m_verdict->setText(tr("Select a cell to see the server's side of it."));
    } else {
        QString verdict;
        for (const HookOutcome &h : cell->hooks)
            if (isCacheReset(h.hook) && h.metricsVerdict != MetricsVerdict::None)
                verdict = tr("Reset %1").arg(describeMetricsVerdict(h.metricsVerdict, h.metricsCachedTokens));
        if (verdict.isEmpty())
            verdict = cell->serverMetricsInfo.isEmpty() ? tr("No server metrics were scraped for this cell.")
                                                        : tr("No reset right before the measured phase: nothing for the counters to confirm.");
        m_verdict->setText(displaySafe(QStringLiteral("%1 %2 — %3").arg(cell->server, pointLabel(*cell), verdict), DisplayLines::Single));
        const QString &series = cell->serverMetricsInfo.series;
        if (!series.isEmpty() && !folder.isEmpty())
            m_path = QDir(folder).filePath(series);
    }
    // Per point follows the selected cell's server: a metric its flavor does not export (a
    // vLLM counter for an SGLang cell) gives way to the first one it does.
    if (cell && !cell->serverMetrics.contains(m_aggregate->currentData().toString()))
        for (int i = 0; i < m_aggregateKeys.size(); ++i)
            if (cell->serverMetrics.contains(m_aggregateKeys.at(i))) {
                m_aggregate->setCurrentIndex(i); // redraws
                break;
            }
    m_seriesView->setEmptyText(cell ? tr("No server metrics series for this cell.") : tr("Select a cell in the table or a point in a chart."));
    if (m_path.isEmpty()) {
        m_loading = false;
        m_status->setText(cell ? tr("No server metrics series for this cell.") : QString());
        {
            const QSignalBlocker block(m_metric);
            m_metric->clear();
        }
        drawSeries();
        Q_EMIT loaded();
        return;
    }
    m_loading = true;
    m_status->setText(tr("Reading %1…").arg(QDir::toNativeSeparators(m_path)));
    startRead();
}

void ServerMetricsPane::startRead()
{
    if (m_watcher->isRunning())
        return; // onFinished starts the newest selection's read
    m_watchedGeneration = m_generation;
    m_watcher->setFuture(QtConcurrent::run(readServerSeries, m_path));
}

void ServerMetricsPane::onFinished()
{
    if (m_watchedGeneration != m_generation) { // a newer selection came meanwhile
        if (m_loading)
            startRead();
        return;
    }
    m_data = m_watcher->result();
    m_loading = false;
    QStringList status;
    if (!m_data.error.isEmpty())
        status << m_data.error;
    else
        status << tr("%n scrape(s)", nullptr, m_data.scrapes);
    if (m_data.failedScrapes > 0)
        status << tr("%n failed", nullptr, m_data.failedScrapes);
    status += m_data.limits;
    m_status->setText(displaySafe(status.join(QStringLiteral(" · ")), DisplayLines::Single));
    const QString current = m_metric->currentData().toString();
    {
        const QSignalBlocker block(m_metric);
        m_metric->clear();
        for (const ServerSeriesEntry &e : std::as_const(m_data.entries))
            m_metric->addItem(displaySafe(e.label, DisplayLines::Single), e.key);
        const int keep = m_metric->findData(current);
        m_metric->setCurrentIndex(keep >= 0 ? keep : 0); // the same metric across cells, else the first key metric
    }
    drawSeries();
    Q_EMIT loaded();
}

void ServerMetricsPane::drawSeries()
{
    const QString key = m_metric->currentData().toString();
    QList<LineChartSeries> lines;
    m_plottedSeriesPoints = 0;
    const QMap<QString, QList<QPointF>> byOrigin = m_data.points.value(key);
    int color = 0;
    for (auto it = byOrigin.cbegin(); it != byOrigin.cend(); ++it) {
        lines.append({displaySafe(it.key(), DisplayLines::Single), it.value(), color++, false, it.value().size() <= 60});
        m_plottedSeriesPoints += it.value().size();
    }
    m_seriesView->replaceChart(buildLineChart(lines, {tr("time from the measured phase's start (s)"), displaySafe(key, DisplayLines::Single), QString()}, palette()));
}

void ServerMetricsPane::drawAggregates()
{
    const QString key = m_aggregate->currentData().toString();
    QList<LineChartSeries> lines;
    m_plottedAggregatePoints = 0;
    const QStringList servers = m_results->serverNames();
    QString unit;
    for (int s = 0; s < servers.size() && !key.isEmpty(); ++s) {
        QList<QPointF> points;
        for (const CellResult &c : std::as_const(m_results->cells)) {
            if (c.server != servers[s] || !hasMeasurements(c.status))
                continue; // failed and cancelled cells are not plotted
            const auto o = c.serverMetrics.constFind(key);
            if (o == c.serverMetrics.constEnd() || !std::isfinite(o->headline()))
                continue;
            unit = o->unit;
            points.append({pointValue(c), o->headline()});
        }
        std::sort(points.begin(), points.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
        m_plottedAggregatePoints += points.size();
        if (!points.isEmpty())
            lines.append({displaySafe(servers[s], DisplayLines::Single), points, s, false, true});
    }
    m_aggregateView->setEmptyText(key.isEmpty() ? tr("No server metrics in this result set.") : tr("No cell measured this metric."));
    const QString yTitle = key.isEmpty() ? tr("no server metrics in this result set") : displaySafe(m_aggregate->currentText(), DisplayLines::Single) + (unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unit));
    // Each line names its server: a metric only one flavor exports (vllm:…) is then never read
    // as the selected cell's server's.
    m_aggregateView->replaceChart(buildLineChart(lines, {axisTitle(axisOf(*m_results)), yTitle, QString(), true}, palette()));
}

} // namespace sb::ui
