// Interaction with InteractiveChartView (docs/ARCHITECTURE.md §2, ui/charts): zoom, pan, reset,
// crosshair read-out, log scale, label declutter, highlight across resizes and the SLO marker.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/ChartFactory.h"
#include "charts/ChartPoints.h"
#include "charts/InteractiveChartView.h"
#include <QChart>
#include <QScatterSeries>
#include <QTest>

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
} // namespace

class TstChartInteraction : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // Issue 19: the selected cell's marker disappeared after a window resize. Counted in rendered
    // pixels of the selection colour, since the series still reports the point as selected.
    void highlightSurvivesResize()
    {
        InteractiveChartView view;
        view.resize(800, 500);
        view.replaceChart(makeThroughputVsLatencyChart({{QString(), sbtest::makeSweepResults(), 0}}, LatencyChoice::TtftP50));
        view.setHighlight({0, 7});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QScatterSeries *s = scatters(view.chart()).at(1);
        const QColor selected = s->selectedColor();
        const int before = pixelsOf(view.grab().toImage(), selected);
        QVERIFY(before > 20);
        view.resize(500, 350);
        QCoreApplication::processEvents();
        const int after = pixelsOf(view.grab().toImage(), selected);
        view.resize(900, 600);
        QCoreApplication::processEvents();
        const int after2 = pixelsOf(view.grab().toImage(), selected);
        QVERIFY(after > 20);
        QVERIFY(after2 > 20);
    }
};

QTEST_MAIN(TstChartInteraction)
#include "tst_chart_interaction.moc"
