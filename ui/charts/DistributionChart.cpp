#include "charts/DistributionChart.h"
#include "charts/MetricFormat.h"
#include <QAreaSeries>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace sb::ui {

double percentileSorted(const QList<double> &sorted, double p)
{
    if (sorted.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    const double pos = p / 100.0 * double(sorted.size() - 1);
    const auto lo = qsizetype(std::floor(pos));
    const auto hi = std::min(lo + 1, sorted.size() - 1);
    return sorted.at(lo) + (sorted.at(hi) - sorted.at(lo)) * (pos - double(lo));
}

namespace {
const QColor kFill(0x00, 0x72, 0xB2);

int binCount(const QList<double> &sorted)
{
    const double iqr = percentileSorted(sorted, 75) - percentileSorted(sorted, 25);
    const double range = sorted.last() - sorted.first();
    if (!(iqr > 0) || !(range > 0))
        return 10;
    const double width = 2 * iqr / std::cbrt(double(sorted.size()));
    return std::clamp(int(std::ceil(range / width)), 10, 80);
}

// Vertical marker line with a legend entry ("p50 12.3 ms").
void addMarker(QChart *chart, QValueAxis *x, QValueAxis *y, double at, double top, const QString &name, QColor color)
{
    auto *line = new QLineSeries;
    line->setName(name);
    QPen pen(color);
    pen.setWidthF(1.5);
    pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    line->replace({QPointF(at, 0), QPointF(at, top)});
    chart->addSeries(line);
    line->attachAxis(x);
    line->attachAxis(y);
}
} // namespace

QChart *makeDistributionChart(const QList<double> &samples, const QString &label, const QString &unit,
                              DistributionKind kind)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    QList<double> sorted;
    sorted.reserve(samples.size());
    for (double v : samples)
        if (std::isfinite(v))
            sorted.append(v);
    std::sort(sorted.begin(), sorted.end());
    chart->setTitle(QStringLiteral("%1 distribution (%2 requests)").arg(label).arg(sorted.size()));
    auto *x = new QValueAxis;
    auto *y = new QValueAxis;
    x->setTitleText(unit.isEmpty() ? label : QStringLiteral("%1 (%2)").arg(label, unit));
    x->setLabelFormat(QStringLiteral("%.6g"));
    y->setLabelFormat(QStringLiteral("%.6g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    if (sorted.isEmpty()) {
        x->setRange(0, 1);
        y->setRange(0, 1);
        y->setTitleText(kind == DistributionKind::Cdf ? QStringLiteral("Fraction of requests") : QStringLiteral("Requests"));
        return chart;
    }
    const double lo = sorted.first();
    const double hi = sorted.last() > lo ? sorted.last() : lo + 1;
    double top = 1.0;
    if (kind == DistributionKind::Histogram) {
        const int bins = binCount(sorted);
        const double width = (hi - lo) / bins;
        QList<int> counts(bins, 0);
        for (double v : sorted)
            ++counts[std::min(bins - 1, int((v - lo) / width))];
        // Outline of the bars as one step polygon: one series instead of a bar per bin.
        QList<QPointF> outline{QPointF(lo, 0)};
        for (int b = 0; b < bins; ++b) {
            outline.append(QPointF(lo + b * width, counts.at(b)));
            outline.append(QPointF(lo + (b + 1) * width, counts.at(b)));
        }
        outline.append(QPointF(hi, 0));
        auto *upper = new QLineSeries;
        upper->replace(outline);
        auto *area = new QAreaSeries(upper);
        upper->setParent(area);
        area->setName(QStringLiteral("bins of %1").arg(formatWithUnit(width, unit)));
        area->setColor(QColor(kFill.red(), kFill.green(), kFill.blue(), 150));
        area->setBorderColor(kFill.darker(130));
        chart->addSeries(area);
        area->attachAxis(x);
        area->attachAxis(y);
        top = *std::max_element(counts.cbegin(), counts.cend());
        y->setTitleText(QStringLiteral("Requests"));
        y->setRange(0, top * 1.1);
        y->applyNiceNumbers();
    } else {
        // At most ~2000 points: enough for a smooth curve, cheap to draw for 500k samples.
        const qsizetype n = sorted.size();
        const qsizetype step = std::max<qsizetype>(1, n / 2000);
        QList<QPointF> pts;
        pts.reserve(n / step + 2);
        for (qsizetype i = 0; i < n; i += step)
            pts.append(QPointF(sorted.at(i), double(i + 1) / double(n)));
        pts.append(QPointF(sorted.last(), 1.0));
        auto *cdf = new QLineSeries;
        cdf->setName(QStringLiteral("CDF"));
        QPen pen(kFill);
        pen.setWidthF(2);
        cdf->setPen(pen);
        cdf->replace(pts);
        chart->addSeries(cdf);
        cdf->attachAxis(x);
        cdf->attachAxis(y);
        y->setTitleText(QStringLiteral("Fraction of requests"));
        y->setRange(0, 1);
        y->setTickCount(6);
    }
    const QString u = unit.isEmpty() ? QString() : QLatin1Char(' ') + unit;
    const double p50 = percentileSorted(sorted, 50), p99 = percentileSorted(sorted, 99);
    addMarker(chart, x, y, p50, top, QStringLiteral("p50 %1%2").arg(formatNumber(p50), u), QColor(0x1a, 0x7f, 0x37));
    addMarker(chart, x, y, p99, top, QStringLiteral("p99 %1%2").arg(formatNumber(p99), u), QColor(0xcf, 0x22, 0x2e));
    x->setRange(lo - (hi - lo) * 0.02, hi + (hi - lo) * 0.02);
    x->applyNiceNumbers();
    if (lo >= 0 && x->min() < 0)
        x->setMin(0); // latencies are never negative; nice numbers must not invent an axis below 0
    return chart;
}

} // namespace sb::ui
