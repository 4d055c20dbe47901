// The Pareto chart (charts/ParetoChart.h) in real offscreen windows: the Results/Compare chart
// panel's switch to it, the frontier series holding exactly the non-dominated points, dominated
// points faded, the hover read-out (series, point, both values, interval, standing), whiskers
// over the 95 % CI clipped at 0, the TTFT switch, request-rate labels, the servers' colours
// shared with the other charts, the Compare view's panel and its exported page.
#include "TestSupport.h"
#include "charts/ChartPoints.h"
#include "charts/ChartReadout.h"
#include "charts/ChartTitles.h"
#include "charts/ChartsPanel.h"
#include "charts/InteractiveChartView.h"
#include "charts/MetricFormat.h"
#include "charts/ParetoChart.h"
#include "charts/PointLabelLayer.h"
#include "compare/CompareView.h"
#include "report/ReportCharts.h"
#include "report/ReportHtml.h"
#include "report/ReportPareto.h"
#include "results/LoadedResults.h"
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <memory>

using namespace sb;
using namespace sb::ui;

namespace {
CellResult cell(int index, const QString &server, int c, double tput, double itlMs, int repeat = 0)
{
    CellResult r;
    r.index = index;
    r.server = server;
    r.concurrency = c;
    r.repeat = repeat;
    r.status = CellStatus::Completed;
    r.completed = 100;
    MetricStats t;
    t.unit = unit::tokensPerS;
    t.onlyAvg = true;
    t.avg = tput;
    t.count = 100;
    r.metrics.insert(tag::outputThroughput, t);
    for (const QString &key : {tag::itl, tag::ttft}) {
        MetricStats m;
        m.unit = unit::ms;
        m.count = 100;
        m.avg = m.p50 = m.p90 = m.p99 = key == tag::itl ? itlMs : itlMs * 10;
        r.metrics.insert(key, m);
    }
    return r;
}

// Server a: c=1 (100 tok/s/user, 100 tok/s), c=8 (50, 600), c=16 (40, 500: dominated by c=8),
// c=32 (25, 900). Server b: c=1 (80, 90), c=8 (40, 700).
SweepResults sample()
{
    SweepResults r;
    r.cells = {cell(0, QStringLiteral("a"), 1, 100, 10), cell(1, QStringLiteral("a"), 8, 600, 20), cell(2, QStringLiteral("a"), 16, 500, 25),
               cell(3, QStringLiteral("a"), 32, 900, 40), cell(4, QStringLiteral("b"), 1, 90, 12.5), cell(5, QStringLiteral("b"), 8, 700, 25)};
    return r;
}

// sample() with GPU energy: 1000 output tokens a cell and these joules by cell, so server a has
// c=1 (0.1 J/tok, 100 tok/s), c=8 (0.9, 600), c=16 (1.0, 500: beaten by c=8), c=32 (1.2, 900).
SweepResults withEnergy(SweepResults r)
{
    const double joules[] = {100, 900, 1000, 1200, 90, 800};
    for (int i = 0; i < r.cells.size(); ++i) {
        MetricStats len;
        len.unit = unit::tokens;
        len.count = 100;
        len.avg = 10;
        r.cells[i].metrics.insert(tag::outputLength, len);
        GpuTelemetryResult t;
        t.energyJ = joules[i];
        r.cells[i].gpuTelemetry = t;
    }
    return r;
}

QList<QScatterSeries *> scatters(QChart *chart)
{
    QList<QScatterSeries *> out;
    for (QAbstractSeries *s : chart->series())
        if (auto *sc = qobject_cast<QScatterSeries *>(s); sc && isTagged(sc))
            out.append(sc);
    return out;
}

QList<QLineSeries *> named(QChart *chart, const QString &name)
{
    QList<QLineSeries *> out;
    for (QAbstractSeries *s : chart->series())
        if (auto *l = qobject_cast<QLineSeries *>(s); l && l->objectName() == name)
            out.append(l);
    return out;
}

QPoint pointInView(InteractiveChartView &view, QXYSeries *series, int i)
{
    return view.mapFromScene(view.chart()->mapToScene(view.chart()->mapToPosition(series->at(i), series)));
}

void show(QWidget &w, QSize size)
{
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
}
} // namespace

class TstParetoChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Hovering a point shows its tooltip, which asks the offscreen window system to raise() it.
    void init()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support (propagateSizeHints|raise)).*")));
    }

    void panelSwitchesToTheFrontier()
    {
        ChartsPanel panel;
        panel.setInputs({{QString(), sample(), 0}});
        panel.flush();
        show(panel, {1400, 700});
        QVERIFY(!panel.paretoView());
        const QList<QColor> latencyColors{scatters(panel.throughputView()->chart()).at(0)->color(),
                                          scatters(panel.throughputView()->chart()).at(1)->color()};
        QVERIFY(named(panel.throughputView()->chart(), QStringLiteral("paretoFrontier")).isEmpty());
        // The chart switch is a combo box in the panel's row of controls.
        auto *kind = panel.findChild<QComboBox *>(QStringLiteral("throughputChartKind"));
        QVERIFY(kind && kind->isVisible());
        kind->setCurrentIndex(1);
        QVERIFY(panel.paretoView());
        QVERIFY(!panel.findChild<QComboBox *>(QStringLiteral("latencyChoice"))->isVisible());
        QVERIFY(panel.findChild<QComboBox *>(QStringLiteral("paretoChoice"))->isVisible());
        QChart *chart = panel.throughputView()->chart();
        QCOMPARE(fullChartTitle(chart), QStringLiteral("Pareto: Output throughput vs Interactivity"));
        QCOMPARE(fullAxisTitle(chart->axes(Qt::Horizontal).first()), QStringLiteral("Interactivity (tok/s/user)"));

        const QList<QLineSeries *> fronts = named(chart, QStringLiteral("paretoFrontier"));
        QCOMPARE(fronts.size(), 2);
        // Server a's frontier: c=32, c=8, c=1 by ascending tok/s/user; c=16 is not on it.
        QCOMPARE(fronts.at(0)->points(), (QList<QPointF>{{25, 900}, {50, 600}, {100, 100}}));
        QCOMPARE(fronts.at(1)->points(), (QList<QPointF>{{40, 700}, {80, 90}}));
        const QList<QScatterSeries *> sc = scatters(chart);
        QCOMPARE(sc.size(), 2);
        QCOMPARE(sc.at(0)->name(), QStringLiteral("a"));
        QCOMPARE(sc.at(0)->count(), 4); // every point drawn, the dominated one too
        QCOMPARE(PointLabelLayer::of(chart)->labels(sc.at(0)),
                 (QStringList{QStringLiteral("c=1"), QStringLiteral("c=8"), QStringLiteral("c=16"), QStringLiteral("c=32")}));
        // Faded: only the dominated point has its own, translucent colour and a smaller marker,
        // and no marker has an opaque outline that would keep a faded point looking whole.
        const auto faded = [&](int i) {
            const QVariant c = sc.at(0)->pointConfiguration(i).value(QXYSeries::PointConfiguration::Color);
            const QVariant size = sc.at(0)->pointConfiguration(i).value(QXYSeries::PointConfiguration::Size);
            return c.isValid() && c.value<QColor>().alphaF() < 0.5 && size.isValid() && size.toReal() < sc.at(0)->markerSize();
        };
        QVERIFY(faded(2));
        QVERIFY(!faded(0) && !faded(1) && !faded(3));
        QCOMPARE(sc.at(0)->borderColor().alpha(), 0);
        // Selecting the dominated point enlarges it; selecting another gives it back its own
        // (smaller) size rather than the series' size.
        const auto sizeOf = [&](int i) { return sc.at(0)->pointConfiguration(i).value(QXYSeries::PointConfiguration::Size).toReal(); };
        const qreal dominatedSize = sizeOf(2);
        panel.setHighlight({0, 2});
        QVERIFY(sizeOf(2) > dominatedSize);
        panel.setHighlight({0, 0});
        QCOMPARE(sizeOf(2), dominatedSize);
        QVERIFY(faded(2));
        panel.setHighlight({});
        QVERIFY(!sc.at(0)->pointConfiguration(0).contains(QXYSeries::PointConfiguration::Size));
        // Every run is a point here: no "left out" note.
        QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("paretoLeftOut"))->isVisible());
        // The same colour per server as the throughput/latency chart.
        QCOMPARE(sc.at(0)->color(), latencyColors.at(0));
        QCOMPARE(sc.at(1)->color(), latencyColors.at(1));
        QCOMPARE(fronts.at(1)->pen().color(), latencyColors.at(1));

        // Hover: series, point, both values with units, and the point's standing.
        InteractiveChartView *view = panel.throughputView();
        QTest::mouseMove(view->viewport(), pointInView(*view, sc.at(0), 2));
        QCOMPARE(view->readoutText(), QStringLiteral("a · c=16\nInteractivity: %1\nOutput throughput: %2\ndominated by c=8")
                                          .arg(formatWithUnit(40, QStringLiteral("tok/s/user")), formatWithUnit(500, unit::tokensPerS)));
        QTest::mouseMove(view->viewport(), pointInView(*view, sc.at(0), 3));
        QVERIFY2(view->readoutText().endsWith(QStringLiteral("\non the Pareto frontier")), qPrintable(view->readoutText()));

        // The TTFT switch: TTFT p50 on x, lower is better.
        panel.setParetoView(true, ParetoX::Ttft);
        panel.flush();
        chart = panel.throughputView()->chart();
        QCOMPARE(fullAxisTitle(chart->axes(Qt::Horizontal).first()), QStringLiteral("TTFT p50 (ms)"));
        // TTFT here is 10 × ITL: c=16 (250 ms, 500) is still beaten by c=8 (200 ms, 600).
        QCOMPARE(named(chart, QStringLiteral("paretoFrontier")).at(0)->points(),
                 (QList<QPointF>{{100, 100}, {200, 600}, {400, 900}}));
        // And back.
        kind->setCurrentIndex(0);
        QVERIFY(named(panel.throughputView()->chart(), QStringLiteral("paretoFrontier")).isEmpty());
    }

    // Qt Charts 6.4 draws a marker whose size is set per point (a dominated point's smaller one,
    // a highlighted point's larger one) in the wrong place, or not at all, after each layout. They
    // are drawn on their points after the first layout, after a resize and when highlighted; and
    // a server named like markup shows in the legend as written.
    void sizedMarkersAreDrawnOnTheirPoints()
    {
        SweepResults r = sample();
        for (CellResult &c : r.cells)
            if (c.server == QLatin1String("b"))
                c.server = QStringLiteral("<b>b</b>");
        ChartsPanel panel;
        panel.setInputs({{QString(), r, 0}});
        panel.flush();
        show(panel, {1400, 700});
        panel.findChild<QComboBox *>(QStringLiteral("throughputChartKind"))->setCurrentIndex(1);
        InteractiveChartView *view = panel.throughputView();
        QScatterSeries *a = scatters(view->chart()).at(0);
        // Whether the viewport shows the series' colour (faded or not) within 2 px of point i.
        const auto inked = [&](int i) {
            for (int k = 0; k < 3; ++k)
                QCoreApplication::processEvents(); // the re-placing is queued behind the layout
            const QImage img = view->viewport()->grab().toImage();
            const QPoint at = pointInView(*view, a, i);
            const QColor c = a->color();
            for (int dy = -2; dy <= 2; ++dy)
                for (int dx = -2; dx <= 2; ++dx) {
                    const QColor p = img.pixelColor(at + QPoint(dx, dy));
                    // Blue-dominant like the series colour, and not the white plot area.
                    if (p.blue() - p.red() > (c.blue() - c.red()) / 5 && p.lightness() < 250)
                        return true;
                }
            return false;
        };
        QVERIFY(a->color().blue() - a->color().red() > 60); // server a's colour is a blue
        QVERIFY(a->pointConfiguration(2).contains(QXYSeries::PointConfiguration::Size));
        QVERIFY2(inked(2), "the dominated point is not drawn where it is");
        QVERIFY(inked(0) && inked(3));
        panel.resize(1100, 640);
        QVERIFY2(inked(2), "after a resize");
        panel.setHighlight({0, 2});
        QVERIFY2(inked(2), "highlighted");
        panel.resize(1300, 700);
        QVERIFY2(inked(2), "highlighted, after a resize");
        // The legend shows the name as written, not as markup.
        const QList<QLegendMarker *> markers = view->chart()->legend()->markers(scatters(view->chart()).at(1));
        QCOMPARE(markers.size(), 1);
        QCOMPARE(markers.first()->label(), QStringLiteral("&lt;b&gt;b&lt;/b&gt;"));
    }

    // A failed or degraded run is not a point; the note under the charts says which and why,
    // and only in the Pareto view.
    void leftOutRunsAreNamedUnderTheChart()
    {
        SweepResults r = sample();
        r.cells[2].status = CellStatus::Failed;
        r.cells[5].status = CellStatus::Degraded;
        ChartsPanel panel;
        panel.setInputs({{QString(), r, 0}});
        panel.setParetoView(true, ParetoX::TokensPerUser);
        panel.flush();
        show(panel, {1400, 700});
        auto *note = panel.findChild<QLabel *>(QStringLiteral("paretoLeftOut"));
        QVERIFY(note->isVisible());
        QCOMPARE(note->text(), QStringLiteral("Not on the Pareto chart — a: c=16 (failed); b: c=8 (degraded)"));
        QCOMPARE(scatters(panel.throughputView()->chart()).at(0)->count(), 3);
        panel.setParetoView(false, ParetoX::TokensPerUser);
        QVERIFY(!note->isVisible());
    }

    // Energy per output token as x, offered only once a set has GPU telemetry; lower is better.
    void energyAxisWhereTheSetHasIt()
    {
        ChartsPanel panel;
        panel.setInputs({{QString(), sample(), 0}});
        panel.flush();
        show(panel, {1400, 700});
        auto *choice = panel.findChild<QComboBox *>(QStringLiteral("paretoChoice"));
        QVERIFY(choice);
        QCOMPARE(choice->count(), 2); // tok/s/user and TTFT: no telemetry, no cost
        QCOMPARE(choice->findData(int(ParetoX::EnergyPerToken)), -1);
        // Asked for before a set has it (as --chart pareto-energy does before the results load):
        // tok/s/user meanwhile, energy once it is there.
        panel.setParetoView(true, ParetoX::EnergyPerToken);
        panel.flush();
        QCOMPARE(choice->currentData().toInt(), int(ParetoX::TokensPerUser));

        panel.setInputs({{QString(), withEnergy(sample()), 0}});
        panel.flush();
        QCOMPARE(choice->count(), 3);
        QCOMPARE(choice->currentData().toInt(), int(ParetoX::EnergyPerToken));
        QChart *chart = panel.throughputView()->chart();
        QCOMPARE(fullAxisTitle(chart->axes(Qt::Horizontal).first()), QStringLiteral("Energy per output token (J/token)"));
        // Server a: c=1 (0.1 J/tok, 100), c=8 (0.9, 600), c=16 (1.0, 500: beaten by c=8), c=32 (1.2, 900).
        QCOMPARE(named(chart, QStringLiteral("paretoFrontier")).at(0)->points(), (QList<QPointF>{{0.1, 100}, {0.9, 600}, {1.2, 900}}));
    }

    void repeatsDrawClippedWhiskersAndNameTheInterval()
    {
        SweepResults r;
        // c=8 ran twice, 100 and 900 tok/s: the 95 % interval of two runs reaches far below 0.
        r.cells = {cell(0, QStringLiteral("a"), 8, 100, 20, 0), cell(1, QStringLiteral("a"), 8, 900, 25, 1),
                   cell(2, QStringLiteral("a"), 1, 50, 10)};
        InteractiveChartView view;
        view.replaceChart(makeParetoChart({{QString(), r, 0}}, ParetoX::TokensPerUser));
        show(view, {900, 600});
        const QList<QLineSeries *> bars = named(view.chart(), QStringLiteral("errorBar"));
        QCOMPARE(bars.size(), 2); // one vertical (throughput), one horizontal (tok/s/user)
        const MeanCi y = meanCi95({100, 900});
        QVERIFY(y.low() < 0);
        QCOMPARE(bars.at(0)->points(), (QList<QPointF>{{45, 0}, {45, y.high()}})); // clipped at 0
        const MeanCi x = meanCi95({50, 40});
        QCOMPARE(bars.at(1)->points(), (QList<QPointF>{{0, 500}, {x.high(), 500}}));
        // Both ends fit on the axes.
        auto *yAxis = qobject_cast<QValueAxis *>(view.chart()->axes(Qt::Vertical).first());
        QVERIFY(yAxis->max() >= y.high() && yAxis->min() == 0);
        QScatterSeries *sc = scatters(view.chart()).at(0);
        QCOMPARE(sc->at(1), QPointF(45, 500)); // the mean
        QTest::mouseMove(view.viewport(), pointInView(view, sc, 1));
        QVERIFY2(view.readoutText().contains(QStringLiteral("2 runs · mean, 95 % CI ± %1, ± %2")
                                                 .arg(formatWithUnit(x.halfWidth, QStringLiteral("tok/s/user")),
                                                      formatWithUnit(y.halfWidth, unit::tokensPerS))),
                 qPrintable(view.readoutText()));
    }

    void requestRatePointsAreLabelledByRate()
    {
        SweepResults r = sample();
        for (CellResult &c : r.cells) {
            c.openLoop = OpenLoopResult{};
            c.openLoop->targetRate = c.concurrency / 2.0;
            c.concurrency = 256;
        }
        std::unique_ptr<QChart> chart(makeParetoChart({{QString(), r, 0}}, ParetoX::TokensPerUser));
        QCOMPARE(PointLabelLayer::of(chart.get())->labels(scatters(chart.get()).at(0)),
                 (QStringList{QStringLiteral("0.5 req/s"), QStringLiteral("4 req/s"), QStringLiteral("8 req/s"), QStringLiteral("16 req/s")}));
    }

    // report.html's chart beside its Pareto section; none for a set without ITL to judge by.
    void reportRendersTheParetoChart()
    {
        const QString svg = QStringLiteral("charts/pareto_throughput_vs_tok_s_user.svg");
        const RenderedCharts with = renderReportCharts(sample());
        QVERIFY2(with.warnings.isEmpty(), qPrintable(with.warnings.join(QLatin1Char('\n'))));
        QVERIFY(std::any_of(with.charts.cbegin(), with.charts.cend(), [&](const ReportChart &c) { return c.svgPath == svg; }));
        SweepResults noItl = sample();
        for (CellResult &c : noItl.cells)
            c.metrics.remove(tag::itl);
        const RenderedCharts without = renderReportCharts(noItl);
        QVERIFY(std::none_of(without.charts.cbegin(), without.charts.cend(), [&](const ReportChart &c) { return c.svgPath == svg; }));
        // Captions name the sweep's axis: a rate sweep's charts are "vs request rate".
        const auto titles = [](const RenderedCharts &rc) {
            QStringList out;
            for (const ReportChart &c : rc.charts)
                out << c.title;
            return out.join(QLatin1Char('\n'));
        };
        QVERIFY2(titles(with).contains(QStringLiteral("TTFT p99 vs concurrency")), qPrintable(titles(with)));
        SweepResults rates = sample();
        for (CellResult &c : rates.cells) {
            c.openLoop = OpenLoopResult{};
            c.openLoop->targetRate = c.concurrency / 2.0;
        }
        const QString rateTitles = titles(renderReportCharts(rates));
        QVERIFY2(rateTitles.contains(QStringLiteral("TTFT p99 vs request rate")) && rateTitles.contains(QStringLiteral("throughput vs request rate"))
                     && !rateTitles.contains(QStringLiteral("concurrency")),
                 qPrintable(rateTitles));
    }

    // With GPU energy, report.html gets a second Pareto chart (throughput vs J/token, the
    // Results view's chart) inside its energy part; none for cost without a cost, none for
    // energy without telemetry. A hostile server name reaches neither page nor chart raw.
    void reportRendersTheEnergyParetoChart()
    {
        const QString svg = QStringLiteral("charts/%1.svg").arg(paretoChartStem(ParetoX::EnergyPerToken));
        const QString png = QStringLiteral("charts/%1.png").arg(paretoChartStem(ParetoX::EnergyPerToken));
        const QString cost = QStringLiteral("charts/%1.svg").arg(paretoChartStem(ParetoX::CostPerMillionOutput));
        const auto has = [](const RenderedCharts &rc, const QString &path) {
            return std::any_of(rc.charts.cbegin(), rc.charts.cend(), [&](const ReportChart &c) { return c.svgPath == path; });
        };
        QVERIFY(!has(renderReportCharts(sample()), svg));

        SweepResults r = withEnergy(sample());
        const QString evil = QStringLiteral("<script>alert(1)</script>");
        for (CellResult &c : r.cells)
            if (c.server == QLatin1String("a"))
                c.server = evil;
        const RenderedCharts rc = renderReportCharts(r);
        QVERIFY2(rc.warnings.isEmpty(), qPrintable(rc.warnings.join(QLatin1Char('\n'))));
        QVERIFY(has(rc, svg));
        QVERIFY(!has(rc, cost));
        const auto file = [&rc](const QString &path) {
            for (const BundleFile &f : rc.files)
                if (f.path == path)
                    return f.data;
            return QByteArray();
        };
        QVERIFY(file(svg).contains("<svg"));
        QVERIFY(file(png).startsWith("\x89PNG"));
        QVERIFY(!file(svg).contains("<script"));
        const ReportChart chart = *std::find_if(rc.charts.cbegin(), rc.charts.cend(), [&](const ReportChart &c) { return c.svgPath == svg; });
        QCOMPARE(chart.title, QStringLiteral("Pareto frontier: output throughput vs energy per output token"));

        ReportHtmlInput in;
        in.results = r;
        in.charts = rc.charts;
        const QString html = QString::fromUtf8(reportHtml(in));
        QVERIFY(!html.contains(QStringLiteral("<script")));
        const qsizetype part = html.indexOf(QStringLiteral("<h3 id=\"pareto-energy\">"));
        QVERIFY(part > 0);
        QVERIFY(html.indexOf(QStringLiteral("<img src=\"%1\"").arg(svg)) > part);
        QVERIFY(html.contains(QStringLiteral("&lt;script&gt;alert(1)&lt;/script&gt;: frontier at c=1, c=8 and c=32 (3 of 4 points); "
                                             "along the frontier by ascending J/token: c=1 (0.100) \u2192 c=8 (0.900) \u2192 c=32 (1.200)")));
    }

    void compareShowsTheFrontierOfEverySet()
    {
        CompareView compare;
        LoadedResults one;
        one.results = sample();
        one.displayName = QStringLiteral("base");
        LoadedResults two = one;
        two.displayName = QStringLiteral("tuned");
        compare.addLoadedResults(one);
        compare.addLoadedResults(two);
        compare.chartsPanel()->setParetoView(true);
        compare.chartsPanel()->flush();
        show(compare, {1400, 800});
        QChart *chart = compare.chartsPanel()->throughputView()->chart();
        const QList<QLineSeries *> fronts = named(chart, QStringLiteral("paretoFrontier"));
        QCOMPARE(fronts.size(), 4); // two servers in each of two sets
        QCOMPARE(fronts.at(2)->property("sbLegend").toString(), QStringLiteral("tuned: a"));
        QCOMPARE(fronts.at(2)->points(), fronts.at(0)->points());
        // One colour per server across sets; the set shows in the line style.
        QCOMPARE(fronts.at(2)->pen().color(), fronts.at(0)->pen().color());
        QVERIFY(fronts.at(2)->pen().style() != fronts.at(0)->pen().style());

        // The exported comparison: the Pareto chart and each set's frontier sentences.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cmp.html"));
        QString error;
        QVERIFY2(compare.exportComparison(path, &error), qPrintable(error));
        const QString html = QString::fromUtf8(sbtest::readFile(path));
        QVERIFY(html.contains(QStringLiteral("<figcaption>Pareto frontier: Output throughput vs tok/s/user</figcaption>")));
        QCOMPARE(html.count(QStringLiteral("data:image/png;base64,")), 3);
        QVERIFY(html.contains(QStringLiteral("<h2 id=\"pareto\">")));
        QCOMPARE(html.count(QStringLiteral("a: frontier at c=1, c=8 and c=32 (3 of 4 points)")), 2);
    }
};

QTEST_MAIN(TstParetoChart)
#include "tst_pareto_chart.moc"
