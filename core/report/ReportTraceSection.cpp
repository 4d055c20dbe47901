#include "report/ReportTraceSection.h"
#include "metrics/MetricCatalogue.h"
#include "report/ReportHtml.h"
#include "report/ReportText.h"
#include "report/TraceKnee.h"
#include "results/SweepAxis.h"

namespace sb {

namespace {
QString e(const QString &s) { return htmlEscapeNoUrls(s); }
QString num(double v, int decimals) { return v < 0 ? QStringLiteral("&mdash;") : formatFixed(v, decimals, QStringLiteral("&mdash;")); }

// "decode 200 · p50 12.00 · p99 18.00 ms · batch 3.5" per step kind, one line each.
QString stepKinds(const TraceStats &s)
{
    QStringList lines;
    for (const StepKindStats &k : s.stepKinds) {
        QString line = QStringLiteral("%1 %2 &middot; p50 %3 &middot; p99 %4 ms")
                           .arg(QLatin1String(stepKindName(k.kind)), QString::number(k.count), num(k.p50Ms, 2), num(k.p99Ms, 2));
        if (k.batchMean >= 0)
            line += QStringLiteral(" &middot; batch %1").arg(num(k.batchMean, 1));
        lines.append(line);
    }
    return lines.isEmpty() ? QStringLiteral("no steps found") : lines.join(QStringLiteral("<br>"));
}

QString sources(const TraceSummary &t)
{
    QStringList out;
    for (const TraceFileSummary &f : t.files) {
        const QString src = QLatin1String(stepSourceName(f.stepSource));
        if (!out.contains(src) && f.stepSource != StepSource::None)
            out.append(src);
    }
    return out.join(QStringLiteral(", "));
}

QString cellRows(const SweepResults &results)
{
    QString rows;
    for (const CellResult &c : results.cells) {
        if (!c.traceSummary)
            continue;
        const TraceSummary &t = *c.traceSummary;
        QStringList notes;
        for (const TraceFileSummary &f : t.files)
            if (!f.error.isEmpty())
                notes.append(e(f.error));
        if (t.rankCheck != RankCheck::NotApplicable)
            notes.append(QStringLiteral("ranks: %1").arg(QLatin1String(rankCheckName(t.rankCheck))));
        if (t.filesNotRead > 0)
            notes.append(QStringLiteral("%1 files not read").arg(t.filesNotRead));
        const QString topOp = t.merged.topCpuOps.isEmpty() ? QString()
                                                           : QStringLiteral("%1 (%2 ms)").arg(e(t.merged.topCpuOps.first().name),
                                                                                              num(t.merged.topCpuOps.first().ms, 1));
        rows += QStringLiteral("<tr><td class=\"n\">%1</td><td>%2</td><td class=\"n\">%3</td><td class=\"n\">%4</td><td>%5</td>"
                               "<td>%6</td><td class=\"n\">%7</td><td class=\"n\">%8</td><td><code>%9</code></td><td>%10</td></tr>\n")
                    .arg(QString::number(c.index), e(c.server), e(pointNumber(c)), QString::number(t.files.size()), e(sources(t)),
                         stepKinds(t.merged), num(cellValue(c, tag::engineStepRate, Stat::Avg), 1),
                         t.merged.gpuBusyShare < 0 ? QStringLiteral("&mdash;") : num(100 * t.merged.gpuBusyShare, 1) + QStringLiteral(" %"),
                         topOp, notes.join(QStringLiteral("<br>")));
    }
    return rows;
}
} // namespace

QString engineStepsSection(const SweepResults &results)
{
    const QString rows = cellRows(results);
    if (rows.isEmpty())
        return {};
    QString html = QStringLiteral("<h2>Engine steps</h2>\n<p class=\"muted\">From the profiler traces of each cell's window "
                                  "(trace_summary in results.json; the traces themselves are in traces/ when the export "
                                  "copied them).</p>\n");
    const QStringList sentences = traceKneeSentences(results);
    if (!sentences.isEmpty()) {
        html += QStringLiteral("<ul class=\"summary\">");
        for (const QString &s : sentences)
            html += QStringLiteral("<li>%1</li>").arg(e(s));
        html += QStringLiteral("</ul>\n");
    }
    return html + QStringLiteral("<table class=\"cells\"><thead><tr><th>#</th><th>Server</th><th>%1</th><th>Files</th><th>Steps from</th>"
                                 "<th>Steps by kind</th><th>Steps/s</th><th>GPU busy</th><th>Top CPU op</th><th>Notes</th></tr></thead>\n"
                                 "<tbody>\n")
                      .arg(e(axisShort(axisOf(results))))
           + rows + QStringLiteral("</tbody></table>\n");
}

} // namespace sb
