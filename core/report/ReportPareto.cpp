#include "report/ReportPareto.h"
#include "report/ReportHtml.h"
#include "report/ReportText.h"
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
QString e(const QString &s) { return htmlEscapeNoUrls(s); }

QString meanCi(const MeanCi &ci, int decimals)
{
    QString s = formatFixed(ci.mean, decimals, QStringLiteral("&mdash;"));
    if (ci.n >= 2 && std::isfinite(ci.halfWidth))
        s += QStringLiteral(" &plusmn; ") + formatFixed(ci.halfWidth, decimals);
    return s;
}

QString heading(const ParetoAxis &a) { return a.unit.isEmpty() ? a.label : QStringLiteral("%1 (%2)").arg(a.label, a.unit); }

// The element id and class of a priced x axis's part.
QString pricedKey(ParetoX x) { return x == ParetoX::CostPerMillionOutput ? QStringLiteral("cost") : QStringLiteral("energy"); }

// "along the frontier by ascending J/token: c=1 (0.100) → c=8 (0.900)": the frontier in the
// order its line runs on the chart, from the cheapest point to the most throughput.
QString frontierWalk(const ParetoSeries &s, const ParetoAxis &x, int decimals)
{
    QStringList steps;
    for (int i : s.frontier())
        steps.append(QStringLiteral("%1 (%2)").arg(s.points.at(i).label, formatFixed(s.points.at(i).x.mean, decimals)));
    return steps.isEmpty() ? QString()
                           : QStringLiteral("; along the frontier by ascending %1: %2").arg(x.unit, steps.join(QStringLiteral(" \u2192 ")));
}

// One x axis that prices the throughput: what it measures, a sentence per server (the runs
// without the figure are named as left out, by paretoLeftOut), the points and the chart.
// `inComparison`: under a set's own heading on a page of several sets, an <h4> without an id (the
// page would repeat it).
QString pricedSetHtml(const SweepResults &results, ParetoX choice, const QString &figure, bool inComparison = false)
{
    const QList<ParetoSeries> series = paretoSeries(results, choice);
    if (!paretoAnyPoint(series))
        return {};
    const ParetoAxis x = paretoXAxis(choice), y = paretoYAxis();
    const int xDec = findMetric(x.metric)->decimals, yDec = findMetric(y.metric)->decimals;
    const QString what = choice == ParetoX::CostPerMillionOutput
                             ? QStringLiteral("the dollars per million output tokens (the spec&rsquo;s <code>cost</code>: the phase&rsquo;s wall "
                                              "time at gpu_hour &times; gpus)")
                             : QStringLiteral("the GPU energy per output token (J/token, from the GPU telemetry: the energy counter or the "
                                              "power integrated over the measured phase)");
    QString html = ((inComparison ? QStringLiteral("<h4>%2</h4>\n") : QStringLiteral("<h3 id=\"pareto-%1\">%2</h3>\n"))
                    + QStringLiteral("<p class=\"muted\">Each load point&rsquo;s output throughput against %3; "
                                     "less is better. A point is on the frontier when no other point of the same server gives at least as "
                                     "much throughput for no more %4, and more throughput or less %4. A run without the figure is not "
                                     "on the chart and is named as left out.</p>\n<ul class=\"pareto pareto-%1\">"))
                       .arg(pricedKey(choice), e(paretoChartTitle(choice)), what,
                            choice == ParetoX::CostPerMillionOutput ? QStringLiteral("cost per token") : QStringLiteral("energy per token"));
    for (const ParetoSeries &s : series)
        html += QStringLiteral("<li>%1</li>").arg(e(paretoSentence(s) + frontierWalk(s, x, xDec)));
    html += QStringLiteral("</ul>\n<table class=\"cells pareto pareto-%1\"><thead><tr><th>Server</th><th>Point</th><th>Runs</th>"
                           "<th>%2</th><th>%3</th><th>Frontier</th></tr></thead><tbody>\n")
                .arg(pricedKey(choice), e(heading(y)), e(heading(x)));
    for (const ParetoSeries &s : series)
        for (const ParetoPoint &p : s.points)
            html += QStringLiteral("<tr><td>%1</td><td class=\"n\">%2</td><td class=\"n\">%3</td><td class=\"n\">%4</td>"
                                   "<td class=\"n\">%5</td><td>%6</td></tr>\n")
                        .arg(e(s.server), e(p.label), QString::number(p.cells.size()), meanCi(p.y, yDec), meanCi(p.x, xDec),
                             p.onFrontier ? QStringLiteral("&#9733; frontier") : e(QStringLiteral("dominated by ") + p.dominatedBy));
    return html + QStringLiteral("</tbody></table>\n") + figure;
}
} // namespace

QString paretoChartStem(ParetoX x)
{
    switch (x) {
    case ParetoX::EnergyPerToken: return QStringLiteral("pareto_throughput_vs_energy_per_token");
    case ParetoX::CostPerMillionOutput: return QStringLiteral("pareto_throughput_vs_cost_per_m_output");
    case ParetoX::Ttft: return QStringLiteral("pareto_throughput_vs_ttft_p50");
    case ParetoX::TokensPerUser: break;
    }
    return kParetoChartStem;
}

QString paretoChartTitle(ParetoX x)
{
    const QString label = x == ParetoX::TokensPerUser ? paretoXAxis(x).unit : paretoXAxis(x).label.toLower();
    return QStringLiteral("Pareto frontier: output throughput vs ") + label;
}

QList<ParetoX> reportParetoXs(const SweepResults &results)
{
    QList<ParetoX> out{ParetoX::TokensPerUser};
    for (ParetoX x : {ParetoX::EnergyPerToken, ParetoX::CostPerMillionOutput})
        if (paretoXAvailable(results, x))
            out.append(x);
    return out;
}

QString paretoPricedSetHtml(const SweepResults &results, ParetoX x)
{
    return pricedSetHtml(results, x, QString(), true);
}

QString paretoIntroHtml()
{
    return QStringLiteral("<p class=\"muted\">Each load point of a server: its output throughput against the output speed one "
                          "user sees (1000 / mean ITL). A point is on the frontier when no other point of the same server has at "
                          "least as much of both and more of one; with repeats, judged on the means (&plusmn; 95 % CI). Only "
                          "completed cells count.</p>\n");
}

QString paretoSectionHtml(const SweepResults &results, const QMap<ParetoX, QString> &figures)
{
    const QString main = paretoSetHtml(results);
    QString html = main.isEmpty() ? main : paretoIntroHtml() + main + figures.value(ParetoX::TokensPerUser);
    for (ParetoX x : reportParetoXs(results))
        if (x != ParetoX::TokensPerUser)
            html += pricedSetHtml(results, x, figures.value(x));
    if (html.isEmpty())
        return html;
    // A set whose runs have no ITL has only the priced parts: the heading names what it shows.
    return (main.isEmpty() ? QStringLiteral("<h2 id=\"pareto\">Pareto frontier: throughput vs what it costs</h2>\n")
                           : QStringLiteral("<h2 id=\"pareto\">Pareto frontier: throughput vs tok/s/user</h2>\n"))
           + html;
}

QString paretoSetHtml(const SweepResults &results)
{
    const QList<ParetoSeries> series = paretoSeries(results, ParetoX::TokensPerUser);
    if (!paretoAnyPoint(series))
        return {};
    // TTFT of the same points, from the TTFT variant (a run without ITL may still have a TTFT).
    const QList<ParetoSeries> byTtft = paretoSeries(results, ParetoX::Ttft);
    const ParetoAxis x = paretoXAxis(ParetoX::TokensPerUser), y = paretoYAxis(), ttft = paretoXAxis(ParetoX::Ttft);
    const int xDec = findMetric(x.metric)->decimals, yDec = findMetric(y.metric)->decimals, tDec = findMetric(ttft.metric)->decimals;
    QString html = QStringLiteral("<ul class=\"pareto\">");
    for (const ParetoSeries &s : series)
        html += QStringLiteral("<li>%1</li>").arg(e(paretoSentence(s)));
    html += QStringLiteral("</ul>\n<table class=\"cells pareto\"><thead><tr><th>Server</th><th>Point</th><th>Runs</th><th>%1</th>"
                           "<th>%2</th><th>%3</th><th>Frontier</th></tr></thead><tbody>\n")
                .arg(e(heading(y)), e(heading(x)), e(heading(ttft)));
    for (int si = 0; si < series.size(); ++si) {
        const ParetoSeries &s = series.at(si);
        for (int i = 0; i < s.points.size(); ++i) {
            const ParetoPoint &p = s.points.at(i);
            const ParetoPoint *t = nullptr;
            for (const ParetoPoint &q : byTtft.at(si).points) // the same servers in the same order
                if (q.label == p.label)
                    t = &q;
            html += QStringLiteral("<tr><td>%1</td><td class=\"n\">%2</td><td class=\"n\">%3</td><td class=\"n\">%4</td>"
                                   "<td class=\"n\">%5</td><td class=\"n\">%6</td><td>%7</td></tr>\n")
                        .arg(e(s.server), e(p.label), QString::number(p.cells.size()), meanCi(p.y, yDec), meanCi(p.x, xDec),
                             t ? meanCi(t->x, tDec) : QStringLiteral("&mdash;"),
                             p.onFrontier ? QStringLiteral("&#9733; frontier") : e(QStringLiteral("dominated by ") + p.dominatedBy));
        }
    }
    return html + QStringLiteral("</tbody></table>\n");
}

} // namespace sb
