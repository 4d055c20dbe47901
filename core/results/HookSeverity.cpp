#include "results/HookSeverity.h"

namespace sb {

HookSeverity hookSeverity(const HookOutcome &h)
{
    if (h.ok)
        return h.attempts > 1 ? HookSeverity::Retried : HookSeverity::Ok;
    // The model list is advisory unless it was read and lacks the model (verdict refused): a
    // server without /v1/models (404) or with an unreadable list cannot confirm the name, which
    // is worth a warning, not a failed check.
    if (h.hook == HookKind::ModelList)
        return h.verdict == HookVerdict::Refused ? HookSeverity::Failed : HookSeverity::Warning;
    // Without GPU telemetry a sweep still measures its cells: worth a warning, not a failed check.
    if (h.hook == HookKind::GpuTelemetry)
        return HookSeverity::Warning;
    // Only the stop is tolerated (§5: a failed stop is a warning); a missing reset or start route
    // leaves the cell unmeasured or measured without a reset, whatever the reason.
    return h.hook == HookKind::ProfilerStop ? HookSeverity::Warning : HookSeverity::Failed;
}

QString hookSeverityName(HookSeverity s)
{
    switch (s) {
    case HookSeverity::Ok: return QStringLiteral("ok");
    case HookSeverity::Retried: return QStringLiteral("ok after retries");
    case HookSeverity::Warning: return QStringLiteral("warning");
    case HookSeverity::Failed: return QStringLiteral("failed");
    }
    return QString();
}

QString hookSeverityGlyph(HookSeverity s)
{
    switch (s) {
    case HookSeverity::Ok:
    case HookSeverity::Retried: return QStringLiteral("✓");
    case HookSeverity::Warning: return QStringLiteral("⚠");
    case HookSeverity::Failed: break;
    }
    return QStringLiteral("✗");
}

QString hookVerdictText(const HookOutcome &h)
{
    if (h.verdict)
        return hookVerdictName(*h.verdict);
    return h.ok ? QStringLiteral("ok") : QStringLiteral("error");
}

} // namespace sb
