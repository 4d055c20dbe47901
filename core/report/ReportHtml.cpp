#include "results/SweepAxis.h"
#include "report/ReportHtml.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include "report/ReportText.h"
#include "results/HookSeverity.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace sb {

namespace {
// Escaped text. "://" is written as ":&#47;&#47;": it reads the same, but no URL of a server or
// message (origins, error samples) ever appears in the page as something a tool could follow.
QString e(const QString &s) { return htmlEscape(s).replace(QLatin1String("://"), QLatin1String(":&#47;&#47;")); }

// Relative href of a file inside the bundle: percent-encoded per segment, then escaped.
QString relHref(const QString &path) { return e(QString::fromLatin1(QUrl::toPercentEncoding(path, "/"))); }

QString num(double v, int decimals) { return formatFixed(v, decimals, QStringLiteral("&mdash;")); }

const char *kCss = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d9dde5;padding-bottom:4px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums} th,td{border:1px solid #d9dde5;padding:3px 7px;vertical-align:top}
th{background:#f1f3f7;text-align:left} td.n{text-align:right;white-space:nowrap}
.meta th{width:12em} .ok{color:#1b7f3b} .bad{color:#b3261e} .warn{color:#8a5a00} .muted{color:#667085}
figure{display:inline-block;margin:8px 16px 16px 0} figure img{max-width:100%;border:1px solid #d9dde5}
figcaption{font-size:12px;color:#667085} code{font-size:12px;word-break:break-all} ul{margin:2px 0;padding-left:18px}
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
    for (auto it = r.host.begin(); it != r.host.end(); ++it)
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

QString hookCell(const CellResult &c)
{
    if (c.hooks.isEmpty())
        return QStringLiteral("<span class=\"muted\">none</span>");
    QString html = QStringLiteral("<ul>");
    for (const HookOutcome &h : c.hooks) {
        html += QStringLiteral("<li><span class=\"%1\">%2 %3</span> %4 %5 &rarr; %6, %7 attempt(s), %8 ms")
                    .arg(severityClass(hookSeverity(h)), e(hookKindName(h.hook)), e(hookVerdictText(h)), e(h.method), e(h.path),
                         h.status ? QString::number(h.status) : QStringLiteral("no response"), QString::number(h.attempts),
                         formatFixed(h.latencyMs, 1, QStringLiteral("?")));
        if (!h.placement.isEmpty())
            html += QStringLiteral(" (%1)").arg(e(h.placement));
        if (h.metricsVerdict != MetricsVerdict::None)
            html += QStringLiteral(" <span class=\"%1\">%2</span>")
                        .arg(h.metricsVerdict == MetricsVerdict::NotConfirmed ? QStringLiteral("bad") : QStringLiteral("ok"),
                             e(describeMetricsVerdict(h.metricsVerdict, h.metricsCachedTokens)));
        if (!h.message.isEmpty())
            html += QStringLiteral("<br><span class=\"muted\">%1</span>").arg(e(h.message));
        html += QStringLiteral("</li>");
    }
    return html + QStringLiteral("</ul>");
}

QString filesCell(const CellResult &c, const QSet<QString> &bundled)
{
    QString html;
    if (!c.recordsPath.isEmpty()) {
        html += bundled.contains(c.recordsPath)
            ? QStringLiteral("<a href=\"%1\">records</a>").arg(relHref(c.recordsPath))
            : QStringLiteral("records: <code>%1</code>").arg(e(c.recordsPath));
    }
    if (!c.traces.isEmpty()) {
        // Traces stay where the server wrote them (they can be gigabytes): shown as paths, linked
        // with file: URLs that work on the machine that ran the sweep. Never http(s).
        html += QStringLiteral("<ul>");
        for (const QString &t : c.traces) {
            if (bundled.contains(t))
                html += QStringLiteral("<li><a href=\"%1\">%2</a></li>").arg(relHref(t), e(t));
            else if (t.startsWith(QLatin1Char('/')))
                html += QStringLiteral("<li><a href=\"%1\"><code>%2</code></a></li>")
                            .arg(e(QUrl::fromLocalFile(t).toString(QUrl::FullyEncoded)), e(t));
            else
                html += QStringLiteral("<li><code>%1</code></li>").arg(e(t));
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
    QStringList stats;
};
const QList<MetricGroup> &metricGroups()
{
    static const QList<MetricGroup> groups = {
        {tag::ttft, {QStringLiteral("p50"), QStringLiteral("p90"), QStringLiteral("p99")}},
        {tag::itl, {QStringLiteral("avg"), QStringLiteral("p99")}},
        {tag::latency, {QStringLiteral("p50"), QStringLiteral("p99")}},
        {tag::outputThroughput, {QStringLiteral("avg")}},
        {tag::requestThroughput, {QStringLiteral("avg")}},
        {tag::goodput, {QStringLiteral("avg")}},
    };
    return groups;
}

QString groupHeading(const MetricGroup &g)
{
    const MetricInfo *m = findMetric(g.metric);
    if (m->singleValued)
        return e(m->shortLabel);
    return e(QStringLiteral("%1 %2 %3").arg(m->shortLabel, g.stats.join(QStringLiteral(" / ")), shortUnit(m->unit)));
}

QString groupCell(const CellResult &c, const MetricGroup &g)
{
    const int decimals = findMetric(g.metric)->decimals;
    QStringList values;
    for (const QString &stat : g.stats)
        values.append(num(cellValue(c, g.metric, stat), decimals));
    return QStringLiteral("<td class=\"n\">%1</td>").arg(values.join(QStringLiteral(" / ")));
}

QString cellTable(const ReportHtmlInput &in)
{
    QString html = QStringLiteral(
        "<table class=\"cells\"><thead><tr><th>#</th><th>Server</th><th>%1</th><th>Status</th><th>ok / failed</th>").arg(e(axisShort(axisOf(in.results))));
    for (const MetricGroup &g : metricGroups())
        html += QStringLiteral("<th>%1</th>").arg(groupHeading(g));
    html += QStringLiteral("<th>Tokens</th><th>Hooks</th><th>Records &amp; traces</th><th>Notes</th></tr></thead>\n<tbody>\n");
    for (const CellResult &c : in.results.cells) {
        html += QStringLiteral("<tr><td class=\"n\">%1</td><td>%2<br><span class=\"muted\">%3</span></td><td class=\"n\">%4</td>"
                               "<td class=\"%5\">%6</td><td class=\"n\">%7 / %8</td>")
                    .arg(QString::number(c.index), e(c.server), e(c.origin), pointNumber(c), statusClass(c.status),
                         e(cellStatusName(c.status)), QString::number(c.completed), QString::number(c.failed));
        for (const MetricGroup &g : metricGroups())
            html += groupCell(c, g);
        html += QStringLiteral("<td>%1</td>").arg(e(c.tokenSource) + QStringLiteral("<br><span class=\"muted\">%1</span>").arg(e(requestedVsMeasured(c))));
        html += QStringLiteral("<td>%1</td><td>%2</td><td>%3</td></tr>\n").arg(hookCell(c), filesCell(c, in.bundledFiles), notesCell(c));
    }
    return html + QStringLiteral("</tbody></table>\n");
}

// The server's side of each cell (docs/server-metrics.md): its key aggregates, one row per
// metric. Metric names come from the server: escaped like every other server string.
QString serverTable(const ReportHtmlInput &in)
{
    QString rows;
    for (const CellResult &c : in.results.cells) {
        for (auto it = c.serverMetrics.begin(); it != c.serverMetrics.end(); ++it) {
            const QJsonObject m = it.value().toObject();
            const auto v = [&](const char *k) { return m.contains(QLatin1String(k)) ? num(m.value(QLatin1String(k)).toDouble(NAN), 3) : QString(); };
            const QString type = m.value(QStringLiteral("type")).toString();
            const QString values = type == QLatin1String("gauge")     ? QStringLiteral("avg %1 · max %2").arg(v("avg"), v("max"))
                                   : type == QLatin1String("counter") ? QStringLiteral("&Delta; %1 · %2/s").arg(v("delta"), v("rate"))
                                                                      : QStringLiteral("n %1 · p50 %2 · p99 %3").arg(v("count"), v("p50"), v("p99"));
            rows += QStringLiteral("<tr><td class=\"n\">%1</td><td>%2</td><td class=\"n\">%3</td><td><code>%4</code></td><td>%5</td><td>%6</td><td class=\"n\">%7</td></tr>\n")
                        .arg(QString::number(c.index), e(c.server), QString::number(c.concurrency), e(it.key()), e(type),
                             e(m.value(QStringLiteral("unit")).toString()), values);
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
} // namespace

QByteArray reportHtml(const ReportHtmlInput &in)
{
    const QString title = in.results.sweepName.isEmpty() ? QStringLiteral("SweepBench report")
                                                         : QStringLiteral("SweepBench report: ") + in.results.sweepName;
    QString html = QStringLiteral(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        // No network: everything the page shows is inline or a file next to it in the bundle.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: file:\">\n"
        "<meta name=\"referrer\" content=\"no-referrer\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%1</title>\n<style>%2</style></head>\n<body>\n"
        "<h1>%1</h1>\n").arg(e(title), QString::fromLatin1(kCss));
    html += QStringLiteral("<h2>Run</h2>\n<table class=\"meta\">\n%1</table>\n").arg(metaRows(in));
    if (!in.warnings.isEmpty()) {
        html += QStringLiteral("<h2>Export notes</h2>\n<ul>");
        for (const QString &w : in.warnings)
            html += QStringLiteral("<li class=\"warn\">%1</li>").arg(e(w));
        html += QStringLiteral("</ul>\n");
    }
    if (!in.charts.isEmpty()) {
        html += QStringLiteral("<h2>Charts</h2>\n");
        for (const ReportChart &c : in.charts) {
            html += QStringLiteral("<figure><img src=\"%1\" alt=\"%2\"><figcaption>%2").arg(relHref(c.svgPath), e(c.title));
            if (!c.pngPath.isEmpty())
                html += QStringLiteral(" &middot; <a href=\"%1\">PNG</a>").arg(relHref(c.pngPath));
            html += QStringLiteral("</figcaption></figure>\n");
        }
    }
    html += QStringLiteral("<h2>Cells</h2>\n") + cellTable(in);
    html += serverTable(in);
    html += QStringLiteral("<p class=\"muted\">Metric names and definitions follow AIPerf: TTFT counts the first chunk with content; "
                           "ITL = (latency &minus; TTFT) / (output tokens &minus; 1). Files: results.json (all numbers), results.csv, "
                           "cells/*/records.jsonl (per request), sweep.yaml (secrets removed), manifest.json (sha256 of every file).</p>\n"
                           "</body></html>\n");
    return html.toUtf8();
}

} // namespace sb
