#pragma once
// The Design tab: servers list (+ hook check) | the selected server's form | the sweep and
// workload form, in a splitter whose panes keep their minimum widths.
// Every edit re-runs validateSpec (coalesced on a zero-delay timer); errors appear beside their
// fields, and isValid() gates the Run action.
#include "spec/SpecDiagnostic.h"
#include "spec/SweepSpec.h"
#include <QPointer>
#include <QHash>
#include <QWidget>

class QLabel;
class QPushButton;
class QListView;
class QSplitter;
class QTableView;
class QTimer;

namespace sb {
class HookPreflight;
}

namespace sb::ui {

class HookCheckModel;
class ServerEditor;
class SpecHistory;
class ServerTableModel;
class WorkloadForm;

class DesignTab : public QWidget
{
    Q_OBJECT
public:
    explicit DesignTab(QWidget *parent = nullptr);
    ~DesignTab() override;

    void setSpec(const SweepSpec &spec); // bulk load; validates at once
    SweepSpec spec() const;               // the spec as edited now
    static SweepSpec newSpec();           // what File > New shows: one mock server, 1..8

    bool isValid() const { return m_valid; }
    QList<SpecDiagnostic> diagnostics() const { return m_diagnostics; }
    void validateNow();

    ServerTableModel *serverModel() const { return m_servers; }
    HookCheckModel *hookCheckModel() const { return m_checkModel; }
    QListView *serverView() const { return m_serverView; }
    QTableView *hookCheckView() const { return m_checkView; }
    QLabel *problemsLabel() const { return m_problems; }
    QSplitter *splitter() const { return m_splitter; }
    void selectServer(int row);
    int currentServer() const { return currentRow(); }
    ServerEditor *serverEditor() const { return m_editor; }
    WorkloadForm *workloadForm() const { return m_form; }
    SpecHistory *history() const { return m_history; } // undo and redo of every edit
    bool isCheckingHooks() const;
    // Servers the last hook check found not answering, as long as where they are reached (URLs,
    // mock, launch command) is unchanged since: a run would spend the other servers' cells
    // before failing theirs.
    QStringList serversThatDidNotAnswer() const;

public Q_SLOTS:
    void checkHooks();
    void addServer();
    void duplicateServer();
    void removeServer();

Q_SIGNALS:
    void validityChanged(bool valid);
    void specEdited();
    void hookCheckFinished();
    void statusMessage(const QString &text);

private:
    QWidget *buildServersPane();
    void scheduleValidation();
    void restoreSpec(const SweepSpec &spec); // an undo or redo step: like setSpec, keeping the history and the selection
    void onSelectionChanged();
    void showDiagnostics();
    int currentRow() const;
    QString fieldName(const QString &keyPath) const; // a diagnostic's key path as the user sees it

    SweepSpec m_base; // non-server fields not edited anywhere (e.g. sourcePath)
    SpecHistory *m_history = nullptr;
    ServerTableModel *m_servers = nullptr;
    HookCheckModel *m_checkModel = nullptr;
    QListView *m_serverView = nullptr;
    QSplitter *m_splitter = nullptr;
    QTableView *m_checkView = nullptr;
    ServerEditor *m_editor = nullptr;
    WorkloadForm *m_form = nullptr;
    QLabel *m_estimate = nullptr;
    QLabel *m_problems = nullptr;
    QLabel *m_advice = nullptr; // the check's advice, per server, beneath its table
    QPushButton *m_checkButton = nullptr;
    QTimer *m_validateTimer = nullptr;
    QPointer<HookPreflight> m_preflight;
    QHash<QString, QString> m_checkedTargets; // server → where the last check reached it
    QList<SpecDiagnostic> m_diagnostics;
    bool m_valid = false;
    bool m_pushingEditorEdit = false;
};

} // namespace sb::ui
