// Reasoning and image figures in the charts' metric menu (charts/ChartsPanel): TTFO, reasoning
// tokens and image counts are offered once some cell of the shown sets stored them, and not for
// sets of plain answers, where they would be empty charts.
#include "TestSupport.h"
#include "charts/ChartsPanel.h"
#include "MetricMenu.h"
#include "charts/InteractiveChartView.h"
#include "metrics/MetricCatalogue.h"
#include "metrics/Stats.h"
#include <QComboBox>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {
SweepResults sweep(bool reasoned)
{
    SweepResults r;
    for (int i = 0; i < 3; ++i) {
        CellResult c;
        c.index = i;
        c.server = QStringLiteral("vllm");
        c.concurrency = 1 << i;
        c.completed = 10;
        std::vector<double> ttft{10.0 * (i + 1), 12.0 * (i + 1)}, ttfo{50.0 * (i + 1), 60.0 * (i + 1)}, reasoning{40, 44};
        c.metrics.insert(tag::ttft, computeStats(ttft, unit::ms));
        if (reasoned) {
            c.metrics.insert(tag::ttfo, computeStats(ttfo, unit::ms));
            c.metrics.insert(tag::reasoningTokens, computeStats(reasoning, unit::tokens));
        }
        r.cells.append(c);
    }
    return r;
}

} // namespace

class TstReasoningCharts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void menuOffersWhatCellsStored()
    {
        ChartsPanel panel;
        panel.resize(900, 600);
        panel.show();
        panel.setInputs({ChartSeriesInput{QString(), sweep(true), 0}});
        panel.flush();
        QVERIFY(sbtest::metricMenu(panel).contains(tag::ttfo));
        QVERIFY(sbtest::metricMenu(panel).contains(tag::reasoningTokens));
        QVERIFY(!sbtest::metricMenu(panel).contains(tag::imageCount));
        panel.setMetric(tag::ttfo, Stat::P50);
        panel.flush();
        QCOMPARE(panel.metric(), tag::ttfo);
        // TTFO is a latency axis choice too: throughput against it.
        auto *latency = panel.findChild<QComboBox *>(QStringLiteral("latencyChoice"));
        QVERIFY(latency);
        QVERIFY(latency->findData(int(LatencyChoice::TtfoP50)) >= 0 && latency->findData(int(LatencyChoice::TtfoP99)) >= 0);
        panel.setLatencyChoice(LatencyChoice::TtfoP50);
        panel.flush();
        QCOMPARE(latency->currentText(), QStringLiteral("TTFO p50"));
        QVERIFY2(panel.throughputView()->chart()->title().contains(QLatin1String("TTFO p50")), qPrintable(panel.throughputView()->chart()->title()));

        panel.setInputs({ChartSeriesInput{QString(), sweep(false), 0}});
        panel.flush();
        QVERIFY(!sbtest::metricMenu(panel).contains(tag::ttfo));
        QVERIFY(!sbtest::metricMenu(panel).contains(tag::reasoningTokens));
        QVERIFY(sbtest::metricMenu(panel).contains(tag::ttft));
        // Without TTFO in any cell the choice goes, and the chart falls back to TTFT p99.
        QCOMPARE(latency->findData(int(LatencyChoice::TtfoP50)), -1);
        QCOMPARE(latency->currentText(), QStringLiteral("TTFT p99"));
    }
};

QTEST_MAIN(TstReasoningCharts)
#include "tst_reasoning_charts.moc"
