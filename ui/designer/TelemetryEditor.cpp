#include "designer/TelemetryEditor.h"
#include "designer/FieldErrors.h"
#include "spec/SpecRules.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QIcon>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>

namespace sb::ui {

namespace {
const QString kAuthorization = QStringLiteral("Authorization");

// The exporters' headers as one Authorization value, when that is all they are (and the same
// for every exporter); nullopt otherwise.
std::optional<QString> sharedAuthorization(const QList<TelemetrySpec> &telemetry)
{
    std::optional<QString> shared;
    for (const TelemetrySpec &t : telemetry) {
        QString value;
        if (t.headers.size() > 1 || (t.headers.size() == 1 && t.headers.front().first.compare(kAuthorization, Qt::CaseInsensitive) != 0))
            return std::nullopt;
        if (!t.headers.isEmpty())
            value = t.headers.front().second;
        if (shared && *shared != value)
            return std::nullopt;
        shared = value;
    }
    return shared.value_or(QString());
}
} // namespace

TelemetryEditor::TelemetryEditor(QObject *parent)
    : QObject(parent)
    , m_source(new QComboBox)
    , m_urls(new QPlainTextEdit)
    , m_authorization(new QLineEdit)
    , m_program(new QLineEdit)
    , m_interval(new QSpinBox)
    , m_cost(new QCheckBox(tr("Price the GPUs ($ per M tokens)")))
    , m_gpuHour(new QDoubleSpinBox)
    , m_gpus(new QSpinBox)
{
    m_source->setObjectName(QStringLiteral("telemetrySource"));
    m_source->addItem(tr("None"), None);
    m_source->addItem(tr("dcgm-exporter URLs"), Exporters);
    m_source->addItem(tr("nvidia-smi here"), NvidiaSmi);
    m_source->setToolTip(tr("telemetry: where each measured phase's GPU power, utilisation and memory come from, for energy per "
                            "token: GPU exporters (dcgm-exporter) by URL, or nvidia-smi on the machine SweepBench runs on"));
    m_urls->setObjectName(QStringLiteral("telemetryUrls"));
    m_urls->setPlaceholderText(QStringLiteral("http://gpu-node:9400/metrics"));
    m_urls->setToolTip(tr("One exporter metrics URL per line; each exporter once (its GPUs' energy is added up)"));
    m_urls->setTabChangesFocus(true);
    m_urls->setFixedHeight(m_urls->fontMetrics().lineSpacing() * 3 + 12);
    m_authorization->setObjectName(QStringLiteral("telemetryAuthorization"));
    m_authorization->setEchoMode(QLineEdit::Password);
    m_authorization->setPlaceholderText(tr("Authorization header, kept in the spec file only"));
    m_authorization->setToolTip(tr("Sent with every scrape of every exporter; a secret, never written to results, exports or logs"));
    QAction *reveal = m_authorization->addAction(QIcon(), QLineEdit::TrailingPosition);
    reveal->setText(tr("Show"));
    reveal->setCheckable(true);
    reveal->setToolTip(tr("Show or hide the header's value"));
    connect(reveal, &QAction::toggled, this, [this](bool on) { m_authorization->setEchoMode(on ? QLineEdit::Normal : QLineEdit::Password); });
    m_program->setObjectName(QStringLiteral("nvidiaSmiProgram"));
    m_program->setPlaceholderText(QStringLiteral("nvidia-smi"));
    m_program->setToolTip(tr("The nvidia-smi to run; empty: nvidia-smi from PATH"));
    m_interval->setObjectName(QStringLiteral("nvidiaSmiInterval"));
    m_interval->setRange(0, 1000000); // wider than the rules: the validator names a file's bad value
    m_interval->setSuffix(tr(" ms"));
    m_interval->setToolTip(tr("nvidia-smi's sampling period (-lms)"));
    m_cost->setObjectName(QStringLiteral("costEnabled"));
    m_gpuHour->setObjectName(QStringLiteral("costGpuHour"));
    m_gpuHour->setRange(0, 1e6);
    m_gpuHour->setDecimals(2);
    m_gpuHour->setPrefix(QStringLiteral("$ "));
    m_gpuHour->setSuffix(tr(" per GPU-hour"));
    m_gpus->setObjectName(QStringLiteral("costGpus"));
    m_gpus->setRange(0, 1000000);
    m_gpus->setSuffix(tr(" GPUs"));

    auto emitEdited = [this] {
        if (!m_loading)
            Q_EMIT edited();
    };
    connect(m_source, &QComboBox::activated, this, [this, emitEdited] {
        updateEnabled();
        emitEdited();
    });
    connect(m_urls, &QPlainTextEdit::textChanged, this, emitEdited);
    connect(m_authorization, &QLineEdit::textEdited, this, emitEdited);
    connect(m_program, &QLineEdit::textEdited, this, emitEdited);
    connect(m_interval, &QSpinBox::valueChanged, this, emitEdited);
    connect(m_gpuHour, &QDoubleSpinBox::valueChanged, this, emitEdited);
    connect(m_gpus, &QSpinBox::valueChanged, this, emitEdited);
    connect(m_cost, &QCheckBox::toggled, this, [this, emitEdited] {
        updateEnabled();
        emitEdited();
    });
    setSpec(SweepSpec());
}

void TelemetryEditor::addRows(QFormLayout *form, FieldErrors &errors)
{
    form->addRow(tr("GPU telemetry"), errors.bind(QStringLiteral("telemetry"), m_source));
    form->addRow(tr("Exporter URLs"), errors.bind(QStringLiteral("telemetry[].url"), m_urls));
    form->addRow(tr("Exporter header"), errors.bind(QStringLiteral("telemetry[].headers"), m_authorization));
    form->addRow(tr("nvidia-smi"), errors.bind(QStringLiteral("telemetry[].program"), m_program));
    form->addRow(tr("Sampling period"), errors.bind(QStringLiteral("telemetry[].interval_ms"), m_interval));
    form->addRow(QString(), errors.bind(QStringLiteral("cost"), m_cost));
    form->addRow(tr("GPU price"), errors.bind(QStringLiteral("cost.gpu_hour"), m_gpuHour));
    form->addRow(tr("GPUs"), errors.bind(QStringLiteral("cost.gpus"), m_gpus));
}

void TelemetryEditor::setSpec(const SweepSpec &spec)
{
    m_loading = true;
    const QList<TelemetrySpec> &t = spec.telemetry;
    const bool smi = !t.isEmpty() && t.front().nvidiaSmi;
    m_source->setCurrentIndex(m_source->findData(t.isEmpty() ? None : smi ? NvidiaSmi : Exporters));
    QStringList urls;
    m_loadedHeaders.clear();
    for (const TelemetrySpec &e : t)
        if (!e.nvidiaSmi) {
            urls << e.url;
            m_loadedHeaders.insert(e.url, e.headers);
        }
    m_urls->setPlainText(urls.join(QLatin1Char('\n')));
    const std::optional<QString> auth = sharedAuthorization(t);
    m_sharedAuthorization = auth.has_value();
    m_authorization->setText(auth.value_or(QString()));
    m_authorization->setPlaceholderText(m_sharedAuthorization ? tr("Authorization header, kept in the spec file only")
                                                              : tr("the exporters' own headers (edit them in the YAML)"));
    const TelemetrySpec defaults;
    m_program->setText(smi ? t.front().program : QString());
    m_interval->setValue(smi ? t.front().intervalMs : defaults.intervalMs);
    m_cost->setChecked(spec.cost.has_value());
    const CostSpec cost = spec.cost.value_or(CostSpec{});
    m_loadedGpuHour = cost.gpuHour;
    m_gpuHour->setValue(cost.gpuHour);
    m_gpus->setValue(cost.gpus);
    updateEnabled();
    m_loading = false;
}

void TelemetryEditor::applyTo(SweepSpec &spec) const
{
    spec.telemetry.clear();
    switch (Source(m_source->currentData().toInt())) {
    case None: break;
    case NvidiaSmi: {
        TelemetrySpec t;
        t.nvidiaSmi = true;
        t.program = m_program->text().trimmed();
        t.intervalMs = m_interval->value();
        spec.telemetry.append(t);
        break;
    }
    case Exporters:
        for (const QString &line : m_urls->toPlainText().split(QLatin1Char('\n'))) {
            TelemetrySpec t;
            t.url = line.trimmed();
            if (t.url.isEmpty())
                continue;
            if (!m_sharedAuthorization)
                t.headers = m_loadedHeaders.value(t.url);
            else if (!m_authorization->text().isEmpty())
                t.headers = {{kAuthorization, m_authorization->text()}};
            spec.telemetry.append(t);
        }
        break;
    }
    if (m_cost->isChecked()) {
        // A price finer than the box's cents stays as the file wrote it unless edited.
        const double shown = QString::number(m_loadedGpuHour, 'f', m_gpuHour->decimals()).toDouble();
        spec.cost = CostSpec{shown == m_gpuHour->value() ? m_loadedGpuHour : m_gpuHour->value(), m_gpus->value()};
    } else {
        spec.cost.reset();
    }
}

void TelemetryEditor::updateEnabled()
{
    const Source s = Source(m_source->currentData().toInt());
    m_urls->setEnabled(s == Exporters);
    m_authorization->setEnabled(s == Exporters && m_sharedAuthorization);
    m_program->setEnabled(s == NvidiaSmi);
    m_interval->setEnabled(s == NvidiaSmi);
    m_gpuHour->setEnabled(m_cost->isChecked());
    m_gpus->setEnabled(m_cost->isChecked());
}

} // namespace sb::ui
