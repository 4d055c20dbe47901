// Reasoning and image figures in the charts' metric menu (charts/ChartsPanel): TTFO, reasoning
// tokens and image counts are offered once some cell of the shown sets stored them, and not for
// sets of plain answers, where they would be empty charts; the distribution pane offers TTFO for
// a cell whose records reasoned, likewise.
#include "TestSupport.h"
#include "charts/ChartsPanel.h"
#include "MetricMenu.h"
#include "charts/InteractiveChartView.h"
#include "metrics/MetricCatalogue.h"
#include "load/RecordLine.h"
#include "metrics/Stats.h"
#include "results/DistributionPane.h"
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
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

// records.jsonl as the load generator writes it: `count` answers whose first token comes at
// 10 ms; with `reasoned`, their answer (TTFO) at 60 ms after 12 thinking tokens, and one more
// answer that was all thinking (a TTFT, no TTFO).
QByteArray recordLines(int count, bool reasoned)
{
    QByteArray out;
    for (int i = 0; i < count + (reasoned ? 1 : 0); ++i) {
        RequestRecord r;
        r.ticket = i;
        r.sendNs = 1'000'000'000;
        r.firstTokenNs = r.sendNs + 10'000'000;
        const bool allThinking = reasoned && i == count;
        r.firstOutputNs = allThinking ? -1 : r.sendNs + (reasoned ? 60'000'000 : 10'000'000);
        r.lastTokenNs = r.endNs = r.sendNs + 200'000'000;
        r.status = 200;
        r.outputTokens = 20;
        r.reasoningTokens = reasoned ? (allThinking ? 20 : 12) : -1;
        RecordLineInput in;
        in.record = &r;
        in.requestId = "x";
        appendRecordLine(out, in);
    }
    return out;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
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

    // The distribution pane, in a real window: TTFO is a choice for records whose answers
    // reasoned (drawn from ttfo_ms, the all-thinking answer left out), and goes, back to TTFT,
    // for records of plain answers.
    void distributionOffersTtfoWhenAnswersReasoned()
    {
        QTemporaryDir dir;
        const QString reasoned = dir.filePath(QStringLiteral("reasoned.jsonl")), plain = dir.filePath(QStringLiteral("plain.jsonl"));
        QVERIFY(writeFile(reasoned, recordLines(6, true)));
        QVERIFY(writeFile(plain, recordLines(4, false)));
        DistributionPane pane;
        pane.resize(800, 500);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QComboBox *metric = pane.metricChoice();
        QCOMPARE(metric->findData(tag::ttfo), -1);
        QSignalSpy loaded(&pane, &DistributionPane::loaded);
        pane.setRecordsFile(reasoned, QStringLiteral("vllm C=1"));
        QVERIFY(sbtest::waitForSignal(loaded, 10000));
        QVERIFY(pane.samples().reasoned);
        const int at = metric->findData(tag::ttfo);
        QVERIFY(at >= 0);
        QCOMPARE(metric->itemText(at), metricLabel(tag::ttfo));
        QCOMPARE(pane.shownSamples(), 7); // TTFT: every answer
        metric->setCurrentIndex(at);
        QCOMPARE(pane.shownSamples(), 6); // TTFO: not the answer that was all thinking
        QVERIFY2(pane.chartView()->chart()->title().contains(metricLabel(tag::ttfo)), qPrintable(pane.chartView()->chart()->title()));
        for (double v : pane.samples().ttfoMs)
            QCOMPARE(v, 60.0);

        loaded.clear();
        pane.setRecordsFile(plain, QStringLiteral("plain C=1"));
        QVERIFY(sbtest::waitForSignal(loaded, 10000));
        QVERIFY(!pane.samples().reasoned);
        QCOMPARE(metric->findData(tag::ttfo), -1);
        QCOMPARE(metric->currentData().toString(), tag::ttft);
        QCOMPARE(pane.shownSamples(), 4);
        QVERIFY2(pane.chartView()->chart()->title().contains(metricLabel(tag::ttft)), qPrintable(pane.chartView()->chart()->title()));
    }
};

QTEST_MAIN(TstReasoningCharts)
#include "tst_reasoning_charts.moc"
