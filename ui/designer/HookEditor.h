#pragma once
// Cache-reset and profiler hook settings of one server. Empty paths mean "the flavor preset";
// the preset paths are shown as placeholders so the user sees what will be called.
#include "designer/FieldErrors.h"
#include "spec/SweepSpec.h"
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace sb::ui {

class HookEditor : public QWidget
{
    Q_OBJECT
public:
    explicit HookEditor(QWidget *parent = nullptr);

    void setServer(const ServerSpec &server); // fills the widgets, emits nothing
    void applyTo(ServerSpec &server) const;   // writes the widgets' values into `server`
    void refreshPresets(const ServerSpec &server); // flavor or timeout changed elsewhere

    // The start body text does not parse as a JSON object (the spec keeps the last valid body).
    bool hasLocalErrors() const { return !m_bodyError.isEmpty(); }
    FieldErrors &errors() { return m_errors; }

    QGroupBox *resetGroup() const { return m_reset; }
    QGroupBox *profilerGroup() const { return m_profiler; }
    QPlainTextEdit *startBodyEdit() const { return m_body; }
    QLabel *startBodyErrorLabel() const { return m_bodyErrorLabel; }

Q_SIGNALS:
    void edited();

private:
    QWidget *buildReset();
    QWidget *buildProfiler();
    void validateBody();
    void showResetHow();
    void fillPresetPaths();
    void pickTraceDir();

    FieldErrors m_errors;
    bool m_loading = false;
    QString m_bodyError;
    std::optional<QJsonObject> m_lastValidBody;
    ServerSpec m_presetSource; // flavor etc. used for placeholders

    QGroupBox *m_reset = nullptr;
    QComboBox *m_resetHow = nullptr; // the cache-reset route, or a restart of a launched server
    QLineEdit *m_resetPath = nullptr;
    QWidget *m_resetPathRow = nullptr;
    QComboBox *m_placement = nullptr;
    QDoubleSpinBox *m_resetTimeout = nullptr;
    QDoubleSpinBox *m_retryBudget = nullptr;

    QGroupBox *m_profiler = nullptr;
    QLineEdit *m_startPath = nullptr;
    QLineEdit *m_stopPath = nullptr;
    QDoubleSpinBox *m_startTimeout = nullptr;
    QDoubleSpinBox *m_stopTimeout = nullptr;
    QPlainTextEdit *m_body = nullptr;
    QLabel *m_bodyErrorLabel = nullptr;
    QLineEdit *m_traceDir = nullptr;
};

} // namespace sb::ui
