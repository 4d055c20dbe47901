// Renders the Results and Compare views with fixture data. Checks they paint; with
// SWEEPBENCH_SCREENSHOT_DIR set, also saves the pictures there for a human look (docs, reviews).
#include "ResultsFixture.h"
#include "ScreenshotSupport.h"
#include "TestSupport.h"
#include "charts/ChartsPanel.h"
#include "compare/CompareView.h"
#include "results/DistributionPane.h"
#include "results/ResultsView.h"
#include "mainwindow/MainWindow.h"
#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::ui;

class TestResultsScreenshots : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // remembered splitters and geometry go to a throwaway place
        QApplication::setOrganizationName(QStringLiteral("SweepBenchTest"));
        QApplication::setApplicationName(QStringLiteral("tst_results_screenshots"));
        QSettings().clear();
    }
    void init() { sbtest::failOnQtWarnings(); }

    // The whole window as a user meets it after a request-rate sweep with repeats, at a laptop
    // and a desktop size, every side tab in turn.
    void mainWindow_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1600x1000") << QSize(1600, 1000);
        QTest::newRow("1024x700") << QSize(1024, 700);
    }
    void mainWindow()
    {
        QFETCH(QSize, size);
        QTemporaryDir dir;
        const SweepResults r = sbtest::makeRateSweepResults();
        QVERIFY(sbtest::writeRecords(dir.path(), r.cells.at(2).recordsPath, 2000));
        QSettings().remove(QStringLiteral("results/docks")); // each size starts from the default arrangement
        MainWindow w;
        w.resize(size);
        w.resultsView()->setResults(r, dir.path());
        w.tabs()->setCurrentWidget(w.resultsView());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(0); // the docks take their default shares once the window is laid out
        const QString tag = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        sbtest::saveScreenshot(&w, QStringLiteral("main-results-%1-none.png").arg(tag));
        // The charts get the room: at least half the window's height on a desktop screen.
        auto *charts = w.resultsView()->findChild<ChartsPanel *>(QStringLiteral("chartsPanel"));
        if (size.height() >= 1000)
            QVERIFY2(charts->height() >= size.height() / 2, qPrintable(QString::number(charts->height())));
        QVERIFY2(charts->height() >= 300, qPrintable(QString::number(charts->height()))); // readable at 1024×700 too
        w.resultsView()->selectCell(2);
        QTRY_VERIFY(!w.findChild<DistributionPane *>()->isLoading());
        auto *side = w.resultsView()->findChild<QTabWidget *>(QStringLiteral("cellTabs"));
        for (int i = 0; i < side->count(); ++i) {
            side->setCurrentIndex(i);
            sbtest::saveScreenshot(&w, QStringLiteral("main-results-%1-tab%2.png").arg(tag).arg(i));
        }
    }

    void resultsView()
    {
        QTemporaryDir dir;
        SweepResults r = sbtest::makeSweepResults();
        r.cells[12].failed = 4;
        r.cells[12].errors.insert(QStringLiteral("timeout"), 4);
        r.cells[12].errorSamples.insert(QStringLiteral("timeout"), QStringLiteral("no response within 600 s"));
        QVERIFY(sbtest::writeRecords(dir.path(), r.cells.at(3).recordsPath, 2000));
        ResultsView view;
        view.resize(1400, 900);
        view.setResults(r, dir.path());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.selectCell(3);
        auto *pane = view.findChild<DistributionPane *>();
        QTRY_VERIFY(!pane->isLoading());
        sbtest::saveScreenshot(&view, QStringLiteral("results-view.png"));
        auto *tabs = view.findChild<QTabWidget *>();
        tabs->setCurrentIndex(1);
        sbtest::saveScreenshot(&view, QStringLiteral("results-view-distribution.png"));
    }

    void compareView()
    {
        CompareView view;
        view.resize(1400, 700);
        for (int i = 0; i < 2; ++i) {
            LoadedResults l;
            l.results = sbtest::makeSweepResults(2);
            if (i == 1)
                for (CellResult &c : l.results.cells)
                    c.metrics[QStringLiteral("output_token_throughput")].avg *= 1.25;
            l.displayName = i == 0 ? QStringLiteral("baseline") : QStringLiteral("chunked-prefill");
            view.addLoadedResults(l);
        }
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.findChild<ChartsPanel *>()->flush();
        sbtest::saveScreenshot(&view, QStringLiteral("compare-view.png"));
    }
};

QTEST_MAIN(TestResultsScreenshots)
#include "tst_results_screenshots.moc"
