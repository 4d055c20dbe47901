#include "mainwindow/MainWindow.h"
#include "mainwindow/SpecTemplates.h"
#include "compare/CompareView.h"
#include "designer/ClusterJobDialog.h"
#include "designer/DesignTab.h"
#include "designer/SpecHistory.h"
#include "help/HelpBrowser.h"
#include "text/SweepEstimate.h"
#include "io/DurableWrite.h"
#include "mainwindow/PathKind.h"
#include "mainwindow/RecentFiles.h"
#include "results/ResultsView.h"
#include "results/ResultsWorkspace.h"
#include "report/DisplayText.h"
#include "run/RunTab.h"
#include "spec/SpecIO.h"
#include "style/ElidedLabel.h"
#include "style/Theme.h"
#include "style/WindowMemory.h"
#include <algorithm>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QDockWidget>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>
#include <QWhatsThis>

namespace sb::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    initResources();
    m_design = new DesignTab;
    m_run = new RunTab;
    m_results = new ResultsView;
    m_compare = new CompareView;
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_design, tr("&Design"));
    m_tabs->addTab(m_run, tr("R&un"));
    m_tabs->addTab(m_results, tr("Re&sults"));
    m_tabs->addTab(m_compare, tr("&Compare"));
    setCentralWidget(m_tabs);
    setAcceptDrops(true);
    // Legible down to a 1024×700 screen; the window opens at its remembered geometry only when
    // that fits the screen it opens on, else at 1400×900 clamped to that screen.
    setMinimumSize(640, 480);
    restoreWindowGeometry(this, QStringLiteral("mainWindow/geometry"), QSize(1400, 900));

    buildActions();
    buildMenusAndToolbar();
    m_specState = new ElidedLabel;
    m_specState->setObjectName(QStringLiteral("specState"));
    statusBar()->addPermanentWidget(m_specState); // the estimate elides at small widths
    // A temporary message is drawn left of the permanent widgets: the estimate steps aside while
    // one shows, so "Saved …" is never squeezed to nothing in a small window.
    connect(statusBar(), &QStatusBar::messageChanged, m_specState, [this](const QString &m) { m_specState->setVisible(m.isEmpty()); });

    connect(m_design, &DesignTab::validityChanged, this, &MainWindow::updateActions);
    connect(m_design, &DesignTab::specEdited, this, [this] {
        m_modified = true;
        updateTitle();
        updateActions();
    });
    connect(m_design, &DesignTab::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_design, &DesignTab::hookCheckFinished, this, &MainWindow::updateActions);
    connect(m_run, &RunTab::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_compare, &CompareView::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_run, &RunTab::startRequested, this, [this] { startRun(); });
    connect(m_run, &RunTab::runningChanged, this, &MainWindow::updateActions);
    connect(m_run, &RunTab::cellFinished, m_results, &ResultsView::updateCell);
    connect(m_run, &RunTab::runFinished, this, [this](int exitCode, const QString &outDir) {
        m_results->setResults(m_run->results(), outDir);
        // Remembered when there are results to reopen: a run stopped by a write failure may
        // have none (the folder could not even be created).
        if (QFileInfo::exists(outDir + QStringLiteral("/results.json")))
            m_recent->add(outDir);
        if (exitCode == exitcode::kAllCompleted)
            m_tabs->setCurrentWidget(m_results);
        updateActions(); // the results folder now exists: Export becomes available
    });
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    auto make = [this](const char *name, const QString &text, const QString &icon, const QKeySequence &key,
                       auto slot) {
        auto *a = new QAction(text, this);
        a->setObjectName(QString::fromLatin1(name));
        a->setProperty("iconName", icon);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        m_actions << a;
        return a;
    };
    make("actionNew", tr("&New sweep"), QStringLiteral("new"), QKeySequence::New, [this] { newSpec(); });
    make("actionOpen", tr("&Open…"), QStringLiteral("open"), QKeySequence::Open, [this] { open(); });
    make("actionOpenResults", tr("Open results &folder…"), QStringLiteral("folder"), QKeySequence(tr("Ctrl+Shift+O")),
         [this] { openResultsFolder(); });
    make("actionAddToCompare", tr("Add result set to Co&mpare…"), QString(), {}, [this] { addToCompare(); });
    make("actionSave", tr("&Save"), QStringLiteral("save"), QKeySequence::Save, [this] { save(); });
    make("actionSaveAs", tr("Save &As…"), QString(), QKeySequence::SaveAs, [this] { saveAs(); });
    make("actionExportReport", tr("&Export report…"), QStringLiteral("export"), {}, [this] { exportReport(); });
    make("actionExportCluster", tr("Export as &cluster job…"), QString(), {}, [this] { exportClusterJob(); });
    make("actionQuit", tr("&Quit"), QString(), QKeySequence::Quit, [this] { close(); });
    make("actionRun", tr("&Run sweep"), QStringLiteral("run"), QKeySequence(tr("Ctrl+R")), [this] { startRun(); });
    make("actionCancel", tr("&Cancel run"), QStringLiteral("cancel"), QKeySequence(Qt::Key_Escape), [this] { m_run->cancel(); });
    make("actionCheckHooks", tr("Check &hooks"), QStringLiteral("check-hooks"), QKeySequence(tr("Ctrl+Shift+H")), [this] {
        m_tabs->setCurrentWidget(m_design);
        m_design->checkHooks();
        updateActions();
    });
    QAction *dark = make("actionDarkTheme", tr("&Dark palette"), QStringLiteral("theme"), QKeySequence(tr("Ctrl+Shift+D")), [this](bool on) {
        applyTheme(on ? ThemeMode::Dark : ThemeMode::Light);
        QSettings().setValue(QStringLiteral("darkTheme"), on);
        refreshIcons();
    });
    dark->setCheckable(true);
    dark->setChecked(currentTheme() == ThemeMode::Dark);
    make("actionResetLayout", tr("&Reset results layout"), QString(), {}, [this] {
        m_tabs->setCurrentWidget(m_results);
        m_results->workspace()->resetLayout();
    });
    action(QStringLiteral("actionResetLayout"))
        ->setToolTip(tr("Charts on top, the cell table and the selected cell's pane docked beneath, at their default sizes"));
    make("actionAbout", tr("&About SweepBench"), QString(), {}, [this] { about(); });
    make("actionUserGuide", tr("&User guide"), QString(), QKeySequence::HelpContents, [this] { showHelp(); });
    QAction *whatsThis = QWhatsThis::createAction(this);
    whatsThis->setObjectName(QStringLiteral("actionWhatsThis"));
    whatsThis->setToolTip(tr("Then click a field of the designer: what its spec key means, its type and default (Shift+F1)"));
    m_actions << whatsThis;
    // Every designer edit is a step (designer/SpecHistory): a removed server comes back.
    QUndoStack *history = m_design->history()->stack();
    QAction *undo = history->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("actionUndo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = history->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("actionRedo"));
    redo->setShortcut(QKeySequence::Redo);
    m_actions << undo << redo;
    action(QStringLiteral("actionRun"))->setToolTip(tr("Run the sweep designed in the Design tab (Ctrl+R)"));
    action(QStringLiteral("actionCancel"))->setToolTip(tr("Cancel the running sweep; profilers are still stopped (Esc)"));
    refreshIcons();
}

void MainWindow::buildMenusAndToolbar()
{
    auto a = [this](const char *name) { return action(QString::fromLatin1(name)); };
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(a("actionNew"));
    QMenu *templates = file->addMenu(tr("New from &template"));
    templates->setObjectName(QStringLiteral("templatesMenu"));
    for (const SpecTemplate &t : specTemplates()) {
        QAction *act = templates->addAction(t.title);
        act->setObjectName(t.id);
        connect(act, &QAction::triggered, this, [this, t] { newFromTemplate(t); });
    }
    file->addActions({a("actionOpen"), a("actionOpenResults")});
    m_recent = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(m_recent, &RecentFiles::openRequested, this, [this](const QString &p) { openPath(p); });
    file->addSeparator();
    file->addActions({a("actionSave"), a("actionSaveAs"), a("actionExportCluster")});
    file->addSeparator();
    file->addActions({a("actionAddToCompare"), a("actionExportReport")});
    file->addSeparator();
    file->addAction(a("actionQuit"));
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addActions({a("actionUndo"), a("actionRedo")});
    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addActions({a("actionRun"), a("actionCancel"), a("actionCheckHooks")});
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(a("actionDarkTheme"));
    view->addSeparator();
    // A dock closed with its × comes back here.
    view->addActions({m_results->workspace()->tableDock()->toggleViewAction(), m_results->workspace()->cellDock()->toggleViewAction()});
    view->addAction(a("actionResetLayout"));
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addActions({a("actionUserGuide"), a("actionWhatsThis")});
    help->addSeparator();
    help->addAction(a("actionAbout"));

    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setIconSize(QSize(22, 22));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addActions({a("actionNew"), a("actionOpen"), a("actionSave")});
    bar->addSeparator();
    bar->addActions({a("actionRun"), a("actionCancel"), a("actionCheckHooks")});
    bar->addSeparator();
    bar->addActions({a("actionExportReport"), a("actionDarkTheme")});
}

QAction *MainWindow::action(const QString &objectName) const
{
    for (QAction *a : m_actions)
        if (a->objectName() == objectName)
            return a;
    return nullptr;
}

void MainWindow::refreshIcons()
{
    for (QAction *a : std::as_const(m_actions))
        if (const QString icon = a->property("iconName").toString(); !icon.isEmpty())
            a->setIcon(themedIcon(icon));
}

void MainWindow::updateActions()
{
    const bool running = m_run->isRunning();
    const bool valid = m_design->isValid();
    action(QStringLiteral("actionRun"))->setEnabled(valid && !running);
    action(QStringLiteral("actionCancel"))->setEnabled(running);
    action(QStringLiteral("actionCheckHooks"))->setEnabled(!m_design->isCheckingHooks());
    action(QStringLiteral("actionExportReport"))->setEnabled(!m_results->folder().isEmpty());
    const SweepSpec spec = m_design->spec();
    m_run->setSpecForDisplay(spec);
    m_specState->setFullText(running ? tr("Running…")
                                     : valid ? QStringLiteral("✓ ") + estimateText(spec) : tr("✗ the spec has errors (see Design)"));
}

void MainWindow::updateTitle()
{
    const QString name = m_specPath.isEmpty() ? tr("untitled.yaml") : QFileInfo(m_specPath).fileName();
    setWindowTitle(QStringLiteral("%1%2 — SweepBench").arg(name, m_modified ? QStringLiteral("*") : QString()));
}

void MainWindow::setSpec(const SweepSpec &spec, const QString &path)
{
    m_design->setSpec(spec);
    m_specPath = path;
    m_modified = false;
    updateTitle();
    updateActions();
}

namespace {
// The YAML lines of `written` that `shown` (what the designer holds after showing it) lacks:
// values a widget's range changed.
QStringList linesNotShownAsWritten(const SweepSpec &written, const SweepSpec &shown)
{
    const QList<QByteArray> mine = saveSpecYaml(shown, SecretPolicy::Strip).split('\n');
    QStringList out;
    for (const QByteArray &line : saveSpecYaml(written, SecretPolicy::Strip).split('\n'))
        if (!mine.contains(line))
            out << QString::fromUtf8(line.trimmed());
    return out;
}
} // namespace

bool MainWindow::openPath(const QString &path, QString *error, bool quiet)
{
    QString message;
    bool ok = false;
    int openedWithErrors = 0; // a spec opened to have its errors fixed
    QString clampedNote;      // a spec opened with values the designer shows changed
    QString resultsNote;      // results opened: what became of the designer's sweep
    switch (classifyPath(path)) {
    case PathKind::Spec: {
        const SpecLoadResult loaded = loadSpecFile(path);
        if (!loaded.ok() && !loaded.draft) { // a value could not be read: opening would drop it
            QStringList lines;
            for (const SpecDiagnostic &d : loaded.diagnostics)
                lines << d.toString();
            message = tr("Could not open the sweep %1:\n%2").arg(path, lines.join(QLatin1Char('\n')));
            break;
        }
        if (!maybeSave())
            return false;
        // Only semantic errors (a zero, a duplicate name): open it so they can be fixed here; the
        // designer lists them at their fields and keeps Run off until they are.
        const SweepSpec &fromFile = loaded.ok() ? *loaded.spec : *loaded.draft;
        const SweepSpec before = m_design->spec();
        const QString beforePath = m_specPath;
        const bool beforeModified = m_modified;
        setSpec(fromFile, QFileInfo(path).absoluteFilePath());
        // A widget's range can clamp a value (a negative warmup count shows as 0): the designer
        // would then show, and save, what the file does not say.
        const QStringList changed = linesNotShownAsWritten(fromFile, m_design->spec());
        if (!changed.isEmpty() && !loaded.ok()) {
            setSpec(before, beforePath);
            m_modified = beforeModified;
            updateTitle();
            QStringList lines;
            for (const SpecDiagnostic &d : loaded.diagnostics)
                lines << d.toString();
            message = tr("Could not open the sweep %1:\n%2").arg(path, lines.join(QLatin1Char('\n')));
            break;
        }
        if (!changed.isEmpty()) {
            m_modified = true; // what is shown is not what the file says
            updateTitle();
            clampedNote = tr("Some values are outside what the designer edits and are shown changed (saving writes "
                             "them changed): %1").arg(changed.join(QStringLiteral(", ")));
        }
        m_tabs->setCurrentWidget(m_design);
        ok = true;
        if (!loaded.ok())
            openedWithErrors = int(std::count_if(loaded.diagnostics.begin(), loaded.diagnostics.end(),
                                                 [](const SpecDiagnostic &d) { return d.isError(); }));
        break;
    }
    case PathKind::Results: {
        const QString target = resultsPathFor(path);
        if (m_tabs->currentWidget() == m_compare) {
            ok = m_compare->addResultSet(target, &message);
        } else if ((ok = m_results->openResults(target, &message))) {
            m_tabs->setCurrentWidget(m_results);
            resultsNote = offerSweepOfResults(target);
        }
        if (!ok)
            message = tr("Could not open the results %1:\n%2").arg(target, message);
        break;
    }
    case PathKind::Unknown:
        message = tr("%1 is neither a sweep spec (.yaml) nor a result set (folder, .zip, .json)").arg(path);
        break;
    }
    if (ok) {
        m_recent->add(path);
        if (!clampedNote.isEmpty()) {
            statusBar()->showMessage(clampedNote);
            if (!quiet)
                QMessageBox::warning(this, tr("Open"), clampedNote);
        } else if (!resultsNote.isEmpty()) {
            statusBar()->showMessage(resultsNote, 15000);
        } else if (openedWithErrors > 0) {
            statusBar()->showMessage(tr("Opened %1 with %n error(s) to fix before it can run", nullptr, openedWithErrors)
                                         .arg(QDir::toNativeSeparators(path)), 15000);
        } else {
            statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
        }
    } else if (!quiet) {
        QMessageBox::warning(this, tr("Open"), message);
    }
    if (error)
        *error = message;
    updateActions();
    return ok;
}

void MainWindow::announceOpenFailure(const QString &message)
{
    statusBar()->showMessage(QString(message).replace(QLatin1Char('\n'), QLatin1Char(' ')), 0);
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Open"), message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("openFailure"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // window-modal, returns at once: the window behind stays usable for Open…
}

bool MainWindow::saveSpecTo(const QString &path, QString *error)
{
    SweepSpec spec = m_design->spec();
    // Every write, the fsync and the rename checked: a failed save keeps the previous file.
    if (!writeFileAtomically(path, saveSpecYaml(spec, SecretPolicy::Keep), error))
        return false;
    m_specPath = QFileInfo(path).absoluteFilePath();
    m_modified = false;
    m_recent->add(path);
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool MainWindow::startRun(const QString &outDir)
{
    m_design->validateNow();
    if (!m_design->isValid()) {
        m_tabs->setCurrentWidget(m_design);
        statusBar()->showMessage(tr("Fix the errors in the Design tab before running"), 8000);
        return false;
    }
    SweepSpec spec = m_design->spec();
    if (!confirmUnansweredServers(&spec))
        return false;
    m_results->clear();
    m_tabs->setCurrentWidget(m_run);
    const bool started = m_run->start(spec, outDir);
    updateActions();
    return started;
}

bool MainWindow::maybeSave()
{
    if (!m_modified)
        return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved sweep"), tr("The sweep has unsaved changes. Save them first?"),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newSpec()
{
    if (!maybeSave())
        return;
    setSpec(DesignTab::newSpec());
    m_tabs->setCurrentWidget(m_design);
}

void MainWindow::newFromTemplate(const SpecTemplate &t)
{
    if (!maybeSave())
        return;
    QString error;
    const std::optional<SweepSpec> spec = loadTemplate(t, &error);
    if (!spec) {
        QMessageBox::warning(this, tr("Template"), tr("The template could not be read: %1").arg(error));
        return;
    }
    setSpec(*spec);
    m_tabs->setCurrentWidget(m_design);
}

void MainWindow::open()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a sweep or results"), QString(),
                                                      tr("Sweeps and results (*.yaml *.yml *.zip *.json *.jsonl);;Sweep specs (*.yaml *.yml);;"
                                                         "Results (results.json *.zip *.json *.jsonl)"));
    if (!path.isEmpty())
        openPath(path);
}

void MainWindow::openResultsFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a results folder"));
    if (!dir.isEmpty())
        openPath(dir);
}

void MainWindow::addToCompare()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Add a results folder to Compare"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_compare->addResultSet(path, &error))
        QMessageBox::warning(this, tr("Compare"), error);
    m_tabs->setCurrentWidget(m_compare);
}

bool MainWindow::save()
{
    if (m_specPath.isEmpty() || m_specPath.startsWith(QLatin1Char(':')))
        return saveAs();
    QString error;
    if (!saveSpecTo(m_specPath, &error)) {
        QMessageBox::warning(this, tr("Save"), tr("Could not save %1: %2").arg(m_specPath, error));
        return false;
    }
    return true;
}

bool MainWindow::saveAs()
{
    const QString suggested = m_design->spec().name.isEmpty() ? QStringLiteral("sweep.yaml") : m_design->spec().name + QStringLiteral(".yaml");
    const QString path = QFileDialog::getSaveFileName(this, tr("Save sweep"), suggested, tr("Sweep specs (*.yaml *.yml)"));
    if (path.isEmpty())
        return false;
    QString error;
    if (!saveSpecTo(path, &error)) {
        QMessageBox::warning(this, tr("Save"), tr("Could not save %1: %2").arg(path, error));
        return false;
    }
    return true;
}

void MainWindow::exportReport()
{
    if (!m_results->folder().isEmpty())
        Q_EMIT exportReportRequested(m_results->folder());
}

void MainWindow::exportClusterJob()
{
    // The jobs name the spec file: it must be saved (and current) first.
    if ((m_specPath.isEmpty() || m_specPath.startsWith(QLatin1Char(':')) || m_modified) && !save())
        return;
    ClusterJobDialog dialog(m_design->spec(), m_specPath, this);
    dialog.exec();
}

HelpBrowser *MainWindow::helpBrowser() const
{
    return m_help;
}

void MainWindow::showHelp()
{
    if (!m_help) {
        m_help = new HelpBrowser(this);
        m_help->setAttribute(Qt::WA_DeleteOnClose);
    }
    // The designer's fields are the spec's keys; every other tab is the user guide's.
    m_help->showDocument(m_tabs->currentWidget() == m_design ? QStringLiteral("docs/spec-reference.md") : QStringLiteral("README.md"));
    m_help->show();
    m_help->activateWindow(); // F1 again brings an open guide forward
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About SweepBench"),
                       tr("<h3>SweepBench %1</h3><p>Benchmark workbench for LLM inference servers: design a sweep, "
                          "watch it run, compare servers — with every cache reset and profiler window recorded.</p>")
                           .arg(QStringLiteral(SWEEPBENCH_VERSION)));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_run->isRunning()
        && QMessageBox::question(this, tr("Quit"), tr("A sweep is running. Cancel it and quit?")) != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    saveWindowGeometry(this, QStringLiteral("mainWindow/geometry"));
    m_results->workspace()->saveLayout();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile() && classifyPath(urls.first().toLocalFile()) != PathKind::Unknown)
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty())
        return;
    event->acceptProposedAction();
    openPath(urls.first().toLocalFile());
}

} // namespace sb::ui
