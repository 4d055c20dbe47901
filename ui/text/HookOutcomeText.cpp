#include "text/HookOutcomeText.h"
#include "report/DisplayText.h"
#include "results/HookSeverity.h"
#include <QObject>
#include <QStringList>

namespace sb::ui {

QString hookOutcomeToolTip(const HookOutcome &o)
{
    QStringList lines;
    lines << QStringLiteral("%1 %2 %3").arg(hookKindName(o.hook), o.method, o.path);
    lines << QObject::tr("verdict: %1, HTTP %2, %3 attempt(s), %4 ms")
                 .arg(hookVerdictText(o), o.status ? QString::number(o.status) : QObject::tr("no answer"))
                 .arg(o.attempts)
                 .arg(o.latencyMs, 0, 'f', 1);
    if (o.placement != HookPlacement::None)
        lines << QObject::tr("placement: %1").arg(hookPlacementName(o.placement));
    if (!o.message.isEmpty())
        lines << displaySafe(o.message); // server text: controls shown, not obeyed
    return lines.join(QLatin1Char('\n'));
}

} // namespace sb::ui
