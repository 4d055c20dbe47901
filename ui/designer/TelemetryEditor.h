#pragma once
// The designer's fields for the sweep's GPU telemetry and cost (docs/gpu-telemetry.md), at the
// top level: where the GPUs are read from (none, dcgm-exporter URLs, or nvidia-smi on this
// machine), the exporters' Authorization header (masked, as a server's API key), nvidia-smi's
// program and period, and `cost: {gpu_hour, gpus}`. Its rows go into the workload form, each
// bound to its key's errors. A server's own `telemetry`/`cost` stay as the file wrote them.
#include "spec/SweepSpec.h"
#include <QHash>
#include <QObject>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace sb::ui {

class FieldErrors;

class TelemetryEditor : public QObject
{
    Q_OBJECT
public:
    enum Source { None, Exporters, NvidiaSmi };
    explicit TelemetryEditor(QObject *parent = nullptr);
    void addRows(QFormLayout *form, FieldErrors &errors);
    void setSpec(const SweepSpec &spec); // emits nothing
    void applyTo(SweepSpec &spec) const;

    QComboBox *sourceChoice() const { return m_source; }
    QPlainTextEdit *urlsEdit() const { return m_urls; }
    QLineEdit *authorizationEdit() const { return m_authorization; }
    QLineEdit *programEdit() const { return m_program; }
    QSpinBox *intervalBox() const { return m_interval; }
    QCheckBox *costBox() const { return m_cost; }
    QDoubleSpinBox *gpuHourBox() const { return m_gpuHour; }
    QSpinBox *gpusBox() const { return m_gpus; }

Q_SIGNALS:
    void edited();

private:
    void updateEnabled();
    QComboBox *m_source;
    QPlainTextEdit *m_urls;
    QLineEdit *m_authorization;
    QLineEdit *m_program;
    QSpinBox *m_interval;
    QCheckBox *m_cost;
    QDoubleSpinBox *m_gpuHour;
    QSpinBox *m_gpus;
    // Headers the file gave each exporter, kept when they are not one shared Authorization
    // header (the field then stays off and says so).
    QHash<QString, QList<QPair<QString, QString>>> m_loadedHeaders;
    bool m_sharedAuthorization = true;
    double m_loadedGpuHour = 0;
    bool m_loading = false;
};

} // namespace sb::ui
