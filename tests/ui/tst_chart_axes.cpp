// The charts know both sweep axes and repeats: open-loop results are drawn against the request
// rate (title, axis, point labels from results/SweepAxis.h), repeated runs get a 95 % CI bar per
// point and a line through the means, and a set on the other axis is not drawn against it.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/ChartFactory.h"
#include "charts/PointLabelLayer.h"
#include "results/RepeatStats.h"
#include <QChart>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <cmath>
#include <QTest>
#include <memory>

using namespace sb;
using namespace sb::ui;

namespace {
QList<QXYSeries *> seriesNamed(QChart *chart, const QString &objectName)
{
    QList<QXYSeries *> out;
    for (QAbstractSeries *s : chart->series())
        if (s->objectName() == objectName)
            out.append(qobject_cast<QXYSeries *>(s));
    return out;
}

SweepResults rateResults()
{
    SweepResults r;
    int i = 0;
    for (double rate : {2.0, 8.0, 32.0}) {
        CellResult c = sbtest::makeCell(i++, 0, 64);
        c.openLoop = OpenLoopResult();
        c.openLoop->targetRate = rate;
        c.openLoop->arrival = QStringLiteral("poisson");
        c.openLoop->maxConcurrency = 64;
        c.metrics[QStringLiteral("time_to_first_token")].p50 = 10 * rate;
        r.cells.append(c);
    }
    return r;
}
} // namespace

class TstChartAxes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void rateResultsUseTheRateAxis()
    {
        const SweepResults r = rateResults();
        std::unique_ptr<QChart> chart(makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("time_to_first_token"), Stat::P50));
        QVERIFY2(chart->title().endsWith(QStringLiteral("vs request rate (req/s)")), qPrintable(chart->title()));
        auto *x = qobject_cast<QLogValueAxis *>(chart->axes(Qt::Horizontal).value(0));
        QCOMPARE(x->titleText(), QStringLiteral("Request rate (req/s)"));
        QList<QScatterSeries *> sc;
        for (QAbstractSeries *s : chart->series())
            if (auto *scatter = qobject_cast<QScatterSeries *>(s))
                sc.append(scatter);
        QCOMPARE(sc.size(), 1);
        QCOMPARE(sc[0]->points(), (QList<QPointF>{{2, 20}, {8, 80}, {32, 320}})); // x = rate, not the cap (64)
        QVERIFY(x->min() < 2 && x->max() > 32);
        QCOMPARE(chartAxis({{QString(), r, 0}}), SweepAxis::RequestRate);

        // The throughput chart labels points by rate.
        std::unique_ptr<QChart> tp(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP50));
        auto *labels = PointLabelLayer::of(tp.get());
        QVERIFY(labels);
        QList<QScatterSeries *> tsc;
        for (QAbstractSeries *s : tp->series())
            if (auto *scatter = qobject_cast<QScatterSeries *>(s))
                tsc.append(scatter);
        QCOMPARE(labels->labels(tsc.at(0)), (QStringList{"2 req/s", "8 req/s", "32 req/s"}));

        // Overlaid with a closed-loop set: the concurrency cells are not drawn on the rate axis.
        const SweepResults closed = sbtest::makeSweepResults(1);
        std::unique_ptr<QChart> both(makeMetricVsConcurrencyChart({{QStringLiteral("open"), r, 0}, {QStringLiteral("closed"), closed, 1}},
                                                                  QStringLiteral("time_to_first_token"), Stat::P50));
        int drawn = 0;
        for (QAbstractSeries *s : both->series())
            if (auto *scatter = qobject_cast<QScatterSeries *>(s))
                drawn += scatter->count();
        QCOMPARE(drawn, 3);
    }

    void sloFindingIsMarked()
    {
        SweepResults r = sbtest::makeSweepResults(1);
        r.sloSearch = sloSearchResultFromJson(QJsonObject{{"servers", QJsonArray{QJsonObject{{"server", "server-a"}, {"sustained", 16.0}, {"sentence", "server-a sustains 16 concurrent at TTFT p99 ≤ 200 ms"}}}}});
        std::unique_ptr<QChart> chart(makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("time_to_first_token"), Stat::P50));
        const QList<QXYSeries *> marks = seriesNamed(chart.get(), QStringLiteral("sloPoint"));
        QCOMPARE(marks.size(), 1);
        QCOMPARE(marks[0]->points(), (QList<QPointF>{{16, sbtest::ttftP50(0, 16)}}));
        QCOMPARE(marks[0]->property("toolTip").toString(), QStringLiteral("server-a sustains 16 concurrent at TTFT p99 ≤ 200 ms"));
        std::unique_ptr<QChart> none(makeMetricVsConcurrencyChart({{QString(), sbtest::makeSweepResults(1), 0}}, QStringLiteral("time_to_first_token"), Stat::P50));
        QVERIFY(seriesNamed(none.get(), QStringLiteral("sloPoint")).isEmpty());
    }

    void repeatsGetErrorBars()
    {
        // server-a at C=4 and C=16, three runs each with known TTFT p50 values.
        SweepResults r;
        const QList<double> at4{40, 42, 44}, at16{160, 166, 163};
        int i = 0;
        for (int k = 0; k < 3; ++k) {
            CellResult a = sbtest::makeCell(i++, 0, 4);
            a.repeat = k;
            a.metrics[QStringLiteral("time_to_first_token")].p50 = at4[k];
            CellResult b = sbtest::makeCell(i++, 0, 16);
            b.repeat = k;
            b.metrics[QStringLiteral("time_to_first_token")].p50 = at16[k];
            r.cells << a << b;
        }
        std::unique_ptr<QChart> chart(makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("time_to_first_token"), Stat::P50));
        const QList<QXYSeries *> bars = seriesNamed(chart.get(), QStringLiteral("errorBar"));
        QCOMPARE(bars.size(), 2);
        const MeanCi ci4 = meanCi95({40, 42, 44});
        QCOMPARE(bars[0]->points(), (QList<QPointF>{{4, ci4.low()}, {4, ci4.high()}}));
        QVERIFY(bars[0]->points()[1].y() - bars[0]->points()[0].y() > 2 * 4.0); // t(0.975, 2) = 4.3 times the standard error
        // The curve's line joins the means; every run stays a point of its own.
        QLineSeries *line = nullptr;
        for (QAbstractSeries *s : chart->series())
            if (s->objectName().isEmpty() && s->type() == QAbstractSeries::SeriesTypeLine)
                line = qobject_cast<QLineSeries *>(s);
        QVERIFY(line);
        QCOMPARE(line->points(), (QList<QPointF>{{4, 42}, {16, 163}}));
        int runs = 0;
        for (QAbstractSeries *s : chart->series())
            if (auto *scatter = qobject_cast<QScatterSeries *>(s))
                runs += scatter->count();
        QCOMPARE(runs, 6);

        // One run per point: no bars, the line goes through the points as before.
        std::unique_ptr<QChart> single(makeMetricVsConcurrencyChart({{QString(), sbtest::makeSweepResults(1), 0}},
                                                                    QStringLiteral("time_to_first_token"), Stat::P50));
        QVERIFY(seriesNamed(single.get(), QStringLiteral("errorBar")).isEmpty());
    }

    // Two runs of a small throughput (100 and 900 tok/s) have a 95 % CI reaching far below 0;
    // no throughput can be negative: the bar stops at 0 and the axis starts at 0.
    void ciBarsStopAtZero()
    {
        SweepResults r;
        int i = 0;
        for (double v : {100.0, 900.0}) {
            CellResult c = sbtest::makeCell(i, 0, 4);
            c.repeat = i++;
            c.metrics[QStringLiteral("output_token_throughput")].avg = v;
            r.cells << c;
        }
        QVERIFY(meanCi95({100, 900}).low() < -1000); // what was drawn before
        std::unique_ptr<QChart> chart(makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("output_token_throughput"), Stat::Avg));
        const QList<QXYSeries *> bars = seriesNamed(chart.get(), QStringLiteral("errorBar"));
        QCOMPARE(bars.size(), 1);
        QCOMPARE(bars[0]->points()[0].y(), 0.0);
        QCOMPARE(bars[0]->points()[1].y(), meanCi95({100, 900}).high());
        auto *y = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).first());
        QVERIFY(y);
        QCOMPARE(y->min(), 0.0);
        // A metric that can be negative keeps its whole interval.
        for (CellResult &c : r.cells)
            c.metrics[QStringLiteral("output_token_throughput")].avg -= 1000;
        std::unique_ptr<QChart> signedChart(makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("output_token_throughput"), Stat::Avg));
        QVERIFY(seriesNamed(signedChart.get(), QStringLiteral("errorBar"))[0]->points()[0].y() < -1000);
    }

    // A log axis always has numbers: a 20–66 ms range holds no power of 10, so it is labelled
    // by powers of 2 (16, 32, 64) instead of showing a bare axis.
    void logAxisHasTicksOnANarrowRange()
    {
        const auto labelledTicks = [](const QLogValueAxis &a) {
            int n = 0;
            for (double v = std::pow(a.base(), std::ceil(std::log(a.min()) / std::log(a.base()) - 1e-9)); v <= a.max() * (1 + 1e-9); v *= a.base())
                ++n;
            return n;
        };
        for (const auto &[lo, hi] : QList<QPair<double, double>>{{20, 66}, {20, 30}, {32, 32}, {0.5, 0.9}, {1, 5000}}) {
            QLogValueAxis axis;
            fitLogAxis(&axis, lo, hi);
            QVERIFY2(labelledTicks(axis) >= 2, qPrintable(QStringLiteral("%1–%2: base %3, %4–%5").arg(lo).arg(hi).arg(axis.base()).arg(axis.min()).arg(axis.max())));
            QVERIFY(axis.min() <= lo && axis.max() >= hi); // every value stays on the chart
        }
        QLogValueAxis wide;
        fitLogAxis(&wide, 1, 5000);
        QCOMPARE(wide.base(), 10.0); // decades where there are decades

        // The chart's Log switch uses it: TTFT p50 20–66 ms on a log axis.
        SweepResults r;
        int i = 0;
        for (double v : {20.0, 35.0, 66.0}) {
            CellResult c = sbtest::makeCell(i, 0, 1 << (2 * i));
            ++i;
            c.metrics[QStringLiteral("time_to_first_token")].p50 = v;
            r.cells << c;
        }
        std::unique_ptr<QChart> chart(makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("time_to_first_token"), Stat::P50, true));
        auto *y = qobject_cast<QLogValueAxis *>(chart->axes(Qt::Vertical).first());
        QVERIFY(y);
        QVERIFY(labelledTicks(*y) >= 2);
    }
};

QTEST_MAIN(TstChartAxes)
#include "tst_chart_axes.moc"
