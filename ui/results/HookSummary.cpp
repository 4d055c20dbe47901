#include "results/HookSummary.h"
#include "report/DisplayText.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include "charts/MetricFormat.h"
#include "style/Theme.h"

namespace sb::ui {

namespace {
int severity(HookState s)
{
    return int(s);
}

HookState stateOf(const HookOutcome &h)
{
    switch (hookSeverity(h)) {
    case HookSeverity::Ok: return HookState::Ok;
    case HookSeverity::Retried: return HookState::Retried;
    case HookSeverity::Warning: return HookState::Warning;
    case HookSeverity::Failed: break;
    }
    return HookState::Failed;
}
} // namespace

QString hookStateName(HookState state)
{
    switch (state) {
    case HookState::None: return QString();
    case HookState::Ok: return QStringLiteral("ok");
    case HookState::Retried: return QStringLiteral("ok after retries");
    case HookState::Warning: return QStringLiteral("warning");
    case HookState::Failed: return QStringLiteral("failed");
    }
    return QString();
}

QString describeHookOutcome(const HookOutcome &h)
{
    QStringList parts;
    parts << (h.status > 0 ? QStringLiteral("HTTP %1").arg(h.status) : QStringLiteral("no response"));
    parts << (h.attempts == 1 ? QStringLiteral("1 attempt") : QStringLiteral("%1 attempts").arg(h.attempts));
    parts << formatWithUnit(h.latencyMs, unit::ms);
    QString s = QStringLiteral("%1 %2 %3: %4 (%5)")
                    .arg(h.method, h.path, h.origin.isEmpty() ? QString() : QStringLiteral("@ ") + h.origin,
                         hookVerdictText(h),
                         parts.join(QStringLiteral(" · ")));
    s.replace(QStringLiteral("  "), QStringLiteral(" "));
    if (h.placement != HookPlacement::None)
        s += QStringLiteral(" [%1]").arg(hookPlacementName(h.placement));
    if (h.metricsVerdict != MetricsVerdict::None)
        s += QStringLiteral(" · reset ") + describeMetricsVerdict(h.metricsVerdict, h.metricsCachedTokens);
    if (!h.message.isEmpty())
        s += QStringLiteral(" — ") + displaySafe(h.message); // server text: controls shown, not obeyed
    return s;
}

HookSummary summarizeHooks(const CellResult &cell, HookKind kind)
{
    HookSummary sum;
    QStringList lines;
    int worstAttempts = 0;
    QString worstVerdict;
    for (const HookOutcome &h : cell.hooks) {
        if (!shownAs(h.hook, kind))
            continue;
        const HookState st = stateOf(h);
        if (severity(st) >= severity(sum.state)) {
            sum.state = st;
            worstAttempts = h.attempts;
            worstVerdict = hookVerdictText(h);
        }
        // A restart in the reset column says what it was.
        lines << (h.hook == kind ? QString() : hookKindName(h.hook) + QStringLiteral(": ")) + describeHookOutcome(h);
    }
    switch (sum.state) {
    case HookState::None: break;
    case HookState::Ok: sum.text = QStringLiteral("ok"); break;
    case HookState::Retried: sum.text = QStringLiteral("ok after %1 attempts").arg(worstAttempts); break;
    case HookState::Warning:
    case HookState::Failed: sum.text = QStringLiteral("%1: %2").arg(hookStateName(sum.state), worstVerdict); break;
    }
    sum.toolTip = lines.join(QLatin1Char('\n'));
    return sum;
}

QIcon hookStateIcon(HookState state)
{
    switch (state) {
    case HookState::None: return {};
    case HookState::Ok: return ui::hookSeverityIcon(HookSeverity::Ok);
    case HookState::Retried: return ui::hookSeverityIcon(HookSeverity::Retried);
    case HookState::Warning: return ui::hookSeverityIcon(HookSeverity::Warning);
    case HookState::Failed: break;
    }
    return ui::hookSeverityIcon(HookSeverity::Failed);
}

} // namespace sb::ui
