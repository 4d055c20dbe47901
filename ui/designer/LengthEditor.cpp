#include "designer/LengthEditor.h"
#include "designer/StackFit.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <cmath>

namespace sb::ui {

namespace {
// As wide as the validator accepts, negatives included: out-of-range values are its to report
// (WorkloadForm.cpp), not the spin box's to clamp.
constexpr int kSpan = 10'000'000;
QSpinBox *tokens(const QString &name)
{
    auto *box = new QSpinBox;
    box->setObjectName(name);
    box->setRange(-kSpan, kSpan);
    box->setSuffix(QObject::tr(" tokens"));
    box->setAccelerated(true);
    return box;
}
QFormLayout *page(QStackedWidget *stack)
{
    auto *w = new QWidget;
    auto *form = new QFormLayout(w);
    form->setContentsMargins(0, 0, 0, 0);
    form->setVerticalSpacing(2);
    stack->addWidget(w);
    return form;
}
} // namespace

QString choicesText(const QList<LengthChoice> &choices)
{
    QStringList parts;
    for (const LengthChoice &c : choices)
        parts << (c.weight == 1 ? QString::number(c.value) : QStringLiteral("%1:%2").arg(c.value).arg(c.weight, 0, 'g', 12));
    return parts.join(QStringLiteral(", "));
}

bool parseChoices(const QString &text, QList<LengthChoice> *out, QString *error)
{
    out->clear();
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (parts.size() > kMaxLengthChoices) {
        *error = QObject::tr("at most %1 choices").arg(kMaxLengthChoices);
        return false;
    }
    for (const QString &raw : parts) {
        const QString part = raw.trimmed();
        if (part.isEmpty())
            continue;
        const QStringList vw = part.split(QLatin1Char(':'));
        bool okValue = false, okWeight = true;
        LengthChoice c;
        c.value = vw.value(0).trimmed().toInt(&okValue);
        if (vw.size() == 2)
            c.weight = vw[1].trimmed().toDouble(&okWeight);
        if (!okValue || !okWeight || vw.size() > 2) {
            *error = QObject::tr("“%1”: expected LENGTH or LENGTH:WEIGHT, e.g. 16, 64:3").arg(part.left(40));
            return false;
        }
        out->append(c);
    }
    if (out->isEmpty()) {
        *error = QObject::tr("expected at least one length, e.g. 16, 64:3");
        return false;
    }
    error->clear();
    return true;
}

LengthEditor::LengthEditor(const QString &name, QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_kind = new QComboBox;
    m_kind->setObjectName(name + QStringLiteral("Kind"));
    m_kind->addItems({tr("fixed"), tr("uniform (min–max)"), tr("normal (mean, stddev)"), tr("weighted choices")});
    m_kind->setToolTip(tr("Per-request lengths: drawn with workload.seed, the same sequence for every cell and server"));
    m_stack = new QStackedWidget;
    layout->addWidget(m_kind);
    layout->addWidget(m_stack);

    m_fixed = tokens(name);
    page(m_stack)->addRow(m_fixed);

    QFormLayout *uniform = page(m_stack);
    m_uniformMin = tokens(name + QStringLiteral("Min"));
    m_uniformMax = tokens(name + QStringLiteral("Max"));
    uniform->addRow(tr("Min"), m_uniformMin);
    uniform->addRow(tr("Max"), m_uniformMax);

    QFormLayout *normal = page(m_stack);
    m_mean = new QDoubleSpinBox;
    m_mean->setObjectName(name + QStringLiteral("Mean"));
    m_stddev = new QDoubleSpinBox;
    m_stddev->setObjectName(name + QStringLiteral("Stddev"));
    for (QDoubleSpinBox *box : {m_mean, m_stddev}) {
        box->setRange(-kSpan, kSpan);
        box->setDecimals(1);
        box->setSuffix(tr(" tokens"));
        box->setAccelerated(true);
    }
    m_normalMin = tokens(name + QStringLiteral("NormalMin"));
    m_normalMax = tokens(name + QStringLiteral("NormalMax"));
    normal->addRow(tr("Mean"), m_mean);
    normal->addRow(tr("Stddev"), m_stddev);
    normal->addRow(tr("Min"), m_normalMin);
    normal->addRow(tr("Max"), m_normalMax);

    m_choices = new QLineEdit;
    m_choices->setObjectName(name + QStringLiteral("Choices"));
    m_choices->setPlaceholderText(QStringLiteral("16, 64:3, 256"));
    m_choices->setToolTip(tr("Lengths in tokens, each optionally :WEIGHT (how often, relative to the others)"));
    page(m_stack)->addRow(tr("Lengths"), m_choices);
    m_stack->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    auto changed = [this] {
        if (!m_loading)
            Q_EMIT edited();
    };
    connect(m_kind, &QComboBox::activated, this, [this, changed](int k) {
        // Carry the current length over, so switching kind starts from something sensible.
        int fixed = 0;
        std::optional<LengthDistribution> d;
        m_kind->setCurrentIndex(m_stack->currentIndex());
        applyTo(fixed, d);
        m_loading = true;
        m_kind->setCurrentIndex(k);
        m_stack->setCurrentIndex(k);
        fitStackToCurrent(m_stack);
        if (k == Uniform && m_uniformMax->value() <= 0) {
            m_uniformMin->setValue(std::max(1, fixed / 2));
            m_uniformMax->setValue(std::max(1, fixed * 3 / 2));
        } else if (k == Normal && m_normalMax->value() <= 0) {
            m_mean->setValue(fixed);
            m_stddev->setValue(std::max(1, fixed / 4));
            m_normalMin->setValue(std::max(1, fixed / 4));
            m_normalMax->setValue(std::max(1, fixed * 2));
        } else if (k == Choices && m_choices->text().trimmed().isEmpty()) {
            m_choices->setText(QString::number(fixed));
        } else if (k == Fixed) {
            m_fixed->setValue(fixed);
        }
        m_loading = false;
        changed();
    });
    for (QSpinBox *box : {m_fixed, m_uniformMin, m_uniformMax, m_normalMin, m_normalMax})
        connect(box, &QSpinBox::valueChanged, this, changed);
    for (QDoubleSpinBox *box : {m_mean, m_stddev})
        connect(box, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_choices, &QLineEdit::textEdited, this, changed);
    fitStackToCurrent(m_stack);
}

LengthEditor::Kind LengthEditor::kind() const
{
    return Kind(m_stack->currentIndex());
}

void LengthEditor::setLengths(int fixed, const std::optional<LengthDistribution> &d)
{
    m_loading = true;
    Kind k = Fixed;
    m_fixed->setValue(fixed);
    if (d) {
        switch (d->kind) {
        case LengthKind::Uniform:
            k = Uniform;
            m_uniformMin->setValue(d->min);
            m_uniformMax->setValue(d->max);
            break;
        case LengthKind::Normal:
            k = Normal;
            m_mean->setValue(d->mean);
            m_stddev->setValue(d->stddev);
            m_normalMin->setValue(d->min);
            m_normalMax->setValue(d->max);
            break;
        case LengthKind::Choices:
            k = Choices;
            m_choices->setText(choicesText(d->choices));
            break;
        }
    }
    m_kind->setCurrentIndex(k);
    m_stack->setCurrentIndex(k);
    fitStackToCurrent(m_stack);
    m_loading = false;
}

void LengthEditor::applyTo(int &fixed, std::optional<LengthDistribution> &d) const
{
    LengthDistribution dist;
    switch (kind()) {
    case Fixed:
        fixed = m_fixed->value();
        d.reset();
        return;
    case Uniform:
        dist.kind = LengthKind::Uniform;
        dist.min = m_uniformMin->value();
        dist.max = m_uniformMax->value();
        break;
    case Normal:
        dist.kind = LengthKind::Normal;
        dist.mean = m_mean->value();
        dist.stddev = m_stddev->value();
        dist.min = m_normalMin->value();
        dist.max = m_normalMax->value();
        break;
    case Choices: {
        dist.kind = LengthKind::Choices;
        QString error;
        if (!parseChoices(m_choices->text(), &dist.choices, &error) && d && d->kind == LengthKind::Choices)
            dist.choices = d->choices; // keep the last good list while the text is being typed
        break;
    }
    }
    d = dist;
    // expectedMean() samples: only for a distribution the validator accepts (a normal with
    // min > max has no value to clamp to); otherwise a plain midpoint until it is fixed.
    const bool valid = lengthProblems(dist, QString()).isEmpty();
    fixed = valid ? int(std::lround(dist.expectedMean()))
                  : int(std::lround(dist.kind == LengthKind::Normal ? dist.mean : (double(dist.min) + double(dist.max)) / 2));
}

QString LengthEditor::parseError() const
{
    if (kind() != Choices)
        return {};
    QList<LengthChoice> choices;
    QString error;
    parseChoices(m_choices->text(), &choices, &error);
    return error;
}

} // namespace sb::ui
