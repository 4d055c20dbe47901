// Interaction with InteractiveChartView (README "A five-minute tour"): zoom by
// wheel and rubber band, pan, reset, zoom kept across data refreshes and dropped on a new view,
// the crosshair read-out, log axes, titles with units that fit, point-label declutter, the
// highlight across resizes and the SLO search's marker. Events are synthesized on real offscreen
// widgets; nothing waits on time.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/ChartFactory.h"
#include "charts/ChartPoints.h"
#include "charts/ChartReadout.h"
#include "charts/ChartZoom.h"
#include "charts/ChartsPanel.h"
#include <QComboBox>
#include "charts/InteractiveChartView.h"
#include "charts/MetricFormat.h"
#include "charts/PointLabelLayer.h"
#include <QChart>
#include <QCheckBox>
#include <QJsonArray>
#include <QLabel>
#include <QMenu>
#include <QTimer>
#include <QContextMenuEvent>
#include <QJsonObject>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTest>
#include <QToolButton>
#include <QValueAxis>
#include <QWheelEvent>
#include <cmath>
#include <memory>

using namespace sb;
using namespace sb::ui;

namespace {
QList<QScatterSeries *> scatters(QChart *chart)
{
    QList<QScatterSeries *> out;
    for (QAbstractSeries *s : chart->series())
        if (auto *sc = qobject_cast<QScatterSeries *>(s); sc && isTagged(sc))
            out.append(sc);
    return out;
}

int pixelsOf(const QImage &img, QColor c)
{
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += img.pixelColor(x, y).rgb() == c.rgb();
    return n;
}

QValueAxis *valueAxis(QChart *chart, Qt::Orientation o)
{
    return qobject_cast<QValueAxis *>(chart->axes(o).value(0));
}

// Viewport position of a chart position.
QPoint toView(InteractiveChartView &view, QPointF chartPos)
{
    return view.mapFromScene(view.chart()->mapToScene(chartPos));
}

QPoint pointInView(InteractiveChartView &view, QXYSeries *series, int i)
{
    return toView(view, view.chart()->mapToPosition(series->at(i), series));
}

void wheel(QWidget *viewport, QPoint at, int notches)
{
    QWheelEvent e(at, viewport->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(viewport, &e);
}

bool near(double a, double b, double tolerance)
{
    return std::abs(a - b) <= tolerance;
}

void show(QWidget &w, QSize size)
{
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
}

SweepResults withSlo(SweepResults r)
{
    r.sloSearch = sloSearchResultFromJson(QJsonObject{{"servers", QJsonArray{QJsonObject{{"server", "server-a"}, {"axis", "concurrency"}, {"sustained", 16.0},
                                                                 {"sentence", "server-a sustains 16 concurrent at TTFT p99 ≤ 200 ms"}}}}});
    return r;
}
} // namespace

class TstChartInteraction : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // As sbtest::failOnQtWarnings, and the offscreen plugin's other harmless messages: hovering a
    // point shows its tooltip, which asks the window system to raise() it; a context menu grabs
    // the keyboard and mouse.
    void init()
    {
        QTest::failOnWarning(QRegularExpression(
            QStringLiteral("^(?!This plugin does not support (propagateSizeHints|raise|grabbing the keyboard|grabbing the mouse)).*")));
    }

    void wheelZoomsAroundTheCursorAndResets()
    {
        InteractiveChartView view;
        view.replaceChart(makeThroughputVsLatencyChart({{QString(), sbtest::makeSweepResults(), 0}}, LatencyChoice::TtftP50));
        show(view, {800, 500});
        QValueAxis *x = valueAxis(view.chart(), Qt::Horizontal);
        QValueAxis *y = valueAxis(view.chart(), Qt::Vertical);
        const ChartRanges home = chartRanges(view.chart());
        QVERIFY(!view.isZoomed());
        auto *reset = view.findChild<QToolButton *>(QStringLiteral("resetZoom"));
        QVERIFY(reset && !reset->isVisible());

        const QRectF plot = view.chart()->plotArea();
        const QPointF at = plot.topLeft() + QPointF(plot.width() * 0.25, plot.height() * 0.75);
        const QPointF valueBefore = view.chart()->mapToValue(at);
        const double spanBefore = x->max() - x->min();
        wheel(view.viewport(), toView(view, at), 2);
        QVERIFY(view.isZoomed());
        QVERIFY(reset->isVisible());
        QVERIFY(x->max() - x->min() < spanBefore * 0.7); // two notches: 0.8² of the span
        // The value under the cursor stays under it.
        const QPointF valueAfter = view.chart()->mapToValue(at);
        QVERIFY(near(valueAfter.x(), valueBefore.x(), spanBefore * 0.01));
        QVERIFY(near(valueAfter.y(), valueBefore.y(), (home[1].max - home[1].min) * 0.01));
        // Ticks on round numbers (1, 2 or 5 × 10^k from 0), not at the zoomed range's odd ends.
        for (QValueAxis *axis : {x, y}) {
            QCOMPARE(axis->tickType(), QValueAxis::TicksDynamic);
            QCOMPARE(axis->tickAnchor(), 0.0);
            const double mantissa = axis->tickInterval() / std::pow(10.0, std::floor(std::log10(axis->tickInterval())));
            QVERIFY2(qFuzzyCompare(mantissa, 1.0) || qFuzzyCompare(mantissa, 2.0) || qFuzzyCompare(mantissa, 5.0), qPrintable(QString::number(axis->tickInterval())));
        }

        // Over the x axis (below the plot) only x zooms.
        const ChartRanges zoomed = chartRanges(view.chart());
        wheel(view.viewport(), toView(view, QPointF(plot.center().x(), plot.bottom() + 10)), 1);
        QVERIFY(x->max() - x->min() < zoomed[0].max - zoomed[0].min);
        QCOMPARE(AxisRange({y->min(), y->max()}), zoomed[1]);

        QTest::keyClick(view.viewport(), Qt::Key_0);
        QVERIFY(!view.isZoomed());
        QCOMPARE(chartRanges(view.chart()), home);
        QVERIFY(!reset->isVisible());

        wheel(view.viewport(), toView(view, at), 1);
        QVERIFY(view.isZoomed());
        QTest::keyClick(&view, Qt::Key_Home);
        QCOMPARE(chartRanges(view.chart()), home);

        wheel(view.viewport(), toView(view, at), -3); // zoom out
        QVERIFY(x->max() - x->min() > spanBefore);
        QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, toView(view, plot.center()));
        QVERIFY(!view.isZoomed());
        QCOMPARE(chartRanges(view.chart()), home);

        wheel(view.viewport(), toView(view, at), 1);
        QTest::mouseClick(reset, Qt::LeftButton);
        QVERIFY(!view.isZoomed());
        QCOMPARE(chartRanges(view.chart()), home);
    }

    void rubberBandAndPan()
    {
        InteractiveChartView view;
        view.replaceChart(makeThroughputVsLatencyChart({{QString(), sbtest::makeSweepResults(), 0}}, LatencyChoice::TtftP50));
        show(view, {800, 500});
        QValueAxis *x = valueAxis(view.chart(), Qt::Horizontal);
        QValueAxis *y = valueAxis(view.chart(), Qt::Vertical);
        const QRectF plot = view.chart()->plotArea();
        const QPointF a = plot.topLeft() + QPointF(plot.width() * 0.1, plot.height() * 0.2);
        const QPointF b = plot.topLeft() + QPointF(plot.width() * 0.4, plot.height() * 0.6);
        const QPointF va = view.chart()->mapToValue(a), vb = view.chart()->mapToValue(b);
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, toView(view, a));
        QTest::mouseMove(view.viewport(), toView(view, (a + b) / 2));
        QTest::mouseMove(view.viewport(), toView(view, b));
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, toView(view, b));
        QVERIFY(view.isZoomed());
        const double tol = (vb.x() - va.x()) * 0.02;
        QVERIFY2(near(x->min(), va.x(), tol) && near(x->max(), vb.x(), tol), qPrintable(QStringLiteral("%1..%2").arg(x->min()).arg(x->max())));
        QVERIFY(near(y->min(), vb.y(), (va.y() - vb.y()) * 0.02) && near(y->max(), va.y(), (va.y() - vb.y()) * 0.02));

        // Shift+drag pans: the span stays, the content follows the mouse.
        const AxisRange before{x->min(), x->max()};
        const AxisRange beforeY{y->min(), y->max()};
        const QPoint from = toView(view, plot.center());
        const QPoint to = from + QPoint(int(plot.width() / 4), 0);
        QTest::mousePress(view.viewport(), Qt::LeftButton, Qt::ShiftModifier, from);
        QTest::mouseMove(view.viewport(), to);
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, Qt::ShiftModifier, to);
        QVERIFY(near(x->max() - x->min(), before.max - before.min, 1e-6 * before.max));
        QVERIFY(x->min() < before.min - (before.max - before.min) * 0.2); // dragged right: smaller x in view
        QCOMPARE(AxisRange({y->min(), y->max()}), beforeY);
        // A middle drag pans too.
        QTest::mousePress(view.viewport(), Qt::MiddleButton, {}, from);
        QTest::mouseMove(view.viewport(), from + QPoint(0, 40));
        QTest::mouseRelease(view.viewport(), Qt::MiddleButton, {}, from + QPoint(0, 40));
        QVERIFY(y->min() > beforeY.min);
        // A plain click (no drag) is not a zoom.
        view.resetZoom();
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, from);
        QVERIFY(!view.isZoomed());
    }

    // The metric menu offers the request-rate figures (schedule lag, achieved rate, client
    // queue) only when a loaded set has request-rate cells, and error rate always.
    void metricMenuFollowsTheSets()
    {
        ChartsPanel panel;
        auto *menu = panel.findChild<QComboBox *>(QStringLiteral("metricChoice"));
        QVERIFY(menu);
        const auto listed = [menu] {
            QStringList keys;
            for (int i = 0; i < menu->count(); ++i)
                keys.append(menu->itemData(i).toString());
            return keys;
        };
        SweepResults closed = sbtest::makeSweepResults(2, {1, 4});
        panel.setInputs({{QString(), closed, 0}});
        QVERIFY(listed().contains(tag::errorRate));
        QVERIFY(!listed().contains(tag::scheduleLag) && !listed().contains(tag::achievedRate) && !listed().contains(tag::queueTime));
        SweepResults open = closed;
        for (CellResult &c : open.cells) {
            c.openLoop = OpenLoopResult();
            c.openLoop->targetRate = c.concurrency;
            c.openLoop->lagP99Ms = 0.5;
        }
        panel.setInputs({{QString(), open, 0}});
        QVERIFY(listed().contains(tag::scheduleLag) && listed().contains(tag::achievedRate) && listed().contains(tag::queueTime));
        panel.setMetric(tag::scheduleLag, Stat::P99);
        auto *stats = panel.findChild<QComboBox *>(QStringLiteral("statChoice"));
        QCOMPARE(stats->count(), 3); // p50, p99, max: what the catalogue says lag has
        // Back to a concurrency sweep: the lag is gone from the menu and the chart shows another metric.
        panel.setInputs({{QString(), closed, 0}});
        QVERIFY(!listed().contains(tag::scheduleLag));
        QVERIFY(menu->currentData().toString() != tag::scheduleLag);
    }

    void zoomSurvivesRefreshAndResetsOnANewView()
    {
        ChartsPanel panel;
        panel.setInputs({{QString(), sbtest::makeSweepResults(2, {1, 4, 16}), 0}});
        panel.flush();
        show(panel, {1200, 600});
        InteractiveChartView *view = panel.metricView();
        const QRectF plot = view->chart()->plotArea();
        wheel(view->viewport(), toView(*view, plot.center()), 2);
        QVERIFY(view->isZoomed());
        const ChartRanges zoomed = chartRanges(view->chart());
        QChart *before = view->chart();
        // A run adds cells: the throttled rebuild makes a new chart but keeps the view.
        panel.setInputs({{QString(), sbtest::makeSweepResults(2, {1, 4, 16, 64}), 0}});
        panel.flush();
        QVERIFY(view->chart() != before);
        QVERIFY(view->isZoomed());
        QCOMPARE(chartRanges(view->chart()), zoomed);
        // Another metric is another view: back to the builder's ranges.
        panel.setMetric(QStringLiteral("request_latency"), Stat::P99);
        panel.flush();
        QVERIFY(!view->isZoomed());
        std::unique_ptr<QChart> fresh(makeMetricVsConcurrencyChart({{QString(), sbtest::makeSweepResults(2, {1, 4, 16, 64}), 0}},
                                                                   QStringLiteral("request_latency"), Stat::P99));
        QCOMPARE(chartRanges(view->chart()), chartRanges(fresh.get()));
        // So is the other scale.
        wheel(view->viewport(), toView(*view, plot.center()), 2);
        QVERIFY(view->isZoomed());
        panel.setLogMetric(true);
        panel.flush();
        QVERIFY(!view->isZoomed());
    }

    void hoverReadoutWithoutRebuild()
    {
        ChartsPanel panel;
        panel.setInputs({{QString(), sbtest::makeSweepResults(), 0}});
        panel.flush();
        show(panel, {1400, 700});
        InteractiveChartView *view = panel.throughputView();
        QChart *chart = view->chart();
        const int rebuilds = panel.rebuildCount();
        QScatterSeries *b = scatters(chart).at(1);
        QCOMPARE(b->name(), QStringLiteral("server-b"));
        const int i = 2; // c=16
        QTest::mouseMove(view->viewport(), pointInView(*view, b, i) + QPoint(3, 2));
        const QString expected = QStringLiteral("server-b · c=16\nTTFT p99: %1\nOutput throughput: %2") // the panel's default latency
                                     .arg(formatWithUnit(sbtest::latencyStats(sbtest::ttftP50(1, 16)).p99, QStringLiteral("ms")),
                                          formatWithUnit(sbtest::throughput(1, 16), QStringLiteral("tokens/s")));
        QCOMPARE(view->readoutText(), expected);
        QVERIFY(expected.contains(QStringLiteral(" ms")) && expected.contains(QStringLiteral(" tok/s")));
        QVERIFY(view->hoverLayer()->mouse().has_value()); // the crosshair is drawn there
        QVERIFY(!view->hoverLayer()->readoutBox().isEmpty());
        // The metric chart: the sweep point is the label, the metric carries its unit.
        InteractiveChartView *metric = panel.metricView();
        QScatterSeries *ma = scatters(metric->chart()).at(0);
        QTest::mouseMove(metric->viewport(), pointInView(*metric, ma, 1));
        QCOMPARE(metric->readoutText(), QStringLiteral("server-a · c=4\nOutput throughput: %1") // the panel's default metric
                                            .arg(formatWithUnit(sbtest::throughput(0, 4), QStringLiteral("tokens/s"))));
        // Hovering never rebuilt or replaced a chart.
        QCOMPARE(panel.rebuildCount(), rebuilds);
        QCOMPARE(view->chart(), chart);
        // Far from every point: the crosshair, no read-out; outside the view: nothing.
        const QRectF plot = chart->plotArea();
        QTest::mouseMove(view->viewport(), toView(*view, plot.topRight() + QPointF(-5, 5)));
        QVERIFY(view->readoutText().isEmpty());
        QVERIFY(view->hoverLayer()->mouse().has_value());
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(view, &leave);
        QVERIFY(!view->hoverLayer()->mouse().has_value());
    }

    void logScaleSkipsNonPositiveValues()
    {
        SweepResults r = sbtest::makeSweepResults(1, {1, 4, 16});
        r.cells[0].metrics[tag::ttft].p50 = 0; // a 0 ms TTFT has no place on a log axis
        std::unique_ptr<QChart> chart(makeMetricVsConcurrencyChart({{QString(), r, 0}}, tag::ttft, Stat::P50, true));
        auto *y = qobject_cast<QLogValueAxis *>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        QCOMPARE(scatters(chart.get()).at(0)->points(), (QList<QPointF>{{4, sbtest::ttftP50(0, 4)}, {16, sbtest::ttftP50(0, 16)}}));
        QVERIFY(y->min() > 0 && std::isfinite(y->min()) && y->max() > sbtest::ttftP50(0, 16) && std::isfinite(y->max()));
        QVERIFY(y->min() < sbtest::ttftP50(0, 4));
        // Linear (the default) still draws the 0.
        std::unique_ptr<QChart> linear(makeMetricVsConcurrencyChart({{QString(), r, 0}}, tag::ttft, Stat::P50));
        QVERIFY(qobject_cast<QValueAxis *>(linear->axes(Qt::Vertical).value(0)));
        QCOMPARE(scatters(linear.get()).at(0)->count(), 3);
        // Throughput chart, log latency: the 0 ms point is not drawn.
        std::unique_ptr<QChart> tp(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP50, true));
        auto *x = qobject_cast<QLogValueAxis *>(tp->axes(Qt::Horizontal).value(0));
        QVERIFY(x && x->min() > 0 && std::isfinite(x->max()));
        QCOMPARE(scatters(tp.get()).at(0)->count(), 2);
        // Nothing positive at all: an empty chart on 1–10, not an infinite axis.
        for (CellResult &c : r.cells)
            c.metrics[tag::ttft].p50 = 0;
        std::unique_ptr<QChart> none(makeMetricVsConcurrencyChart({{QString(), r, 0}}, tag::ttft, Stat::P50, true));
        auto *ny = qobject_cast<QLogValueAxis *>(none->axes(Qt::Vertical).value(0));
        QVERIFY(ny->min() > 0 && ny->max() < 100);
        QCOMPARE(scatters(none.get()).at(0)->count(), 0);

        // The panel's check box and the view's context-menu switch are one.
        ChartsPanel panel;
        panel.setInputs({{QString(), sbtest::makeSweepResults(1), 0}});
        panel.flush();
        QVERIFY(qobject_cast<QValueAxis *>(panel.metricView()->chart()->axes(Qt::Vertical).value(0)));
        Q_EMIT panel.metricView()->logScaleToggled(true); // what the menu's "Log scale" action emits
        panel.flush();
        QVERIFY(panel.findChild<QCheckBox *>(QStringLiteral("logMetric"))->isChecked());
        QVERIFY(qobject_cast<QLogValueAxis *>(panel.metricView()->chart()->axes(Qt::Vertical).value(0)));
        QVERIFY(panel.metricView()->logScale());
        panel.findChild<QCheckBox *>(QStringLiteral("logLatency"))->setChecked(true);
        panel.flush();
        QVERIFY(qobject_cast<QLogValueAxis *>(panel.throughputView()->chart()->axes(Qt::Horizontal).value(0)));
    }

    // The context menu: "Reset zoom" (enabled once zoomed) and "Log scale", which rebuilds the
    // chart on a log axis and ticks the panel's check box.
    void contextMenuResetsAndTogglesLog()
    {
        ChartsPanel panel;
        panel.setInputs({{QString(), sbtest::makeSweepResults(2), 0}});
        panel.flush();
        show(panel, {1200, 600});
        InteractiveChartView *view = panel.metricView();
        const QPoint at = toView(*view, view->chart()->plotArea().center());
        wheel(view->viewport(), at, 2);
        QVERIFY(view->isZoomed());
        QStringList seen;
        const auto openMenuAndTrigger = [&](const QString &action) {
            QTimer::singleShot(0, this, [&seen, action] {
                auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
                QVERIFY(menu);
                seen.clear();
                for (QAction *a : menu->actions()) {
                    if (a->isSeparator())
                        continue;
                    seen << a->text() + (a->isEnabled() ? QString() : QStringLiteral(" (disabled)")) + (a->isChecked() ? QStringLiteral(" (checked)") : QString());
                    if (a->text() == action)
                        a->trigger();
                }
                menu->close();
            });
            QContextMenuEvent e(QContextMenuEvent::Mouse, at, view->viewport()->mapToGlobal(at));
            QApplication::sendEvent(view->viewport(), &e);
        };
        openMenuAndTrigger(QStringLiteral("Reset zoom"));
        QCOMPARE(seen, (QStringList{"Reset zoom", "Log scale", "Export as PNG…", "Export as SVG…"}));
        QVERIFY(!view->isZoomed());
        openMenuAndTrigger(QStringLiteral("Log scale"));
        QCOMPARE(seen.first(), QStringLiteral("Reset zoom (disabled)"));
        panel.flush();
        QVERIFY(panel.findChild<QCheckBox *>(QStringLiteral("logMetric"))->isChecked());
        QVERIFY(qobject_cast<QLogValueAxis *>(view->chart()->axes(Qt::Vertical).value(0)));
        openMenuAndTrigger(QString());
        QVERIFY(seen.contains(QStringLiteral("Log scale (checked)")));
    }

    void axisTitlesCarryUnitsAndFit()
    {
        const SweepResults r = sbtest::makeSweepResults();
        std::unique_ptr<QChart> tp(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP99));
        QCOMPARE(tp->axes(Qt::Horizontal).value(0)->titleText(), QStringLiteral("TTFT p99 (ms)"));
        QCOMPARE(tp->axes(Qt::Vertical).value(0)->titleText(), QStringLiteral("Output throughput (tok/s)"));
        // Units come from the catalogue, not from whatever the first cell carries.
        SweepResults noUnits = r;
        for (CellResult &c : noUnits.cells)
            for (MetricStats &m : c.metrics)
                m.unit.clear();
        std::unique_ptr<QChart> m(makeMetricVsConcurrencyChart({{QString(), noUnits, 0}}, tag::latency, Stat::P99));
        QCOMPARE(m->axes(Qt::Vertical).value(0)->titleText(), QStringLiteral("Request latency p99 (ms)"));
        QCOMPARE(m->axes(Qt::Horizontal).value(0)->titleText(), QStringLiteral("Concurrency"));

        // A 1024×700 window: every title is shown whole (its full or its short form), none elided.
        ChartsPanel panel;
        panel.setInputs({{QString(), r, 0}});
        panel.setMetric(tag::outputThroughput, Stat::Avg);
        panel.flush();
        show(panel, {1024, 700});
        for (InteractiveChartView *view : {panel.throughputView(), panel.metricView()}) {
            QChart *chart = view->chart();
            const QRectF plot = chart->plotArea();
            for (QAbstractAxis *axis : chart->axes()) {
                const qreal room = axis->orientation() == Qt::Horizontal ? plot.width() : plot.height();
                QVERIFY2(QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText()) <= room, qPrintable(axis->titleText()));
            }
            QVERIFY2(QFontMetricsF(chart->titleFont()).horizontalAdvance(chart->title()) <= chart->size().width(), qPrintable(chart->title()));
        }
        // A short chart (Compare at 1024×700 left ~140 px of plot): the catalogue's short form
        // instead of Qt's "Output thro…", back to the full one when there is room.
        InteractiveChartView view;
        view.replaceChart(makeThroughputVsLatencyChart({{QString(), r, 0}}, LatencyChoice::TtftP99));
        show(view, {420, 240});
        QAbstractAxis *y = view.chart()->axes(Qt::Vertical).value(0);
        QCOMPARE(y->titleText(), QStringLiteral("Out tok/s"));
        QVERIFY(QFontMetricsF(y->titleFont()).horizontalAdvance(y->titleText()) <= view.chart()->plotArea().height());
        view.resize(800, 600);
        QCoreApplication::processEvents();
        QCOMPARE(y->titleText(), QStringLiteral("Output throughput (tok/s)"));
    }

    void pointLabelsDeclutter()
    {
        QList<int> dense;
        for (int c = 1; c <= 48; ++c)
            dense << c;
        InteractiveChartView view;
        view.replaceChart(makeThroughputVsLatencyChart({{QString(), sbtest::makeSweepResults(3, dense), 0}}, LatencyChoice::TtftP50));
        show(view, {800, 500});
        PointLabelLayer *labels = PointLabelLayer::of(view.chart());
        QVERIFY(labels);
        const QList<PointLabelLayer::Placed> placed = labels->layoutLabels();
        QVERIFY2(placed.size() < 3 * 48 / 2, qPrintable(QString::number(placed.size()))); // dense: many dropped
        QVERIFY(placed.size() >= 3);
        for (int i = 0; i < placed.size(); ++i)
            for (int j = i + 1; j < placed.size(); ++j)
                QVERIFY(!placed[i].box.intersects(placed[j].box));

        // Hovering a series shows every label of it.
        QScatterSeries *b = scatters(view.chart()).at(1);
        QTest::mouseMove(view.viewport(), pointInView(view, b, 20));
        int ofB = 0;
        for (const auto &p : labels->layoutLabels())
            ofB += p.series == b;
        QCOMPARE(ofB, 48);
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(&view, &leave);

        // Zoomed in around four points of server a: each gets its label.
        QScatterSeries *a = scatters(view.chart()).at(0);
        const QPointF p0 = view.chart()->mapToPosition(a->at(0), a), p3 = view.chart()->mapToPosition(a->at(3), a);
        QVERIFY(zoomToRect(view.chart(), QRectF(p0, p3).normalized().adjusted(-2, -2, 2, 2)));
        int inView = 0, ofA = 0;
        for (int i = 0; i < a->count(); ++i)
            inView += view.chart()->plotArea().adjusted(-1, -1, 1, 1).contains(view.chart()->mapToPosition(a->at(i), a));
        for (const auto &p : labels->layoutLabels())
            ofA += p.series == a;
        QVERIFY(inView >= 4);
        QCOMPARE(ofA, inView);
    }

    // The selected cell's marker disappeared after a window resize. Counted in rendered
    // pixels of the selection colour, since the series still reports the point as selected.
    void highlightSurvivesResize()
    {
        InteractiveChartView view;
        view.replaceChart(makeThroughputVsLatencyChart({{QString(), sbtest::makeSweepResults(), 0}}, LatencyChoice::TtftP50));
        view.setHighlight({0, 7});
        show(view, {800, 500});
        QScatterSeries *s = scatters(view.chart()).at(1);
        const QColor selected = s->selectedColor();
        QVERIFY(pixelsOf(view.grab().toImage(), selected) > 20);
        view.resize(500, 350);
        QCoreApplication::processEvents();
        QVERIFY(pixelsOf(view.grab().toImage(), selected) > 20);
        view.resize(900, 600);
        QCoreApplication::processEvents();
        QVERIFY(pixelsOf(view.grab().toImage(), selected) > 20);
        // And after a zoom, which moves every marker as a resize does.
        wheel(view.viewport(), toView(view, view.chart()->plotArea().center()), -1);
        QVERIFY(view.isZoomed());
        QVERIFY(pixelsOf(view.grab().toImage(), selected) > 20);
    }

    // Nothing loaded showed blank 0–1.5 axes; now the axes hide and a sentence
    // says what to do, until the first point arrives.
    void emptyChartsSayWhatToDo()
    {
        ChartsPanel panel;
        panel.flush();
        show(panel, {1024, 500});
        for (InteractiveChartView *view : {panel.throughputView(), panel.metricView()}) {
            QVERIFY(view->showsEmptyState());
            auto *label = view->findChild<QLabel *>(QStringLiteral("emptyChart"));
            QVERIFY(label && label->isVisible() && label->text().contains(QStringLiteral("run a sweep")));
            for (QAbstractAxis *axis : view->chart()->axes())
                QVERIFY(!axis->isVisible());
        }
        panel.setEmptyText(QStringLiteral("Add result sets to compare"));
        QCOMPARE(panel.metricView()->findChild<QLabel *>(QStringLiteral("emptyChart"))->text(), QStringLiteral("Add result sets to compare"));
        panel.setInputs({{QString(), sbtest::makeSweepResults(1), 0}});
        panel.flush();
        for (InteractiveChartView *view : {panel.throughputView(), panel.metricView()}) {
            QVERIFY(!view->showsEmptyState());
            for (QAbstractAxis *axis : view->chart()->axes())
                QVERIFY(axis->isVisible());
        }
    }

    void sloMarkerSaysItsSentence()
    {
        const QString sentence = QStringLiteral("server-a sustains 16 concurrent at TTFT p99 ≤ 200 ms");
        ChartsPanel panel;
        panel.setInputs({{QString(), withSlo(sbtest::makeSweepResults(2)), 0}});
        panel.flush();
        show(panel, {1400, 700});
        for (InteractiveChartView *view : {panel.throughputView(), panel.metricView()}) {
            const QList<QXYSeries *> rings = sloMarkers(view->chart());
            QCOMPARE(rings.size(), 1); // server-b has no finding
            QCOMPARE(sloSentenceOf(rings[0]), sentence);
            QScatterSeries *a = scatters(view->chart()).at(0);
            QCOMPARE(rings[0]->points(), QList<QPointF>{a->at(2)}); // the c=16 point
            QCOMPARE(view->toolTip(), sentence);
            QTest::mouseMove(view->viewport(), pointInView(*view, a, 2));
            QVERIFY2(view->readoutText().endsWith(QLatin1Char('\n') + sentence), qPrintable(view->readoutText()));
            // Another point of the same server does not claim it.
            QTest::mouseMove(view->viewport(), pointInView(*view, a, 0));
            QVERIFY(!view->readoutText().contains(sentence));
        }
        // No slo_search: no ring, no tooltip.
        panel.setInputs({{QString(), sbtest::makeSweepResults(2), 0}});
        panel.flush();
        QVERIFY(sloMarkers(panel.metricView()->chart()).isEmpty());
        QVERIFY(panel.metricView()->toolTip().isEmpty());
    }
};

QTEST_MAIN(TstChartInteraction)
#include "tst_chart_interaction.moc"
