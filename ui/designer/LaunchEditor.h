#pragma once
// The server form's Launch section: SweepBench starts this server before its first cell and stops
// it after its last (`launch:`, docs/spec-reference.md). The command is edited as one shell-like
// line (launch/CommandLine.h), the environment as NAME=value lines; "Test launch" starts the
// server once, shows its log until it is ready, and stops it (TestLaunchDialog). The variants
// (a configuration sweep) have their own editor beneath (LaunchVariantsEditor).
#include "designer/FieldErrors.h"
#include "spec/SweepSpec.h"
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace sb::ui {

class LaunchVariantsEditor;

class LaunchEditor : public QWidget
{
    Q_OBJECT
public:
    explicit LaunchEditor(QWidget *parent = nullptr);

    void setLaunch(const LaunchSpec &launch); // fills the widgets, emits nothing
    // Writes the widgets' values into `launch`; a command or environment line that cannot be read
    // leaves that part as it was (its error shows beside the field, see hasLocalErrors()).
    void applyTo(LaunchSpec &launch) const;
    bool hasLocalErrors() const;
    void setServerName(const QString &name); // the variants' preview names their series
    // The spec's diagnostics for this server (key paths under `prefix`, "servers[i]").
    void showDiagnostics(const QList<SpecDiagnostic> &diags, const QString &prefix);
    const FieldErrors &errors() const { return m_errors; }

    QGroupBox *group() const { return m_group; }
    QLineEdit *commandEdit() const { return m_command; }
    QPlainTextEdit *envEdit() const { return m_env; }
    QPushButton *testButton() const { return m_test; }
    LaunchVariantsEditor *variantsEditor() const { return m_variants; }

Q_SIGNALS:
    void edited();
    void testLaunchRequested();

private:
    void validateLocal();
    void showLocalError(QWidget *field, QLabel *line, const QString &error);

    bool m_loading = false;
    FieldErrors m_errors;
    QString m_commandError;
    QString m_envError;
    QGroupBox *m_group = nullptr;
    QLineEdit *m_command = nullptr;
    QLabel *m_commandErrorLine = nullptr;
    QSpinBox *m_port = nullptr;
    QPlainTextEdit *m_env = nullptr;
    QLabel *m_envErrorLine = nullptr;
    QLineEdit *m_readyPath = nullptr;
    QDoubleSpinBox *m_readyTimeout = nullptr;
    QComboBox *m_stopSignal = nullptr;
    QDoubleSpinBox *m_grace = nullptr;
    QPushButton *m_test = nullptr;
    LaunchVariantsEditor *m_variants = nullptr;
};

// NAME=value lines → pairs; `error` names the first line that is not NAME=value. Blank lines and
// lines starting with # are skipped.
QList<QPair<QString, QString>> parseEnvLines(const QString &text, QString *error);
QString envLinesText(const QList<QPair<QString, QString>> &env);

} // namespace sb::ui
