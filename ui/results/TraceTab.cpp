#include "results/TraceTab.h"
#include "charts/ChartStyle.h"
#include "report/DisplayText.h"
#include "results/StepTimelineView.h"
#include "results/TraceActions.h"
#include "results/TraceSummaryView.h"
#include "trace/TraceSummarizer.h"
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::ui {

struct TraceTab::Job {
    std::atomic<bool> cancel{false};
    TraceLoadProgress progress;
};

namespace {
constexpr int kPollMs = 100;
constexpr int kMaxErrorChars = 300;

QString megabytes(qint64 bytes)
{
    return QStringLiteral("%1 MB").arg(double(bytes) / 1e6, 0, 'f', bytes < 10'000'000 ? 1 : 0);
}

// "1 trace file", "2 trace files" (tr's %n plurals need a translation loaded to drop the "(s)").
QString count(qint64 n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

QString laneTitle(const StepLane &l)
{
    const QString name = displaySafe(QFileInfo(l.path).fileName(), DisplayLines::Single);
    return l.rank >= 0 ? QStringLiteral("rank %1 (%2)").arg(l.rank).arg(name) : name;
}
} // namespace

TraceTab::TraceTab(QWidget *parent) : QWidget(parent), m_reader(&readStepTimeline)
{
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("traceStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("traceProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(140);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("traceCancel"));
    m_reload = new QPushButton(tr("Load timeline"), this);
    m_reload->setObjectName(QStringLiteral("traceReload"));
    auto *top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_progress);
    top->addWidget(m_cancel);
    top->addWidget(m_reload);

    m_timeline = new StepTimelineView(this);
    m_timeline->setObjectName(QStringLiteral("stepTimeline"));
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("traceLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_resetZoom = new QToolButton(this);
    m_resetZoom->setObjectName(QStringLiteral("traceResetZoom"));
    m_resetZoom->setText(tr("Reset zoom"));
    m_resetZoom->setEnabled(false);
    // Not on the timeline itself: a tooltip there would cover the hovered step's read-out.
    const QString help = tr("Wheel: zoom around the cursor · drag: zoom to the span · Shift+drag or middle drag: pan · "
                            "double-click, 0 or Home: the whole window");
    m_resetZoom->setToolTip(help);
    m_legend->setToolTip(help);
    auto *timelinePage = new QWidget(this);
    auto *timelineLayout = new QVBoxLayout(timelinePage);
    timelineLayout->setContentsMargins(0, 4, 0, 0);
    auto *legendRow = new QHBoxLayout;
    legendRow->addWidget(m_legend, 1);
    legendRow->addWidget(m_resetZoom);
    timelineLayout->addLayout(legendRow);
    timelineLayout->addWidget(m_timeline, 1);

    m_steps = new QTextBrowser(this);
    m_steps->setObjectName(QStringLiteral("traceSteps"));
    m_cpuOps = makeOpTable(tr("CPU op (self time)"), this);
    m_cpuOps->setObjectName(QStringLiteral("traceCpuOps"));
    m_kernels = makeOpTable(tr("GPU kernel"), this);
    m_kernels->setObjectName(QStringLiteral("traceKernels"));
    m_scope = new QComboBox(this);
    m_scope->setObjectName(QStringLiteral("traceScope"));
    m_scope->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_scope->setMinimumContentsLength(12);
    m_scope->setToolTip(tr("The figures of all files merged, or of one file (rank)"));

    m_sections = new QTabWidget(this);
    m_sections->setObjectName(QStringLiteral("traceSections"));
    m_sections->setDocumentMode(true);
    m_sections->addTab(timelinePage, tr("Timeline"));
    m_sections->addTab(m_steps, tr("Steps"));
    m_sections->addTab(m_cpuOps, tr("CPU ops"));
    m_sections->addTab(m_kernels, tr("Kernels"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    // Which figures the Steps and op tables show; only there when the cell has several files (a
    // corner widget of the section tabs would squeeze them into scroll arrows at 1024 px).
    m_scopeRow = new QWidget(this);
    auto *scopeRow = new QHBoxLayout(m_scopeRow);
    scopeRow->setContentsMargins(0, 0, 0, 0);
    scopeRow->addWidget(new QLabel(tr("Figures of:"), m_scopeRow));
    scopeRow->addWidget(m_scope, 1);
    layout->addWidget(m_scopeRow);
    layout->addWidget(m_sections, 1);

    m_poll = new QTimer(this);
    m_poll->setInterval(kPollMs);
    connect(m_poll, &QTimer::timeout, this, &TraceTab::showProgress);
    connect(m_cancel, &QPushButton::clicked, this, &TraceTab::cancelLoad);
    connect(m_reload, &QPushButton::clicked, this, &TraceTab::load);
    connect(m_resetZoom, &QToolButton::clicked, m_timeline, &StepTimelineView::resetZoom);
    connect(m_timeline, &StepTimelineView::zoomChanged, m_resetZoom, &QToolButton::setEnabled);
    connect(m_scope, &QComboBox::currentIndexChanged, this, &TraceTab::showSummary);
    setCell(nullptr);
}

TraceTab::~TraceTab()
{
    if (m_job)
        m_job->cancel.store(true); // the worker holds its own copy of everything it reads
}

QString TraceTab::statusText() const
{
    return m_status->text();
}

void TraceTab::setState(State state, const QString &text)
{
    m_state = state;
    m_status->setText(displaySafe(text));
    const bool loading = state == State::Loading;
    m_progress->setVisible(loading);
    m_cancel->setVisible(loading);
    m_cancel->setEnabled(loading);
    m_reload->setVisible(state == State::Cancelled || state == State::Unreadable || state == State::NotLoaded);
    if (state != State::Loaded)
        m_timeline->setEmptyText(loading ? tr("Reading the trace files…") : text);
}

void TraceTab::setCell(const CellResult *cell)
{
    QStringList traces;
    if (cell)
        for (const QString &t : cell->traces)
            if (isTraceFileName(t))
                traces.append(t);
    const int index = cell ? cell->index : -1;
    if (cell && index == m_cellIndex && traces == m_traces && m_state != State::NoCell) {
        m_summary = cell->traceSummary; // a live run may have summarised it since
        showSummary();
        return;
    }
    if (m_job)
        m_job->cancel.store(true);
    m_job.reset();
    ++m_generation; // a read still running for the previous cell is dropped when it ends
    m_poll->stop();
    m_cellIndex = index;
    m_traces = traces;
    m_onDisk.clear();
    for (const QString &t : std::as_const(traces))
        if (fileOnDisk(t))
            m_onDisk.append(t);
    m_summary = cell ? cell->traceSummary : std::nullopt;
    m_loaded.reset();
    m_timeline->setTimeline(nullptr);
    m_legend->clear();
    showSummary();
    if (!cell) {
        setState(State::NoCell, tr("Select a cell in the table or a point in a chart."));
    } else if (traces.isEmpty() && !cell->profilerWindow && !cell->traceSummary) {
        setState(State::NoProfiler, tr("No profiler window in this cell. Give the server a server_profiler: {trace_dir: DIR} in "
                                       "the spec to capture traces of each cell (docs/traces.md)."));
    } else if (traces.isEmpty()) {
        QString text = tr("The cell's profiler window left no trace files.");
        if (cell->profilerWindow && !cell->profilerWindow->why.isEmpty())
            text += QLatin1Char(' ') + cell->profilerWindow->why;
        setState(State::NoTraces, text);
    } else if (m_onDisk.isEmpty()) {
        QStringList names;
        for (const QString &t : std::as_const(traces))
            names << QDir::toNativeSeparators(t);
        setState(State::Missing, tr("The %1 of this cell are no longer on disk (moved or deleted), so no timeline: %2. "
                                    "The summary was computed when the cell ran.")
                                     .arg(count(traces.size(), tr("trace file"), tr("trace files")), names.join(QStringLiteral(", "))));
    } else {
        setState(State::NotLoaded, tr("%1, read when this tab is shown.").arg(count(m_onDisk.size(), tr("trace file"), tr("trace files"))));
        if (isVisible())
            load();
    }
    m_sections->setCurrentIndex(m_onDisk.isEmpty() && m_summary ? 1 : 0);
}

void TraceTab::load()
{
    if (m_onDisk.isEmpty())
        return;
    if (m_job)
        m_job->cancel.store(true);
    auto job = std::make_shared<Job>();
    m_job = job;
    const quint64 generation = ++m_generation;
    m_loaded.reset();
    m_timeline->setTimeline(nullptr);
    m_legend->clear();
    using Result = std::shared_ptr<const StepTimeline>;
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_generation) // else another cell (or read) was chosen meanwhile
            finishLoad(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([reader = m_reader, paths = m_onDisk, options = m_options, job]() -> Result {
        return std::make_shared<const StepTimeline>(reader(paths, options, &job->cancel, &job->progress));
    }));
    setState(State::Loading, tr("Reading %1…").arg(count(m_onDisk.size(), tr("trace file"), tr("trace files"))));
    m_progress->setValue(0);
    m_poll->start();
}

void TraceTab::cancelLoad()
{
    if (!m_job || m_state != State::Loading)
        return;
    m_job->cancel.store(true);
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling…"));
}

void TraceTab::showProgress()
{
    if (!m_job || m_state != State::Loading)
        return;
    const qint64 total = m_job->progress.bytesTotal.load(), done = m_job->progress.bytesDone.load();
    m_progress->setValue(total > 0 ? int(1000 * std::min(done, total) / total) : 0);
    if (!m_job->cancel.load())
        m_status->setText(tr("Reading %1: %2 of %3").arg(count(m_onDisk.size(), tr("trace file"), tr("trace files")), megabytes(done), megabytes(total)));
}

void TraceTab::finishLoad(std::shared_ptr<const StepTimeline> timeline)
{
    m_job.reset();
    m_poll->stop();
    if (timeline->cancelled) {
        setState(State::Cancelled, tr("Reading the trace files was cancelled. Load timeline reads them again."));
        Q_EMIT loadFinished();
        return;
    }
    m_loaded = timeline;
    QStringList notes;
    bool anyRead = false;
    for (const StepLane &l : timeline->lanes) {
        anyRead = anyRead || l.error.isEmpty() || !l.steps.empty();
        if (!l.error.isEmpty())
            notes << tr("%1 could not be read to the end: %2").arg(laneTitle(l), l.error.left(kMaxErrorChars));
        if (l.capped)
            notes << tr("%1: the first %2 of %3 steps are shown (at most %2 a lane)")
                         .arg(laneTitle(l))
                         .arg(qint64(l.steps.size()))
                         .arg(l.totalSteps);
    }
    const qsizetype missing = m_traces.size() - m_onDisk.size();
    if (missing > 0)
        notes << tr("%1 no longer on disk").arg(count(missing, tr("trace file"), tr("trace files")));
    if (timeline->filesNotRead > 0)
        notes << tr("%1 more files not read (at most %2)").arg(timeline->filesNotRead).arg(m_options.limits.maxFiles);
    if (!anyRead) {
        setState(State::Unreadable, tr("The trace files could not be read.\n") + notes.join(QLatin1Char('\n')));
        Q_EMIT loadFinished();
        return;
    }
    QString head = count(timeline->lanes.size(), tr("lane"), tr("lanes")) + QStringLiteral(" · ")
                   + count(timeline->keptSteps(), tr("step"), tr("steps"));
    if (timeline->keptSteps() > 0)
        head += tr(" over %1").arg(formatTraceTime(timeline->endUs));
    else
        head += tr(": no engine steps in these files (docs/traces.md \"Steps\")");
    notes.prepend(head);
    setState(State::Loaded, notes.join(QLatin1Char('\n')));
    m_timeline->setEmptyText(tr("No engine steps in the trace files."));
    m_timeline->setTimeline(timeline);
    m_legend->setText(legendHtml());
    Q_EMIT loadFinished();
}

QString TraceTab::legendHtml() const
{
    if (!m_loaded)
        return {};
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    qint64 counts[4] = {};
    for (const StepLane &l : m_loaded->lanes)
        for (const TimelineStep &s : l.steps)
            ++counts[int(s.kind)];
    QStringList items;
    for (StepKind k : {StepKind::Prefill, StepKind::Decode, StepKind::Mixed, StepKind::Unknown})
        if (counts[int(k)] > 0)
            items << QStringLiteral("<span style=\"color:%1\">■</span> %2 %3").arg(stepKindColor(k, dark).name(), QLatin1String(stepKindName(k))).arg(counts[int(k)]);
    return items.join(QStringLiteral(" &nbsp; "));
}

void TraceTab::showSummary()
{
    const int previous = m_scope->currentIndex();
    {
        const QSignalBlocker block(m_scope);
        m_scope->clear();
        if (m_summary) {
            m_scope->addItem(tr("All files"), -1);
            for (int i = 0; i < m_summary->files.size(); ++i)
                m_scope->addItem(traceFileTitle(m_summary->files.at(i)), i);
            m_scope->setCurrentIndex(std::clamp(previous, 0, int(m_scope->count()) - 1));
        }
        m_scopeRow->setVisible(m_summary && m_summary->files.size() > 1);
    }
    if (!m_summary) {
        const QString none = m_traces.isEmpty() ? tr("No trace summary: the cell has no trace files.")
                                                : tr("No trace summary stored for this cell (results written before SweepBench summarised "
                                                     "traces, or imported): the timeline reads the files themselves.");
        m_steps->setHtml(QStringLiteral("<p><i>%1</i></p>").arg(none.toHtmlEscaped()));
        fillOpTable(m_cpuOps, {}, tr("no trace summary"));
        fillOpTable(m_kernels, {}, tr("no trace summary"));
        return;
    }
    const int file = m_scope->currentData().isValid() ? m_scope->currentData().toInt() : -1;
    m_steps->setHtml(traceStepsHtml(*m_summary, file, palette()));
    const TraceStats &stats = file >= 0 && file < m_summary->files.size() ? m_summary->files.at(file).stats : m_summary->merged;
    fillOpTable(m_cpuOps, stats.topCpuOps, tr("no cpu_op events in the trace"));
    fillOpTable(m_kernels, stats.topKernels, stats.gpuBusyShare < 0 ? tr("no GPU events in the trace") : tr("no kernels"));
}

void TraceTab::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_state == State::NotLoaded)
        load();
}

void TraceTab::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        showSummary();
        m_legend->setText(legendHtml());
    }
}

} // namespace sb::ui
