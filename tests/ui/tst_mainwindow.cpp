// Main window: tabs, actions and shortcuts, Run gating, open/save of specs, recent files,
// drag-and-drop classification, palette switch.
#include "FifoWatchdog.h"
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "../core/DiskFull.h"
#include "designer/DesignTab.h"
#include "designer/HookCheckModel.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/PathKind.h"
#include "results/ResultsView.h"
#include "results/ResultsWorkspace.h"
#include "charts/ChartsPanel.h"
#include <QDockWidget>
#include "spec/SpecIO.h"
#include "style/Theme.h"
#include <QAction>
#include <QLineEdit>
#include <QAbstractButton>
#include <QSignalSpy>
#include <QTimer>
#include "run/RunTab.h"
#include <cerrno>
#include <QApplication>
#include <QDir>
#include <QMenuBar>
#include <QSettings>
#include <QScreen>
#include <QSplitter>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QStatusBar>
#include <QFile>
#include <QMessageBox>
#include <QStatusBar>
#include "style/ElidedLabel.h"
#include <QStatusBar>
#include <QTest>
#include <sys/stat.h>

using namespace sb;
using namespace sb::ui;

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a throwaway location
        QApplication::setOrganizationName(QStringLiteral("SweepBenchTest"));
        QApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QSettings().clear();
    }
    void init() { sbtest::failOnQtWarnings(); }

    void tabsActionsAndShortcuts()
    {
        MainWindow w;
        QCOMPARE(w.tabs()->count(), 4);
        QCOMPARE(w.tabs()->tabText(MainWindow::DesignIndex).remove(QLatin1Char('&')), QStringLiteral("Design"));
        QCOMPARE(w.tabs()->tabText(MainWindow::CompareIndex).remove(QLatin1Char('&')), QStringLiteral("Compare"));
        const QList<QPair<QString, QKeySequence>> expected = {
            {QStringLiteral("actionNew"), QKeySequence(QStringLiteral("Ctrl+N"))},
            {QStringLiteral("actionOpen"), QKeySequence(QStringLiteral("Ctrl+O"))},
            {QStringLiteral("actionSave"), QKeySequence(QStringLiteral("Ctrl+S"))},
            {QStringLiteral("actionRun"), QKeySequence(QStringLiteral("Ctrl+R"))},
            {QStringLiteral("actionCancel"), QKeySequence(Qt::Key_Escape)},
        };
        for (const auto &[name, key] : expected) {
            QAction *a = w.action(name);
            QVERIFY2(a, qPrintable(name));
            QCOMPARE(a->shortcut(), key);
            QVERIFY2(!a->icon().isNull(), qPrintable(name + QStringLiteral(" has no icon")));
        }
        for (const char *name : {"actionSaveAs", "actionExportReport", "actionQuit", "actionCheckHooks", "actionDarkTheme", "actionAbout", "actionOpenResults"})
            QVERIFY2(w.action(QString::fromLatin1(name)), name);
        QStringList menus;
        for (QAction *m : w.menuBar()->actions())
            menus << m->text().remove(QLatin1Char('&'));
        QCOMPARE(menus, (QStringList{QStringLiteral("File"), QStringLiteral("Edit"), QStringLiteral("Run"), QStringLiteral("View"), QStringLiteral("Help")}));
        // The window fits the screen it opens on (the offscreen screen is small).
        const QRect screen = w.screen()->availableGeometry();
        QVERIFY2(w.width() <= screen.width() && w.height() <= screen.height(), qPrintable(QStringLiteral("%1x%2").arg(w.width()).arg(w.height())));
        // Nothing running: cancel is off; the default spec is valid: run is on.
        QVERIFY(!w.action(QStringLiteral("actionCancel"))->isEnabled());
        QVERIFY(w.action(QStringLiteral("actionRun"))->isEnabled());
    }

    // After a hook check in which a server did not answer, Run asks first: the others only (the
    // run then has no cell of the dead server), all, or nothing. A server whose URL changed
    // since the check is not judged by it.
    void runAfterAFailedCheckOffersToSkipTheDeadServer()
    {
        const quint16 port = sbtest::freePort(); // nothing listens there
        QVERIFY(port);
        SweepSpec spec = DesignTab::newSpec();
        spec.concurrency = {1};
        spec.workload.requestsPerCell = 4;
        spec.workload.inputTokens = 16;
        spec.workload.outputTokens = 4;
        ServerSpec dead = spec.servers.at(0);
        dead.name = QStringLiteral("dead-server");
        dead.mock.clear();
        dead.urls = {QStringLiteral("http://127.0.0.1:%1").arg(port)};
        spec.servers << dead;
        MainWindow w;
        w.setSpec(spec);
        QSignalSpy checked(w.designTab(), &DesignTab::hookCheckFinished);
        w.designTab()->checkHooks();
        QVERIFY(sbtest::waitForSignal(checked, 30000));
        QCOMPARE(w.designTab()->serversThatDidNotAnswer(), QStringList{QStringLiteral("dead-server")});

        // Cancel: nothing runs.
        QString question;
        const auto answer = [&question](const char *button) {
            QTimer::singleShot(0, [&question, button] {
                auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                QVERIFY(box && box->objectName() == QStringLiteral("unansweredServers"));
                question = box->text() + QLatin1Char('\n') + box->informativeText();
                for (QAbstractButton *b : box->buttons())
                    if (b->objectName() == QLatin1String(button) || (qstrcmp(button, "cancel") == 0 && box->buttonRole(b) == QMessageBox::RejectRole))
                        b->click();
            });
        };
        answer("cancel");
        QTemporaryDir out;
        QVERIFY(!w.startRun(out.filePath(QStringLiteral("cancelled"))));
        QVERIFY2(question.contains(QStringLiteral("dead-server did not answer")), qPrintable(question));
        QVERIFY(!w.runTab()->isRunning());

        // Run without it: only the mock's cell runs.
        answer("runWithout");
        QSignalSpy finished(w.runTab(), &RunTab::runFinished);
        QVERIFY(w.startRun(out.filePath(QStringLiteral("without"))));
        QVERIFY(sbtest::waitForSignal(finished, 60000));
        QCOMPARE(w.runTab()->results().serverNames(), QStringList{QStringLiteral("mock-vllm")});

        // Pointed elsewhere since the check: the old verdict no longer applies.
        w.designTab()->selectServer(1);
        auto *url = w.designTab()->findChild<QLineEdit *>(QStringLiteral("serverUrl"));
        QVERIFY(url && url->text().endsWith(QString::number(port)));
        url->selectAll();
        QTest::keyClicks(url, QStringLiteral("http://127.0.0.1:%1").arg(port == 65535 ? 65534 : port + 1)); // as typed
        QTRY_COMPARE(w.designTab()->spec().servers.at(1).urls.value(0), url->text());
        QCOMPARE(w.designTab()->hookCheckModel()->rowCount(), 2); // the check's rows are still shown
        QVERIFY(w.designTab()->serversThatDidNotAnswer().isEmpty());
    }

    // Opening results: Run must run what the window shows. An untouched untitled designer takes
    // the sweep the results came from; one holding the user's edits keeps them and says where
    // the results' sweep is.
    void openingResultsOffersTheirSweep()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(sbtest::sourcePath(QStringLiteral("tests/fixtures/sweepbench-results-1/results.json")),
                            dir.filePath(QStringLiteral("results.json"))));
        SweepSpec ran = DesignTab::newSpec();
        ran.name = QStringLiteral("from-results");
        ran.concurrency = {2, 4};
        QFile yaml(dir.filePath(QStringLiteral("sweep.yaml")));
        QVERIFY(yaml.open(QIODevice::WriteOnly) && yaml.write(saveSpecYaml(ran, SecretPolicy::Strip)) > 0);
        yaml.close();
        QString error;
        {
            MainWindow w;
            QVERIFY2(w.openPath(dir.path(), &error, true), qPrintable(error));
            QCOMPARE(w.designTab()->spec().name, QStringLiteral("from-results"));
            QCOMPARE(w.designTab()->spec().concurrency, (QList<int>{2, 4}));
            QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("now holds the sweep these results came from")),
                     qPrintable(w.statusBar()->currentMessage()));
        }
        MainWindow w;
        auto *output = w.designTab()->findChild<QSpinBox *>(QStringLiteral("outputTokens"));
        output->setValue(output->value() + 1); // the user's own work
        QVERIFY(w.windowTitle().contains(QLatin1Char('*')));
        const QString mine = w.designTab()->spec().name;
        QVERIFY2(w.openPath(dir.path(), &error, true), qPrintable(error));
        QCOMPARE(w.designTab()->spec().name, mine);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("still holds your unsaved sweep")),
                 qPrintable(w.statusBar()->currentMessage()));
    }

    void invalidSpecDisablesRun()
    {
        MainWindow w;
        auto *output = w.designTab()->findChild<QSpinBox *>(QStringLiteral("outputTokens"));
        output->setValue(0);
        w.designTab()->validateNow();
        QVERIFY(!w.action(QStringLiteral("actionRun"))->isEnabled());
        QVERIFY(!w.startRun());
        QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::DesignIndex));
        output->setValue(16);
        w.designTab()->validateNow();
        QVERIFY(w.action(QStringLiteral("actionRun"))->isEnabled());
        QVERIFY(w.windowTitle().contains(QLatin1Char('*')));
    }

    // The status bar's sweep estimate elides at 1024 px instead of running off the window, and
    // keeps the whole text in its tooltip; with room it is shown whole.
    void statusEstimateElidesInSmallWindows()
    {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *estimate = w.findChild<ElidedLabel *>(QStringLiteral("specState"));
        QVERIFY(estimate);
        QTRY_VERIFY(!estimate->fullText().isEmpty());
        w.statusBar()->setMinimumWidth(0);
        const int needed = estimate->fontMetrics().horizontalAdvance(estimate->fullText());
        QVERIFY2(needed > 700, qPrintable(estimate->fullText())); // long enough to need eliding here
        QTRY_VERIFY(estimate->text().endsWith(QStringLiteral("…")));
        QCOMPARE(estimate->toolTip(), estimate->fullText());
        QVERIFY(estimate->geometry().right() <= w.statusBar()->width());
        QCOMPARE(w.width(), 1024); // the label did not widen the window
        // A temporary message gets the whole bar; the estimate comes back after it.
        w.statusBar()->showMessage(QStringLiteral("Saved /tmp/x.yaml"));
        QVERIFY(!estimate->isVisible());
        w.statusBar()->clearMessage();
        QVERIFY(estimate->isVisible());
        w.resize(2400, 700);
        QTRY_COMPARE(estimate->text(), estimate->fullText());
    }

    void saveOpenAndRecent()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.yaml"));
        MainWindow w;
        SweepSpec spec = DesignTab::newSpec();
        spec.name = QStringLiteral("saved-sweep");
        spec.concurrency = {3, 6};
        w.setSpec(spec);
        QString error;
        QVERIFY2(w.saveSpecTo(path, &error), qPrintable(error));
        QVERIFY(w.windowTitle().startsWith(QLatin1String("s.yaml")));

        // A save that cannot be written keeps the saved file and says why.
        const QByteArray saved = sbtest::readFile(path);
        spec.description = QString(400, QLatin1Char('d'));
        w.setSpec(spec);
        {
            sbtest::FileSizeLimit limit(rlim_t(saved.size()));
            QVERIFY(!w.saveSpecTo(path, &error));
        }
        QVERIFY2(error.contains(path) && error.contains(qt_error_string(EFBIG)), qPrintable(error));
        QCOMPARE(sbtest::readFile(path), saved);

        MainWindow other;
        QVERIFY2(other.openPath(path, &error, true), qPrintable(error));
        QCOMPARE(other.designTab()->spec().name, QStringLiteral("saved-sweep"));
        QCOMPARE(other.designTab()->spec().concurrency, (QList<int>{3, 6}));
        QCOMPARE(other.tabs()->currentIndex(), int(MainWindow::DesignIndex));
        const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
        QVERIFY(!recent.isEmpty());
        QCOMPARE(recent.first(), QFileInfo(path).absoluteFilePath());

        QVERIFY(!other.openPath(dir.filePath(QStringLiteral("notes.txt")), &error, true));
        QVERIFY(error.contains(QLatin1String("neither")));
    }

    // Open reads a spec like every command does (spec/SpecIO.h readSpecFile): a FIFO or a .yaml
    // symlink to /dev/zero is refused at once, naming the file, and the designer keeps its spec.
    void openRefusesASpecThatIsNotARegularFile()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe.yaml"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QString zero = dir.filePath(QStringLiteral("x.yaml"));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), zero));
        MainWindow w;
        const QString before = w.designTab()->spec().name;
        for (const auto &[path, expected] : {std::pair{fifo, QStringLiteral("pipe.yaml is a pipe (FIFO); only regular files are read")},
                                             std::pair{zero, QStringLiteral("x.yaml is a device; only regular files are read")}}) {
            sbtest::FifoWatchdog watchdog(fifo, 10);
            QString error;
            QVERIFY(!w.openPath(path, &error, true));
            QVERIFY2(!watchdog.fired(), "Open blocked on the FIFO");
            QVERIFY2(error.contains(path) && error.contains(expected), qPrintable(error));
            QCOMPARE(w.designTab()->spec().name, before);
        }
    }

    void specWithErrorsOpensToBeFixed()
    {
        QTemporaryDir dir;
        const auto write = [&](const QString &name, const QByteArray &yaml) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(yaml);
            return f.fileName();
        };
        const QByteArray head = "name: hand-edited\nservers:\n  - name: a\n    url: http://h:1\n    model: m\n";
        // A semantic error: it opens, shows the value as written and keeps Run off.
        const QString zero = write(QStringLiteral("zero.yaml"), head + "workload:\n  output_tokens: 0\nsweep:\n  concurrency: [2]\n");
        MainWindow w;
        QString error;
        QVERIFY2(w.openPath(zero, &error, true), qPrintable(error));
        QCOMPARE(w.designTab()->spec().name, QStringLiteral("hand-edited"));
        QCOMPARE(w.designTab()->findChild<QSpinBox *>(QStringLiteral("outputTokens"))->value(), 0);
        QVERIFY(!w.designTab()->isValid());
        QVERIFY(!w.action(QStringLiteral("actionRun"))->isEnabled());
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("1 error")), qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(!w.windowTitle().contains(QLatin1Char('*'))); // what is shown is what the file says
        // Fixed in place, it can run.
        w.designTab()->findChild<QSpinBox *>(QStringLiteral("outputTokens"))->setValue(8);
        w.designTab()->validateNow();
        QVERIFY(w.action(QStringLiteral("actionRun"))->isEnabled());

        // A value that cannot be read is refused with its line and column: opening would drop it.
        const QString typo = write(QStringLiteral("typo.yaml"), head + "workload:\n  output_tokens: many\nsweep:\n  concurrency: [2]\n");
        MainWindow other;
        QVERIFY(!other.openPath(typo, &error, true));
        QVERIFY2(error.contains(QStringLiteral("typo.yaml:7:")) && error.contains(QStringLiteral("output_tokens")), qPrintable(error));
        QVERIFY(other.designTab()->spec().name != QStringLiteral("hand-edited"));
        // Given on the command line, the failure is said in the window too, not only on stderr.
        other.show();
        other.announceOpenFailure(error);
        auto *box = other.findChild<QMessageBox *>(QStringLiteral("openFailure"));
        QVERIFY(box && box->isVisible());
        QVERIFY(box->text().contains(QStringLiteral("typo.yaml:7:")));
        QVERIFY(other.statusBar()->currentMessage().contains(QStringLiteral("typo.yaml")));
        box->close();

        // A negative count opens as written (the spin boxes take negatives for the validator
        // to report) ...
        const QString negative = write(QStringLiteral("negative.yaml"), head + "workload:\n  warmup_requests: -1\nsweep:\n  concurrency: [2]\n");
        MainWindow third;
        QVERIFY2(third.openPath(negative, &error, true), qPrintable(error));
        QCOMPARE(third.designTab()->spec().workload.warmupRequests, -1);
        QVERIFY(!third.designTab()->isValid());
        // ... but a semantic error the designer cannot show as written (an SLO box stops at 0,
        // "off") would open as a valid "off" and save so: refused with its line and column, and
        // what was open before stays, unchanged.
        const QString slo = write(QStringLiteral("slo.yaml"), head + "workload:\n  slo: {time_to_first_token: -5}\nsweep:\n  concurrency: [2]\n");
        const SweepSpec before = other.designTab()->spec();
        QVERIFY(!other.openPath(slo, &error, true));
        QVERIFY2(error.contains(QStringLiteral("slo.yaml:7:")) && error.contains(QStringLiteral("time_to_first_token")), qPrintable(error));
        QCOMPARE(saveSpecYaml(other.designTab()->spec(), SecretPolicy::Keep), saveSpecYaml(before, SecretPolicy::Keep));
        QVERIFY(!other.windowTitle().contains(QLatin1Char('*')));
    }

    void pathKinds()
    {
        QTemporaryDir dir;
        QCOMPARE(classifyPath(dir.path()), PathKind::Results);
        QCOMPARE(classifyPath(QStringLiteral("/x/a.YAML")), PathKind::Spec);
        QCOMPARE(classifyPath(QStringLiteral("/x/run.zip")), PathKind::Results);
        QCOMPARE(classifyPath(QStringLiteral("/x/a.txt")), PathKind::Unknown);
        QCOMPARE(resultsPathFor(dir.filePath(QStringLiteral("results.json"))), QFileInfo(dir.path()).absoluteFilePath());
    }

    // With SWEEPBENCH_SCREENSHOT_DIR set, saves pictures of the tabs for a look by eye.
    void screenshots()
    {
        const QString dir = qEnvironmentVariable("SWEEPBENCH_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set SWEEPBENCH_SCREENSHOT_DIR to save screenshots");
        MainWindow w;
        SweepSpec spec = DesignTab::newSpec();
        ServerSpec real;
        real.name = QStringLiteral("vllm-h100");
        real.urls = {QStringLiteral("http://gpu-01:8000")};
        real.model = QStringLiteral("meta-llama/Llama-3.1-8B-Instruct");
        real.flavor = Flavor::Vllm;
        real.apiKeyEnv = QStringLiteral("VLLM_API_KEY");
        real.reset.enabled = true;
        real.profiler.enabled = true;
        real.profiler.traceDir = QStringLiteral("/data/traces");
        spec.servers.prepend(real);
        ServerSpec trt = real;
        trt.name = QStringLiteral("trtllm");
        trt.urls = {QStringLiteral("http://gpu-02:8000")};
        trt.flavor = Flavor::Trtllm;
        trt.profiler.enabled = false;
        spec.servers.append(trt);
        spec.workload.slo.ttftMs = 250;
        w.setSpec(spec);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *output = w.designTab()->findChild<QSpinBox *>(QStringLiteral("inputTokens"));
        output->setValue(0); // show one inline error
        w.designTab()->validateNow();
        QTest::qWait(200);
        QVERIFY(w.grab().save(dir + QStringLiteral("/design.png")));
        w.tabs()->setCurrentIndex(MainWindow::RunIndex);
        QTest::qWait(200);
        QVERIFY(w.grab().save(dir + QStringLiteral("/run-idle.png")));
        w.tabs()->setCurrentIndex(MainWindow::DesignIndex);
        w.action(QStringLiteral("actionDarkTheme"))->trigger();
        QTest::qWait(200);
        QVERIFY(w.grab().save(dir + QStringLiteral("/design-dark.png")));
        w.action(QStringLiteral("actionDarkTheme"))->trigger();
    }

    // A geometry remembered on a large monitor does not open the window off a small screen: it
    // comes back only when it fits the available geometry, else the window takes the screen's size.
    void geometryFitsTheScreen()
    {
        QSettings().remove(QStringLiteral("mainWindow/geometry"));
        const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
        {
            MainWindow big;
            big.setMinimumSize(0, 0);
            big.setGeometry(0, 0, screen.width() * 2 + 400, screen.height() * 2 + 300);
            big.show();
            QVERIFY(QTest::qWaitForWindowExposed(&big));
            QVERIFY(big.width() > screen.width()); // the saved geometry really is oversized
            QVERIFY(big.close());                  // saved on close
        }
        QVERIFY(!QSettings().value(QStringLiteral("mainWindow/geometry")).toByteArray().isEmpty());
        {
            MainWindow w;
            QVERIFY2(screen.contains(w.geometry()), qPrintable(QStringLiteral("%1,%2 %3x%4 outside %5x%6")
                                                                     .arg(w.x()).arg(w.y()).arg(w.width()).arg(w.height())
                                                                     .arg(screen.width()).arg(screen.height())));
            QVERIFY(w.minimumWidth() <= screen.width() && w.minimumHeight() <= screen.height());
            // One that fits comes back as it was.
            w.setGeometry(screen.x() + 10, screen.y() + 20, screen.width() - 40, screen.height() - 60);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.close());
        }
        MainWindow again;
        QCOMPARE(again.size(), QSize(screen.width() - 40, screen.height() - 60));
        QCOMPARE(again.pos(), QPoint(screen.x() + 10, screen.y() + 20));
    }

    // Where the user puts the Results docks is where a new window puts them; "Reset layout"
    // brings back the default, a closed dock comes back from the View menu.
    void docksRemembered()
    {
        auto open = [](MainWindow &w) {
            w.resize(1400, 900);
            w.tabs()->setCurrentWidget(w.resultsView());
            w.resultsView()->setResults(sbtest::makeSweepResults(), QString());
            w.show();
            return QTest::qWaitForWindowExposed(&w);
        };
        QSettings().remove(QStringLiteral("results/docks"));
        int tableHeight = 0, cellWidth = 0;
        {
            MainWindow w;
            QVERIFY(open(w));
            ResultsWorkspace *ws = w.resultsView()->workspace();
            auto *charts = w.resultsView()->findChild<ChartsPanel *>(QStringLiteral("chartsPanel"));
            // The default gives the charts most of the height.
            QVERIFY2(charts->height() >= ws->height() / 2, qPrintable(QStringLiteral("%1 of %2").arg(charts->height()).arg(ws->height())));
            QVERIFY(!ws->tableDock()->isFloating() && !ws->cellDock()->isFloating());
            QCOMPARE(ws->dockWidgetArea(ws->tableDock()), Qt::BottomDockWidgetArea);
            // What a drag of the separators does.
            QTRY_VERIFY(charts->height() > ws->height() / 2); // the deferred default has been applied
            ws->resizeDocks({ws->tableDock()}, {ws->height() / 2}, Qt::Vertical);
            ws->resizeDocks({ws->cellDock()}, {300}, Qt::Horizontal);
            QTRY_VERIFY(qAbs(ws->tableDock()->height() - ws->height() / 2) < 20);
            tableHeight = ws->tableDock()->height();
            cellWidth = ws->cellDock()->width();
            QVERIFY(w.close()); // saved on close
        }
        MainWindow w;
        QVERIFY(open(w));
        ResultsWorkspace *ws = w.resultsView()->workspace();
        QTRY_COMPARE(ws->tableDock()->height(), tableHeight);
        QCOMPARE(ws->cellDock()->width(), cellWidth);

        // Closed with its ×: the View menu's toggle brings it back.
        ws->cellDock()->close();
        QVERIFY(!ws->cellDock()->isVisible());
        ws->cellDock()->toggleViewAction()->trigger();
        QVERIFY(ws->cellDock()->isVisible());

        // Floated and shrunk, then reset: docked again at the default shares.
        ws->cellDock()->setFloating(true);
        ws->resizeDocks({ws->tableDock()}, {100}, Qt::Vertical);
        w.action(QStringLiteral("actionResetLayout"))->trigger();
        QVERIFY(!ws->cellDock()->isFloating());
        QCOMPARE(ws->dockWidgetArea(ws->cellDock()), Qt::BottomDockWidgetArea);
        auto *charts = w.resultsView()->findChild<ChartsPanel *>(QStringLiteral("chartsPanel"));
        QTRY_VERIFY2(charts->height() >= ws->height() / 2, qPrintable(QString::number(charts->height())));
        QTRY_VERIFY(ws->tableDock()->height() > 200);
        QVERIFY2(ws->tableDock()->width() > ws->cellDock()->width(),
                 qPrintable(QStringLiteral("%1 vs %2").arg(ws->tableDock()->width()).arg(ws->cellDock()->width())));
    }

    void paletteToggle()
    {
        MainWindow w;
        QAction *dark = w.action(QStringLiteral("actionDarkTheme"));
        dark->trigger();
        QCOMPARE(currentTheme(), ThemeMode::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
        dark->trigger();
        QCOMPARE(currentTheme(), ThemeMode::Light);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 150);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
