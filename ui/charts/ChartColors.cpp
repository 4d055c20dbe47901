#include "charts/ChartColors.h"
#include <QAbstractAxis>
#include <QChart>
#include <QLegend>

namespace sb::ui {

void applyChartColors(QChart *chart, const QPalette &palette)
{
    if (!chart)
        return;
    const QColor background = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    // Grid lines halfway between background and text would shout; a fifth of the way reads as
    // a grid on both palettes.
    const auto mix = [&](double t) {
        return QColor::fromRgbF(background.redF() + (text.redF() - background.redF()) * t,
                                background.greenF() + (text.greenF() - background.greenF()) * t,
                                background.blueF() + (text.blueF() - background.blueF()) * t);
    };
    chart->setBackgroundBrush(background);
    chart->setBackgroundPen(QPen(mix(0.25)));
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(mix(0.5));
        axis->setGridLineColor(mix(0.2));
        axis->setMinorGridLineColor(mix(0.1));
    }
}

bool chartIsDark(const QChart *chart)
{
    if (!chart)
        return false;
    const QBrush brush = chart->backgroundBrush();
    // Qt's own themes paint the background with a gradient, whose colour() says nothing.
    const QColor c = brush.gradient() && !brush.gradient()->stops().isEmpty() ? brush.gradient()->stops().first().second : brush.color();
    return brush.style() != Qt::NoBrush && c.lightness() < 128;
}

} // namespace sb::ui
