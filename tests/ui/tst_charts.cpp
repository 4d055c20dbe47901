// Chart builders, point tags/highlight, label layer, log-axis guard and SVG/PNG export.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "../core/DiskFull.h"
#include "charts/ChartColors.h"
#include "charts/ChartExport.h"
#include "charts/ChartFactory.h"
#include "charts/ChartPoints.h"
#include "charts/DistributionChart.h"
#include "charts/InteractiveChartView.h"
#include "charts/PointLabelLayer.h"
#include <QChart>
#include <QChartView>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <cerrno>
#include <cmath>
#include <limits>
#include <memory>

using namespace sb;
using namespace sb::ui;

namespace {
QList<QScatterSeries *> scatters(QChart *chart)
{
    QList<QScatterSeries *> out;
    for (QAbstractSeries *s : chart->series())
        if (auto *sc = qobject_cast<QScatterSeries *>(s))
            out.append(sc);
    return out;
}

int visibleLegendMarkers(QChart *chart)
{
    int n = 0;
    for (QLegendMarker *m : chart->legend()->markers())
        n += m->isVisible();
    return n;
}

// True when the image has more than one colour (a blank export is all background).
bool hasInk(const QImage &img)
{
    const QRgb first = img.pixel(0, 0);
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
            if (img.pixel(x, y) != first)
                return true;
    return false;
}
} // namespace

class TestCharts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void throughputSeriesPerServer()
    {
        const SweepResults r = sbtest::makeSweepResults();
        std::unique_ptr<QChart> chart(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP50));
        QCOMPARE(chart->series().size(), 6); // line + scatter per server
        const auto sc = scatters(chart.get());
        QCOMPARE(sc.size(), 3);
        QCOMPARE(chart->legend()->markers().size(), 6);
        for (QLegendMarker *m : chart->legend()->markers(chart->series().at(0)))
            QVERIFY(!m->isVisible()); // lines hidden from the legend, scatters carry the names
        for (int s = 0; s < 3; ++s) {
            QCOMPARE(sc.at(s)->name(), QStringLiteral("server-%1").arg(QChar(QLatin1Char('a' + s))));
            QCOMPARE(sc.at(s)->count(), 5);
            // x = TTFT p50, y = throughput, in concurrency order
            QCOMPARE(sc.at(s)->at(0), QPointF(sbtest::ttftP50(s, 1), sbtest::throughput(s, 1)));
            QCOMPARE(sc.at(s)->at(4), QPointF(sbtest::ttftP50(s, 256), sbtest::throughput(s, 256)));
            QCOMPARE(pointRef(sc.at(s), 2), (ChartPointRef{0, s * 5 + 2}));
            QVERIFY(pointToolTip(sc.at(s), 2).contains(QStringLiteral("c=16")));
        }
        auto *labels = PointLabelLayer::of(chart.get());
        QVERIFY(labels);
        QCOMPARE(labels->labels(sc.at(0)), (QStringList{"c=1", "c=4", "c=16", "c=64", "c=256"}));
        auto *x = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QVERIFY(x->titleText().contains(QStringLiteral("TTFT p50")));
        QVERIFY(x->max() >= sbtest::ttftP50(2, 256));
        QCOMPARE(chart->animationOptions(), QChart::NoAnimation);
    }

    void latencyChoicePicksStat()
    {
        const SweepResults r = sbtest::makeSweepResults(1);
        std::unique_ptr<QChart> chart(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP99));
        QCOMPARE(scatters(chart.get()).at(0)->at(0).x(), sbtest::latencyStats(sbtest::ttftP50(0, 1)).p99);
        QCOMPARE(allLatencyChoices().size(), 8);
    }

    void metricVsConcurrencyLogAxis()
    {
        const SweepResults r = sbtest::makeSweepResults();
        std::unique_ptr<QChart> chart(
            makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("time_to_first_token"), Stat::P50));
        auto *x = qobject_cast<QLogValueAxis *>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        QCOMPARE(x->base(), 2.0);
        QVERIFY(x->min() < 1 && x->max() > 256);
        const auto sc = scatters(chart.get());
        QCOMPARE(sc.size(), 3);
        for (auto *s : sc) {
            QCOMPARE(s->count(), 5);
            QCOMPARE(s->attachedAxes().size(), 2);
        }
        QCOMPARE(sc.at(1)->at(3), QPointF(64, sbtest::ttftP50(1, 64)));
    }

    void logAxisZeroGuard()
    {
        SweepResults r = sbtest::makeSweepResults(1);
        // concurrency 0 would sit at -inf on the log axis (Qt drops the whole series); a NaN
        // metric and a missing metric cannot be drawn either.
        CellResult zero = sbtest::makeCell(100, 0, 0);
        CellResult nan = sbtest::makeCell(101, 0, 8);
        nan.metrics[QStringLiteral("time_to_first_token")].p50 = std::numeric_limits<double>::quiet_NaN();
        CellResult missing = sbtest::makeCell(102, 0, 32);
        missing.metrics.clear();
        missing.status = sb::CellStatus::Failed;
        r.cells << zero << nan << missing;
        std::unique_ptr<QChart> chart(
            makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("time_to_first_token"), Stat::P50));
        const auto sc = scatters(chart.get());
        QCOMPARE(sc.size(), 1);
        QCOMPARE(sc.at(0)->count(), 5);
        for (const QPointF &p : sc.at(0)->points())
            QVERIFY(p.x() > 0 && std::isfinite(p.y()));
        // The same set on the throughput chart skips the unmeasured cells too.
        std::unique_ptr<QChart> tp(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP50));
        QCOMPARE(scatters(tp.get()).at(0)->count(), 6); // c=0 has numbers; NaN and missing do not
        // Throughputs have only an average: other stats are NaN and skipped, not drawn at 0.
        std::unique_ptr<QChart> p99(makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("request_throughput"),
                                                                 Stat::P99));
        QCOMPARE(scatters(p99.get()).at(0)->count(), 0);
    }

    // Failed and cancelled cells are not points, even with numbers in them; a degraded cell is
    // drawn, in the warning colour, and its label says so.
    void problemCellsAreNotRealPoints()
    {
        SweepResults r = sbtest::makeSweepResults(1); // 5 completed cells
        CellResult failed = sbtest::makeCell(100, 0, 2048);
        failed.status = sb::CellStatus::Failed;
        CellResult cancelled = sbtest::makeCell(101, 0, 4096);
        cancelled.status = sb::CellStatus::Cancelled;
        CellResult degraded = sbtest::makeCell(102, 0, 512);
        degraded.status = sb::CellStatus::Degraded;
        r.cells << failed << cancelled << degraded;
        std::unique_ptr<QChart> chart(
            makeMetricVsConcurrencyChart({{QString(), r, 0}}, QStringLiteral("time_to_first_token"), Stat::P50));
        const auto sc = scatters(chart.get());
        QCOMPARE(sc.at(0)->count(), 6);
        for (const QPointF &p : sc.at(0)->points())
            QVERIFY(p.x() != 2048 && p.x() != 4096);
        const int last = sc.at(0)->count() - 1;
        QCOMPARE(sc.at(0)->at(last).x(), 512.0);
        const auto config = sc.at(0)->pointConfiguration(last);
        QVERIFY(config.contains(QXYSeries::PointConfiguration::Color));
        QVERIFY(config.value(QXYSeries::PointConfiguration::Color).value<QColor>() != sc.at(0)->color());
        QVERIFY(sc.at(0)->pointConfiguration(0).isEmpty());
        std::unique_ptr<QChart> tp(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP50));
        QCOMPARE(scatters(tp.get()).at(0)->count(), 6);
    }

    void emptyInputs()
    {
        std::unique_ptr<QChart> a(makeThroughputVsLatencyChart({}, LatencyChoice::ItlAvg));
        std::unique_ptr<QChart> b(makeMetricVsConcurrencyChart({}, QStringLiteral("goodput"), Stat::Avg));
        QCOMPARE(a->series().size(), 0);
        QCOMPARE(b->series().size(), 0);
    }

    void setsGetStylesServersKeepColours()
    {
        const SweepResults r = sbtest::makeSweepResults(2);
        std::unique_ptr<QChart> chart(makeThroughputVsLatencyChart({{"before", r, 0}, {"after", r, 1}}, LatencyChoice::TtftP50));
        const auto sc = scatters(chart.get());
        QCOMPARE(sc.size(), 4);
        QCOMPARE(sc.at(0)->name(), QStringLiteral("before: server-a"));
        QCOMPARE(sc.at(2)->name(), QStringLiteral("after: server-a"));
        QCOMPARE(sc.at(0)->color(), sc.at(2)->color());      // same server, same colour
        QVERIFY(sc.at(0)->color() != sc.at(1)->color());     // servers differ
        QVERIFY(sc.at(0)->markerShape() != sc.at(2)->markerShape()); // sets differ
        QList<QLineSeries *> lines;
        for (QAbstractSeries *s : chart->series())
            if (s->type() == QAbstractSeries::SeriesTypeLine)
                lines.append(static_cast<QLineSeries *>(s));
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines.at(0)->pen().style() != lines.at(2)->pen().style());
        QCOMPARE(pointRef(sc.at(3), 0).setIndex, 1);
    }

    void highlight()
    {
        const SweepResults r = sbtest::makeSweepResults();
        std::unique_ptr<QChart> chart(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP50));
        QCOMPARE(highlightCell(chart.get(), {0, 7}), 1);
        QCOMPARE(highlightedPoints(chart.get()), (QList<ChartPointRef>{{0, 7}}));
        auto *s = scatters(chart.get()).at(1);
        QVERIFY(s->isPointSelected(2));
        QVERIFY(s->pointConfiguration(2).contains(QXYSeries::PointConfiguration::Size));
        QCOMPARE(highlightCell(chart.get(), {0, 3}), 1);
        QVERIFY(!s->isPointSelected(2));
        QCOMPARE(highlightCell(chart.get(), {}), 0);
        QVERIFY(highlightedPoints(chart.get()).isEmpty());
    }

    void saveSvgAndPng()
    {
        QTemporaryDir dir;
        const SweepResults r = sbtest::makeSweepResults();
        std::unique_ptr<QChart> chart(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP99));
        QString error;
        const QString svg = dir.filePath(QStringLiteral("c.svg"));
        QVERIFY2(saveChart(chart.get(), svg, QSize(800, 500), &error), qPrintable(error));
        const QByteArray svgText = sbtest::readFile(svg);
        QVERIFY(svgText.size() > 1000);
        QVERIFY(svgText.contains("<path"));
        QVERIFY(svgText.contains("c=64")); // point labels are exported too
        QVERIFY(!chart->scene());          // an unshown chart stays unshown
        const QString png = dir.filePath(QStringLiteral("c.png"));
        QVERIFY2(saveChart(chart.get(), png, QSize(640, 400), &error), qPrintable(error));
        QImage img(png);
        QCOMPARE(img.size(), QSize(640, 400));
        QVERIFY(hasInk(img));
        QVERIFY(!saveChart(chart.get(), dir.filePath(QStringLiteral("c.unknownformat")), QSize(10, 10), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!saveChart(nullptr, svg, QSize(10, 10), &error));
    }

    // A chart that cannot be written says why and leaves the previous file as it was.
    void failedSaveKeepsThePreviousFile()
    {
        QTemporaryDir dir;
        const SweepResults r = sbtest::makeSweepResults();
        std::unique_ptr<QChart> chart(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP99));
        const QString png = dir.filePath(QStringLiteral("c.png"));
        QString error;
        QVERIFY2(saveChart(chart.get(), png, QSize(64, 40), &error), qPrintable(error));
        const QByteArray before = sbtest::readFile(png);
        {
            sbtest::FileSizeLimit limit(rlim_t(before.size()));
            QVERIFY(!saveChart(chart.get(), png, QSize(640, 400), &error));
        }
        QVERIFY2(error.contains(png) && error.contains(qt_error_string(EFBIG)), qPrintable(error));
        QCOMPARE(sbtest::readFile(png), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("c.png")});
    }

    void saveChartShownInView()
    {
        QTemporaryDir dir;
        QChartView view(makeMetricVsConcurrencyChart({{QString(), sbtest::makeSweepResults(), 0}},
                                                    QStringLiteral("output_token_throughput"), Stat::Avg));
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRectF before = view.chart()->geometry();
        QString error;
        QVERIFY2(saveChart(view.chart(), dir.filePath(QStringLiteral("v.png")), QSize(900, 600), &error), qPrintable(error));
        QCOMPARE(view.chart()->geometry(), before);
        QCOMPARE(visibleLegendMarkers(view.chart()), 3); // one legend entry per server
        QImage img(dir.filePath(QStringLiteral("v.png")));
        QCOMPARE(img.size(), QSize(900, 600));
        QVERIFY(hasInk(img));
        delete view.chart();
    }

    void chartsFollowThePalette()
    {
        // The views' charts take the window's palette (dark included) and follow its changes;
        // charts made for reports (straight from the factory) keep Qt's light theme.
        const auto results = sbtest::makeSweepResults();
        InteractiveChartView view;
        view.replaceChart(makeThroughputVsLatencyChart({{QString(), results, 0}}, LatencyChoice::TtftP50));
        QVERIFY(view.chart()->backgroundBrush().color().lightness() > 200);
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        view.setPalette(dark);
        QVERIFY(view.chart()->backgroundBrush().color().lightness() < 60);
        QVERIFY(view.chart()->titleBrush().color().lightness() > 200);
        QVERIFY(!view.chart()->axes().isEmpty());
        for (QAbstractAxis *axis : view.chart()->axes())
            QVERIFY(axis->labelsColor().lightness() > 200);
        QVERIFY(chartIsDark(view.chart()));
        // A chart replaced later (another metric, another set) comes in dark too.
        view.replaceChart(makeMetricVsConcurrencyChart({{QString(), results, 0}}, QStringLiteral("output_token_throughput"), Stat::Avg));
        QVERIFY(view.chart()->backgroundBrush().color().lightness() < 60);
        std::unique_ptr<QChart> report(makeThroughputVsLatencyChart({{QString(), results, 0}}, LatencyChoice::TtftP50));
        QVERIFY(!chartIsDark(report.get()));
        view.setPalette(QPalette()); // back to light
        QVERIFY(view.chart()->backgroundBrush().color().lightness() > 200);
        QVERIFY(!chartIsDark(view.chart()));
    }

    void distribution()
    {
        QList<double> v;
        for (int i = 1; i <= 1000; ++i)
            v.append(i);
        QCOMPARE(percentileSorted(v, 50), 500.5);
        QCOMPARE(percentileSorted(v, 0), 1.0);
        QVERIFY(std::isnan(percentileSorted({}, 50)));
        std::unique_ptr<QChart> cdf(makeDistributionChart(v, QStringLiteral("TTFT"), QStringLiteral("ms"), DistributionKind::Cdf));
        auto *line = qobject_cast<QLineSeries *>(cdf->series().value(0));
        QVERIFY(line);
        QCOMPARE(line->points().last(), QPointF(1000, 1.0));
        QVERIFY(cdf->title().contains(QStringLiteral("1000 requests")));
        std::unique_ptr<QChart> hist(makeDistributionChart(v, QStringLiteral("TTFT"), QStringLiteral("ms"), DistributionKind::Histogram));
        QCOMPARE(hist->series().value(0)->type(), QAbstractSeries::SeriesTypeArea);
        QCOMPARE(hist->series().size(), 3); // area + p50 + p99 markers
        std::unique_ptr<QChart> empty(makeDistributionChart({}, QStringLiteral("ITL"), QStringLiteral("ms"), DistributionKind::Histogram));
        QCOMPARE(empty->series().size(), 0);
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
