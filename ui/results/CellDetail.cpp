#include "results/CellDetail.h"
#include "results/CellServerDetail.h"
#include "results/TraceActions.h"
#include "report/DisplayText.h"
#include "charts/MetricFormat.h"
#include "metrics/MetricCatalogue.h"
#include "results/SweepAxis.h"
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

// Token lengths: the average to a tenth (299.8 vs 300 is the point), min and max whole.
QString tokens(double v, int decimals)
{
    QString t = QString::number(v, 'f', decimals);
    if (t.endsWith(QLatin1String(".0")))
        t.chop(2);
    return t;
}

QString avgMinMax(const MetricStats &s)
{
    return QStringLiteral("avg %1 (min %2, max %3)").arg(tokens(s.avg, 1), tokens(s.min, 0), tokens(s.max, 0));
}

// Requested vs measured ISL/OSL with the source of the token counts; a line off
// by more than the validity tolerance (metrics/MetricCatalogue.h kLengthTolerance) is marked as the warning it is.
QString lengthsHtml(const CellResult &cell)
{
    struct Row {
        const QString &measured, &requested;
        const char *name;
        bool shortOnly; // OSL: only a shortfall is a problem (max_tokens is an upper bound)
    };
    const Row rows[] = {{tag::inputLength, tag::requestedInputLength, "Input (ISL)", false},
                        {tag::outputLength, tag::requestedOutputLength, "Output (OSL)", true}};
    QString h;
    for (const Row &r : rows) {
        const MetricStats measured = cell.metrics.value(r.measured);
        const MetricStats requested = cell.metrics.value(r.requested);
        if (measured.count == 0 && requested.count == 0)
            continue;
        h += QStringLiteral("<li><b>") + QLatin1String(r.name) + QStringLiteral("</b>: requested ")
             + (requested.count > 0 ? avgMinMax(requested) : QStringLiteral("not recorded"));
        h += QStringLiteral(" · measured ") + (measured.count > 0 ? avgMinMax(measured) : QStringLiteral("not reported"));
        if (measured.count > 0 && requested.count > 0 && requested.avg > 0) {
            const double off = (measured.avg - requested.avg) / requested.avg;
            const bool bad = r.shortOnly ? off < -kLengthTolerance : std::abs(off) > kLengthTolerance;
            const QString delta = QStringLiteral("%1%2 %").arg(off >= 0 ? QStringLiteral("+") : QString(), QString::number(off * 100, 'f', 1));
            h += bad ? QStringLiteral(" · <b style='color:%1'>⚠ %2, more than %3 % off</b>")
                           .arg(hookSeverityColor(HookSeverity::Warning).name(), delta, QString::number(kLengthTolerance * 100, 'g', 3))
                     : QStringLiteral(" · ") + delta;
        }
        h += QStringLiteral("</li>");
    }
    if (h.isEmpty())
        return {};
    const QString source = cell.tokenSource == TokenSource::Usage     ? QStringLiteral("counted by the server (<i>usage</i>)")
                           : cell.tokenSource == TokenSource::Counted ? QStringLiteral("counted by the client (<i>counted</i>: approximate)")
                           : cell.tokenSource == TokenSource::None    ? QStringLiteral("source not recorded")
                                                                      : QStringLiteral("<i>") + esc(tokenSourceName(cell.tokenSource)) + QStringLiteral("</i>");
    return QStringLiteral("<h4>Lengths (tokens)</h4><p>Tokens %1</p><ul>%2</ul>").arg(source, h);
}

// An open-loop cell's truth: did the client send at the rate asked for, on time?
QString openLoopHtml(const OpenLoopResult &o)
{
    QString h = QStringLiteral("<h4>Arrivals</h4><ul>");
    h += QStringLiteral("<li>rate: target %1 req/s, achieved %2 req/s").arg(formatRate(o.targetRate), formatRate(o.achievedRate));
    if (o.targetRate > 0 && o.achievedRate > 0)
        h += QStringLiteral(" (%1 %)").arg(formatNumber(o.achievedRate / o.targetRate * 100));
    h += QStringLiteral(" · %1").arg(esc(o.arrival));
    if (o.arrival == QLatin1String("gamma"))
        h += QStringLiteral(" (burstiness %1)").arg(formatNumber(o.burstiness));
    h += QStringLiteral("</li><li>schedule lag: p50 %1, p99 %2, max %3</li>")
             .arg(formatWithUnit(o.lagP50Ms, unit::ms), formatWithUnit(o.lagP99Ms, unit::ms), formatWithUnit(o.lagMaxMs, unit::ms));
    if (o.maxConcurrency > 0)
        h += QStringLiteral("<li>max_concurrency %1: %2</li>")
                 .arg(o.maxConcurrency)
                 .arg(o.capHit ? QStringLiteral("hit — %1 requests waited (queue p50 %2, p99 %3)")
                                     .arg(o.queued)
                                     .arg(formatWithUnit(o.queueP50Ms, unit::ms), formatWithUnit(o.queueP99Ms, unit::ms))
                               : QStringLiteral("never reached"));
    return h + QStringLiteral("</ul>");
}
} // namespace

QString cellDetailHtml(const CellResult &cell, const QString &folder)
{
    QString h;
    h += QStringLiteral("<h3>%1 · %2</h3>").arg(esc(cell.server), esc(pointLabel(cell)));
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
    if (cell.tokenSource != TokenSource::None)
        h += QStringLiteral("; tokens from <i>%1</i>").arg(esc(tokenSourceName(cell.tokenSource)));
    if (cell.maxInFlight > 0)
        h += QStringLiteral("; in flight max %1, mean %2").arg(cell.maxInFlight).arg(formatNumber(cell.meanInFlight));
    if (cell.steadyMeanInFlight >= 0)
        h += QStringLiteral(" (%1 between ramp-up and drain)").arg(formatNumber(cell.steadyMeanInFlight));
    h += QStringLiteral("</p>");
    if (cell.openLoop)
        h += openLoopHtml(*cell.openLoop);
    h += lengthsHtml(cell);

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
            if (o.placement != HookPlacement::None)
                h += QStringLiteral(" (") + esc(hookPlacementName(o.placement)) + QLatin1Char(')');
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
    h += failedCellLogHtml(cell, folder);
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
    h += serverInfoHtml(cell.serverInfo);
    return h;
}

} // namespace sb::ui
