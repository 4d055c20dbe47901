#include "designer/RateSweepEditor.h"
#include "results/SweepAxis.h"
#include "spec/SpecRules.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>

namespace sb::ui {

RateSweepEditor::RateSweepEditor(QWidget *parent)
    : QWidget(parent)
{
    m_rates = new QLineEdit;
    m_rates->setObjectName(QStringLiteral("requestRateList"));
    m_rates->setPlaceholderText(QStringLiteral("2, 8, 32"));
    m_rates->setToolTip(tr("Request rates in requests/s, separated by commas or spaces; each rate is one cell per server"));
    m_arrival = new QComboBox;
    m_arrival->setObjectName(QStringLiteral("arrival"));
    m_arrival->addItems(arrivalNames());
    m_arrival->setToolTip(tr("Gaps between sends: constant 1/R, Poisson (exponential), or gamma with the burstiness as its shape"));
    m_burstiness = new QDoubleSpinBox;
    m_burstiness->setObjectName(QStringLiteral("burstiness"));
    m_burstiness->setRange(spec::kMinBurstiness, spec::kMaxBurstiness);
    m_burstiness->setSingleStep(0.1);
    m_burstiness->setToolTip(tr("Gamma shape: 1 = Poisson, below 1 burstier, above 1 more regular"));
    m_exactMean = new QCheckBox(tr("Exact mean rate"));
    m_exactMean->setObjectName(QStringLiteral("exactRateMean"));
    m_exactMean->setToolTip(tr("Rescale each cell's random gaps so it sends at exactly the point's rate, keeping their shape "
                               "(sweep.rate_mean: exact); without it a seeded draw of 1,000 requests at 100 req/s averages about 97-103"));
    m_seed = new QSpinBox;
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(0, 2147483647);
    m_seed->setToolTip(tr("The same seed gives the same send times every run"));
    m_maxConcurrency = new QSpinBox;
    m_maxConcurrency->setObjectName(QStringLiteral("maxConcurrency"));
    m_maxConcurrency->setRange(1, spec::kMaxConcurrency);
    m_maxConcurrency->setToolTip(tr("Requests in flight at most; later ones wait in a client queue, timed apart from TTFT"));
    m_errorLabel = new QLabel;
    m_errorLabel->setStyleSheet(QStringLiteral("color: #d0453a;"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setVisible(false);

    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Rates (req/s)"), m_rates);
    form->addRow(QString(), m_errorLabel);
    form->addRow(tr("Arrivals"), m_arrival);
    form->addRow(tr("Burstiness"), m_burstiness);
    form->addRow(QString(), m_exactMean);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Max concurrency"), m_maxConcurrency);
    setOpenLoop(OpenLoopSpec());

    connect(m_rates, &QLineEdit::textEdited, this, [this] {
        reparse();
        Q_EMIT edited();
    });
    connect(m_arrival, &QComboBox::activated, this, [this] {
        updateEnabled();
        Q_EMIT edited();
    });
    for (auto *box : {m_seed, m_maxConcurrency})
        connect(box, &QSpinBox::valueChanged, this, &RateSweepEditor::edited);
    connect(m_burstiness, &QDoubleSpinBox::valueChanged, this, &RateSweepEditor::edited);
    connect(m_exactMean, &QCheckBox::toggled, this, &RateSweepEditor::edited);
}

void RateSweepEditor::setOpenLoop(const OpenLoopSpec &o)
{
    const QSignalBlocker blocks[] = {QSignalBlocker(m_seed), QSignalBlocker(m_maxConcurrency), QSignalBlocker(m_burstiness),
                                     QSignalBlocker(m_exactMean)};
    m_values = o.rates;
    m_rates->setText(format(o.rates));
    m_arrival->setCurrentText(toString(o.arrival));
    m_burstiness->setValue(o.burstiness);
    m_exactMean->setChecked(o.rateMean == RateMean::Exact);
    m_seed->setValue(o.seed);
    m_maxConcurrency->setValue(o.maxConcurrency);
    reparse();
    updateEnabled();
}

OpenLoopSpec RateSweepEditor::openLoop() const
{
    OpenLoopSpec o;
    o.rates = m_values;
    o.arrival = arrivalFromString(m_arrival->currentText()).value_or(Arrival::Poisson);
    o.burstiness = o.arrival == Arrival::Gamma ? m_burstiness->value() : 1.0; // the validator refuses it elsewhere
    const bool random = o.arrival == Arrival::Poisson || o.arrival == Arrival::Gamma;
    o.rateMean = random && m_exactMean->isChecked() ? RateMean::Exact : RateMean::Sampled; // only random gaps have a mean to fix
    o.seed = m_seed->value();
    o.maxConcurrency = m_maxConcurrency->value();
    return o;
}

bool RateSweepEditor::parse(const QString &text, QList<double> *out, QString *error)
{
    static const QRegularExpression sep(QStringLiteral("[,\\s]+"));
    QList<double> values;
    for (const QString &part : text.split(sep, Qt::SkipEmptyParts)) {
        bool ok = false;
        const double v = part.toDouble(&ok);
        if (!ok || !(v > 0) || v > spec::kMaxRequestRate) {
            *error = tr("'%1' is not a request rate: expected %2").arg(part.left(40), spec::expectRequestRate());
            return false;
        }
        values.append(v);
    }
    *out = values;
    return true;
}

QString RateSweepEditor::format(const QList<double> &rates)
{
    QStringList parts;
    for (double r : rates)
        parts.append(formatRate(r));
    return parts.join(QStringLiteral(", "));
}

void RateSweepEditor::reparse()
{
    QList<double> values;
    QString error;
    if (parse(m_rates->text(), &values, &error)) {
        m_values = values;
        m_error.clear();
    } else {
        m_error = error;
    }
    m_errorLabel->setText(m_error);
    m_errorLabel->setVisible(!m_error.isEmpty());
}

void RateSweepEditor::updateEnabled()
{
    const QString arrival = m_arrival->currentText();
    m_burstiness->setEnabled(arrival == toString(Arrival::Gamma));
    m_exactMean->setEnabled(arrival == toString(Arrival::Gamma) || arrival == toString(Arrival::Poisson));
}

} // namespace sb::ui
