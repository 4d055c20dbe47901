#include "designer/SweepRunsEditor.h"
#include "designer/FieldErrors.h"
#include "spec/SpecRules.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace sb::ui {

namespace {
// A box shows `decimals` places: an unedited box still holds what the file said, even finer.
double keptOrEdited(const QDoubleSpinBox *box, double loaded, double scale)
{
    // QDoubleSpinBox rounds what it is given the way QString::number does.
    const double shown = QString::number(loaded * scale, 'f', box->decimals()).toDouble();
    return shown == box->value() ? loaded : box->value() / scale;
}
} // namespace

SweepRunsEditor::SweepRunsEditor(QObject *parent)
    : QObject(parent)
    , m_repeats(new QSpinBox)
    , m_errorRate(new QDoubleSpinBox)
    , m_search(new QCheckBox(tr("Search for the highest point that meets them")))
    , m_percentile(new QComboBox)
    , m_resolution(new QDoubleSpinBox)
{
    // Ranges wider than the rules on purpose: a file's out-of-range value opens as written and the
    // validator names it, with the CLI's words, instead of a spin box clamping it silently.
    m_repeats->setObjectName(QStringLiteral("repeats"));
    m_repeats->setRange(-1000, 100000);
    m_repeats->setSuffix(tr(" × each point"));
    m_repeats->setToolTip(tr("sweep.repeats: each point runs this many times, a cell each; the results then give "
                             "mean ± 95 % CI per point and whether two servers differ significantly"));
    m_errorRate->setObjectName(QStringLiteral("maxErrorRate"));
    m_errorRate->setRange(-1000, 1000);
    m_errorRate->setDecimals(2);
    m_errorRate->setSuffix(QStringLiteral(" %"));
    m_errorRate->setToolTip(tr("sweep.max_error_rate: a cell whose measured requests fail more often than this is degraded, "
                               "not completed (0 % = any failure degrades it)"));
    m_search->setObjectName(QStringLiteral("sloSearch"));
    m_search->setToolTip(tr("sweep.slo_search: after the planned points, bisect per server between the highest point that met "
                            "every SLO and the lowest that missed one, until they are the resolution apart"));
    m_percentile->setObjectName(QStringLiteral("sloPercentile"));
    for (int p : spec::kSloPercentiles)
        m_percentile->addItem(QStringLiteral("p%1").arg(p), p);
    m_percentile->setToolTip(tr("The percentile each SLO is judged at"));
    m_resolution->setObjectName(QStringLiteral("sloResolution"));
    m_resolution->setRange(-1e6, 1e6);
    m_resolution->setDecimals(2);
    m_resolution->setToolTip(tr("The search stops when the bracket is this narrow: concurrency levels (whole, ≥ 1) or requests/s"));

    auto emitEdited = [this] {
        if (!m_loading)
            Q_EMIT edited();
    };
    connect(m_repeats, &QSpinBox::valueChanged, this, emitEdited);
    connect(m_errorRate, &QDoubleSpinBox::valueChanged, this, emitEdited);
    connect(m_resolution, &QDoubleSpinBox::valueChanged, this, emitEdited);
    connect(m_percentile, &QComboBox::activated, this, emitEdited);
    connect(m_search, &QCheckBox::toggled, this, [this, emitEdited] {
        updateEnabled();
        emitEdited();
    });
    setSpec(SweepSpec());
}

void SweepRunsEditor::addRunRows(QFormLayout *form, FieldErrors &errors)
{
    form->addRow(tr("Repeats"), errors.bind(QStringLiteral("sweep.repeats"), m_repeats));
    form->addRow(tr("Max error rate"), errors.bind(QStringLiteral("sweep.max_error_rate"), m_errorRate));
}

void SweepRunsEditor::addSearchRows(QFormLayout *form, FieldErrors &errors)
{
    form->addRow(QString(), errors.bind(QStringLiteral("sweep.slo_search"), m_search));
    form->addRow(tr("Judged at"), errors.bind(QStringLiteral("sweep.slo_search.percentile"), m_percentile));
    form->addRow(tr("Resolution"), errors.bind(QStringLiteral("sweep.slo_search.resolution"), m_resolution));
}

void SweepRunsEditor::setSpec(const SweepSpec &spec)
{
    m_loading = true;
    m_repeats->setValue(spec.repeats);
    m_loadedErrorRate = spec.maxErrorRate;
    m_errorRate->setValue(spec.maxErrorRate * 100);
    m_search->setChecked(spec.sloSearch.enabled);
    const int index = m_percentile->findData(spec.sloSearch.percentile);
    if (index < 0) // a percentile the rules refuse stays visible, for the validator to name
        m_percentile->addItem(QStringLiteral("p%1").arg(spec.sloSearch.percentile), spec.sloSearch.percentile);
    m_percentile->setCurrentIndex(m_percentile->findData(spec.sloSearch.percentile));
    m_loadedResolution = spec.sloSearch.resolution;
    m_resolution->setValue(spec.sloSearch.resolution);
    updateEnabled();
    m_loading = false;
}

void SweepRunsEditor::applyTo(SweepSpec &spec) const
{
    spec.repeats = m_repeats->value();
    spec.maxErrorRate = keptOrEdited(m_errorRate, m_loadedErrorRate, 100);
    spec.sloSearch.enabled = m_search->isChecked();
    spec.sloSearch.percentile = m_percentile->currentData().toInt();
    spec.sloSearch.resolution = keptOrEdited(m_resolution, m_loadedResolution, 1);
}

void SweepRunsEditor::updateEnabled()
{
    m_percentile->setEnabled(m_search->isChecked());
    m_resolution->setEnabled(m_search->isChecked());
}

} // namespace sb::ui
