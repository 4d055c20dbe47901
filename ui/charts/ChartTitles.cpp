#include "charts/ChartTitles.h"
#include <QAbstractAxis>
#include <QChart>
#include <QFontMetricsF>

namespace sb::ui {

namespace {
constexpr char kFull[] = "sbFullTitle";
constexpr char kShort[] = "sbShortTitle";
// Room QtCharts keeps around a title before it elides (margins and a little air).
constexpr qreal kSlack = 12;
} // namespace

void setAxisTitles(QAbstractAxis *axis, const QString &full, const QString &shortTitle)
{
    axis->setTitleText(full);
    axis->setProperty(kFull, full);
    axis->setProperty(kShort, shortTitle);
}

void setChartTitles(QChart *chart, const QString &full, const QString &shortTitle)
{
    chart->setTitle(full);
    chart->setProperty(kFull, full);
    chart->setProperty(kShort, shortTitle);
}

QString fullAxisTitle(const QAbstractAxis *axis)
{
    const QString full = axis->property(kFull).toString();
    return full.isEmpty() ? axis->titleText() : full;
}

QString fullChartTitle(const QChart *chart)
{
    const QString full = chart->property(kFull).toString();
    return full.isEmpty() ? chart->title() : full;
}

void fitChartTitles(QChart *chart)
{
    const QRectF plot = chart->plotArea();
    if (plot.isEmpty())
        return;
    for (QAbstractAxis *axis : chart->axes()) {
        const QString full = axis->property(kFull).toString();
        const QString shortTitle = axis->property(kShort).toString();
        if (full.isEmpty() || shortTitle.isEmpty())
            continue;
        const qreal room = (axis->orientation() == Qt::Horizontal ? plot.width() : plot.height()) - kSlack;
        const bool fits = QFontMetricsF(axis->titleFont()).horizontalAdvance(full) <= room;
        axis->setTitleText(fits ? full : shortTitle);
    }
    const QString full = chart->property(kFull).toString();
    const QString shortTitle = chart->property(kShort).toString();
    if (!full.isEmpty() && !shortTitle.isEmpty()) {
        const qreal room = chart->size().width() - chart->margins().left() - chart->margins().right() - kSlack;
        chart->setTitle(QFontMetricsF(chart->titleFont()).horizontalAdvance(full) <= room ? full : shortTitle);
    }
}

} // namespace sb::ui
