#include "results/SweepAxis.h"
#include "report/ReportHtml.h"
#include "report/ReportPareto.h"
#include "report/ReportTraceSection.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include "report/DisplayText.h"
#include "report/ReportText.h"
#include "results/HookSeverity.h"
#include "results/PointSummary.h"
#include "report/RepeatSummary.h"
#include "report/ReportSummary.h"
#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace sb {

namespace {
// Escaped text. "://" is written as ":&#47;&#47;": it reads the same, but no URL of a server or
// message (origins, error samples) ever appears in the page as something a tool could follow.
QString e(const QString &s) { return htmlEscapeNoUrls(s); }

// Relative href of a file inside the bundle: percent-encoded per segment, then escaped.
QString relHref(const QString &path) { return e(QString::fromLatin1(QUrl::toPercentEncoding(path, "/"))); }

QString num(double v, int decimals) { return formatFixed(v, decimals, QStringLiteral("&mdash;")); }

const char *kCss = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d9dde5;padding-bottom:4px}
h3{font-size:15px;margin:16px 0 4px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums} th,td{border:1px solid #d9dde5;padding:3px 7px;vertical-align:top}
th{background:#f1f3f7;text-align:left} td.n{text-align:right;white-space:nowrap}
table.main{font-size:13px;width:100%} .origin{word-break:break-all} td.server{min-width:8.5em} td.tokens{min-width:9em}
.meta th{width:12em} .ok{color:#1b7f3b} .bad{color:#b3261e} .warn{color:#8a5a00} .muted{color:#667085}
figure{display:block;margin:8px 0 20px;max-width:1000px} figure img{width:100%;height:auto;border:1px solid #d9dde5}
figcaption{font-size:13px;color:#667085} code{font-size:12px;word-break:break-all} ul{margin:2px 0;padding-left:18px}
.summary li{margin:2px 0} .hooks{white-space:nowrap} .hk{display:inline-block;min-width:16px;height:16px;margin-right:2px;
text-align:center;font-weight:bold;line-height:16px;background-repeat:no-repeat;background-size:16px 16px;
-webkit-print-color-adjust:exact;print-color-adjust:exact}
details summary{cursor:pointer;color:#667085;font-size:12px} details ul{font-size:12px}
@media print{
 body{margin:0;font-size:10.5px;color:#000} h2{break-after:avoid} figure{break-inside:avoid;max-width:100%}
 table{width:100%} tr,li{break-inside:avoid} thead{display:table-header-group}
 a{color:inherit;text-decoration:none} details summary{display:none} details>ul{display:block}
}
)";
QString statusClass(CellStatus status)
{
    if (status == CellStatus::Completed)
        return QStringLiteral("ok");
    if (status == CellStatus::Failed || status == CellStatus::Cancelled)
        return QStringLiteral("bad");
    return QStringLiteral("warn"); // degraded, skipped, pending
}

QString metaRows(const ReportHtmlInput &in)
{
    const SweepResults &r = in.results;
    QString html;
    auto row = [&html](const QString &k, const QString &v) {
        if (!v.isEmpty())
            html += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>\n").arg(e(k), e(v));
    };
    row(QStringLiteral("Sweep"), r.sweepName);
    row(QStringLiteral("Source"), in.sourceName);
    row(QStringLiteral("Measured with"), QStringLiteral("%1 %2").arg(r.toolName, r.toolVersion).trimmed());
    row(QStringLiteral("Source tool"), r.sourceTool);
    row(QStringLiteral("Started"), r.startedAt.isValid() ? r.startedAt.toUTC().toString(Qt::ISODate) : QString());
    row(QStringLiteral("Finished"), r.finishedAt.isValid() ? r.finishedAt.toUTC().toString(Qt::ISODate) : QString());
    const QJsonObject host = toJson(r.host); // each fact under its results.json name
    for (auto it = host.begin(); it != host.end(); ++it)
        row(QStringLiteral("Host ") + it.key(), it.value().isString() ? it.value().toString()
                                                 : QString::fromUtf8(QJsonDocument(QJsonArray{it.value()}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
    row(QStringLiteral("Servers"), r.serverNames().join(QStringLiteral(", ")));
    row(QStringLiteral("Cells"), QString::number(r.cells.size()));
    row(QStringLiteral("Report generated"), QStringLiteral("%1 on %2 by SweepBench %3 (Qt %4)")
                                                .arg(in.generatedAt, in.generatorHost, QStringLiteral(SWEEPBENCH_VERSION), QString::fromLatin1(qVersion())));
    return html;
}

// The page's colour for a hook outcome: the same judgement as every other view.
QString severityClass(HookSeverity s)
{
    switch (s) {
    case HookSeverity::Ok:
    case HookSeverity::Retried: return QStringLiteral("ok");
    case HookSeverity::Warning: return QStringLiteral("warn");
    case HookSeverity::Failed: break;
    }
    return QStringLiteral("bad");
}

// One compact icon per call (the one icon set, by results/HookSeverity), its details in the
// icon's title and in a collapsed <details>: rows stay one line tall however chatty the hooks.
QString hookLine(const HookOutcome &h)
{
    QString line = QStringLiteral("%1 %2 %3 %4 \u2192 %5, %6 attempt(s), %7 ms")
                       .arg(hookKindName(h.hook), hookVerdictText(h), h.method, h.path,
                            h.status ? QString::number(h.status) : QStringLiteral("no response"), QString::number(h.attempts),
                            formatFixed(h.latencyMs, 1, QStringLiteral("?")));
    if (h.placement != HookPlacement::None)
        line += QStringLiteral(" (%1)").arg(hookPlacementName(h.placement));
    if (h.metricsVerdict != MetricsVerdict::None)
        line += QLatin1Char(' ') + describeMetricsVerdict(h.metricsVerdict, h.metricsCachedTokens);
    if (!h.message.isEmpty())
        line += QStringLiteral(": ") + h.message;
    return line;
}

QString hookCell(const CellResult &c)
{
    if (c.hooks.isEmpty())
        return QStringLiteral("<span class=\"muted\">none</span>");
    QString icons, details;
    for (const HookOutcome &h : c.hooks) {
        const HookSeverity sev = hookSeverity(h);
        const QString line = hookLine(h);
        icons += QStringLiteral("<span class=\"hk hk%1 %2\" title=\"%3\">%4</span>")
                     .arg(int(sev))
                     .arg(severityClass(sev), e(line), hookSeverityGlyph(sev));
        details += QStringLiteral("<li><span class=\"%1\">%2</span></li>").arg(severityClass(sev), e(line));
    }
    return QStringLiteral("<span class=\"hooks\">%1</span><details><summary>%2 call(s)</summary><ul>%3</ul></details>")
        .arg(icons, QString::number(c.hooks.size()), details);
}

QString filesCell(const CellResult &c, const ReportHtmlInput &in)
{
    QString html;
    if (!c.recordsPath.isEmpty()) {
        html += in.bundledFiles.contains(c.recordsPath)
            ? QStringLiteral("<a href=\"%1\">records</a>").arg(relHref(c.recordsPath))
            : QStringLiteral("records: <code>%1</code>").arg(e(c.recordsPath));
    }
    if (!c.traces.isEmpty()) {
        // Traces can be gigabytes: linked only when the export copied them into traces/;
        // otherwise named by file name (an absolute path points into the author's machine).
        html += QStringLiteral("<ul>");
        for (const QString &t : c.traces) {
            const QString name = QFileInfo(t).fileName();
            if (const QString rel = in.bundledTraces.value(t); !rel.isEmpty())
                html += QStringLiteral("<li><a href=\"%1\">%2</a></li>").arg(relHref(rel), e(name));
            else
                html += QStringLiteral("<li><code title=\"not included in this export\">%1</code></li>").arg(e(name));
        }
        html += QStringLiteral("</ul>");
    }
    return html;
}

QString notesCell(const CellResult &c)
{
    QStringList notes;
    if (!c.reason.isEmpty())
        notes.append(e(c.reason));
    if (const auto &o = c.openLoop) // numbers only: nothing here needs escaping
        notes.append(QStringLiteral("%1 arrivals, achieved %2 req/s; schedule lag p99 %3 ms; %4 queued (p99 %5 ms)")
                         .arg(e(o->arrival), formatRate(o->achievedRate))
                         .arg(o->lagP99Ms, 0, 'f', 2)
                         .arg(o->queued)
                         .arg(o->queueP99Ms, 0, 'f', 1));
    for (auto it = c.errors.cbegin(); it != c.errors.cend(); ++it) {
        QString s = QStringLiteral("%1 &times; %2").arg(QString::number(it.value()), e(it.key()));
        if (const QString sample = c.errorSamples.value(it.key()); !sample.isEmpty())
            s += QStringLiteral(": <span class=\"muted\">%1</span>").arg(e(sample.left(200)));
        notes.append(s);
    }
    for (const QString &w : c.warnings)
        notes.append(QStringLiteral("<span class=\"warn\">%1</span>").arg(e(w)));
    return notes.join(QStringLiteral("<br>"));
}

// The metric columns of the cell table: one column per metric, its stats side by side.
struct MetricGroup {
    QString metric;
    QList<Stat> stats;
};
const QList<MetricGroup> &metricGroups()
{
    static const QList<MetricGroup> groups = {
        {tag::ttft, {Stat::P50, Stat::P90, Stat::P99}},
        {tag::itl, {Stat::Avg, Stat::P99}},
        {tag::latency, {Stat::P50, Stat::P99}},
        {tag::outputThroughput, {Stat::Avg}},
        {tag::requestThroughput, {Stat::Avg}},
        {tag::goodput, {Stat::Avg}},
    };
    return groups;
}

QString groupHeading(const MetricGroup &g)
{
    const MetricInfo *m = findMetric(g.metric);
    if (m->singleValued)
        return e(m->shortLabel);
    QStringList stats;
    for (const Stat s : g.stats)
        stats.append(statName(s));
    return e(QStringLiteral("%1 %2 %3").arg(m->shortLabel, stats.join(QStringLiteral(" / ")), shortUnit(m->unit)));
}

QString groupCell(const CellResult &c, const MetricGroup &g)
{
    const int decimals = findMetric(g.metric)->decimals;
    QStringList values;
    for (const Stat stat : g.stats)
        values.append(num(cellValue(c, g.metric, stat), decimals));
    return QStringLiteral("<td class=\"n\">%1</td>").arg(values.join(QStringLiteral(" / ")));
}

QString cellTable(const ReportHtmlInput &in)
{
    // No empty Notes column: it appears when some cell has something to say.
    QStringList notes;
    bool anyNotes = false;
    for (const CellResult &c : in.results.cells) {
        notes.append(notesCell(c));
        anyNotes = anyNotes || !notes.last().isEmpty();
    }
    QString html = QStringLiteral(
        "<table class=\"cells main\"><thead><tr><th>#</th><th>Server</th><th>%1</th><th>Status</th><th>ok / failed</th>").arg(e(axisShort(axisOf(in.results))));
    for (const MetricGroup &g : metricGroups())
        html += QStringLiteral("<th>%1</th>").arg(groupHeading(g));
    html += QStringLiteral("<th>Tokens</th><th>Hooks</th><th>Records &amp; traces</th>%1</tr></thead>\n<tbody>\n")
                .arg(anyNotes ? QStringLiteral("<th>Notes</th>") : QString());
    for (int i = 0; i < in.results.cells.size(); ++i) {
        const CellResult &c = in.results.cells.at(i);
        html += QStringLiteral("<tr><td class=\"n\">%1</td><td class=\"server\">%2<br><span class=\"muted origin\">%3</span></td><td class=\"n\">%4</td>"
                               "<td class=\"%5\">%6</td><td class=\"n\">%7 / %8</td>")
                    .arg(QString::number(c.index), e(c.server), e(c.origin), pointNumber(c), statusClass(c.status),
                         e(cellStatusName(c.status)), QString::number(c.completed), QString::number(c.failed));
        for (const MetricGroup &g : metricGroups())
            html += groupCell(c, g);
        // Short in the table (asked → measured); percentiles in the tooltip, so rows stay one or two lines.
        html += QStringLiteral("<td class=\"tokens\" title=\"%1\">%2<br><span class=\"muted\">%3</span></td>")
                    .arg(e(requestedVsMeasured(c)), e(tokenSourceName(c.tokenSource)), e(requestedVsMeasuredShort(c)));
        html += QStringLiteral("<td>%1</td><td>%2</td>").arg(hookCell(c), filesCell(c, in));
        if (anyNotes)
            html += QStringLiteral("<td class=\"notes\">%1</td>").arg(notes.at(i));
        html += QStringLiteral("</tr>\n");
    }
    return html + QStringLiteral("</tbody></table>\n");
}

// What the reader needs first: what was measured, who is best at what, what the SLO search found
// and what went wrong (report/ReportSummary.h).
QString summarySection(const ReportHtmlInput &in)
{
    const ReportSummary sum = summarizeReport(in.results);
    QString html = QStringLiteral("<h2 id=\"summary\">Summary</h2>\n<ul class=\"summary\">");
    html += QStringLiteral("<li><b>Servers</b>: %1</li>").arg(e(sum.servers.join(QStringLiteral(", "))));
    QString axis = axisTitle(sum.axis);
    axis[0] = axis[0].toUpper();
    html += QStringLiteral("<li><b>%1</b>: %2</li>").arg(e(axis), e(sum.pointsText()));
    html += QStringLiteral("<li><b>Cells</b>: %1</li>").arg(e(sum.cellsText()));
    if (!sum.sloLimits.isEmpty()) // each finding about goodput is against these
        html += QStringLiteral("<li><b>SLO</b>: %1 per request (goodput counts the requests that meet it)</li>").arg(e(sum.sloLimits));
    html += QStringLiteral("</ul>\n");
    if (!sum.best.isEmpty()) {
        html += QStringLiteral("<h3>Best server per metric</h3>\n<p>Best only where the runs show it: Welch&rsquo;s t-test "
                               "on the runs&rsquo; values against every other server at the point, two-sided, &alpha; = 0.05.</p>\n"
                               "<ul class=\"summary best\">");
        for (const QString &b : sum.best)
            html += QStringLiteral("<li>%1</li>").arg(e(b));
        html += QStringLiteral("</ul>\n");
    }
    if (!sum.slo.isEmpty()) {
        html += QStringLiteral("<h3>SLO search</h3>\n<ul class=\"summary slo\">");
        for (const QString &b : sum.slo)
            html += QStringLiteral("<li>%1</li>").arg(e(b));
        html += QStringLiteral("</ul>\n");
    }
    html += QStringLiteral("<h3>Warnings</h3>\n");
    if (sum.warnings.isEmpty())
        return html + QStringLiteral("<p class=\"ok\">None: every cell completed and every hook did its job.</p>\n");
    html += QStringLiteral("<ul class=\"summary warnings\">");
    for (const QString &w : sum.warnings)
        html += QStringLiteral("<li class=\"warn\">%1</li>").arg(e(w));
    return html + QStringLiteral("</ul>\n");
}

// Repeats (sweep.repeats): mean ± 95 % CI per point where it ran more than once, and the
// significance lines the CLI prints (report/RepeatSummary.h).
QString repeatsSection(const ReportHtmlInput &in)
{
    const QList<PointSummary> points = summarizePoints(in.results);
    if (!hasRepeats(points))
        return {};
    const SweepAxis axis = axisOf(in.results);
    QString html = QStringLiteral("<h2 id=\"repeats\">Repeats</h2>\n<p class=\"muted\">Mean &plusmn; 95 % confidence interval over "
                                  "the runs of each point (Student t on the runs&rsquo; values).</p>\n"
                                  "<table class=\"cells repeats\"><thead><tr><th>Server</th><th>%1</th><th>Runs</th>")
                       .arg(e(axisShort(axis)));
    for (const RepeatColumn &col : repeatColumns())
        html += QStringLiteral("<th>%1</th>").arg(e(col.heading));
    html += QStringLiteral("</tr></thead><tbody>\n");
    for (const PointSummary &p : points) {
        html += QStringLiteral("<tr><td>%1</td><td class=\"n\">%2</td><td class=\"n\">%3</td>")
                    .arg(e(p.server), e(formatPoint(p.axis, p.point)), QString::number(p.runs()));
        for (const RepeatColumn &col : repeatColumns()) {
            const auto it = p.stats.constFind(col.key);
            QString v = QStringLiteral("&mdash;");
            if (it != p.stats.cend() && std::isfinite(it->mean)) {
                v = formatFixed(it->mean, col.decimals);
                if (p.runs() > 1 && std::isfinite(it->halfWidth))
                    v += QStringLiteral(" &plusmn; ") + formatFixed(it->halfWidth, col.decimals);
            }
            html += QStringLiteral("<td class=\"n\">%1</td>").arg(v);
        }
        html += QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("</tbody></table>\n");
    const QList<PointComparison> pairs = comparePoints(points, significanceKey());
    if (!pairs.isEmpty()) {
        html += QStringLiteral("<p>Significance (Welch&rsquo;s t-test on the runs&rsquo; TTFT p99, two-sided, &alpha; = 0.05):</p>\n<ul class=\"significance\">");
        for (const PointComparison &c : pairs)
            html += QStringLiteral("<li>%1</li>").arg(e(significanceLine(axis, c)));
        html += QStringLiteral("</ul>\n");
    }
    return html;
}

// The icon set as CSS classes (.hk0 … .hk3 by HookSeverity): each picture once per page, inline
// as data: (the CSP allows no other source); the glyph inside is hidden when a picture is there.
QString hookIconCss(const QMap<int, QByteArray> &icons)
{
    QString css;
    for (auto it = icons.cbegin(); it != icons.cend(); ++it)
        css += QStringLiteral(".hk%1{background-image:url(\"data:image/svg+xml;base64,%2\");color:transparent!important;font-size:0}\n")
                   .arg(it.key())
                   .arg(QString::fromLatin1(it.value().toBase64()));
    return css;
}

// The server's side of each cell (docs/server-metrics.md): its key aggregates, one row per
// metric. Metric names come from the server: escaped like every other server string.
QString serverTable(const ReportHtmlInput &in)
{
    QString rows;
    for (const CellResult &c : in.results.cells) {
        for (auto it = c.serverMetrics.begin(); it != c.serverMetrics.end(); ++it) {
            const ServerMetricAggregate &m = it.value();
            const auto v = [](double x) { return num(x, 3); };
            const QString type = QLatin1String(metricTypeName(m.type));
            const QString values = m.type == MetricType::Gauge     ? QStringLiteral("avg %1 · max %2").arg(v(m.avg), v(m.max))
                                   : m.type == MetricType::Counter ? QStringLiteral("&Delta; %1 · %2/s").arg(v(m.delta), v(m.rate))
                                                                   : QStringLiteral("n %1 · p50 %2 · p99 %3").arg(v(m.count), v(m.p50), v(m.p99));
            rows += QStringLiteral("<tr><td class=\"n\">%1</td><td>%2</td><td class=\"n\">%3</td><td><code>%4</code></td><td>%5</td><td>%6</td><td class=\"n\">%7</td></tr>\n")
                        .arg(QString::number(c.index), e(c.server), QString::number(c.concurrency), e(it.key()), e(type),
                             e(m.unit), values);
        }
    }
    if (rows.isEmpty())
        return {};
    return QStringLiteral("<h2>Server metrics</h2>\n<p class=\"muted\">Scraped from each server's metrics endpoint during the measured "
                          "phase: gauges over the phase, counters from just before the first request to just after the last answer; "
                          "the full series is in cells/*/server_metrics.jsonl.</p>\n"
                          "<table class=\"cells\"><thead><tr><th>#</th><th>Server</th><th>C</th><th>Metric</th><th>Type</th><th>Unit</th>"
                          "<th>Values</th></tr></thead>\n<tbody>\n")
           + rows + QStringLiteral("</tbody></table>\n");
}
// The GPUs' side of each cell (docs/gpu-telemetry.md) and its cost per token: one row per cell
// that has either. Model names come from the exporters: escaped like every other peer string.
QString gpuTable(const ReportHtmlInput &in)
{
    QString rows;
    for (const CellResult &c : in.results.cells) {
        if (!c.gpuTelemetry && !c.cost)
            continue;
        const auto v = [&c](const QString &key, Stat stat = Stat::Avg) { return num(cellValue(c, key, stat), findMetric(key)->decimals); };
        QString gpus = QStringLiteral("&mdash;"), energy = gpus;
        if (const auto &t = c.gpuTelemetry) {
            gpus = QStringLiteral("%1 × %2").arg(t->gpus).arg(e(t->models.join(QStringLiteral(", "))));
            const QString how = t->energySource == EnergySource::Counter         ? QStringLiteral("energy counter")
                                : t->energySource == EnergySource::PowerIntegral ? QStringLiteral("power integral")
                                                                                 : QStringLiteral("none");
            // Which source read the GPUs matters only when it was not an exporter.
            energy = QStringLiteral("%1 J (%2)").arg(num(t->energyJ, 1),
                                                     e(t->source == TelemetrySource::NvidiaSmi ? how + QStringLiteral(", ") + telemetrySourceName(t->source) : how));
        }
        rows += QStringLiteral("<tr><td class=\"n\">%1</td><td>%2</td><td class=\"n\">%3</td><td>%4</td><td class=\"n\">%5</td>"
                               "<td class=\"n\">%6</td><td class=\"n\">%7</td><td class=\"n\">%8 / %9</td><td class=\"n\">%10 / %11</td>"
                               "<td class=\"n\">%12 / %13</td><td class=\"n\">%14 / %15</td></tr>\n")
                    .arg(QString::number(c.index), e(c.server), pointNumber(c), gpus, energy, v(tag::energyPerOutputToken),
                         v(tag::energyPerRequest), v(tag::gpuPower), v(tag::gpuPower, Stat::Max), v(tag::gpuUtilization),
                         v(tag::smActive))
                    .arg(v(tag::gpuMemoryUsed), v(tag::gpuMemoryUsed, Stat::Max), v(tag::costPerMillionInput), v(tag::costPerMillionOutput));
    }
    if (rows.isEmpty())
        return {};
    return QStringLiteral("<h2>GPU energy and cost</h2>\n<p class=\"muted\">From the GPU exporters scraped (or nvidia-smi sampled) during each measured phase "
                          "(energy summed over the GPUs, per output token and per request of the successful requests) and the spec's "
                          "cost (the phase's wall time at gpu_hour × gpus, per million tokens); the exporters' series is in cells/*/gpu_telemetry.jsonl.</p>\n"
                          "<table class=\"cells\"><thead><tr><th>#</th><th>Server</th><th>Point</th><th>GPUs</th><th>Energy</th><th>J/tok</th>"
                          "<th>J/req</th><th>Power avg / max W</th><th>GPU util % / SM active</th><th>GPU mem avg / max MiB</th>"
                          "<th>$/M tokens in / out</th></tr></thead>\n<tbody>\n")
           + rows + QStringLiteral("</tbody></table>\n");
}
} // namespace

QString htmlEscapeNoUrls(const QString &s)
{
    // Controls and bidi overrides a server put in its text (an ESC, a U+202E that turns "ok"
    // around) are shown as visible escapes, as the GUI shows them, before the HTML escaping.
    return htmlEscape(displaySafe(s)).replace(QLatin1String("://"), QLatin1String(":&#47;&#47;"));
}

QString reportHead(const QString &title, const QString &extraCss)
{
    return QStringLiteral(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        // No network: everything the page shows is inline or a file next to it in the bundle.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: file:\">\n"
        "<meta name=\"referrer\" content=\"no-referrer\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%1</title>\n<style>%2%3</style></head>\n<body>\n"
        "<h1>%1</h1>\n").arg(e(title), QString::fromLatin1(kCss), extraCss);
}

QByteArray reportHtml(const ReportHtmlInput &in)
{
    const QString title = in.results.sweepName.isEmpty() ? QStringLiteral("SweepBench report")
                                                         : QStringLiteral("SweepBench report: ") + in.results.sweepName;
    QString html = reportHead(title, hookIconCss(in.hookIcons));
    html += summarySection(in);
    html += QStringLiteral("<h2>Run</h2>\n<table class=\"meta\">\n%1</table>\n").arg(metaRows(in));
    if (!in.warnings.isEmpty()) {
        html += QStringLiteral("<h2>Export notes</h2>\n<ul>");
        for (const QString &w : in.warnings)
            html += QStringLiteral("<li class=\"warn\">%1</li>").arg(e(w));
        html += QStringLiteral("</ul>\n");
    }
    const auto figure = [](const ReportChart &c) {
        QString f = QStringLiteral("<figure><img src=\"%1\" alt=\"%2\"><figcaption>%2").arg(relHref(c.svgPath), e(c.title));
        if (!c.pngPath.isEmpty())
            f += QStringLiteral(" &middot; <a href=\"%1\">PNG</a>").arg(relHref(c.pngPath));
        return f + QStringLiteral("</figcaption></figure>\n");
    };
    // Each Pareto chart goes with its part of the section, beside the sentences naming the frontier.
    QString charts;
    QMap<ParetoX, QString> paretoFigures;
    for (const ReportChart &c : in.charts) {
        const QString stem = QFileInfo(c.svgPath).completeBaseName();
        const auto x = std::find_if(std::cbegin(kParetoXs), std::cend(kParetoXs), [&](ParetoX p) { return paretoChartStem(p) == stem; });
        (x != std::cend(kParetoXs) ? paretoFigures[*x] : charts) += figure(c);
    }
    const QString pareto = paretoSectionHtml(in.results, paretoFigures);
    for (auto it = paretoFigures.cbegin(); it != paretoFigures.cend(); ++it)
        if (!pareto.contains(it.value()))
            charts += it.value(); // its part not shown (no point on that axis); kept should a caller pass one
    if (!charts.isEmpty())
        html += QStringLiteral("<h2>Charts</h2>\n") + charts;
    html += pareto;
    html += engineStepsSection(in.results);
    html += repeatsSection(in);
    html += QStringLiteral("<h2>Cells</h2>\n") + cellTable(in);
    html += serverTable(in);
    html += gpuTable(in);
    html += QStringLiteral("<p class=\"muted\">Metric names and definitions follow AIPerf: TTFT counts the first chunk with content; "
                           "ITL = (latency &minus; TTFT) / (output tokens &minus; 1). Files: results.json (all numbers), results.csv, "
                           "cells/*/records.jsonl (per request), sweep.yaml (secrets removed), manifest.json (sha256 of every file)%1.</p>\n"
                           "</body></html>\n").arg(in.bundledTraces.isEmpty() ? QString() : QStringLiteral(", traces/ (the profiler traces)"));
    return html.toUtf8();
}

} // namespace sb
