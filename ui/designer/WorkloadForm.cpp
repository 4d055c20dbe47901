#include "designer/WorkloadForm.h"
#include "designer/RateSweepEditor.h"
#include "results/SweepAxis.h"
#include "designer/ConcurrencyEditor.h"
#include "designer/DatasetEditor.h"
#include "designer/ImagesEditor.h"
#include "designer/LengthEditor.h"
#include "designer/SessionEditor.h"
#include "designer/SweepRunsEditor.h"
#include "designer/TelemetryEditor.h"
#include "engine/CalibrationReport.h"
#include "designer/WorkloadPreview.h"
#include "report/DisplayText.h"
#include "workload/Dataset.h"
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QTimer>
#include <QCheckBox>
#include <algorithm>
#include "designer/StackFit.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sb::ui {

namespace {
// Ranges are wide on purpose, negatives included: out-of-range values are the validator's to
// report, with the same words as the CLI, instead of being silently clamped by the spin box (a
// file saying warmup_requests: -1 must not open as a valid 0).
constexpr int kIntSpan = 10'000'000;
QSpinBox *intBox(const char *name, int max = kIntSpan)
{
    auto *box = new QSpinBox;
    box->setObjectName(QString::fromLatin1(name));
    box->setRange(-kIntSpan, max);
    box->setAccelerated(true);
    return box;
}
QDoubleSpinBox *doubleBox(const char *name, const QString &suffix, double max = 1e7)
{
    auto *box = new QDoubleSpinBox;
    box->setObjectName(QString::fromLatin1(name));
    box->setRange(-max, max);
    box->setDecimals(2);
    box->setSuffix(suffix);
    box->setAccelerated(true);
    return box;
}
// An optional SLO: 0 shows "off" and means no limit.
QDoubleSpinBox *sloBox(const char *name)
{
    QDoubleSpinBox *box = doubleBox(name, QStringLiteral(" ms"));
    box->setMinimum(0); // the special text shows at the minimum (a negative SLO cannot open)
    box->setSpecialValueText(QObject::tr("off"));
    return box;
}
} // namespace

WorkloadForm::WorkloadForm(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildSweep());
    layout->addWidget(buildWorkload());
    layout->addWidget(buildPreview());
    layout->addWidget(buildSlo());
    layout->addWidget(buildTelemetry());
    layout->addStretch(1);
    updateEnabled();
}

QWidget *WorkloadForm::buildSweep()
{
    auto *group = new QGroupBox(tr("Sweep"));
    auto *form = new QFormLayout(group);
    form->setVerticalSpacing(2); // each field's reserved message line is most of the spacing
    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("sweepName"));
    m_description = new QLineEdit;
    m_description->setObjectName(QStringLiteral("sweepDescription"));
    m_concurrency = new ConcurrencyEditor;
    m_rates = new RateSweepEditor;
    m_axis = new QComboBox;
    m_axis->setObjectName(QStringLiteral("sweepAxis"));
    m_axis->addItem(tr("Concurrency (closed loop)"), int(SweepAxis::Concurrency));
    m_axis->addItem(tr("Request rate (open loop)"), int(SweepAxis::RequestRate));
    m_axis->setToolTip(tr("Closed loop keeps C requests in flight; open loop sends requests at a rate, whatever the server's answers do"));
    m_axisStack = new QStackedWidget;
    m_axisStack->addWidget(m_concurrency);
    m_axisStack->addWidget(m_rates);
    m_axisStack->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_policy = new QComboBox;
    m_policy->setObjectName(QStringLiteral("onHookFailure"));
    for (auto p : {HookFailurePolicy::SkipCell, HookFailurePolicy::Abort, HookFailurePolicy::Continue})
        m_policy->addItem(toString(p), int(p));
    m_policy->setToolTip(tr("What a failed reset or profiler start does: skip that cell, abort the sweep, or measure anyway"));
    form->addRow(tr("Name"), m_errors.bind(QStringLiteral("name"), m_name));
    form->addRow(tr("Description"), m_errors.bind(QStringLiteral("description"), m_description));
    form->addRow(tr("Sweep over"), FieldErrors::pad(m_axis));
    form->addRow(tr("Points"), m_errors.bind(QStringLiteral("sweep"), m_axisStack));
    m_runs = new SweepRunsEditor(this);
    m_runs->addRunRows(form, m_errors);
    form->addRow(tr("On hook failure"), m_errors.bind(QStringLiteral("on_hook_failure"), m_policy));

    for (auto *edit : {m_name, m_description})
        connect(edit, &QLineEdit::textEdited, this, &WorkloadForm::changed);
    connect(m_concurrency, &ConcurrencyEditor::edited, this, &WorkloadForm::changed);
    connect(m_rates, &RateSweepEditor::edited, this, &WorkloadForm::changed);
    connect(m_axis, &QComboBox::activated, this, [this](int index) {
        m_axisStack->setCurrentIndex(index);
        fitStackToCurrent(m_axisStack);
        changed();
    });
    connect(m_policy, &QComboBox::activated, this, &WorkloadForm::changed);
    connect(m_runs, &SweepRunsEditor::edited, this, &WorkloadForm::changed);
    return group;
}

QWidget *WorkloadForm::buildWorkload()
{
    auto *group = new QGroupBox(tr("Workload"));
    auto *form = new QFormLayout(group);
    form->setVerticalSpacing(2); // each field's reserved message line is most of the spacing
    m_streaming = new QCheckBox(tr("Stream responses"));
    m_streaming->setObjectName(QStringLiteral("streaming"));
    m_streaming->setToolTip(tr("Needed for TTFT and ITL"));
    m_dataset = new DatasetEditor;
    m_input = new LengthEditor(QStringLiteral("inputTokens"));
    m_output = new LengthEditor(QStringLiteral("outputTokens"));
    m_seed = intBox("workloadSeed");
    m_seed->setToolTip(tr("workload.seed: the per-request length draws and images; the same seed sends the same lengths and images in the same order"));
    m_ignoreEos = new QCheckBox(tr("Ignore EOS"));
    m_ignoreEos->setObjectName(QStringLiteral("ignoreEos"));
    m_ignoreEos->setToolTip(tr("Keep generating to max_tokens so output lengths are fixed"));
    m_calibrate = new QCheckBox(tr("Size prompts on the server's tokenizer"));
    m_calibrate->setObjectName(QStringLiteral("calibratePrompts"));
    m_calibrate->setToolTip(tr("workload.calibrate_prompts: probe each model's tokenizer (/tokenize, or usage.prompt_tokens) before the "
                               "sweep so synthetic prompts are exactly the input length; off sends one word per token, which a "
                               "real tokenizer counts differently"));
    m_lengthMode = new QComboBox;
    m_lengthMode->setObjectName(QStringLiteral("lengthMode"));
    m_lengthMode->addItems({tr("Requests per cell"), tr("Duration per cell")});
    m_requests = intBox("requestsPerCell");
    m_requests->setMinimum(0); // the special text shows at the minimum: 0 = the default
    m_requests->setSpecialValueText(tr("default (100)"));
    m_requests->setSuffix(tr(" requests"));
    m_duration = doubleBox("durationS", QStringLiteral(" s"));
    m_lengthStack = new QStackedWidget;
    m_lengthStack->addWidget(m_requests);
    m_lengthStack->addWidget(m_duration);
    m_lengthStack->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_warmup = intBox("warmupRequests");
    m_warmup->setSuffix(tr(" requests"));
    m_requestTimeout = doubleBox("requestTimeoutS", QStringLiteral(" s"));
    m_prompts = new QComboBox;
    m_prompts->setObjectName(QStringLiteral("prompts"));
    m_prompts->addItem(tr("unique per request"), int(PromptMode::Unique));
    m_prompts->addItem(tr("shared prefix"), int(PromptMode::SharedPrefix));
    m_prompts->setToolTip(tr("Unique prompts keep prefix caches from inflating throughput; a shared prefix measures cache hits on purpose"));
    m_sharedPrefix = intBox("sharedPrefixTokens");
    m_sharedPrefix->setSuffix(tr(" tokens"));
    m_prefixCount = intBox("sharedPrefixCount");
    m_prefixCount->setToolTip(tr("Distinct prefixes (one per agent or tenant); each request or session uses one, drawn from the seed"));
    m_sessions = new SessionEditor(this);

    form->addRow(QString(), m_errors.bind(QStringLiteral("workload.streaming"), m_streaming));
    QWidget *datasetBox = m_errors.bind(QStringLiteral("workload.dataset"), m_dataset);
    form->addRow(tr("Prompts from"), datasetBox);
    form->addRow(tr("Input length"), m_errors.bind(QStringLiteral("workload.input_tokens"), m_input));
    form->addRow(tr("Output length"), m_errors.bind(QStringLiteral("workload.output_tokens"), m_output));
    form->addRow(tr("Length seed"), m_errors.bind(QStringLiteral("workload.seed"), m_seed));
    m_images = new ImagesEditor;
    form->addRow(tr("Images"), m_errors.bind(QStringLiteral("workload.images"), m_images));
    connect(m_images, &ImagesEditor::edited, this, &WorkloadForm::changed);
    form->addRow(QString(), m_errors.bind(QStringLiteral("workload.ignore_eos"), m_ignoreEos));
    form->addRow(QString(), m_errors.bind(QStringLiteral("workload.calibrate_prompts"), m_calibrate));
    form->addRow(tr("Cell length"), FieldErrors::pad(m_lengthMode));
    QWidget *lengthBox = m_errors.bind(QStringLiteral("workload.requests_per_cell"), m_lengthStack);
    m_errors.bindLabel(QStringLiteral("workload.duration_s"), lengthBox->findChild<QLabel *>(), m_duration);
    m_errors.bindLabel(QStringLiteral("workload.duration_seconds"), lengthBox->findChild<QLabel *>(), m_duration);
    // The value's own label says which of the two it is (no unlabelled fields).
    m_lengthLabel = new QLabel(tr("Requests per cell"));
    m_lengthLabel->setObjectName(QStringLiteral("cellLengthLabel"));
    m_lengthLabel->setBuddy(m_lengthStack);
    form->addRow(m_lengthLabel, lengthBox);
    form->addRow(tr("Warmup"), m_errors.bind(QStringLiteral("workload.warmup_requests"), m_warmup));
    QWidget *timeoutBox = m_errors.bind(QStringLiteral("workload.request_timeout_s"), m_requestTimeout);
    m_errors.bindLabel(QStringLiteral("workload.request_timeout_seconds"), timeoutBox->findChild<QLabel *>(), m_requestTimeout);
    form->addRow(tr("Request timeout"), timeoutBox);
    form->addRow(tr("Prompts"), m_errors.bind(QStringLiteral("workload.prompts"), m_prompts));
    form->addRow(tr("Shared prefix"), m_errors.bind(QStringLiteral("workload.shared_prefix_tokens"), m_sharedPrefix));
    form->addRow(tr("Prefixes"), m_errors.bind(QStringLiteral("workload.shared_prefix_count"), m_prefixCount));
    m_sessions->addRows(form, m_errors);
    auto *general = FieldErrors::messageLine();
    form->addRow(general);
    m_errors.bindLabel(QStringLiteral("workload"), general);

    for (auto *check : {m_streaming, m_ignoreEos, m_calibrate})
        connect(check, &QCheckBox::toggled, this, &WorkloadForm::changed);
    connect(m_sessions, &SessionEditor::edited, this, &WorkloadForm::changed);
    for (auto *box : {m_seed, m_requests, m_warmup, m_sharedPrefix, m_prefixCount})
        connect(box, &QSpinBox::valueChanged, this, &WorkloadForm::changed);
    for (auto *lengths : {m_input, m_output})
        connect(lengths, &LengthEditor::edited, this, &WorkloadForm::changed);
    connect(m_dataset, &DatasetEditor::edited, this, &WorkloadForm::changed);
    connect(m_dataset, &DatasetEditor::loadFinished, this, [this] {
        updatePreview();
        Q_EMIT edited(); // the dataset's error (or its end) is a validation change
    });
    for (auto *box : {m_duration, m_requestTimeout})
        connect(box, &QDoubleSpinBox::valueChanged, this, &WorkloadForm::changed);
    connect(m_prompts, &QComboBox::activated, this, [this] {
        // The validator rejects a shared prefix with unique prompts: clear it when switching.
        if (PromptMode(m_prompts->currentData().toInt()) == PromptMode::Unique) {
            m_loading = true;
            m_sharedPrefix->setValue(0);
            m_prefixCount->setValue(1);
            m_loading = false;
        }
        changed();
    });
    connect(m_lengthMode, &QComboBox::activated, this, [this](int mode) {
        showLengthMode(mode);
        // Requests and duration exclude each other: switching clears the one left behind.
        m_loading = true;
        if (mode == 0)
            m_duration->setValue(0);
        else
            m_requests->setValue(0);
        m_loading = false;
        changed();
    });
    return group;
}

QWidget *WorkloadForm::buildSlo()
{
    auto *group = new QGroupBox(tr("Service-level objectives (optional, for goodput)"));
    auto *form = new QFormLayout(group);
    form->setVerticalSpacing(2); // each field's reserved message line is most of the spacing
    m_sloTtft = sloBox("sloTtft");
    m_sloItl = sloBox("sloItl");
    m_sloLatency = sloBox("sloLatency");
    form->addRow(tr("TTFT ≤"), m_errors.bind(QStringLiteral("workload.slo.time_to_first_token"), m_sloTtft));
    form->addRow(tr("ITL ≤"), m_errors.bind(QStringLiteral("workload.slo.inter_token_latency"), m_sloItl));
    form->addRow(tr("Latency ≤"), m_errors.bind(QStringLiteral("workload.slo.request_latency"), m_sloLatency));
    auto *general = FieldErrors::messageLine();
    form->addRow(general);
    m_errors.bindLabel(QStringLiteral("workload.slo"), general);
    m_runs->addSearchRows(form, m_errors);
    for (auto *box : {m_sloTtft, m_sloItl, m_sloLatency})
        connect(box, &QDoubleSpinBox::valueChanged, this, &WorkloadForm::changed);
    return group;
}

QWidget *WorkloadForm::buildTelemetry()
{
    auto *group = new QGroupBox(tr("GPU telemetry and cost (optional)"));
    group->setObjectName(QStringLiteral("telemetryGroup"));
    auto *form = new QFormLayout(group);
    form->setVerticalSpacing(2); // each field's reserved message line is most of the spacing
    m_telemetry = new TelemetryEditor(this);
    m_telemetry->addRows(form, m_errors);
    connect(m_telemetry, &TelemetryEditor::edited, this, &WorkloadForm::changed);
    return group;
}

void WorkloadForm::showLengthMode(int mode)
{
    m_lengthStack->setCurrentIndex(mode);
    fitStackToCurrent(m_lengthStack);
    m_lengthLabel->setText(mode == 0 ? tr("Requests per cell") : tr("Duration per cell"));
}

QWidget *WorkloadForm::buildPreview()
{
    auto *group = new QGroupBox(tr("Preview"));
    group->setObjectName(QStringLiteral("workloadPreview"));
    auto *layout = new QVBoxLayout(group);
    m_inputHist = new LengthHistogramView(tr("Input lengths (first 1000 requests)"));
    m_inputHist->setObjectName(QStringLiteral("inputHistogram"));
    m_outputHist = new LengthHistogramView(tr("Output lengths (max_tokens)"));
    m_outputHist->setObjectName(QStringLiteral("outputHistogram"));
    m_datasetSummary = new QLabel;
    m_datasetSummary->setObjectName(QStringLiteral("datasetSummary"));
    m_datasetSummary->setWordWrap(true);
    m_datasetSummary->setTextFormat(Qt::PlainText);
    m_cacheShape = new QLabel;
    m_cacheShape->setObjectName(QStringLiteral("cacheShape"));
    m_cacheShape->setWordWrap(true);
    m_cacheShape->setTextFormat(Qt::PlainText);
    m_promptPreview = new QPlainTextEdit;
    m_promptPreview->setObjectName(QStringLiteral("promptPreview"));
    m_promptPreview->setReadOnly(true);
    m_promptPreview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_promptPreview->setFixedHeight(m_promptPreview->fontMetrics().lineSpacing() * 4 + 12);
    m_promptPreview->setToolTip(tr("The first measured request's prompt, as the engine builds it (synthetic prompts: before calibration to the server's tokenizer)"));
    layout->addWidget(m_inputHist);
    layout->addWidget(m_outputHist);
    layout->addWidget(m_datasetSummary);
    layout->addWidget(m_cacheShape);
    layout->addWidget(new QLabel(tr("First prompt")));
    layout->addWidget(m_promptPreview);
    // Redraws are throttled: a held-down spin arrow does not resample on every step.
    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(150);
    connect(m_previewTimer, &QTimer::timeout, this, &WorkloadForm::updatePreview);
    return group;
}

void WorkloadForm::updatePreview()
{
    m_previewTimer->stop();
    constexpr int kSamples = 1000;
    constexpr int kBins = 24;
    SweepSpec spec = m_previewBase;
    applyTo(spec);
    const std::shared_ptr<const Dataset> dataset = m_dataset->loaded();
    const bool waiting = spec.workload.dataset && !dataset;
    const QString why = waiting ? (m_dataset->loadError().isEmpty() ? tr("reading the dataset…") : tr("the dataset did not load"))
                                : tr("fix the lengths to see them");
    const QList<int> in = plannedLengths(spec.workload, true, kSamples, dataset);
    m_inputHist->setHistogram(histogramOf(in, kBins),
                              !in.isEmpty() ? QString() : spec.workload.dataset && dataset ? tr("text prompts: the server's tokenizer counts them") : why);
    const QList<int> out = plannedLengths(spec.workload, false, kSamples, dataset);
    m_outputHist->setHistogram(histogramOf(out, kBins), out.isEmpty() ? why : QString());
    m_datasetSummary->setText(dataset ? displaySafe(dataset->describe(), DisplayLines::Single) : spec.workload.dataset ? displaySafe(m_dataset->loadError(), DisplayLines::Single) : QString());
    m_datasetSummary->setVisible(spec.workload.dataset.has_value());
    const QString cache = cacheShapeLine(spec.workload);
    m_cacheShape->setText(cache);
    m_cacheShape->setVisible(!cache.isEmpty());
    const QString prompt = firstPromptText(spec, dataset, 600);
    m_promptPreview->setPlainText(prompt.isEmpty() ? why : displaySafe(prompt)); // dataset text: shown, not obeyed
}

QList<SpecDiagnostic> WorkloadForm::inFormTerms(QList<SpecDiagnostic> diags) const
{
    // With the rate axis chosen and no rate entered, the spec has no open-loop points and the
    // validator asks for concurrency levels: the user is missing rates, so say that.
    if (m_axis->currentIndex() == 1)
        for (SpecDiagnostic &d : diags)
            if (d.keyPath == QLatin1String("sweep.concurrency") && m_rates->openLoop().rates.isEmpty()) {
                d.keyPath = QStringLiteral("sweep.request_rate");
                d.message = tr("expected at least one request rate (requests/s), e.g. 2, 8, 16");
            }
    return diags;
}

QList<SpecDiagnostic> WorkloadForm::localDiagnostics() const
{
    QList<SpecDiagnostic> out;
    if (m_dataset->usesDataset() && !m_dataset->loadError().isEmpty()) {
        SpecDiagnostic d;
        d.keyPath = QStringLiteral("workload.dataset.path");
        d.message = displaySafe(m_dataset->loadError(), DisplayLines::Single); // FILE:LINE: what
        out << d;
    }
    for (auto [editor, key] : {std::pair{m_input, "workload.input_tokens"}, std::pair{m_output, "workload.output_tokens"}})
        if (!editor->parseError().isEmpty()) {
            SpecDiagnostic d;
            d.keyPath = QString::fromLatin1(key);
            d.message = editor->parseError();
            out << d;
        }
    if (!m_sessions->parseError().isEmpty()) {
        SpecDiagnostic d;
        d.keyPath = QStringLiteral("workload.sessions");
        d.message = m_sessions->parseError();
        out << d;
    }
    return out;
}

void WorkloadForm::changed()
{
    updateEnabled();
    if (m_previewTimer)
        m_previewTimer->start();
    if (!m_loading)
        Q_EMIT edited();
}

void WorkloadForm::updateEnabled()
{
    // A dataset's prompts have their own lengths (mooncake: input_length; text: as written).
    m_input->setEnabled(!m_dataset->usesDataset());
    // With sessions a dataset is read as conversations, which give the turns (Dataset.h).
    m_sessions->setTurnsFromDataset(m_dataset->usesDataset());
    m_dataset->setAsSessions(m_sessions->enabledBox()->isChecked());
    m_sharedPrefix->setEnabled(PromptMode(m_prompts->currentData().toInt()) == PromptMode::SharedPrefix);
    m_prefixCount->setEnabled(m_sharedPrefix->isEnabled());
}

void WorkloadForm::setSpec(const SweepSpec &spec)
{
    m_loading = true;
    const WorkloadSpec &w = spec.workload;
    m_name->setText(spec.name);
    m_description->setText(spec.description);
    m_concurrency->setLevels(spec.concurrency);
    m_rates->setOpenLoop(spec.openLoop);
    const int axis = spec.openLoop.active() ? 1 : 0;
    m_axis->setCurrentIndex(axis);
    m_axisStack->setCurrentIndex(axis);
    fitStackToCurrent(m_axisStack);
    m_policy->setCurrentIndex(m_policy->findData(int(spec.onHookFailure)));
    m_runs->setSpec(spec);
    m_telemetry->setSpec(spec);
    m_calibrate->setChecked(w.calibratePrompts);
    m_streaming->setChecked(w.streaming);
    m_input->setLengths(w.inputTokens, w.inputLengths);
    m_output->setLengths(w.outputTokens, w.outputLengths);
    m_seed->setValue(int(std::clamp<qint64>(w.seed, -kIntSpan, kIntSpan)));
    m_dataset->setAsSessions(w.sessions.has_value()); // before the dataset is read, so it is read once
    m_dataset->setDataset(w.dataset, spec.sourcePath);
    m_images->setImages(w.images);
    m_previewBase = spec;
    m_ignoreEos->setChecked(w.ignoreEos);
    const int mode = w.durationS > 0 ? 1 : 0;
    m_lengthMode->setCurrentIndex(mode);
    showLengthMode(mode);
    m_requests->setValue(w.requestsPerCell);
    m_duration->setValue(w.durationS);
    m_warmup->setValue(w.warmupRequests);
    m_requestTimeout->setValue(w.requestTimeoutS);
    m_prompts->setCurrentIndex(m_prompts->findData(int(w.prompts)));
    m_sharedPrefix->setValue(w.sharedPrefixTokens);
    m_prefixCount->setValue(w.sharedPrefixCount);
    m_sessions->setSessions(w.sessions);
    m_sloTtft->setValue(w.slo.ttftMs.value_or(0));
    m_sloItl->setValue(w.slo.itlMs.value_or(0));
    m_sloLatency->setValue(w.slo.latencyMs.value_or(0));
    updateEnabled();
    m_loading = false;
    updatePreview();
}

void WorkloadForm::applyTo(SweepSpec &spec) const
{
    WorkloadSpec &w = spec.workload;
    spec.name = m_name->text().trimmed();
    spec.description = m_description->text();
    // Only the chosen axis is kept (a sweep has one); the other editor keeps its text meanwhile.
    if (m_axis->currentIndex() == 1) {
        spec.concurrency.clear();
        spec.openLoop = m_rates->openLoop();
    } else {
        spec.concurrency = m_concurrency->levels();
        spec.openLoop = OpenLoopSpec();
    }
    spec.onHookFailure = HookFailurePolicy(m_policy->currentData().toInt());
    m_runs->applyTo(spec);
    m_telemetry->applyTo(spec);
    w.calibratePrompts = m_calibrate->isChecked();
    w.streaming = m_streaming->isChecked();
    m_input->applyTo(w.inputTokens, w.inputLengths);
    m_output->applyTo(w.outputTokens, w.outputLengths);
    // The box holds ±10^7; a larger seed from the file stays as it was unless the box is edited.
    const qint64 loadedSeed = m_previewBase.workload.seed;
    w.seed = m_seed->value() == int(std::clamp<qint64>(loadedSeed, -kIntSpan, kIntSpan)) ? loadedSeed : m_seed->value();
    m_dataset->applyTo(w.dataset);
    w.images = m_images->images();
    w.ignoreEos = m_ignoreEos->isChecked();
    w.requestsPerCell = m_requests->value();
    w.durationS = m_duration->value();
    w.warmupRequests = m_warmup->value();
    w.requestTimeoutS = m_requestTimeout->value();
    w.prompts = PromptMode(m_prompts->currentData().toInt());
    w.sharedPrefixTokens = m_sharedPrefix->value();
    w.sharedPrefixCount = m_prefixCount->value();
    m_sessions->applyTo(w.sessions);
    auto opt = [](QDoubleSpinBox *box) { return box->value() > 0 ? std::optional<double>(box->value()) : std::nullopt; };
    w.slo.ttftMs = opt(m_sloTtft);
    w.slo.itlMs = opt(m_sloItl);
    w.slo.latencyMs = opt(m_sloLatency);
}

bool WorkloadForm::hasLocalErrors() const
{
    if (!localDiagnostics().isEmpty())
        return true;
    return m_axis->currentIndex() == 1 ? !m_rates->parseError().isEmpty() : !m_concurrency->parseError().isEmpty();
}

} // namespace sb::ui
