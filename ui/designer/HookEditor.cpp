#include "designer/HookEditor.h"
#include "designer/SpinBoxes.h"
#include "hooks/HookPresets.h"
#include "style/Theme.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace sb::ui {

HookEditor::HookEditor(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildReset());
    layout->addWidget(buildProfiler());
}

QWidget *HookEditor::buildReset()
{
    m_reset = new QGroupBox(tr("Reset KV/prefix cache before each cell"));
    m_reset->setCheckable(true);
    m_reset->setObjectName(QStringLiteral("resetGroup"));
    auto *form = new QFormLayout(m_reset);
    form->setVerticalSpacing(2);
    m_resetHow = new QComboBox;
    m_resetHow->setObjectName(QStringLiteral("resetHow"));
    m_resetHow->addItem(tr("Reset route"), false);
    m_resetHow->addItem(tr("Restart server"), true);
    m_resetHow->setToolTip(tr("Reset route: call the flavor's cache-reset route (below). Restart server (launched servers "
                              "only): a restart stops the server SweepBench launched, starts it again and waits until it is ready: "
                              "the only clean cache for servers without a reset route (stock trtllm-serve)"));
    m_resetPath = new QLineEdit;
    m_resetPath->setObjectName(QStringLiteral("resetPath"));
    m_resetPath->setToolTip(tr("Relative path on the server's origin; empty = the flavor preset shown in grey"));
    m_placement = new QComboBox;
    m_placement->setObjectName(QStringLiteral("resetPlacement"));
    for (auto p : {ResetPlacement::BeforeWarmup, ResetPlacement::AfterWarmup, ResetPlacement::Both})
        m_placement->addItem(toString(p), int(p));
    m_placement->setToolTip(tr("A warmup refills the prefix cache: reset after it (or both) for cold-cache numbers"));
    m_resetTimeout = secondsBox();
    m_resetTimeout->setObjectName(QStringLiteral("resetTimeout"));
    m_retryBudget = secondsBox();
    m_retryBudget->setObjectName(QStringLiteral("resetRetryBudget"));
    m_retryBudget->setToolTip(tr("Busy answers (vLLM success:false, SGLang 400, 409/423/429/503) are retried with backoff within this budget"));

    auto *presetButton = new QToolButton;
    presetButton->setText(tr("Fill preset"));
    presetButton->setToolTip(tr("Write the flavor's preset paths into the fields"));
    connect(presetButton, &QToolButton::clicked, this, &HookEditor::fillPresetPaths);
    m_resetPathRow = new QWidget;
    auto *pathLayout = new QHBoxLayout(m_resetPathRow);
    pathLayout->setContentsMargins(0, 0, 0, 0);
    pathLayout->addWidget(m_resetPath, 1);
    pathLayout->addWidget(presetButton);

    form->addRow(tr("How"), FieldErrors::pad(m_resetHow));
    form->addRow(tr("Path"), m_errors.bind(QStringLiteral("reset_kv_cache.path"), m_resetPathRow));
    form->addRow(tr("Placement"), m_errors.bind(QStringLiteral("reset_kv_cache.placement"), m_placement));
    form->addRow(tr("Timeout"), m_errors.bind(QStringLiteral("reset_kv_cache.timeout_seconds"), m_resetTimeout));
    form->addRow(tr("Retry budget"), m_errors.bind(QStringLiteral("reset_kv_cache.max_retry_seconds"), m_retryBudget));
    auto *general = FieldErrors::messageLine();
    form->addRow(general);
    m_errors.bindLabel(QStringLiteral("reset_kv_cache"), general);

    connect(m_reset, &QGroupBox::toggled, this, [this] { if (!m_loading) Q_EMIT edited(); });
    connect(m_resetPath, &QLineEdit::textEdited, this, [this] { Q_EMIT edited(); });
    connect(m_placement, &QComboBox::activated, this, [this] { Q_EMIT edited(); });
    connect(m_resetHow, &QComboBox::activated, this, [this] {
        showResetHow();
        Q_EMIT edited();
    });
    for (auto *box : {m_resetTimeout, m_retryBudget})
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            if (m_loading)
                return;
            m_presetSource.reset.timeoutS = m_resetTimeout->value(); // SGLang's preset path depends on it
            refreshPresets(m_presetSource);
            Q_EMIT edited();
        });
    return m_reset;
}

QWidget *HookEditor::buildProfiler()
{
    m_profiler = new QGroupBox(tr("Profile each measured phase"));
    m_profiler->setCheckable(true);
    m_profiler->setObjectName(QStringLiteral("profilerGroup"));
    auto *form = new QFormLayout(m_profiler);
    form->setVerticalSpacing(2);
    m_startPath = new QLineEdit;
    m_startPath->setObjectName(QStringLiteral("profilerStartPath"));
    m_stopPath = new QLineEdit;
    m_stopPath->setObjectName(QStringLiteral("profilerStopPath"));
    m_startTimeout = secondsBox();
    m_startTimeout->setObjectName(QStringLiteral("profilerTimeout"));
    m_stopTimeout = secondsBox();
    m_stopTimeout->setObjectName(QStringLiteral("profilerStopTimeout"));
    m_stopTimeout->setToolTip(tr("vLLM's stop_profile can block for minutes while traces are written"));

    m_body = new QPlainTextEdit;
    m_body->setObjectName(QStringLiteral("profilerStartBody"));
    m_body->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_body->setPlaceholderText(QStringLiteral("{\"num_steps\": 20, \"activities\": [\"CPU\", \"GPU\"]}"));
    m_body->setToolTip(tr("Optional JSON object sent to the start route (SGLang, trtllm-serve); empty = no body"));
    m_body->setFixedHeight(m_body->fontMetrics().lineSpacing() * 5 + 12);
    // One reserved line (FieldErrors.h): a JSON error appearing while typing moves nothing.
    m_bodyErrorLabel = FieldErrors::messageLine();
    m_bodyErrorLabel->setObjectName(QStringLiteral("startBodyError"));
    m_bodyErrorLabel->setStyleSheet(QStringLiteral("color: %1;").arg(errorColor().name()));
    auto *bodyBox = new QWidget;
    auto *bodyLayout = new QVBoxLayout(bodyBox);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    bodyLayout->setSpacing(2);
    bodyLayout->addWidget(new FieldFrame(m_body));
    bodyLayout->addWidget(m_bodyErrorLabel);

    m_traceDir = new QLineEdit;
    m_traceDir->setObjectName(QStringLiteral("traceDir"));
    m_traceDir->setPlaceholderText(tr("folder the server writes traces to (listed after each window)"));
    auto *browse = new QToolButton;
    browse->setIcon(themedIcon(QStringLiteral("folder")));
    browse->setToolTip(tr("Choose the trace folder"));
    connect(browse, &QToolButton::clicked, this, &HookEditor::pickTraceDir);
    auto *traceRow = new QWidget;
    auto *traceLayout = new QHBoxLayout(traceRow);
    traceLayout->setContentsMargins(0, 0, 0, 0);
    traceLayout->addWidget(m_traceDir, 1);
    traceLayout->addWidget(browse);

    form->addRow(tr("Start path"), m_errors.bind(QStringLiteral("server_profiler.start_path"), m_startPath));
    form->addRow(tr("Stop path"), m_errors.bind(QStringLiteral("server_profiler.stop_path"), m_stopPath));
    form->addRow(tr("Start timeout"), m_errors.bind(QStringLiteral("server_profiler.timeout_seconds"), m_startTimeout));
    form->addRow(tr("Stop timeout"), m_errors.bind(QStringLiteral("server_profiler.stop_timeout_seconds"), m_stopTimeout));
    form->addRow(tr("Start body"), m_errors.bind(QStringLiteral("server_profiler.start_body"), bodyBox));
    form->addRow(tr("Trace folder"), m_errors.bind(QStringLiteral("server_profiler.trace_dir"), traceRow));
    auto *general = FieldErrors::messageLine();
    form->addRow(general);
    m_errors.bindLabel(QStringLiteral("server_profiler"), general);

    connect(m_profiler, &QGroupBox::toggled, this, [this] { if (!m_loading) Q_EMIT edited(); });
    for (auto *edit : {m_startPath, m_stopPath, m_traceDir})
        connect(edit, &QLineEdit::textEdited, this, [this] { Q_EMIT edited(); });
    for (auto *box : {m_startTimeout, m_stopTimeout})
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] { if (!m_loading) Q_EMIT edited(); });
    connect(m_body, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading)
            return;
        validateBody();
        Q_EMIT edited();
    });
    return m_profiler;
}

void HookEditor::showResetHow()
{
    // A restart calls no route: the route's path and its busy-retry budget do not apply.
    const bool route = !m_resetHow->currentData().toBool();
    m_resetPathRow->setEnabled(route);
    m_retryBudget->setEnabled(route);
}

void HookEditor::validateBody()
{
    const QByteArray text = m_body->toPlainText().toUtf8();
    m_bodyError.clear();
    if (text.trimmed().isEmpty()) {
        m_lastValidBody.reset();
    } else {
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &err);
        if (err.error != QJsonParseError::NoError) {
            // Turn the byte offset into line:column, which is what a user can find.
            const QByteArray before = text.left(err.offset);
            const int line = int(before.count('\n')) + 1;
            const int column = int(before.size() - before.lastIndexOf('\n'));
            m_bodyError = tr("✗ invalid JSON at line %1, column %2: %3").arg(line).arg(column).arg(err.errorString());
        } else if (!doc.isObject()) {
            m_bodyError = tr("✗ expected a JSON object ({...})");
        } else {
            m_lastValidBody = doc.object();
        }
    }
    m_bodyErrorLabel->setText(m_bodyError);
    m_bodyErrorLabel->setToolTip(m_bodyError);
    if (auto *frame = qobject_cast<FieldFrame *>(m_body->parentWidget()))
        frame->setState(m_bodyError.isEmpty() ? QString() : QStringLiteral("error"));
}

void HookEditor::setServer(const ServerSpec &s)
{
    m_loading = true;
    m_presetSource = s;
    m_reset->setChecked(s.reset.enabled);
    m_resetHow->setCurrentIndex(s.reset.restart ? 1 : 0);
    showResetHow();
    m_resetPath->setText(s.reset.path);
    m_placement->setCurrentIndex(m_placement->findData(int(s.reset.placement)));
    m_resetTimeout->setValue(s.reset.timeoutS);
    m_retryBudget->setValue(s.reset.maxRetryS);
    m_profiler->setChecked(s.profiler.enabled);
    m_startPath->setText(s.profiler.startPath);
    m_stopPath->setText(s.profiler.stopPath);
    m_startTimeout->setValue(s.profiler.timeoutS);
    m_stopTimeout->setValue(s.profiler.stopTimeoutS);
    m_body->setPlainText(s.profiler.startBody
                             ? QString::fromUtf8(QJsonDocument(*s.profiler.startBody).toJson(QJsonDocument::Indented)).trimmed()
                             : QString());
    m_traceDir->setText(s.profiler.traceDir);
    validateBody();
    refreshPresets(s);
    m_loading = false;
}

void HookEditor::refreshPresets(const ServerSpec &server)
{
    m_presetSource = server;
    ServerSpec preset = server;
    preset.reset.path.clear();
    preset.reset.timeoutS = m_resetTimeout->value();
    preset.profiler.startPath.clear();
    preset.profiler.stopPath.clear();
    m_resetPath->setPlaceholderText(effectiveResetPath(preset)
                                    + (isSlotEraseReset(preset) ? tr("  (preset: erases every slot listed there)") : tr("  (preset)")));
    m_startPath->setPlaceholderText(effectiveProfilerStartPath(preset) + tr("  (preset)"));
    m_stopPath->setPlaceholderText(effectiveProfilerStopPath(preset) + tr("  (preset)"));
}

void HookEditor::fillPresetPaths()
{
    ServerSpec preset = m_presetSource;
    preset.reset.path.clear();
    preset.reset.timeoutS = m_resetTimeout->value();
    preset.profiler.startPath.clear();
    preset.profiler.stopPath.clear();
    m_resetPath->setText(effectiveResetPath(preset));
    m_startPath->setText(effectiveProfilerStartPath(preset));
    m_stopPath->setText(effectiveProfilerStopPath(preset));
    Q_EMIT edited();
}

void HookEditor::pickTraceDir()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Trace folder"), m_traceDir->text());
    if (dir.isEmpty())
        return;
    m_traceDir->setText(dir);
    Q_EMIT edited();
}

void HookEditor::applyTo(ServerSpec &s) const
{
    s.reset.enabled = m_reset->isChecked();
    s.reset.restart = m_resetHow->currentData().toBool();
    s.reset.path = m_resetPath->text().trimmed();
    s.reset.placement = ResetPlacement(m_placement->currentData().toInt());
    s.reset.timeoutS = m_resetTimeout->value();
    s.reset.maxRetryS = m_retryBudget->value();
    s.profiler.enabled = m_profiler->isChecked();
    s.profiler.startPath = m_startPath->text().trimmed();
    s.profiler.stopPath = m_stopPath->text().trimmed();
    s.profiler.timeoutS = m_startTimeout->value();
    s.profiler.stopTimeoutS = m_stopTimeout->value();
    s.profiler.startBody = m_lastValidBody;
    s.profiler.traceDir = m_traceDir->text().trimmed();
}

} // namespace sb::ui
