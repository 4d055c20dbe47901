#pragma once
// One workload length (input or output tokens) as the spec allows it (spec/WorkloadShapes.h):
// fixed, uniform {min, max}, normal {mean, stddev, min, max}, or weighted choices ("16, 64:3" =
// 16 once, 64 three times as often). Edited in the form, not only in the YAML.
#include "spec/WorkloadShapes.h"
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace sb::ui {

class LengthEditor : public QWidget
{
    Q_OBJECT
public:
    enum Kind { Fixed, Uniform, Normal, Choices };
    // `name` prefixes the child widgets' object names ("inputTokens", "inputTokensMin", …).
    explicit LengthEditor(const QString &name, QWidget *parent = nullptr);

    void setLengths(int fixed, const std::optional<LengthDistribution> &d); // emits nothing
    // The fixed length, or the distribution with its mean (rounded) as the nominal length, as the
    // spec loader sets it (spec/SpecWorkloadParser.cpp).
    void applyTo(int &fixed, std::optional<LengthDistribution> &d) const;
    Kind kind() const;
    QString parseError() const; // of the choices text; "" = fine
    QComboBox *kindBox() const { return m_kind; }
    QSpinBox *fixedBox() const { return m_fixed; }

Q_SIGNALS:
    void edited();

private:
    QComboBox *m_kind = nullptr;
    QStackedWidget *m_stack = nullptr;
    QSpinBox *m_fixed = nullptr;
    QSpinBox *m_uniformMin = nullptr, *m_uniformMax = nullptr;
    QDoubleSpinBox *m_mean = nullptr, *m_stddev = nullptr;
    QSpinBox *m_normalMin = nullptr, *m_normalMax = nullptr;
    QLineEdit *m_choices = nullptr;
    bool m_loading = false;
};

// "16, 64:3" <-> choices; parse returns false with *error on bad text.
QString choicesText(const QList<LengthChoice> &choices);
bool parseChoices(const QString &text, QList<LengthChoice> *out, QString *error);

} // namespace sb::ui
