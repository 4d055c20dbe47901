// Renders the Compare view as a user meets it (empty, two sets with repeats at 1600×1000 and
// 1024×700 window sizes, the difference table). Checks the pictures paint and the plot keeps
// its height; with SWEEPBENCH_SCREENSHOT_DIR set, also saves them there for a human look.
#include "ResultsFixture.h"
#include "ScreenshotSupport.h"
#include "TestSupport.h"
#include "charts/ChartPoints.h"
#include "charts/ChartsPanel.h"
#include "compare/CompareView.h"
#include "metrics/MetricCatalogue.h"
#include <QTabWidget>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {

// Two servers × {1, 4, 16, 64}, three runs per point with a little run-to-run noise; the tuned
// set is faster at high concurrency.
LoadedResults set(const QString &name, double speedup)
{
    LoadedResults l;
    l.displayName = name;
    int index = 0;
    for (int s = 0; s < 2; ++s)
        for (int c : {1, 4, 16, 64})
            for (int run = 0; run < 3; ++run) {
                CellResult cell = sbtest::makeCell(index++, s, c);
                const double noise = 1.0 + 0.02 * (run - 1);
                const double f = c >= 16 ? speedup : 1.0;
                cell.metrics[tag::outputThroughput].avg *= f * noise;
                MetricStats &t = cell.metrics[tag::ttft];
                t.p50 /= f / noise, t.p99 /= f / noise, t.avg /= f / noise;
                l.results.cells.append(cell);
            }
    return l;
}
} // namespace

class TestCompareScreenshots : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void empty()
    {
        CompareView view;
        view.resize(1024, 620);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        sbtest::saveScreenshot(&view, QStringLiteral("compare-empty.png"));
    }

    void twoSets_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1600x1000") << QSize(1600, 920);
        QTest::newRow("1024x700") << QSize(1024, 620);
    }
    void twoSets()
    {
        QFETCH(QSize, size);
        CompareView view;
        view.resize(size);
        view.addLoadedResults(set(QStringLiteral("my-sweep-2026-01-02T03-04-05-baseline-vllm-0.32"), 1.0));
        view.addLoadedResults(set(QStringLiteral("my-sweep-2026-01-02T05-06-07-chunked-prefill"), 1.3));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto *panel = view.findChild<ChartsPanel *>();
        panel->setMetric(tag::ttft, Stat::P99);
        panel->flush();
        Q_EMIT panel->pointClicked(ChartPointRef{1, 9}); // server-a, c=64 in the second set
        QVERIFY(panel->height() >= CompareView::kMinimumChartHeight);
        const QString suffix = QStringLiteral("-%1x%2.png").arg(size.width()).arg(size.height());
        sbtest::saveScreenshot(&view, QStringLiteral("compare-series") + suffix);
        view.findChildren<QTabWidget *>().last()->setCurrentIndex(1);
        sbtest::saveScreenshot(&view, QStringLiteral("compare-differences") + suffix);
    }
};

QTEST_MAIN(TestCompareScreenshots)
#include "tst_compare_screenshots.moc"
