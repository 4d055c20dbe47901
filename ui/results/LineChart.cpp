#include "results/LineChart.h"
#include "charts/ChartColors.h"
#include "charts/ChartFactory.h"
#include "charts/ChartStyle.h"
#include <QChart>
#include <QLineSeries>
#include <QPalette>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace sb::ui {

namespace {
QValueAxis *axisFor(const QString &title, double lo, double hi, bool fromZero)
{
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    if (!(lo <= hi)) // no points
        lo = 0, hi = 1;
    if (fromZero)
        lo = std::min(lo, 0.0);
    if (hi - lo < 1e-12)
        hi = lo + (lo == 0 ? 1 : std::abs(lo) * 0.1);
    axis->setRange(lo, hi + (fromZero ? (hi - lo) * 0.05 : 0));
    axis->applyNiceNumbers();
    return axis;
}
} // namespace

QChart *buildLineChart(const QList<LineChartSeries> &series, const LineChartAxes &axes, const QPalette &palette)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->legend()->setVisible(series.size() > 1 || (axes.namedSeries && !series.isEmpty()));
    double xLo = INFINITY, xHi = -INFINITY, lLo = INFINITY, lHi = -INFINITY, rLo = INFINITY, rHi = -INFINITY;
    bool anyRight = false;
    QList<QLineSeries *> made;
    for (const LineChartSeries &s : series) {
        auto *line = new QLineSeries;
        line->setName(s.name);
        QPen pen(serverColor(s.colorIndex));
        pen.setWidthF(1.6);
        if (s.rightAxis)
            pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        line->setPointsVisible(s.markers);
        line->replace(s.points); // one call, not an append per point
        for (const QPointF &p : s.points) {
            xLo = std::min(xLo, p.x()), xHi = std::max(xHi, p.x());
            (s.rightAxis ? rLo : lLo) = std::min(s.rightAxis ? rLo : lLo, p.y());
            (s.rightAxis ? rHi : lHi) = std::max(s.rightAxis ? rHi : lHi, p.y());
        }
        anyRight = anyRight || s.rightAxis;
        chart->addSeries(line);
        plainLegendLabel(chart, line);
        made << line;
    }
    QValueAxis *x = axisFor(axes.x, xLo, xHi, false);
    if (axes.wholeX && xLo <= xHi) {
        // Nice numbers would put ticks at 1.5, 2.5…, whose labels a narrow pane elides to "…".
        const int lo = int(std::floor(xLo)), hi = std::max(lo + 1, int(std::ceil(xHi)));
        x->setRange(lo, hi);
        x->setTickCount(hi - lo <= 12 ? hi - lo + 1 : 2);
        x->setLabelFormat(QStringLiteral("%d"));
    }
    QValueAxis *left = axisFor(axes.yLeft, lLo, lHi, true);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(left, Qt::AlignLeft);
    QValueAxis *right = nullptr;
    if (anyRight) {
        right = axisFor(axes.yRight, rLo, rHi, true);
        chart->addAxis(right, Qt::AlignRight);
    }
    for (int i = 0; i < made.size(); ++i) {
        made[i]->attachAxis(x);
        made[i]->attachAxis(series[i].rightAxis ? right : left);
    }
    applyChartColors(chart, palette);
    return chart;
}

} // namespace sb::ui
