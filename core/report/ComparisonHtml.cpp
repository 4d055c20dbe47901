#include "report/ComparisonHtml.h"
#include "metrics/MetricCatalogue.h"
#include "report/ReportHtml.h"
#include "report/ReportPareto.h"
#include "report/ReportSummary.h"
#include "report/ReportText.h"
#include "report/TraceKnee.h"

namespace sb {

namespace {
QString e(const QString &s) { return htmlEscapeNoUrls(s); }

QString list(const QStringList &items, const QString &cls = {})
{
    if (items.isEmpty())
        return {};
    QString html = QStringLiteral("<ul>");
    for (const QString &i : items)
        html += cls.isEmpty() ? QStringLiteral("<li>%1</li>").arg(e(i)) : QStringLiteral("<li class=\"%1\">%2</li>").arg(cls, e(i));
    return html + QStringLiteral("</ul>");
}

QString meanCi(const MeanCi &ci, int decimals)
{
    QString s = formatFixed(ci.mean, decimals, QStringLiteral("&mdash;"));
    if (ci.n >= 2 && std::isfinite(ci.halfWidth))
        s += QStringLiteral(" &plusmn; ") + formatFixed(ci.halfWidth, decimals);
    return s;
}

QString setsSection(const ComparisonHtmlInput &in)
{
    QString html = QStringLiteral("<h2>Summary</h2>\n<table class=\"meta\"><thead><tr><th>Set</th><th>Source</th><th>Servers</th>"
                                  "<th>Points</th><th>Cells</th></tr></thead><tbody>\n");
    QList<ReportSummary> summaries;
    for (const ComparisonSetInfo &s : in.sets) {
        const ReportSummary sum = summarizeReport(s.results);
        summaries.append(sum);
        html += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td>%3</td><td>%4: %5</td><td>%6</td></tr>\n")
                    .arg(e(s.name), e(s.source), e(sum.servers.join(QStringLiteral(", "))), e(axisTitle(sum.axis)), e(sum.pointsText()),
                         e(sum.cellsText()));
    }
    html += QStringLiteral("</tbody></table>\n");
    for (int i = 0; i < in.sets.size(); ++i) {
        const ReportSummary &sum = summaries.at(i);
        const QStringList knees = traceKneeSentences(in.sets.at(i).results); // from the profiler traces
        if (sum.best.isEmpty() && sum.slo.isEmpty() && sum.warnings.isEmpty() && knees.isEmpty())
            continue;
        html += QStringLiteral("<h3>%1</h3>\n").arg(e(in.sets.at(i).name));
        html += list(sum.best) + list(sum.slo) + list(knees);
        if (!sum.warnings.isEmpty())
            html += QStringLiteral("<p><b>Warnings</b></p>") + list(sum.warnings, QStringLiteral("warn"));
    }
    return html;
}

QString differenceSection(const ComparisonHtmlInput &in)
{
    const MetricInfo *info = findMetric(in.metric);
    const QString heading = info ? metricColumnTitle(*info, in.stat, true) : in.metric + QLatin1Char(' ') + statName(in.stat);
    const int decimals = info ? info->decimals : 2;
    QString html = QStringLiteral("<h2>Differences: %1</h2>\n").arg(e(heading));
    if (in.rows.isEmpty())
        return html + QStringLiteral("<p class=\"muted\">No point was measured by both sides of a pair (the first set is the "
                                     "baseline A; servers are paired by name).</p>\n");
    html += QStringLiteral("<p class=\"muted\">A is the first set (or, with one set, its first server). Values are means over "
                           "the runs of a point &plusmn; the 95 % confidence interval; &ldquo;significant?&rdquo; is Welch&rsquo;s "
                           "t-test on the runs&rsquo; values (two-sided, &alpha; = 0.05) and needs two runs or more on both sides "
                           "(sweep.repeats).</p>\n<table class=\"cells\"><thead><tr><th>%1</th><th>A</th><th>A value</th><th>B</th>"
                           "<th>B value</th><th>&Delta; %</th><th>Significant?</th></tr></thead><tbody>\n")
                .arg(e(axisShort(in.rows.first().axis)));
    for (const DifferenceRow &r : in.rows)
        html += QStringLiteral("<tr><td class=\"n\">%1</td><td>%2</td><td class=\"n\">%3</td><td>%4</td><td class=\"n\">%5</td>"
                               "<td class=\"n\">%6</td><td title=\"%7\">%8</td></tr>\n")
                    .arg(e(formatPoint(r.axis, r.point)), e(seriesName(r.setA, r.serverA)), meanCi(r.a, decimals),
                         e(seriesName(r.setB, r.serverB)), meanCi(r.b, decimals), e(deltaText(r.deltaPct)),
                         e(significanceExplanation(r)), e(significanceText(r)));
    return html + QStringLiteral("</tbody></table>\n");
}
} // namespace

QByteArray comparisonHtml(const ComparisonHtmlInput &in)
{
    QStringList names;
    for (const ComparisonSetInfo &s : in.sets)
        names.append(s.name);
    const QString title = QStringLiteral("SweepBench comparison: ") + names.join(QStringLiteral(" vs "));
    QString html = reportHead(title);
    html += QStringLiteral("<p class=\"muted\">Generated %1 by SweepBench %2.</p>\n").arg(e(in.generatedAt), QStringLiteral(SWEEPBENCH_VERSION));
    html += setsSection(in);
    html += differenceSection(in);
    // Each set's frontier by tok/s/user, then by energy and cost per token where it has them.
    QString pareto;
    bool priced = false;
    for (const ComparisonSetInfo &s : in.sets) {
        QString set = paretoSetHtml(s.results);
        for (ParetoX x : reportParetoXs(s.results))
            if (x != ParetoX::TokensPerUser) {
                const QString part = paretoPricedSetHtml(s.results, x);
                priced = priced || !part.isEmpty();
                set += part;
            }
        if (!set.isEmpty())
            pareto += QStringLiteral("<h3>%1</h3>\n").arg(e(s.name)) + set;
    }
    if (!pareto.isEmpty())
        html += (priced ? QStringLiteral("<h2 id=\"pareto\">Pareto frontiers: throughput vs tok/s/user and what it costs</h2>\n")
                        : QStringLiteral("<h2 id=\"pareto\">Pareto frontier: throughput vs tok/s/user</h2>\n"))
                + paretoIntroHtml() + pareto;
    if (!in.charts.isEmpty()) {
        html += QStringLiteral("<h2>Charts</h2>\n");
        for (const ComparisonChart &c : in.charts)
            html += QStringLiteral("<figure><img src=\"data:image/png;base64,%1\" alt=\"%2\"><figcaption>%2</figcaption></figure>\n")
                        .arg(QString::fromLatin1(c.png.toBase64()), e(c.title));
    }
    return (html + QStringLiteral("</body></html>\n")).toUtf8();
}

} // namespace sb
