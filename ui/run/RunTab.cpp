#include "run/RunTab.h"
#include "report/DisplayText.h"
#include "text/HookOutcomeText.h"
#include "text/SweepEstimate.h"
#include "engine/CellVerdict.h"
#include "metrics/MetricCatalogue.h"
#include "results/HookSeverity.h"
#include "results/SweepAxis.h"
#include "run/HookLogModel.h"
#include "run/LiveChart.h"
#include "run/ServerLogPane.h"
#include "spec/LaunchVariants.h"
#include "style/ElidedLabel.h"
#include "style/Theme.h"
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace sb::ui {

namespace {
constexpr int kFlushIntervalMs = 100; // at most ~10 redraws a second

QString fmt(double v, int decimals)
{
    return std::isfinite(v) && v > 0 ? QString::number(v, 'f', decimals) : QStringLiteral("—");
}
} // namespace

RunTab::RunTab(QWidget *parent)
    : QWidget(parent)
{
    qRegisterMetaType<sb::ProgressSnapshot>();
    qRegisterMetaType<sb::HookOutcome>();
    qRegisterMetaType<sb::CellResult>();

    m_title = new ElidedLabel;
    m_title->setObjectName(QStringLiteral("runTitle"));
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the window

    m_outDirEdit = new QLineEdit;
    m_outDirEdit->setObjectName(QStringLiteral("outDir"));
    m_outDirEdit->setPlaceholderText(tr("default: ~/SweepBench/results/<sweep>-<time>"));
    connect(m_outDirEdit, &QLineEdit::textEdited, this, [this] { m_outDirFromRun = false; });
    auto *browse = new QToolButton;
    browse->setIcon(themedIcon(QStringLiteral("folder")));
    browse->setToolTip(tr("Choose the results folder"));
    connect(browse, &QToolButton::clicked, this, &RunTab::chooseOutDir);
    m_startButton = new QPushButton(themedIcon(QStringLiteral("run")), tr("Run sweep"));
    m_startButton->setObjectName(QStringLiteral("startButton"));
    m_cancelButton = new QPushButton(themedIcon(QStringLiteral("cancel")), tr("Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    m_cancelButton->setToolTip(tr("Abort in-flight requests; profilers are still stopped"));
    m_cancelButton->setEnabled(false);
    connect(m_startButton, &QPushButton::clicked, this, &RunTab::startRequested);
    connect(m_cancelButton, &QPushButton::clicked, this, &RunTab::cancel);

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(new QLabel(tr("Results folder:")));
    top->addWidget(m_outDirEdit, 2);
    top->addWidget(browse);
    top->addWidget(m_startButton);
    top->addWidget(m_cancelButton);

    m_sweepBar = new QProgressBar;
    m_sweepBar->setObjectName(QStringLiteral("sweepProgress"));
    m_sweepBar->setRange(0, 1000);
    m_sweepBar->setTextVisible(false);
    m_sweepBar->setMinimumWidth(320);
    m_cellBar = new QProgressBar;
    m_cellBar->setObjectName(QStringLiteral("cellProgress"));
    m_cellBar->setRange(0, 1000);
    m_cellBar->setTextVisible(false);
    m_sweepLabel = new QLabel(tr("Idle"));
    m_sweepLabel->setObjectName(QStringLiteral("sweepStatus"));
    m_sweepLabel->setWordWrap(true); // a stop names the file and the OS reason: long lines
    m_cellLabel = new QLabel;
    m_cellLabel->setObjectName(QStringLiteral("cellStatus"));
    m_cellLabel->setWordWrap(true); // a failed cell's line carries its reason
    m_counts = new QLabel(tr("—"));
    m_counts->setObjectName(QStringLiteral("cellCounts"));
    m_hooksRow = new QWidget;
    m_hooksRow->setObjectName(QStringLiteral("cellHooks"));
    auto *hooksLayout = new QHBoxLayout(m_hooksRow);
    hooksLayout->setContentsMargins(0, 0, 0, 0);
    hooksLayout->addStretch(1);
    m_figures = new QLabel;
    m_figures->setObjectName(QStringLiteral("liveFigures"));
    m_figures->setTextFormat(Qt::RichText);
    auto *progress = new QGroupBox(tr("Progress"));
    auto *form = new QFormLayout(progress);
    form->addRow(tr("Sweep"), m_sweepBar);
    form->addRow(QString(), m_sweepLabel);
    form->addRow(tr("Cell"), m_cellBar);
    form->addRow(QString(), m_cellLabel);
    form->addRow(tr("Requests"), m_counts);
    form->addRow(tr("Hooks"), m_hooksRow);
    form->addRow(tr("Live"), m_figures);

    m_chart = new LiveChart;
    m_chart->setMinimumHeight(220);

    m_hookLog = new HookLogModel(this);
    m_hookView = new QTableView;
    m_hookView->setObjectName(QStringLiteral("hookLogView"));
    m_hookView->setModel(m_hookLog);
    m_hookView->verticalHeader()->hide();
    m_hookView->verticalHeader()->setDefaultSectionSize(m_hookView->fontMetrics().height() + 6);
    m_hookView->horizontalHeader()->setStretchLastSection(true);
    m_hookView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_hookView->setColumnWidth(HookLogModel::Cell, 170);
    m_hookView->setColumnWidth(HookLogModel::Hook, 200);
    m_hookView->setColumnWidth(HookLogModel::Verdict, 120);
    m_hookView->setColumnWidth(HookLogModel::Status, 50);
    m_hookView->setColumnWidth(HookLogModel::Attempts, 65);

    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("engineLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000); // a long run must not grow the document without bound
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);

    auto *hookBox = new QGroupBox(tr("Hook calls"));
    (new QVBoxLayout(hookBox))->addWidget(m_hookView);
    auto *logBox = new QGroupBox(tr("Log"));
    m_logPane = new ServerLogPane(m_log);
    (new QVBoxLayout(logBox))->addWidget(m_logPane);

    auto *upper = new QSplitter(Qt::Horizontal);
    upper->addWidget(progress);
    upper->addWidget(m_chart);
    upper->setStretchFactor(0, 2);
    upper->setStretchFactor(1, 3);
    upper->setSizes({560, 840});
    auto *lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(hookBox);
    lower->addWidget(logBox);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    auto *vertical = new QSplitter(Qt::Vertical);
    vertical->addWidget(upper);
    vertical->addWidget(lower);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(vertical, 1);

    m_flushTimer = new QTimer(this);
    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(kFlushIntervalMs);
    connect(m_flushTimer, &QTimer::timeout, this, &RunTab::flush);
}

RunTab::~RunTab() = default; // ~SweepEngine cancels and joins its thread

QString RunTab::defaultOutDir(const SweepSpec &spec)
{
    QString name = spec.name.isEmpty() ? QStringLiteral("sweep") : spec.name;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
    return QDir::homePath() + QStringLiteral("/SweepBench/results/") + name + QLatin1Char('-')
        + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

void RunTab::setSpecForDisplay(const SweepSpec &spec)
{
    if (isRunning())
        return;
    m_title->setFullText(tr("%1 — %2").arg(spec.name.isEmpty() ? tr("untitled sweep") : spec.name, estimateText(spec)));
}

bool RunTab::start(const SweepSpec &spec, const QString &outDir)
{
    if (isRunning()) {
        Q_EMIT statusMessage(tr("A sweep is already running"));
        return false;
    }
    const QString typed = m_outDirFromRun ? QString() : m_outDirEdit->text().trimmed();
    m_outDir = !outDir.isEmpty() ? outDir : !typed.isEmpty() ? typed : defaultOutDir(spec);
    // The field shows the folder really written, not a placeholder.
    m_outDirEdit->setText(QDir::toNativeSeparators(m_outDir));
    m_outDirFromRun = typed.isEmpty() || !outDir.isEmpty();
    m_exitCode = -1;
    m_cancelling = false;
    m_userCancelled = false;
    m_problemCells.clear();
    m_finishedCell = -1;
    m_finishedLine.clear();
    m_boundaryCell = -1;
    m_hooksCell = -1;
    m_cellHooks.clear();
    m_hooksDirty = true;
    m_counts->setText(tr("—"));
    m_cellLabel->clear();
    setOutcome(QString(), CellStatus::Completed);
    m_sweepBar->setValue(0);
    m_cellBar->setValue(0);
    m_pendingSnapshot.reset();
    m_pendingHooks.clear();
    m_pendingLog.clear();
    m_statusCounts.clear();
    m_last = {};
    m_hookLog->clear();
    m_chart->clear();
    m_log->clear();
    QStringList launched; // each launch variant is a server of its own, with a log of its own
    for (const ServerSpec &server : withLaunchVariantsExpanded(spec).servers)
        if (server.launch.enabled)
            launched << server.name;
    m_logPane->follow(m_outDir, launched);
    m_title->setFullText(tr("%1 — running").arg(spec.name));

    m_engine = std::make_unique<SweepEngine>(spec, RunOptions{m_outDir, false});
    SweepEngine *engine = m_engine.get();
    // Engine signals arrive queued from its thread; each handler only buffers.
    connect(engine, &SweepEngine::progress, this, [this](const ProgressSnapshot &s) {
        noteProgress(s);
        m_pendingSnapshot = s;
        scheduleFlush();
    });
    connect(engine, &SweepEngine::hookCalled, this, [this](const CellKey &cell, const HookOutcome &o) {
        m_pendingHooks.append({cell, o});
        if (cell.index != m_hooksCell) {
            m_hooksCell = cell.index;
            m_cellHooks.clear();
        }
        m_cellHooks.append(o);
        m_hooksDirty = true;
        scheduleFlush();
    });
    connect(engine, &SweepEngine::serverLoad, this, [this](const CellKey &, double running, double waiting) {
        // Cheap enough to store at once (a scrape every ~0.5 s); drawn by the next flush.
        m_chart->addServerSample(m_clock.elapsed() / 1000.0, running, waiting);
        scheduleFlush();
    });
    connect(engine, &SweepEngine::logMessage, this, [this](const QString &line) {
        m_pendingLog.append(displaySafe(line, DisplayLines::Single)); // may quote a server
        scheduleFlush();
    });
    connect(engine, &SweepEngine::cellFinished, this, [this](const CellResult &cell) {
        m_statusCounts[cell.status] += 1;
        if (isProblem(cell.status))
            m_problemCells.append(cell);
        // Every finished cell says how it ended in the log and on the cell line, a problem
        // cell with its reason.
        const QString line = displaySafe(cellOutcomeLine(cell), DisplayLines::Single);
        m_pendingLog.append(line);
        m_finishedCell = cell.index;
        m_finishedLine = line;
        // The counts row ends on the cell's final numbers, not the last live snapshot's.
        m_counts->setText(tr("%1 sent · %2 ok · %3 failed · 0 in flight").arg(cell.completed + cell.failed).arg(cell.completed).arg(cell.failed));
        scheduleFlush();
        Q_EMIT cellFinished(cell);
    });
    connect(engine, &SweepEngine::finished, this, &RunTab::onFinished);

    m_clock.start();
    setRunning(true);
    m_pendingLog.append(tr("Results folder: %1").arg(QDir::toNativeSeparators(m_outDir)));
    scheduleFlush();
    engine->start();
    Q_EMIT statusMessage(tr("Sweep started → %1").arg(QDir::toNativeSeparators(m_outDir)));
    return true;
}

void RunTab::cancel()
{
    if (!isRunning() || m_cancelling)
        return;
    m_cancelling = true;
    m_userCancelled = true;
    m_engine->cancel();
    m_cancelButton->setEnabled(false);
    m_sweepLabel->setText(tr("Cancelling… (stopping profilers, saving finished cells)"));
    Q_EMIT statusMessage(tr("Cancelling the sweep…"));
}

bool RunTab::isRunning() const
{
    return m_engine && m_exitCode < 0;
}

SweepResults RunTab::results() const
{
    return m_engine ? m_engine->results() : SweepResults();
}

void RunTab::setRunning(bool running)
{
    m_startButton->setEnabled(!running);
    m_cancelButton->setEnabled(running);
    m_outDirEdit->setEnabled(!running);
    Q_EMIT runningChanged(running);
}

void RunTab::scheduleFlush()
{
    if (!m_flushTimer->isActive())
        m_flushTimer->start();
}

void RunTab::flush()
{
    if (m_pendingSnapshot) {
        const ProgressSnapshot s = *m_pendingSnapshot;
        m_pendingSnapshot.reset();
        m_last = s;
        m_sweepBar->setValue(int(std::clamp(s.sweepFraction, 0.0, 1.0) * 1000));
        m_cellBar->setValue(int(std::clamp(s.cellFraction, 0.0, 1.0) * 1000));
        const QString eta = s.etaS >= 0 ? tr("about %1 left").arg(formatDuration(s.etaS)) : tr("estimating time left…");
        if (!m_cancelling)
            m_sweepLabel->setText(tr("%1 of %2 cells done · %3 % · %4 · elapsed %5")
                                      .arg(s.cellsDone)
                                      .arg(s.cellCount)
                                      .arg(int(s.sweepFraction * 100))
                                      .arg(eta, formatDuration(m_clock.elapsed() / 1000.0)));
        if (s.cellIndex >= 0 && s.cellIndex > m_finishedCell) { // the running cell
            const QString requests = s.requestsTarget > 0 ? tr("%1 / %2 requests").arg(s.requestsDone).arg(s.requestsTarget)
                                                          : tr("%1 requests").arg(s.requestsDone);
            m_cellLabel->setText(tr("#%1 %2 · %3 · %4 · %5")
                                     .arg(s.cellIndex + 1)
                                     .arg(displaySafe(s.server, DisplayLines::Single), s.point, runPhaseName(s.phase), requests));
            // sent = ended + still in flight; ok/failed are of the ended ones.
            m_counts->setText(tr("%1 sent · %2 ok · %3 failed · %4 in flight")
                                  .arg(s.requestsDone + s.inFlight)
                                  .arg(s.requestsDone - s.requestsFailed)
                                  .arg(s.requestsFailed)
                                  .arg(s.inFlight));
        } else if (!m_finishedLine.isEmpty()) { // between cells and at the end: how the last one ended
            m_cellLabel->setText(m_finishedLine);
        }
        m_figures->setText(tr("<b>%1</b> %2 &nbsp;·&nbsp; %3 avg <b>%4</b> %5 &nbsp;·&nbsp; %6 avg <b>%7</b> %5 &nbsp;·&nbsp; <b>%8</b> in flight")
                               .arg(fmt(s.liveOutputTokensPerS, 0), shortUnit(unit::tokensPerS), metricLabel(tag::ttft),
                                    fmt(s.liveTtftAvgMs, 1), unit::ms, metricLabel(tag::latency), fmt(s.liveLatencyAvgMs, 0))
                               .arg(s.inFlight));
        if (s.phase == RunPhase::Measure)
            m_chart->addSample(m_clock.elapsed() / 1000.0, s.liveOutputTokensPerS, s.inFlight);
    }
    m_chart->flush();
    if (m_hooksDirty)
        showCellHooks();

    if (!m_pendingHooks.isEmpty()) {
        QList<HookLogModel::Entry> batch;
        batch.reserve(m_pendingHooks.size());
        for (const auto &[cell, outcome] : std::as_const(m_pendingHooks))
            batch.append({cell.index, cell.server, cell.point, outcome}); // the signal names its cell
        m_pendingHooks.clear();
        const bool atBottom = m_hookView->verticalScrollBar()->value() == m_hookView->verticalScrollBar()->maximum();
        m_hookLog->append(batch);
        if (atBottom)
            m_hookView->scrollToBottom(); // follow the log unless the user scrolled up to read
    }
    if (!m_pendingLog.isEmpty()) {
        m_log->appendPlainText(m_pendingLog.join(QLatin1Char('\n')));
        m_pendingLog.clear();
        // Lines don't wrap: keep their beginnings in view, not the end of the longest one.
        m_log->horizontalScrollBar()->setValue(0);
    }
}

void RunTab::onFinished(int exitCode)
{
    flush();
    m_logPane->stop();
    m_exitCode = exitCode;
    m_cancelling = false;
    if (!m_finishedLine.isEmpty())
        m_cellLabel->setText(m_finishedLine);
    const QString what = finishedText(exitCode);
    const int measured = m_statusCounts.value(CellStatus::Completed) + m_statusCounts.value(CellStatus::Degraded);
    // The bar says how it ended at a glance: never full blue when nothing was measured.
    if (exitCode == exitcode::kAllCompleted) {
        setOutcome(QStringLiteral("completed"), CellStatus::Completed);
        m_sweepBar->setValue(1000);
    } else if (m_userCancelled || m_statusCounts.value(CellStatus::Cancelled) > 0) {
        setOutcome(QStringLiteral("cancelled"), CellStatus::Cancelled);
    } else if (measured == 0) {
        setOutcome(QStringLiteral("failed"), CellStatus::Failed);
        m_sweepBar->setValue(1000);
    } else {
        setOutcome(QStringLiteral("problems"), CellStatus::Degraded);
        m_sweepBar->setValue(1000);
    }
    m_sweepLabel->setText(what);
    // The title gets the verdict only: the reason can be long and is in the label beneath.
    m_title->setFullText(what.section(QStringLiteral(" — "), 0, 0));
    m_title->setToolTip(what);
    setRunning(false);
    Q_EMIT statusMessage(what);
    Q_EMIT runFinished(exitCode, m_outDir);
}

QString RunTab::finishedText(int exitCode) const
{
    // A run that stopped says why right here, not only in the log (e.g. the disk is full).
    const QString why = m_engine ? m_engine->failureMessage() : QString();
    if (exitCode == exitcode::kWriteFailed)
        return tr("Sweep stopped: results could not be written — %1").arg(why);
    if (exitCode != exitcode::kAllCompleted && exitCode != exitcode::kNotAllCompleted)
        return why.isEmpty() ? tr("The sweep could not start (see the log)") : tr("The sweep could not start — %1").arg(why);
    int finished = 0;
    for (int n : m_statusCounts)
        finished += n;
    if (exitCode == exitcode::kAllCompleted)
        return finished == 1 ? tr("Sweep finished: its one cell completed") : tr("Sweep finished: all %1 cells completed").arg(finished);

    QStringList counts;
    for (CellStatus status : {CellStatus::Completed, CellStatus::Degraded, CellStatus::Failed, CellStatus::Cancelled, CellStatus::Skipped})
        if (const int n = m_statusCounts.value(status); n > 0)
            counts << QStringLiteral("%1 %2").arg(n).arg(cellStatusName(status));
    // The reason to show: a cell the user's cancel cut short, else the engine's diagnosis of an
    // unreachable server (it names the origin and the error), else the first problem cell's.
    const CellResult *pick = nullptr;
    for (const CellResult &c : m_problemCells)
        if (c.status == CellStatus::Cancelled && c.completed + c.failed > 0) {
            pick = &c;
            break;
        }
    for (const CellResult &c : m_problemCells)
        if (!pick && c.reason.startsWith(QLatin1String("server unreachable")))
            pick = &c;
    if (!pick && !m_problemCells.isEmpty())
        pick = &m_problemCells.first();
    const QString reason = pick && !pick->reason.isEmpty()
                               ? tr(" — cell %1 %2 %3: %4").arg(pick->index).arg(pick->server, pointLabel(*pick), pick->reason) // as the log names cells
                               : QString();
    const QString summary = counts.join(QStringLiteral(", "));
    const int measured = m_statusCounts.value(CellStatus::Completed) + m_statusCounts.value(CellStatus::Degraded);
    QString text;
    if (m_userCancelled || m_statusCounts.value(CellStatus::Cancelled) > 0)
        text = tr("Sweep cancelled by the user (%1)").arg(summary) + reason;
    else if (measured == 0)
        text = tr("Sweep failed: no cell was measured (%1)").arg(summary) + reason;
    else
        text = tr("Sweep finished with problems (%1)").arg(summary) + reason;
    return displaySafe(text, DisplayLines::Single); // reasons quote servers
}

void RunTab::setOutcome(const QString &outcome, CellStatus colourOf)
{
    m_outcome = outcome;
    m_sweepBar->setProperty("outcome", outcome);
    const QColor colour = cellStatusColor(colourOf);
    QPalette pal; // no roles set: the bar inherits the window's palette
    if (colour.isValid())
        pal.setColor(QPalette::Highlight, colour);
    m_sweepBar->setPalette(pal);
    m_sweepBar->setToolTip(outcome.isEmpty() ? QString() : tr("Sweep %1").arg(outcome));
}

void RunTab::noteProgress(const ProgressSnapshot &s)
{
    if (s.cellIndex < 0 || s.cellIndex == m_boundaryCell)
        return;
    // A new cell started: mark it on the live chart now, before snapshots are coalesced.
    m_boundaryCell = s.cellIndex;
    m_chart->addBoundary(m_clock.elapsed() / 1000.0, displaySafe(s.server, DisplayLines::Single) + QStringLiteral(" · ") + s.point);
    if (s.cellIndex != m_hooksCell) {
        m_hooksCell = s.cellIndex;
        m_cellHooks.clear();
        m_hooksDirty = true;
    }
}

void RunTab::showCellHooks()
{
    m_hooksDirty = false;
    auto *layout = static_cast<QHBoxLayout *>(m_hooksRow->layout());
    while (layout->count() > 1) { // the trailing stretch stays
        QLayoutItem *item = layout->takeAt(0);
        delete item->widget();
        delete item;
    }
    int at = 0;
    auto add = [&](QWidget *w) { layout->insertWidget(at++, w); };
    if (m_cellHooks.isEmpty()) {
        auto *none = new QLabel(m_hooksCell >= 0 ? tr("none called yet") : tr("—"));
        none->setObjectName(QStringLiteral("cellHookNone"));
        add(none);
        return;
    }
    const int iconSize = m_hooksRow->fontMetrics().height();
    for (const HookOutcome &o : std::as_const(m_cellHooks)) {
        const HookSeverity severity = hookSeverity(o);
        const QString tip = hookOutcomeToolTip(o);
        auto *icon = new QLabel;
        icon->setPixmap(hookSeverityIcon(severity).pixmap(iconSize, iconSize));
        icon->setToolTip(tip);
        auto *text = new QLabel(QStringLiteral("%1 %2").arg(hookKindName(o.hook), hookVerdictText(o)));
        text->setObjectName(QStringLiteral("cellHook"));
        text->setProperty("severity", hookSeverityName(severity));
        text->setToolTip(tip);
        add(icon);
        add(text);
    }
}

void RunTab::chooseOutDir()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Results folder"), m_outDirEdit->text());
    if (!dir.isEmpty())
        m_outDirEdit->setText(dir);
}

} // namespace sb::ui
