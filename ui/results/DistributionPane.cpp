#include "results/DistributionPane.h"
#include "charts/DistributionChart.h"
#include "charts/InteractiveChartView.h"
#include "metrics/MetricCatalogue.h"
#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QtConcurrent/QtConcurrentRun>
#include <QVBoxLayout>

namespace sb::ui {

DistributionPane::DistributionPane(QWidget *parent)
    : QWidget(parent)
    , m_metric(new QComboBox(this))
    , m_kind(new QComboBox(this))
    , m_turn(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_view(new InteractiveChartView(this))
    , m_watcher(new QFutureWatcher<CellRecordSamples>(this))
{
    m_view->setObjectName(QStringLiteral("distributionChart"));
    m_metric->setObjectName(QStringLiteral("distributionMetric"));
    m_kind->setObjectName(QStringLiteral("distributionKind"));
    for (const QString &key : {tag::ttft, tag::itl, tag::latency})
        m_metric->addItem(metricLabel(key), key);
    m_kind->addItem(tr("Histogram"), int(DistributionKind::Histogram));
    m_kind->addItem(tr("CDF"), int(DistributionKind::Cdf));
    m_turn->setObjectName(QStringLiteral("distributionTurn"));
    m_turn->setToolTip(tr("Sessions: the requests of one turn (turn 1 against later turns is the prefix cache's effect)"));
    m_turn->hide();
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The status names files ("Reading /long/path/records.jsonl…"): it wraps in the space it is
    // given instead of widening the pane each time it changes.
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *controls = new QHBoxLayout;
    controls->addWidget(m_metric);
    controls->addWidget(m_kind);
    controls->addWidget(m_turn);
    controls->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_view, 1);
    connect(m_metric, &QComboBox::currentIndexChanged, this, &DistributionPane::redraw);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &DistributionPane::redraw);
    connect(m_turn, &QComboBox::currentIndexChanged, this, &DistributionPane::redraw);
    connect(m_watcher, &QFutureWatcher<CellRecordSamples>::finished, this, &DistributionPane::onFinished);
    redraw();
}

DistributionPane::~DistributionPane()
{
    // The worker only reads a file; wait for it rather than leave it writing into a dead object.
    m_watcher->waitForFinished();
}

void DistributionPane::setRecordsFile(const QString &recordsPath, const QString &title)
{
    ++m_generation;
    m_path = recordsPath;
    m_title = title;
    m_samples = {};
    if (recordsPath.isEmpty()) {
        m_loading = false;
        m_status->setText(tr("No per-request records for this cell."));
        redraw();
        Q_EMIT loaded();
        return;
    }
    m_loading = true;
    m_status->setText(tr("Reading %1…").arg(recordsPath));
    // One read at a time: a newer selection waits for the running read (finished → onFinished
    // sees a newer generation and starts it).
    if (!m_watcher->isRunning()) {
        m_watchedGeneration = m_generation;
        m_watcher->setFuture(QtConcurrent::run(readCellRecords, recordsPath));
    }
}

bool DistributionPane::isLoading() const
{
    // Not the watcher's state: its future is finished before onFinished has stored the samples.
    return m_loading;
}

void DistributionPane::onFinished()
{
    if (m_watchedGeneration != m_generation) {
        // The selection moved on while reading: drop this result and read the current file.
        m_watchedGeneration = m_generation;
        if (m_path.isEmpty())
            return; // cleared meanwhile; setRecordsFile already reset the pane
        m_watchedGeneration = m_generation;
        m_watcher->setFuture(QtConcurrent::run(readCellRecords, m_path));
        return;
    }
    m_loading = false;
    m_samples = m_watcher->result();
    {
        const QSignalBlocker quiet(m_turn); // one redraw below
        m_turn->clear();
        if (m_samples.maxTurn > 0) {
            m_turn->addItem(tr("All turns"), 0);
            m_turn->addItem(tr("Turn 1"), 1);
            m_turn->addItem(tr("Turns 2+"), -2);
            for (int t = 2; t <= std::min(m_samples.maxTurn, 16); ++t)
                m_turn->addItem(tr("Turn %1").arg(t), t);
        }
        m_turn->setVisible(m_samples.maxTurn > 0);
        // TTFO only for records whose answers reasoned (elsewhere it is TTFT again), as the charts'
        // metric menu offers it only for cells that stored it; chosen, it stays chosen while offered.
        const QSignalBlocker quietMetric(m_metric);
        const int at = m_metric->findData(tag::ttfo);
        if (m_samples.reasoned && at < 0)
            m_metric->insertItem(1, metricLabel(tag::ttfo), tag::ttfo);
        else if (!m_samples.reasoned && at >= 0) {
            const bool chosen = m_metric->currentIndex() == at;
            m_metric->removeItem(at);
            if (chosen)
                m_metric->setCurrentIndex(0); // TTFT, the nearest of what is left
        }
    }
    if (!m_samples.error.isEmpty())
        m_status->setText(m_samples.error);
    else
        m_status->setText(tr("%1: %2 requests, %3 failed%4")
                              .arg(m_title)
                              .arg(m_samples.records)
                              .arg(m_samples.failed)
                              .arg(m_samples.malformed ? tr(", %1 unreadable lines").arg(m_samples.malformed) : QString()));
    redraw();
    Q_EMIT loaded();
}

QList<double> DistributionPane::shown(const QList<double> &values, const QList<int> &turns) const
{
    const int pick = m_samples.maxTurn > 0 ? m_turn->currentData().toInt() : 0;
    if (pick == 0 || turns.size() != values.size())
        return values;
    QList<double> out;
    for (qsizetype i = 0; i < values.size(); ++i)
        if (pick == -2 ? turns[i] >= 2 : turns[i] == pick)
            out.append(values[i]);
    return out;
}

void DistributionPane::redraw()
{
    const auto kind = DistributionKind(m_kind->currentData().toInt());
    const QString turn = m_samples.maxTurn > 0 && m_turn->currentData().toInt() != 0 ? QStringLiteral(" (%1)").arg(m_turn->currentText()) : QString();
    const QString metric = m_metric->currentData().toString();
    const QList<double> values = metric == tag::itl       ? shown(m_samples.itlMs, m_samples.itlTurns)
                                 : metric == tag::latency ? shown(m_samples.latencyMs, m_samples.latencyTurns)
                                 : metric == tag::ttfo    ? shown(m_samples.ttfoMs, m_samples.ttfoTurns)
                                                          : shown(m_samples.ttftMs, m_samples.ttftTurns);
    const QString name = metricLabel(metric.isEmpty() ? tag::ttft : metric);
    m_shown = values.size();
    m_view->replaceChart(makeDistributionChart(values, name + turn, unit::ms, kind));
    m_view->setExportName(QStringLiteral("distribution"));
}

} // namespace sb::ui
