#pragma once
// The designer's fields for how often the sweep's points run and when a cell counts as degraded:
// sweep.repeats, sweep.max_error_rate (shown in percent) and sweep.slo_search (a switch, the
// percentile the SLOs are judged at, and the resolution the bisection stops at). Its rows go into
// the workload form, each bound to its key's errors.
#include "spec/SweepSpec.h"
#include <QObject>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
QT_END_NAMESPACE

namespace sb::ui {

class FieldErrors;

class SweepRunsEditor : public QObject
{
    Q_OBJECT
public:
    explicit SweepRunsEditor(QObject *parent = nullptr);
    // Repeats and the error rate go with the sweep's points; the search with the SLOs it serves.
    void addRunRows(QFormLayout *form, FieldErrors &errors);
    void addSearchRows(QFormLayout *form, FieldErrors &errors);
    void setSpec(const SweepSpec &spec); // emits nothing
    void applyTo(SweepSpec &spec) const;

    QSpinBox *repeatsBox() const { return m_repeats; }
    QDoubleSpinBox *errorRateBox() const { return m_errorRate; }
    QCheckBox *searchBox() const { return m_search; }
    QComboBox *percentileChoice() const { return m_percentile; }
    QDoubleSpinBox *resolutionBox() const { return m_resolution; }

Q_SIGNALS:
    void edited();

private:
    void updateEnabled();
    QSpinBox *m_repeats;
    QDoubleSpinBox *m_errorRate;
    QCheckBox *m_search;
    QComboBox *m_percentile;
    QDoubleSpinBox *m_resolution;
    // What the file said: a box shows it rounded, and an unedited box writes the file's value back.
    double m_loadedErrorRate = 0.01;
    double m_loadedResolution = 1;
    bool m_loading = false;
};

} // namespace sb::ui
