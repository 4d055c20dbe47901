#pragma once
// Detail panel of the server selected in the servers table: connection (URL or embedded mock,
// API key masked or an environment variable), hooks, and the flavor's gate warnings.
#include "designer/FieldErrors.h"
#include "spec/SweepSpec.h"
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;

namespace sb::ui {

class HookEditor;

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
    QLineEdit *apiKeyEdit() const { return m_apiKey; }

Q_SIGNALS:
    void edited(int row, const sb::ServerSpec &server);

private:
    void emitEdited();
    void updateGateWarnings();

    int m_row = -1;
    bool m_loading = false;
    ServerSpec m_server;
    FieldErrors m_errors;

    QLabel *m_title = nullptr;
    QComboBox *m_targetKind = nullptr;
    QStackedWidget *m_targetStack = nullptr;
    QLineEdit *m_url = nullptr;
    QComboBox *m_mock = nullptr;
    QLineEdit *m_apiKey = nullptr;
    QLineEdit *m_apiKeyEnv = nullptr;
    QLabel *m_gates = nullptr;
    HookEditor *m_hooks = nullptr;
    QWidget *m_body = nullptr;
};

// The flavor's known gates for the enabled hooks (docs/ARCHITECTURE.md §6), one line each; empty when none.
QStringList gateWarnings(const ServerSpec &server);

} // namespace sb::ui
