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
} // namespace

QString paretoIntroHtml()
{
    return QStringLiteral("<p class=\"muted\">Each load point of a server: its output throughput against the output speed one "
                          "user sees (1000 / mean ITL). A point is on the frontier when no other point of the same server has at "
                          "least as much of both and more of one; with repeats, judged on the means (&plusmn; 95 % CI). Only "
                          "completed cells count.</p>\n");
}

QString paretoSectionHtml(const SweepResults &results, const QString &figure)
{
    const QString set = paretoSetHtml(results);
    return set.isEmpty() ? set
                         : QStringLiteral("<h2 id=\"pareto\">Pareto frontier: throughput vs tok/s/user</h2>\n") + paretoIntroHtml() + set + figure;
}

QString paretoSetHtml(const SweepResults &results)
{
    const QList<ParetoSeries> series = paretoSeries(results, ParetoX::TokensPerUser);
    const bool any = std::any_of(series.cbegin(), series.cend(), [](const ParetoSeries &s) { return !s.points.isEmpty(); });
    if (!any)
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
