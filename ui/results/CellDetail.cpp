#include "results/CellDetail.h"
#include "results/TraceActions.h"
#include "report/DisplayText.h"
#include "charts/MetricFormat.h"
#include "results/HookSummary.h"
#include "style/Theme.h"
#include <QDir>
#include <QUrl>

namespace sb::ui {

namespace {
// Cell text comes from servers and imported files: control and bidi characters are shown, not obeyed.
QString esc(const QString &s)
{
    return displaySafe(s).toHtmlEscaped();
}

QString fileLink(const QString &path)
{
    return QStringLiteral("<a href=\"%1\">%2</a>").arg(esc(QUrl::fromLocalFile(path).toString()), esc(path));
}

QString hookRowColor(const HookOutcome &h)
{
    return ui::hookSeverityColor(hookSeverity(h)).name();
}
} // namespace

QString cellDetailHtml(const CellResult &cell, const QString &folder)
{
    QString h;
    h += QStringLiteral("<h3>%1 · concurrency %2</h3>").arg(esc(cell.server)).arg(cell.concurrency);
    h += QStringLiteral("<p><b>%1</b>%2 — %3 ok, %4 failed")
             .arg(esc(cellStatusName(cell.status)), cell.reason.isEmpty() ? QString() : QStringLiteral(": ") + esc(cell.reason))
             .arg(cell.completed)
             .arg(cell.failed);
    if (cell.failed > 0)
        h += QStringLiteral(" (error rate %1 %)").arg(formatNumber(cell.errorRate * 100));
    if (cell.reconnects > 0 || cell.resent > 0)
        h += QStringLiteral("; %1 reconnects, %2 requests re-sent on a fresh connection").arg(cell.reconnects).arg(cell.resent);
    if (cell.durationS > 0)
        h += QStringLiteral(" in %1 s").arg(formatNumber(cell.durationS));
    if (!cell.tokenSource.isEmpty())
        h += QStringLiteral("; tokens from <i>%1</i>").arg(esc(cell.tokenSource));
    if (cell.maxInFlight > 0)
        h += QStringLiteral("; in flight max %1, mean %2").arg(cell.maxInFlight).arg(formatNumber(cell.meanInFlight));
    if (cell.steadyMeanInFlight >= 0)
        h += QStringLiteral(" (%1 between ramp-up and drain)").arg(formatNumber(cell.steadyMeanInFlight));
    h += QStringLiteral("</p>");

    h += QStringLiteral("<h4>Hooks</h4>");
    if (cell.hooks.isEmpty()) {
        h += QStringLiteral("<p>none configured</p>");
    } else {
        // A list, not a table: the pane is narrow and an 8-column table wraps every word.
        // Concatenated, not chained arg(): paths may hold "%2F"-like text that arg() would eat.
        h += QStringLiteral("<ul>");
        for (const HookOutcome &o : cell.hooks) {
            const QString verdict = hookVerdictText(o);
            h += QStringLiteral("<li><b>") + esc(hookKindName(o.hook)) + QStringLiteral("</b>");
            if (!o.placement.isEmpty())
                h += QStringLiteral(" (") + esc(o.placement) + QLatin1Char(')');
            h += QStringLiteral(": <b style='color:") + hookRowColor(o) + QStringLiteral("'>") + esc(verdict) + QStringLiteral("</b> — ");
            h += (o.status > 0 ? QStringLiteral("HTTP ") + QString::number(o.status) : QStringLiteral("no response"));
            h += QStringLiteral(" · ") + QString::number(o.attempts) + (o.attempts == 1 ? QStringLiteral(" attempt") : QStringLiteral(" attempts"));
            h += QStringLiteral(" · ") + formatWithUnit(o.latencyMs, unit::ms);
            h += QStringLiteral("<br><small><code>") + esc(o.method) + QLatin1Char(' ') + esc(o.origin) + esc(o.path)
                 + QStringLiteral("</code>");
            if (o.at.isValid())
                h += QStringLiteral(" at ") + esc(o.at.toUTC().toString(Qt::ISODateWithMs));
            h += QStringLiteral("</small>");
            if (!o.message.isEmpty())
                h += QStringLiteral("<br>") + esc(o.message);
            h += QStringLiteral("</li>");
        }
        h += QStringLiteral("</ul>");
    }

    if (!cell.errors.isEmpty()) {
        h += QStringLiteral("<h4>Errors</h4><ul>");
        for (auto it = cell.errors.cbegin(); it != cell.errors.cend(); ++it) {
            h += QStringLiteral("<li><b>%1</b> × %2").arg(esc(it.key())).arg(it.value());
            const QString sample = cell.errorSamples.value(it.key());
            if (!sample.isEmpty())
                h += QStringLiteral("<br><code>%1</code>").arg(esc(sample));
            h += QStringLiteral("</li>");
        }
        h += QStringLiteral("</ul>");
    }
    if (!cell.warnings.isEmpty()) {
        h += QStringLiteral("<h4>Warnings</h4><ul>");
        for (const QString &w : cell.warnings)
            h += QStringLiteral("<li>%1</li>").arg(esc(w));
        h += QStringLiteral("</ul>");
    }
    if (!cell.traces.isEmpty()) {
        h += QStringLiteral("<h4>Traces</h4><ul>");
        for (const QString &t : cell.traces)
            h += fileOnDisk(t) ? QStringLiteral("<li>%1</li>").arg(fileLink(t))
                               : QStringLiteral("<li>%1 %2 <i>(no longer on disk)</i></li>").arg(QString::fromUtf8(kMissingMarker), esc(t));
        h += QStringLiteral("</ul>");
    }
    if (!cell.recordsPath.isEmpty() && !folder.isEmpty())
        h += QStringLiteral("<p>Per-request records: %1</p>").arg(fileLink(QDir(folder).filePath(cell.recordsPath)));
    return h;
}

} // namespace sb::ui
