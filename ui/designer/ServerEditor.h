#pragma once
// The form of the server selected in the servers list (no inline table editing): name, model,
// flavor and endpoint; connection (URL or embedded mock with its reasoning tokens, API key masked
// or an environment variable); the launch of a server SweepBench starts itself; the server-metrics scrape; hooks;
// and the flavor's gate warnings.
#include "designer/FieldErrors.h"
#include "spec/SweepSpec.h"
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace sb::ui {

class HookEditor;
class LaunchEditor;

class ServerEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ServerEditor(QWidget *parent = nullptr);

    void setServer(int row, const ServerSpec &server); // row -1 = nothing selected
    int row() const { return m_row; }
    ServerSpec server() const; // the loaded server with this panel's edits applied
    void showDiagnostics(const QList<SpecDiagnostic> &diags); // whole-spec list; picks servers[row]
    bool hasLocalErrors() const;

    HookEditor *hookEditor() const { return m_hooks; }
    LaunchEditor *launchEditor() const { return m_launch; }
    QLineEdit *apiKeyEdit() const { return m_apiKey; }
    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *modelEdit() const { return m_model; }
    QComboBox *flavorBox() const { return m_flavor; }
    QSpinBox *reasoningTokensBox() const { return m_reasoningTokens; }
    const FieldErrors &errors() const { return m_errors; }

Q_SIGNALS:
    void edited(int row, const sb::ServerSpec &server);

private:
    void emitEdited();
    void updateGateWarnings();
    void showTargetRow(bool mock);
    void openTestLaunch();
    QWidget *buildIdentity();
    QWidget *buildConnection();
    QWidget *buildMetrics();

    int m_row = -1;
    bool m_loading = false;
    ServerSpec m_server;
    FieldErrors m_errors;

    QLabel *m_title = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_model = nullptr;
    QComboBox *m_flavor = nullptr;
    QComboBox *m_endpoint = nullptr;
    QFormLayout *m_connForm = nullptr;
    QWidget *m_urlRow = nullptr;
    QWidget *m_mockRow = nullptr;
    QWidget *m_reasoningRow = nullptr;
    QComboBox *m_targetKind = nullptr;
    QLineEdit *m_url = nullptr;
    QComboBox *m_mock = nullptr;
    QSpinBox *m_reasoningTokens = nullptr; // mock.reasoning_tokens, beneath the personality
    QLineEdit *m_apiKey = nullptr;
    QLineEdit *m_apiKeyEnv = nullptr;
    QGroupBox *m_metrics = nullptr;
    QLineEdit *m_metricsPath = nullptr;
    QDoubleSpinBox *m_metricsInterval = nullptr;
    QLabel *m_gates = nullptr;
    HookEditor *m_hooks = nullptr;
    LaunchEditor *m_launch = nullptr;
    QWidget *m_body = nullptr;
};

// The flavor's known gates for the enabled hooks (docs/ARCHITECTURE.md §6), one line each; empty when none.
QStringList gateWarnings(const ServerSpec &server);

} // namespace sb::ui
