#include "results/HookSummary.h"
#include "report/DisplayText.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include "charts/MetricFormat.h"
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace sb {

namespace {
int severity(HookState s)
{
    return int(s);
}

HookState stateOf(const HookOutcome &h)
{
    if (h.ok)
        return h.attempts > 1 ? HookState::Retried : HookState::Ok;
    // A missing stop is a warning (traces may be incomplete, numbers are fine); a missing route
    // means the server simply lacks the feature, which the preflight already reported.
    if (h.hook == QLatin1String("profiler_stop") || h.verdict == QLatin1String("route_missing"))
        return HookState::Warning;
    return HookState::Failed;
}

QPixmap paintGlyph(HookState state, int px)
{
    QPixmap pm(px, px);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal s = px;
    QColor fill;
    switch (state) {
    case HookState::Ok: fill = QColor(0x1a, 0x7f, 0x37); break;
    case HookState::Retried: fill = QColor(0x1a, 0x7f, 0x37); break;
    case HookState::Warning: fill = QColor(0xbf, 0x87, 0x00); break;
    case HookState::Failed: fill = QColor(0xcf, 0x22, 0x2e); break;
    case HookState::None: return pm;
    }
    QPen stroke(Qt::white, s * 0.13, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    if (state == HookState::Warning) {
        QPainterPath tri;
        tri.moveTo(s * 0.5, s * 0.06);
        tri.lineTo(s * 0.96, s * 0.92);
        tri.lineTo(s * 0.04, s * 0.92);
        tri.closeSubpath();
        p.fillPath(tri, fill);
        p.setPen(stroke);
        p.drawLine(QPointF(s * 0.5, s * 0.36), QPointF(s * 0.5, s * 0.6));
        p.drawPoint(QPointF(s * 0.5, s * 0.78));
        return pm;
    }
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawEllipse(QRectF(s * 0.04, s * 0.04, s * 0.92, s * 0.92));
    p.setPen(stroke);
    if (state == HookState::Failed) {
        p.drawLine(QPointF(s * 0.32, s * 0.32), QPointF(s * 0.68, s * 0.68));
        p.drawLine(QPointF(s * 0.68, s * 0.32), QPointF(s * 0.32, s * 0.68));
    } else {
        QPainterPath tick;
        tick.moveTo(s * 0.27, s * 0.52);
        tick.lineTo(s * 0.44, s * 0.68);
        tick.lineTo(s * 0.73, s * 0.34);
        p.setBrush(Qt::NoBrush);
        p.drawPath(tick);
        if (state == HookState::Retried) {
            // An amber badge: it worked, but not at once.
            p.setPen(QPen(Qt::white, s * 0.06));
            p.setBrush(QColor(0xbf, 0x87, 0x00));
            p.drawEllipse(QRectF(s * 0.62, s * 0.0, s * 0.38, s * 0.38));
        }
    }
    return pm;
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
    parts << formatWithUnit(h.latencyMs, QStringLiteral("ms"));
    QString s = QStringLiteral("%1 %2 %3: %4 (%5)")
                    .arg(h.method, h.path, h.origin.isEmpty() ? QString() : QStringLiteral("@ ") + h.origin,
                         h.verdict.isEmpty() ? (h.ok ? QStringLiteral("ok") : QStringLiteral("error")) : h.verdict,
                         parts.join(QStringLiteral(" · ")));
    s.replace(QStringLiteral("  "), QStringLiteral(" "));
    if (!h.placement.isEmpty())
        s += QStringLiteral(" [%1]").arg(h.placement);
    if (!h.metricsVerdict.isEmpty())
        s += QStringLiteral(" · reset ") + describeMetricsVerdict(h.metricsVerdict, h.metricsCachedTokens);
    if (!h.message.isEmpty())
        s += QStringLiteral(" — ") + displaySafe(h.message); // server text: controls shown, not obeyed
    return s;
}

HookSummary summarizeHooks(const CellResult &cell, const QString &kind)
{
    HookSummary sum;
    QStringList lines;
    int worstAttempts = 0;
    QString worstVerdict;
    for (const HookOutcome &h : cell.hooks) {
        if (h.hook != kind)
            continue;
        const HookState st = stateOf(h);
        if (severity(st) >= severity(sum.state)) {
            sum.state = st;
            worstAttempts = h.attempts;
            worstVerdict = h.verdict;
        }
        lines << describeHookOutcome(h);
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
    // Several sizes so QIcon picks a crisp one for the view's icon size and DPR. Not cached in a
    // static: pixmaps must not outlive the QGuiApplication (models cache them instead).
    QIcon icon;
    if (state != HookState::None)
        for (int px : {16, 24, 32, 48})
            icon.addPixmap(paintGlyph(state, px));
    return icon;
}

} // namespace sb
