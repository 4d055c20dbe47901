#pragma once
// The open-loop sweep's points and arrivals (docs/spec-reference.md "Open-loop sweeps"): a typed
// list of request rates ("2, 8, 32"), the arrival process, burstiness (gamma only), the exact-mean
// option (random arrivals only), seed and the
// max_concurrency cap. Text that does not parse is reported here; the spec keeps the last list
// that parsed (as ConcurrencyEditor does).
#include "spec/SweepSpec.h"
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace sb::ui {

class RateSweepEditor : public QWidget
{
    Q_OBJECT
public:
    explicit RateSweepEditor(QWidget *parent = nullptr);

    void setOpenLoop(const OpenLoopSpec &o); // emits nothing
    OpenLoopSpec openLoop() const;
    QString parseError() const { return m_error; }

    // "2, 8.5, 32" -> {2, 8.5, 32}; returns false and sets *error on anything else.
    static bool parse(const QString &text, QList<double> *out, QString *error);
    static QString format(const QList<double> &rates);

Q_SIGNALS:
    void edited();

private:
    void reparse();
    void updateEnabled();

    QLineEdit *m_rates = nullptr;
    QComboBox *m_arrival = nullptr;
    QDoubleSpinBox *m_burstiness = nullptr;
    QCheckBox *m_exactMean = nullptr;
    QSpinBox *m_seed = nullptr;
    QSpinBox *m_maxConcurrency = nullptr;
    QLabel *m_errorLabel = nullptr;
    QList<double> m_values;
    QString m_error;
};

} // namespace sb::ui
