#pragma once
// The workbench window: four tabs (Design, Run, Results, Compare), menus, toolbar, status bar,
// recent files and drag-and-drop. It only wires the tabs together; each tab is its own class.
#include "spec/SweepSpec.h"
#include <QMainWindow>
#include <QPointer>

class QAction;
class QLabel;
class QTabWidget;

namespace sb::ui {

class CompareView;
class ResultsView;

class DesignTab;
class HelpBrowser;
class ElidedLabel;
class RecentFiles;
class RunTab;
struct SpecTemplate;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Tab { DesignIndex, RunIndex, ResultsIndex, CompareIndex };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // A spec (opens Design) or a result set (opens Results). Errors go to a message box unless
    // `quiet`, and to *error. Returns false when nothing was opened.
    bool openPath(const QString &path, QString *error = nullptr, bool quiet = false);
    // A file given on the command line could not be opened: said in the window (a non-blocking
    // message box and the status bar), not only on stderr.
    void announceOpenFailure(const QString &message);
    void setSpec(const SweepSpec &spec, const QString &path = QString());
    bool saveSpecTo(const QString &path, QString *error = nullptr);
    bool startRun(const QString &outDir = QString()); // runs the Design tab's spec

    DesignTab *designTab() const { return m_design; }
    RunTab *runTab() const { return m_run; }
    ResultsView *resultsView() const { return m_results; }
    CompareView *compareView() const { return m_compare; }
    QTabWidget *tabs() const { return m_tabs; }
    QAction *action(const QString &objectName) const; // "actionRun", "actionSave", ...
    // Help › User guide (F1): the bundled docs, at the document that explains the current tab.
    void showHelp();
    HelpBrowser *helpBrowser() const; // null until F1

Q_SIGNALS:
    // File > Export report…: the app wires the exporter (sweepbench export) to this.
    void exportReportRequested(const QString &resultsFolder);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildActions();
    void buildMenusAndToolbar();
    void updateActions();
    void updateTitle();
    void refreshIcons();
    bool maybeSave();
    // When the last hook check found servers not answering: asks whether to run without them
    // (removed from *spec), run all, or cancel (false).
    bool confirmUnansweredServers(SweepSpec *spec);
    // After a result set opened in Results: loads the sweep that made it into an untouched,
    // untitled designer, else says where it is. Returns the status line to show ("" for none).
    QString offerSweepOfResults(const QString &resultsPath);
    void newSpec();
    void newFromTemplate(const SpecTemplate &t);
    void open();
    void openResultsFolder();
    void addToCompare();
    bool save();
    bool saveAs();
    void exportReport();
    void exportClusterJob();
    void about();

    QTabWidget *m_tabs = nullptr;
    DesignTab *m_design = nullptr;
    RunTab *m_run = nullptr;
    ResultsView *m_results = nullptr;
    CompareView *m_compare = nullptr;
    RecentFiles *m_recent = nullptr;
    QPointer<HelpBrowser> m_help;
    ElidedLabel *m_specState = nullptr; // the sweep estimate, elided at small widths
    QString m_specPath;
    bool m_modified = false;
    QList<QAction *> m_actions;
};

} // namespace sb::ui
