#include "text/HookOutcomeText.h"
#include "report/DisplayText.h"
#include "results/HookSeverity.h"
#include <QObject>
#include <QStringList>

namespace sb::ui {

QString hookOutcomeToolTip(const HookOutcome &o)
{
    QStringList lines;
    // A program run (nvidia-smi) is no HTTP call: its path is the program, and it has no status.
    const bool run = o.method == QLatin1String(kProgramRunMethod);
    // The origin says which replica or exporter answered so: a row shows the worst of several.
    lines << displaySafe(QStringLiteral("%1 %2 %3").arg(hookKindName(o.hook), o.method, run ? o.path : o.origin + o.path));
    if (run)
        lines << QObject::tr("verdict: %1, %2 ms").arg(hookVerdictText(o)).arg(o.latencyMs, 0, 'f', 1);
    else
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
