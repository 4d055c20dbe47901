// Renders the Results and Compare views with fixture data. Checks they paint; with
// SWEEPBENCH_SCREENSHOT_DIR set, also saves the pictures there for a human look (docs, reviews).
#include "ResultsFixture.h"
#include "ScreenshotSupport.h"
#include "TestSupport.h"
#include "charts/ChartsPanel.h"
#include "compare/CompareView.h"
#include "results/DistributionPane.h"
#include "results/ResultsView.h"
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::ui;

class TestResultsScreenshots : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

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
