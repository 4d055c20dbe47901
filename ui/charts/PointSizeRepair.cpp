#include "charts/PointSizeRepair.h"
#include <QAbstractAxis>
#include <QChart>
#include <QDateTimeAxis>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

namespace sb::ui {

namespace {
constexpr char kRepairing[] = "sbPointSizesPlaced";

void reapplySizes(QChart *chart)
{
    for (QAbstractSeries *s : chart->series()) {
        auto *scatter = qobject_cast<QScatterSeries *>(s);
        if (!scatter)
            continue;
        const auto all = scatter->pointsConfiguration();
        for (auto it = all.cbegin(); it != all.cend(); ++it) {
            if (!it.value().contains(QXYSeries::PointConfiguration::Size))
                continue;
            // A changed configuration makes Qt rebuild the markers and place them afresh.
            scatter->clearPointConfiguration(it.key());
            scatter->setPointConfiguration(it.key(), it.value());
        }
    }
}

// After the update that is under way has placed the markers (wrongly): from the event loop.
void reapplyLater(QChart *chart)
{
    QMetaObject::invokeMethod(chart, [chart] { reapplySizes(chart); }, Qt::QueuedConnection);
}
} // namespace

void keepPointSizesPlaced(QChart *chart)
{
    if (!chart || chart->property(kRepairing).toBool())
        return;
    chart->setProperty(kRepairing, true);
    // Directly as well as later: a chart rendered for an export right after its layout has no
    // event loop turn in between.
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [chart] {
        reapplySizes(chart);
        reapplyLater(chart);
    });
    for (QAbstractAxis *axis : chart->axes()) {
        if (auto *v = qobject_cast<QValueAxis *>(axis))
            QObject::connect(v, &QValueAxis::rangeChanged, chart, [chart] { reapplyLater(chart); });
        else if (auto *l = qobject_cast<QLogValueAxis *>(axis))
            QObject::connect(l, &QLogValueAxis::rangeChanged, chart, [chart] { reapplyLater(chart); });
        else if (auto *d = qobject_cast<QDateTimeAxis *>(axis))
            QObject::connect(d, &QDateTimeAxis::rangeChanged, chart, [chart] { reapplyLater(chart); });
    }
}

} // namespace sb::ui
