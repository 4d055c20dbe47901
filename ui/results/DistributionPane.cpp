#include "results/DistributionPane.h"
#include "charts/DistributionChart.h"
#include "charts/InteractiveChartView.h"
#include "metrics/MetricCatalogue.h"
#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QtConcurrent/QtConcurrentRun>
#include <QVBoxLayout>

namespace sb::ui {

DistributionPane::DistributionPane(QWidget *parent)
    : QWidget(parent)
    , m_metric(new QComboBox(this))
    , m_kind(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_view(new InteractiveChartView(this))
    , m_watcher(new QFutureWatcher<CellRecordSamples>(this))
{
    m_view->setObjectName(QStringLiteral("distributionChart"));
    m_metric->setObjectName(QStringLiteral("distributionMetric"));
    m_kind->setObjectName(QStringLiteral("distributionKind"));
    m_metric->addItems({metricLabel(tag::ttft), metricLabel(tag::itl), metricLabel(tag::latency)});
    m_kind->addItem(tr("Histogram"), int(DistributionKind::Histogram));
    m_kind->addItem(tr("CDF"), int(DistributionKind::Cdf));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The status names files ("Reading /long/path/records.jsonl…"): it wraps in the space it is
    // given instead of widening the pane each time it changes.
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *controls = new QHBoxLayout;
    controls->addWidget(m_metric);
    controls->addWidget(m_kind);
    controls->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_view, 1);
    connect(m_metric, &QComboBox::currentIndexChanged, this, &DistributionPane::redraw);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &DistributionPane::redraw);
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

void DistributionPane::redraw()
{
    const auto kind = DistributionKind(m_kind->currentData().toInt());
    switch (m_metric->currentIndex()) {
    case 1: m_view->replaceChart(makeDistributionChart(m_samples.itlMs, metricLabel(tag::itl), unit::ms, kind)); break;
    case 2:
        m_view->replaceChart(makeDistributionChart(m_samples.latencyMs, metricLabel(tag::latency), unit::ms, kind));
        break;
    default: m_view->replaceChart(makeDistributionChart(m_samples.ttftMs, metricLabel(tag::ttft), unit::ms, kind)); break;
    }
    m_view->setExportName(QStringLiteral("distribution"));
}

} // namespace sb::ui
