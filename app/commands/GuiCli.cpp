#include "commands/GuiCli.h"
#include <QStringList>

namespace sb {

bool parseGuiOption(const QString &option, const QString &value, ui::GuiOptions *opts, QString *error)
{
    if (option == QLatin1String("--theme") && (value == QLatin1String("light") || value == QLatin1String("dark"))) {
        opts->theme = value;
        return true;
    }
    if (option == QLatin1String("--tab") && QStringList{QStringLiteral("design"), QStringLiteral("run"), QStringLiteral("results"), QStringLiteral("compare"), QStringLiteral("trace")}.contains(value)) {
        opts->tab = value;
        return true;
    }
    if (option == QLatin1String("--chart") && QStringList{QStringLiteral("latency"), QStringLiteral("pareto"), QStringLiteral("pareto-ttft"), QStringLiteral("pareto-energy"), QStringLiteral("pareto-cost")}.contains(value)) {
        opts->chart = value;
        return true;
    }
    if (option == QLatin1String("--size")) {
        const QStringList wh = value.split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int w = wh.value(0).toInt(&okW), h = wh.value(1).toInt(&okH);
        if (wh.size() == 2 && okW && okH && w >= 640 && h >= 480 && w <= 7680 && h <= 4320) {
            opts->size = QSize(w, h);
            return true;
        }
        *error = QStringLiteral("--size: expected WIDTHxHEIGHT from 640x480 to 7680x4320, got %1").arg(value);
        return false;
    }
    *error = option == QLatin1String("--theme")   ? QStringLiteral("--theme: expected light or dark, got %1").arg(value)
             : option == QLatin1String("--chart") ? QStringLiteral("--chart: expected latency, pareto, pareto-ttft, pareto-energy or pareto-cost, got %1").arg(value)
                                                  : QStringLiteral("--tab: expected design, run, results, compare or trace, got %1").arg(value);
    return false;
}

} // namespace sb
