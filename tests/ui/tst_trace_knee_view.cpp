// The knee in the GUI (charts/ChartsPanel): with profiled cells the panel shows the knee
// sentence under the charts as plain text and offers the engine-step figures in its metric
// menu; without traces neither appears. The same panel serves Results and Compare.
#include "TestSupport.h"
#include "charts/ChartsPanel.h"
#include "style/ElidedLines.h"
#include "MetricMenu.h"
#include "metrics/MetricCatalogue.h"
#include "metrics/Stats.h"
#include "report/ReportCharts.h"
#include <QComboBox>
#include <QLabel>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {
SweepResults profiledSweep(const QString &server)
{
    SweepResults r;
    const QList<int> points{1, 2, 4, 8, 16};
    const QList<double> batch{1, 2, 3.9, 7.6, 7.8}, step{10, 11, 12, 14, 20}, thr{100, 190, 350, 600, 610};
    for (int i = 0; i < points.size(); ++i) {
        CellResult c;
        c.index = i;
        c.server = server;
        c.concurrency = points[i];
        c.completed = 10;
        c.metrics.insert(tag::outputThroughput, singleValue(thr[i], unit::tokensPerS));
        TraceSummary s;
        StepKindStats d;
        d.kind = StepKind::Decode;
        d.count = 100;
        d.p50Ms = step[i];
        d.batchMean = batch[i];
        s.merged.stepKinds = {d};
        c.traceSummary = s;
        r.cells.append(c);
    }
    return r;
}

} // namespace

class TstTraceKneeView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void panelShowsTheKneeOfProfiledSets()
    {
        ChartsPanel panel;
        panel.resize(900, 600);
        panel.show();
        auto *knee = panel.findChild<ElidedLines *>(QStringLiteral("traceKnee"));
        QVERIFY(knee);
        panel.setInputs({ChartSeriesInput{QString(), profiledSweep(QStringLiteral("<b>vllm</b>")), 0}});
        panel.flush();
        QVERIFY(knee->isVisible());
        QCOMPARE(knee->textFormat(), Qt::PlainText); // a server-named string is never rich text
        QVERIFY2(knee->lines().value(0).startsWith(QStringLiteral("<b>vllm</b>: the batch stops growing at concurrency 8")),
                 qPrintable(knee->lines().value(0)));
        QVERIFY(sbtest::metricMenu(panel).contains(tag::engineStepTime));
        QVERIFY(sbtest::metricMenu(panel).contains(tag::engineBatchSize));
        panel.setMetric(tag::engineStepTime, Stat::P50);
        panel.flush();
        QCOMPARE(panel.metric(), tag::engineStepTime);

        // Two sets (Compare): each sentence names its set.
        panel.setInputs({ChartSeriesInput{QStringLiteral("before"), profiledSweep(QStringLiteral("vllm")), 0},
                         ChartSeriesInput{QStringLiteral("after"), profiledSweep(QStringLiteral("vllm")), 1}});
        panel.flush();
        const QStringList lines = knee->lines();
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith(QStringLiteral("before · vllm: ")));
        QVERIFY(lines[1].startsWith(QStringLiteral("after · vllm: ")));
        // Each sentence one line, elided to the panel's width rather than wrapped.
        QCOMPARE(knee->text().count(QLatin1Char('\n')), 1);
        panel.resize(400, 600);
        QTRY_VERIFY(knee->text().split(QLatin1Char('\n')).at(0).endsWith(QStringLiteral("…")));
        QCOMPARE(knee->text().count(QLatin1Char('\n')), 1);

        // Many sets: three lines at most, the last saying how many more; all in the tooltip.
        QList<ChartSeriesInput> five;
        for (int i = 0; i < 5; ++i)
            five.append(ChartSeriesInput{QStringLiteral("set%1").arg(i), profiledSweep(QStringLiteral("vllm")), i});
        panel.setInputs(five);
        panel.flush();
        QCOMPARE(knee->text().count(QLatin1Char('\n')), 2);
        QVERIFY2(knee->text().split(QLatin1Char('\n')).at(2).startsWith(QStringLiteral("… and 3 more")), qPrintable(knee->text()));
        QCOMPARE(knee->toolTip().count(QLatin1Char('\n')), 4);
        QVERIFY(knee->toolTip().contains(QStringLiteral("set4 · vllm: ")));
        panel.resize(900, 600);

        // No traces: no sentence, no engine-step figures in the menu.
        SweepResults plain = profiledSweep(QStringLiteral("vllm"));
        for (CellResult &c : plain.cells)
            c.traceSummary.reset();
        panel.setInputs({ChartSeriesInput{QString(), plain, 0}});
        panel.flush();
        QVERIFY(!knee->isVisible());
        QVERIFY(!sbtest::metricMenu(panel).contains(tag::engineStepTime));
    }

    // report.html's charts: step time and batch size against the load beside the sentence, only
    // for a set with profiled cells.
    void reportChartsAddTheEngineSteps()
    {
        const auto paths = [](const RenderedCharts &r) {
            QStringList out;
            for (const ReportChart &c : r.charts)
                out.append(c.svgPath);
            return out;
        };
        const RenderedCharts profiled = renderReportCharts(profiledSweep(QStringLiteral("vllm")));
        QVERIFY2(profiled.warnings.isEmpty(), qPrintable(profiled.warnings.join(QLatin1Char('\n'))));
        QVERIFY(paths(profiled).contains(QStringLiteral("charts/engine_step_time_p50_vs_load.svg")));
        QVERIFY(paths(profiled).contains(QStringLiteral("charts/engine_batch_size_vs_load.svg")));
        SweepResults plain = profiledSweep(QStringLiteral("vllm"));
        for (CellResult &c : plain.cells)
            c.traceSummary.reset();
        const RenderedCharts unprofiled = renderReportCharts(plain);
        QVERIFY(!paths(unprofiled).contains(QStringLiteral("charts/engine_step_time_p50_vs_load.svg")));
        QCOMPARE(unprofiled.charts.size(), 4);
    }
};

QTEST_MAIN(TstTraceKneeView)
#include "tst_trace_knee_view.moc"
