#pragma once
// Everything of a sweep that is not a server: name, concurrency levels, hook-failure policy,
// the workload (lengths, streaming, requests or duration, warmup, prompts), optional SLOs, and
// the GPU telemetry and cost.
#include "designer/FieldErrors.h"
#include "spec/SweepSpec.h"
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTimer;
class QSpinBox;
class QStackedWidget;

namespace sb::ui {

class ConcurrencyEditor;
class DatasetEditor;
class ImagesEditor;
class LengthEditor;
class LengthHistogramView;
class RateSweepEditor;
class SessionEditor;
class SweepRunsEditor;
class TelemetryEditor;

class WorkloadForm : public QWidget
{
    Q_OBJECT
public:
    explicit WorkloadForm(QWidget *parent = nullptr);

    void setSpec(const SweepSpec &spec);  // reads the non-server parts; emits nothing
    void applyTo(SweepSpec &spec) const;  // writes them back
    bool hasLocalErrors() const;
    FieldErrors &errors() { return m_errors; }
    ConcurrencyEditor *concurrencyEditor() const { return m_concurrency; }
    RateSweepEditor *rateEditor() const { return m_rates; }
    QComboBox *axisChoice() const { return m_axis; }
    LengthEditor *inputEditor() const { return m_input; }
    LengthEditor *outputEditor() const { return m_output; }
    DatasetEditor *datasetEditor() const { return m_dataset; }
    ImagesEditor *imagesEditor() const { return m_images; }
    LengthHistogramView *inputHistogram() const { return m_inputHist; }
    LengthHistogramView *outputHistogram() const { return m_outputHist; }
    QPlainTextEdit *promptPreview() const { return m_promptPreview; }
    SessionEditor *sessionEditor() const { return m_sessions; }
    SweepRunsEditor *runsEditor() const { return m_runs; }
    TelemetryEditor *telemetryEditor() const { return m_telemetry; }
    QLabel *cacheShape() const { return m_cacheShape; }
    // Problems the validator cannot see (a dataset file that does not load), as diagnostics for
    // the fields they belong to.
    QList<SpecDiagnostic> localDiagnostics() const;
    // The validator's diagnostics in the words of what the form shows (an empty rate list is
    // missing rates, though the spec then asks for concurrency levels).
    QList<SpecDiagnostic> inFormTerms(QList<SpecDiagnostic> diags) const;
    void updatePreview(); // now (it also runs throttled after each edit)

Q_SIGNALS:
    void edited();

private:
    QWidget *buildSweep();
    QWidget *buildWorkload();
    QWidget *buildSlo();
    QWidget *buildPreview();
    QWidget *buildTelemetry();
    void changed();
    void updateEnabled();
    void showLengthMode(int mode); // 0 = requests per cell, 1 = duration per cell

    FieldErrors m_errors;
    bool m_loading = false;

    QLineEdit *m_name = nullptr;
    QLineEdit *m_description = nullptr;
    QComboBox *m_axis = nullptr;          // closed loop (concurrency) or open loop (request rate)
    QStackedWidget *m_axisStack = nullptr;
    ConcurrencyEditor *m_concurrency = nullptr;
    RateSweepEditor *m_rates = nullptr;
    QComboBox *m_policy = nullptr;

    QCheckBox *m_streaming = nullptr;
    LengthEditor *m_input = nullptr;
    LengthEditor *m_output = nullptr;
    QSpinBox *m_seed = nullptr;
    DatasetEditor *m_dataset = nullptr;
    ImagesEditor *m_images = nullptr;
    LengthHistogramView *m_inputHist = nullptr;
    LengthHistogramView *m_outputHist = nullptr;
    QPlainTextEdit *m_promptPreview = nullptr;
    QLabel *m_datasetSummary = nullptr;
    QLabel *m_cacheShape = nullptr; // what sessions and shared prefixes make of the prompts
    QTimer *m_previewTimer = nullptr;
    SweepSpec m_previewBase; // the servers (the first one's endpoint shapes the prompt) and source path
    QCheckBox *m_ignoreEos = nullptr;
    QCheckBox *m_calibrate = nullptr;
    SweepRunsEditor *m_runs = nullptr; // repeats, max error rate, SLO search
    TelemetryEditor *m_telemetry = nullptr; // GPU telemetry and cost
    QComboBox *m_lengthMode = nullptr;
    QStackedWidget *m_lengthStack = nullptr;
    QLabel *m_lengthLabel = nullptr;
    QSpinBox *m_requests = nullptr;
    QDoubleSpinBox *m_duration = nullptr;
    QSpinBox *m_warmup = nullptr;
    QDoubleSpinBox *m_requestTimeout = nullptr;
    QComboBox *m_prompts = nullptr;
    QSpinBox *m_sharedPrefix = nullptr;
    QSpinBox *m_prefixCount = nullptr;
    SessionEditor *m_sessions = nullptr;

    QDoubleSpinBox *m_sloTtft = nullptr;
    QDoubleSpinBox *m_sloItl = nullptr;
    QDoubleSpinBox *m_sloLatency = nullptr;
};

} // namespace sb::ui
