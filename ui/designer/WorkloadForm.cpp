#include "designer/WorkloadForm.h"
#include "designer/RateSweepEditor.h"
#include "results/SweepAxis.h"
#include "designer/ConcurrencyEditor.h"
#include <QCheckBox>
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
    layout->addWidget(buildSlo());
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
    form->addRow(tr("On hook failure"), m_errors.bind(QStringLiteral("on_hook_failure"), m_policy));

    for (auto *edit : {m_name, m_description})
        connect(edit, &QLineEdit::textEdited, this, &WorkloadForm::changed);
    connect(m_concurrency, &ConcurrencyEditor::edited, this, &WorkloadForm::changed);
    connect(m_rates, &RateSweepEditor::edited, this, &WorkloadForm::changed);
    connect(m_axis, &QComboBox::activated, this, [this](int index) {
        m_axisStack->setCurrentIndex(index);
        changed();
    });
    connect(m_policy, &QComboBox::activated, this, &WorkloadForm::changed);
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
    m_inputTokens = intBox("inputTokens");
    m_inputTokens->setSuffix(tr(" tokens"));
    m_outputTokens = intBox("outputTokens");
    m_outputTokens->setSuffix(tr(" tokens"));
    m_ignoreEos = new QCheckBox(tr("Ignore EOS"));
    m_ignoreEos->setObjectName(QStringLiteral("ignoreEos"));
    m_ignoreEos->setToolTip(tr("Keep generating to max_tokens so output lengths are fixed"));
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

    form->addRow(QString(), m_errors.bind(QStringLiteral("workload.streaming"), m_streaming));
    form->addRow(tr("Input length"), m_errors.bind(QStringLiteral("workload.input_tokens"), m_inputTokens));
    form->addRow(tr("Output length"), m_errors.bind(QStringLiteral("workload.output_tokens"), m_outputTokens));
    form->addRow(QString(), m_errors.bind(QStringLiteral("workload.ignore_eos"), m_ignoreEos));
    form->addRow(tr("Cell length"), FieldErrors::pad(m_lengthMode));
    QWidget *lengthBox = m_errors.bind(QStringLiteral("workload.requests_per_cell"), m_lengthStack);
    m_errors.bindLabel(QStringLiteral("workload.duration_s"), lengthBox->findChild<QLabel *>(), m_duration);
    m_errors.bindLabel(QStringLiteral("workload.duration_seconds"), lengthBox->findChild<QLabel *>(), m_duration);
    // The value's own label says which of the two it is (issue 19 item 7: no unlabelled fields).
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
    auto *general = FieldErrors::messageLine();
    form->addRow(general);
    m_errors.bindLabel(QStringLiteral("workload"), general);

    for (auto *check : {m_streaming, m_ignoreEos})
        connect(check, &QCheckBox::toggled, this, &WorkloadForm::changed);
    for (auto *box : {m_inputTokens, m_outputTokens, m_requests, m_warmup, m_sharedPrefix})
        connect(box, &QSpinBox::valueChanged, this, &WorkloadForm::changed);
    for (auto *box : {m_duration, m_requestTimeout})
        connect(box, &QDoubleSpinBox::valueChanged, this, &WorkloadForm::changed);
    connect(m_prompts, &QComboBox::activated, this, [this] {
        // The validator rejects a shared prefix with unique prompts: clear it when switching.
        if (PromptMode(m_prompts->currentData().toInt()) == PromptMode::Unique) {
            m_loading = true;
            m_sharedPrefix->setValue(0);
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
    for (auto *box : {m_sloTtft, m_sloItl, m_sloLatency})
        connect(box, &QDoubleSpinBox::valueChanged, this, &WorkloadForm::changed);
    return group;
}

void WorkloadForm::showLengthMode(int mode)
{
    m_lengthStack->setCurrentIndex(mode);
    m_lengthLabel->setText(mode == 0 ? tr("Requests per cell") : tr("Duration per cell"));
}

void WorkloadForm::changed()
{
    updateEnabled();
    if (!m_loading)
        Q_EMIT edited();
}

void WorkloadForm::updateEnabled()
{
    m_sharedPrefix->setEnabled(PromptMode(m_prompts->currentData().toInt()) == PromptMode::SharedPrefix);
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
    m_policy->setCurrentIndex(m_policy->findData(int(spec.onHookFailure)));
    m_streaming->setChecked(w.streaming);
    m_inputTokens->setValue(w.inputTokens);
    m_outputTokens->setValue(w.outputTokens);
    // A distribution is edited in the YAML: the box shows its mean and is read-only, so an edit
    // here can never be silently overridden by the distribution (spec/WorkloadShapes.h).
    for (auto [box, dist] : {std::pair{m_inputTokens, &w.inputLengths}, std::pair{m_outputTokens, &w.outputLengths}}) {
        // (FieldErrors owns the tooltip; the prefix shows the box holds a mean.)
        box->setEnabled(!*dist);
        box->setPrefix(*dist ? tr("mean ") : QString());
        box->setWhatsThis(*dist ? tr("Drawn per request: %1 (edit it in the YAML)").arg((*dist)->describe()) : QString());
    }
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
    m_sloTtft->setValue(w.slo.ttftMs.value_or(0));
    m_sloItl->setValue(w.slo.itlMs.value_or(0));
    m_sloLatency->setValue(w.slo.latencyMs.value_or(0));
    updateEnabled();
    m_loading = false;
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
    w.streaming = m_streaming->isChecked();
    w.inputTokens = m_inputTokens->value();
    w.outputTokens = m_outputTokens->value();
    w.ignoreEos = m_ignoreEos->isChecked();
    w.requestsPerCell = m_requests->value();
    w.durationS = m_duration->value();
    w.warmupRequests = m_warmup->value();
    w.requestTimeoutS = m_requestTimeout->value();
    w.prompts = PromptMode(m_prompts->currentData().toInt());
    w.sharedPrefixTokens = m_sharedPrefix->value();
    auto opt = [](QDoubleSpinBox *box) { return box->value() > 0 ? std::optional<double>(box->value()) : std::nullopt; };
    w.slo.ttftMs = opt(m_sloTtft);
    w.slo.itlMs = opt(m_sloItl);
    w.slo.latencyMs = opt(m_sloLatency);
}

bool WorkloadForm::hasLocalErrors() const
{
    return m_axis->currentIndex() == 1 ? !m_rates->parseError().isEmpty() : !m_concurrency->parseError().isEmpty();
}

} // namespace sb::ui
