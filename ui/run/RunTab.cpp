#include "run/RunTab.h"
#include "report/DisplayText.h"
#include "text/SweepEstimate.h"
#include "engine/CellVerdict.h"
#include "metrics/MetricCatalogue.h"
#include "run/HookLogModel.h"
#include "run/LiveChart.h"
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
constexpr int kFlushIntervalMs = 100; // at most ~10 redraws a second (issue 5, item 3)

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

    m_title = new QLabel;
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_title->setFont(big);

    m_outDirEdit = new QLineEdit;
    m_outDirEdit->setObjectName(QStringLiteral("outDir"));
    m_outDirEdit->setPlaceholderText(tr("default: ~/SweepBench/results/<sweep>-<time>"));
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
    m_figures = new QLabel;
    m_figures->setObjectName(QStringLiteral("liveFigures"));
    m_figures->setTextFormat(Qt::RichText);
    auto *progress = new QGroupBox(tr("Progress"));
    auto *form = new QFormLayout(progress);
    form->addRow(tr("Sweep"), m_sweepBar);
    form->addRow(QString(), m_sweepLabel);
    form->addRow(tr("Cell"), m_cellBar);
    form->addRow(QString(), m_cellLabel);
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
    auto *logBox = new QGroupBox(tr("Engine log"));
    (new QVBoxLayout(logBox))->addWidget(m_log);

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
    m_title->setText(tr("%1 — %2").arg(spec.name.isEmpty() ? tr("untitled sweep") : spec.name, estimateText(spec)));
}

bool RunTab::start(const SweepSpec &spec, const QString &outDir)
{
    if (isRunning()) {
        Q_EMIT statusMessage(tr("A sweep is already running"));
        return false;
    }
    m_outDir = !outDir.isEmpty() ? outDir : !m_outDirEdit->text().trimmed().isEmpty() ? m_outDirEdit->text().trimmed() : defaultOutDir(spec);
    m_exitCode = -1;
    m_cancelling = false;
    m_pendingSnapshot.reset();
    m_pendingHooks.clear();
    m_pendingLog.clear();
    m_statusCounts.clear();
    m_last = {};
    m_hookLog->clear();
    m_chart->clear();
    m_log->clear();
    m_title->setText(tr("%1 — running").arg(spec.name));

    m_engine = std::make_unique<SweepEngine>(spec, RunOptions{m_outDir, false});
    SweepEngine *engine = m_engine.get();
    // Engine signals arrive queued from its thread; each handler only buffers.
    connect(engine, &SweepEngine::progress, this, [this](const ProgressSnapshot &s) {
        m_pendingSnapshot = s;
        scheduleFlush();
    });
    connect(engine, &SweepEngine::hookCalled, this, [this](const CellKey &cell, const HookOutcome &o) {
        m_pendingHooks.append({cell, o});
        scheduleFlush();
    });
    connect(engine, &SweepEngine::logMessage, this, [this](const QString &line) {
        m_pendingLog.append(displaySafe(line, DisplayLines::Single)); // may quote a server
        scheduleFlush();
    });
    connect(engine, &SweepEngine::cellFinished, this, [this](const CellResult &cell) {
        m_statusCounts[cell.status] += 1;
        // Every finished cell says how it ended in the log, a problem cell with its reason.
        m_pendingLog.append(cellOutcomeLine(cell));
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
        const QString requests = s.requestsTarget > 0 ? tr("%1 / %2 requests").arg(s.requestsDone).arg(s.requestsTarget)
                                                      : tr("%1 requests").arg(s.requestsDone);
        m_cellLabel->setText(tr("#%1 %2 · concurrency %3 · %4 · %5")
                                 .arg(s.cellIndex + 1)
                                 .arg(s.server)
                                 .arg(s.concurrency)
                                 .arg(runPhaseName(s.phase), requests));
        m_figures->setText(tr("<b>%1</b> %2 &nbsp;·&nbsp; %3 avg <b>%4</b> %5 &nbsp;·&nbsp; %6 avg <b>%7</b> %5 &nbsp;·&nbsp; <b>%8</b> in flight")
                               .arg(fmt(s.liveOutputTokensPerS, 0), shortUnit(unit::tokensPerS), metricLabel(tag::ttft),
                                    fmt(s.liveTtftAvgMs, 1), unit::ms, metricLabel(tag::latency), fmt(s.liveLatencyAvgMs, 0))
                               .arg(s.inFlight));
        if (s.phase == RunPhase::Measure)
            m_chart->addSample(m_clock.elapsed() / 1000.0, s.liveOutputTokensPerS, s.inFlight);
    }
    m_chart->flush();

    if (!m_pendingHooks.isEmpty()) {
        QList<HookLogModel::Entry> batch;
        batch.reserve(m_pendingHooks.size());
        for (const auto &[cell, outcome] : std::as_const(m_pendingHooks))
            batch.append({cell.index, cell.server, cell.concurrency, outcome}); // the signal names its cell
        m_pendingHooks.clear();
        const bool atBottom = m_hookView->verticalScrollBar()->value() == m_hookView->verticalScrollBar()->maximum();
        m_hookLog->append(batch);
        if (atBottom)
            m_hookView->scrollToBottom(); // follow the log unless the user scrolled up to read
    }
    if (!m_pendingLog.isEmpty()) {
        m_log->appendPlainText(m_pendingLog.join(QLatin1Char('\n')));
        m_pendingLog.clear();
    }
}

void RunTab::onFinished(int exitCode)
{
    flush();
    m_exitCode = exitCode;
    m_cancelling = false;
    QStringList problems;
    for (auto [status, label] : {std::pair{CellStatus::Degraded, tr("%n degraded", nullptr, m_statusCounts.value(CellStatus::Degraded))},
                                 std::pair{CellStatus::Failed, tr("%n failed", nullptr, m_statusCounts.value(CellStatus::Failed))},
                                 std::pair{CellStatus::Cancelled, tr("%n cancelled", nullptr, m_statusCounts.value(CellStatus::Cancelled))},
                                 std::pair{CellStatus::Skipped, tr("%n skipped", nullptr, m_statusCounts.value(CellStatus::Skipped))}})
        if (m_statusCounts.value(status) > 0)
            problems.append(label);
    // A run that stopped says why right here, not only in the log (e.g. the disk is full).
    const QString why = m_engine ? m_engine->failureMessage() : QString();
    const QString what = exitCode == exitcode::kAllCompleted
                             ? tr("Sweep finished: all cells completed")
                         : exitCode == exitcode::kNotAllCompleted
                             ? tr("Sweep finished: %1 (see the log)").arg(problems.isEmpty() ? tr("some cells did not complete") : problems.join(QStringLiteral(", ")))
                         : exitCode == exitcode::kWriteFailed ? tr("Sweep stopped: results could not be written — %1").arg(why)
                         : why.isEmpty()                      ? tr("The sweep could not start (see the log)")
                                                              : tr("The sweep could not start — %1").arg(why);
    m_sweepLabel->setText(what);
    m_title->setText(what);
    if (exitCode == 0)
        m_sweepBar->setValue(1000);
    setRunning(false);
    Q_EMIT statusMessage(what);
    Q_EMIT runFinished(exitCode, m_outDir);
}

void RunTab::chooseOutDir()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Results folder"), m_outDirEdit->text());
    if (!dir.isEmpty())
        m_outDirEdit->setText(dir);
}

} // namespace sb::ui
