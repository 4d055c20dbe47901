// The Pareto view (report/ParetoFrontier.h, report/ReportPareto.h) on known data: dominance,
// ties, NaN and failed cells left out with their reason, repeats carried as a mean and its CI,
// the TTFT variant minimizing TTFT, request-rate points, and report.html's and the comparison
// page's section with escaped server names.
#include "TestSupport.h"
#include "metrics/MetricCatalogue.h"
#include "report/ComparisonHtml.h"
#include "report/ParetoFrontier.h"
#include "report/ReportHtml.h"
#include "report/ReportPareto.h"
#include <QRegularExpression>
#include <QTest>
#include <cmath>
#include <limits>

using namespace sb;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A completed cell with output throughput `tput` tok/s, mean ITL `itlMs` and TTFT p50 `ttftMs`.
CellResult cell(int index, const QString &server, int c, double tput, double itlMs, double ttftMs = 50, int repeat = 0)
{
    CellResult r;
    r.index = index;
    r.server = server;
    r.concurrency = c;
    r.repeat = repeat;
    r.status = CellStatus::Completed;
    r.completed = 100;
    MetricStats t;
    t.unit = unit::tokensPerS;
    t.onlyAvg = true;
    t.avg = tput;
    t.count = 100;
    r.metrics.insert(tag::outputThroughput, t);
    MetricStats itl;
    itl.unit = unit::ms;
    itl.count = 100;
    itl.avg = itl.p50 = itl.p90 = itl.p99 = itlMs;
    r.metrics.insert(tag::itl, itl);
    MetricStats ttft;
    ttft.unit = unit::ms;
    ttft.count = 100;
    ttft.avg = ttft.p50 = ttft.p90 = ttft.p99 = ttftMs;
    r.metrics.insert(tag::ttft, ttft);
    return r;
}

QStringList labels(const ParetoSeries &s, const QList<int> &indexes)
{
    QStringList out;
    for (int i : indexes)
        out.append(s.points.at(i).label);
    return out;
}

QStringList frontierLabels(const ParetoSeries &s) { return labels(s, s.frontier()); }

// The cell after a phase of 10 s that made 1000 output tokens for `joules` of GPU energy, at a
// cost of $0.02 ($20 per million output tokens) when `cost`.
CellResult withGpu(CellResult c, double joules, bool cost = true)
{
    MetricStats len;
    len.unit = unit::tokens;
    len.count = 100;
    len.avg = 10;
    c.metrics.insert(tag::outputLength, len);
    c.durationS = 10;
    GpuTelemetryResult t;
    t.energyJ = joules;
    t.energySource = EnergySource::Counter;
    c.gpuTelemetry = t;
    if (cost)
        c.cost = CellCost{3.6, 2};
    return c;
}

// The part of report.html from `start` to the next heading.
QString partFrom(const QString &html, const QString &start)
{
    const qsizetype from = html.indexOf(start);
    if (from < 0)
        return {};
    const qsizetype next = html.indexOf(QRegularExpression(QStringLiteral("<h[23][ >]")), from + start.size());
    return html.mid(from, next < 0 ? -1 : next - from);
}
} // namespace

class TstPareto : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void perUserRateIsTheCatalogues()
    {
        const MetricInfo *m = findMetric(tag::tokensPerUser);
        QVERIFY(m);
        QCOMPARE(shortUnit(m->unit), QStringLiteral("tok/s/user"));
        QCOMPARE(m->better, Better::Higher);
        // 1000 / mean ITL: 20 ms between tokens is 50 tokens per second for that user.
        QCOMPARE(cellValue(cell(0, QStringLiteral("a"), 1, 100, 20), tag::tokensPerUser, Stat::Avg), 50.0);
        QVERIFY(std::isnan(cellValue(cell(0, QStringLiteral("a"), 1, 100, 0), tag::tokensPerUser, Stat::Avg)));
        QVERIFY(std::isnan(cellValue(cell(0, QStringLiteral("a"), 1, 100, kNaN), tag::tokensPerUser, Stat::Avg)));
        QVERIFY(std::isnan(cellValue(cell(0, QStringLiteral("a"), 1, 100, 20), tag::tokensPerUser, Stat::P99)));
        QCOMPARE(paretoXAxis(ParetoX::TokensPerUser).unit, QStringLiteral("tok/s/user"));
        QCOMPARE(paretoXAxis(ParetoX::Ttft).label, QStringLiteral("TTFT p50"));
        QVERIFY(!paretoXAxis(ParetoX::Ttft).higherIsBetter);
    }

    void dominatedPointIsNotOnTheFrontier()
    {
        // c=1: 100 tok/s at 100 tok/s/user; c=8: 600 at 60; c=16: 500 at 40 (beaten by c=8 on both);
        // c=32: 900 at 30.
        SweepResults r;
        r.cells = {cell(0, QStringLiteral("a"), 1, 100, 10), cell(1, QStringLiteral("a"), 8, 600, 1000.0 / 60),
                   cell(2, QStringLiteral("a"), 16, 500, 25), cell(3, QStringLiteral("a"), 32, 900, 1000.0 / 30)};
        const QList<ParetoSeries> s = paretoSeries(r, ParetoX::TokensPerUser);
        QCOMPARE(s.size(), 1);
        QCOMPARE(s[0].points.size(), 4);
        QCOMPARE(frontierLabels(s[0]), (QStringList{QStringLiteral("c=32"), QStringLiteral("c=8"), QStringLiteral("c=1")}));
        QVERIFY(!s[0].points[2].onFrontier);
        QCOMPARE(s[0].points[2].dominatedBy, QStringLiteral("c=8"));
        QCOMPARE(paretoSentence(s[0]), QStringLiteral("a: frontier at c=1, c=8 and c=32 (3 of 4 points)"));
    }

    void equalInOneBetterInTheOtherDominates()
    {
        // Same throughput, more tok/s/user: c=2 dominates c=4. Same tok/s/user, more throughput:
        // c=16 dominates c=8. Two equal points dominate neither one another.
        const QList<QPointF> pts{{50, 400}, {40, 400}, {20, 700}, {20, 800}, {10, 900}, {10, 900}};
        QCOMPARE(nonDominated(pts, true), (QList<int>{0, 3, 4, 5}));
        // Minimizing x (TTFT): equal TTFT, more throughput wins; a lower TTFT at equal throughput wins.
        const QList<QPointF> ttft{{100, 500}, {100, 600}, {80, 600}, {300, 900}};
        QCOMPARE(nonDominated(ttft, false), (QList<int>{2, 3}));
    }

    void nanAndFailedCellsAreLeftOutWithTheirReason()
    {
        SweepResults r;
        CellResult failed = cell(2, QStringLiteral("a"), 16, 5000, 1);
        failed.status = CellStatus::Failed;
        CellResult degraded = cell(3, QStringLiteral("a"), 32, 6000, 1);
        degraded.status = CellStatus::Degraded;
        r.cells = {cell(0, QStringLiteral("a"), 1, 100, 10), cell(1, QStringLiteral("a"), 8, 600, kNaN), failed, degraded,
                   cell(4, QStringLiteral("a"), 64, kNaN, 50)};
        const QList<ParetoSeries> s = paretoSeries(r, ParetoX::TokensPerUser);
        QCOMPARE(s[0].points.size(), 1);
        QCOMPARE(frontierLabels(s[0]), QStringList{QStringLiteral("c=1")});
        QStringList why;
        for (const ParetoExcluded &e : s[0].excluded)
            why.append(e.label + QLatin1Char(' ') + e.reason);
        why.sort();
        QCOMPARE(why, (QStringList{QStringLiteral("c=16 failed"), QStringLiteral("c=32 degraded"), QStringLiteral("c=64 no Output throughput"),
                                   QStringLiteral("c=8 no ITL")}));
        QVERIFY(paretoSentence(s[0]).contains(QStringLiteral("left out: ")));
        QVERIFY(paretoSentence(s[0]).contains(QStringLiteral("c=16 (failed)")));
        // The points of one reason are named together, each reason once, in the order met.
        ParetoSeries grouped;
        grouped.excluded = {{0, QStringLiteral("c=1"), QStringLiteral("failed")}, {1, QStringLiteral("c=4"), QStringLiteral("no ITL")},
                            {2, QStringLiteral("c=8"), QStringLiteral("failed")}, {3, QStringLiteral("c=16"), QStringLiteral("failed")},
                            {4, QStringLiteral("c=16"), QStringLiteral("failed")}};
        QCOMPARE(paretoLeftOut(grouped), QStringLiteral("c=1, c=8 and c=16 (failed), c=4 (no ITL)"));
        // The same c=8 run still has a TTFT: on the TTFT view it is a point.
        QCOMPARE(paretoSeries(r, ParetoX::Ttft)[0].points.size(), 2);
        // NaN coordinates never reach the frontier and dominate nothing.
        QCOMPARE(nonDominated({{kNaN, 1e9}, {1, 1}}, true), QList<int>{1});
    }

    void repeatsCarryTheMeanAndItsInterval()
    {
        SweepResults r;
        // c=8 ran three times: 600, 640, 620 tok/s at 20, 25, 25 ms ITL (50, 40, 40 tok/s/user).
        r.cells = {cell(0, QStringLiteral("a"), 8, 600, 20, 50, 0), cell(1, QStringLiteral("a"), 8, 640, 25, 50, 1),
                   cell(2, QStringLiteral("a"), 8, 620, 25, 50, 2), cell(3, QStringLiteral("a"), 1, 100, 10)};
        const QList<ParetoSeries> s = paretoSeries(r, ParetoX::TokensPerUser);
        QCOMPARE(s[0].points.size(), 2);
        const ParetoPoint &p = s[0].points[1];
        QCOMPARE(p.label, QStringLiteral("c=8"));
        QCOMPARE(p.cells, (QList<int>{0, 1, 2}));
        QCOMPARE(p.y.n, 3);
        QCOMPARE(p.y.mean, 620.0);
        QCOMPARE(p.y.halfWidth, meanCi95({600, 640, 620}).halfWidth);
        QVERIFY(p.y.halfWidth > 0);
        QCOMPARE(p.x.mean, meanCi95({50, 40, 40}).mean);
        QCOMPARE(p.x.halfWidth, meanCi95({50, 40, 40}).halfWidth);
        // One run: no interval.
        QVERIFY(std::isnan(s[0].points[0].y.halfWidth));
    }

    void ttftVariantMinimizesTtft()
    {
        SweepResults r;
        // c=16 has more throughput than c=8 but a worse TTFT: both on the TTFT frontier; c=4 has
        // the TTFT of c=1 and more throughput: it dominates c=1.
        r.cells = {cell(0, QStringLiteral("a"), 1, 100, 10, 30), cell(1, QStringLiteral("a"), 4, 300, 12, 30),
                   cell(2, QStringLiteral("a"), 8, 500, 15, 60), cell(3, QStringLiteral("a"), 16, 800, 30, 200)};
        const QList<ParetoSeries> s = paretoSeries(r, ParetoX::Ttft);
        QCOMPARE(frontierLabels(s[0]), (QStringList{QStringLiteral("c=4"), QStringLiteral("c=8"), QStringLiteral("c=16")}));
        QCOMPARE(s[0].points[0].dominatedBy, QStringLiteral("c=4"));
    }

    // Throughput against what it costs: energy per output token (GPU telemetry) or dollars per
    // million output tokens (a cost), both lower-is-better, offered only where the set has them.
    void energyAndCostAxes()
    {
        // Each cell made 1000 output tokens in 10 s; energy 500, 800, 1200 J and 900 J at c=16.
        SweepResults r;
        r.cells = {withGpu(cell(0, QStringLiteral("a"), 1, 100, 10), 500), withGpu(cell(1, QStringLiteral("a"), 4, 300, 12), 800),
                   withGpu(cell(2, QStringLiteral("a"), 8, 500, 15), 1200), withGpu(cell(3, QStringLiteral("a"), 16, 400, 30), 900)};
        QVERIFY(paretoXAvailable(r, ParetoX::EnergyPerToken));
        QVERIFY(paretoXAvailable(r, ParetoX::CostPerMillionOutput));
        const ParetoAxis energy = paretoXAxis(ParetoX::EnergyPerToken);
        QCOMPARE(energy.metric, tag::energyPerOutputToken);
        QVERIFY(!energy.higherIsBetter);
        QCOMPARE(energy.unit, QStringLiteral("J/token"));
        const QList<ParetoSeries> s = paretoSeries(r, ParetoX::EnergyPerToken);
        QCOMPARE(s[0].points.size(), 4);
        QCOMPARE(s[0].points[0].x.mean, 0.5); // 500 J / 1000 tokens
        QCOMPARE(s[0].points[2].x.mean, 1.2);
        // Lower energy per token is better: c=16 (0.9 J/tok, 400 tok/s) is beaten on both by no
        // point (c=4 uses less but makes less, c=8 makes more but uses more), so all four are on
        // the frontier, listed by ascending J/tok.
        QCOMPARE(frontierLabels(s[0]), (QStringList{QStringLiteral("c=1"), QStringLiteral("c=4"), QStringLiteral("c=16"), QStringLiteral("c=8")}));
        // Cost: every cell costs the same per token, so only the most throughput is on the frontier.
        const QList<ParetoSeries> cost = paretoSeries(r, ParetoX::CostPerMillionOutput);
        QCOMPARE(cost[0].points[0].x.mean, 20.0);
        QCOMPARE(frontierLabels(cost[0]), QStringList{QStringLiteral("c=8")});
        QCOMPARE(cost[0].points[3].dominatedBy, QStringLiteral("c=8"));

        // Without telemetry or cost: not offered, and a run without them is left out, saying why.
        SweepResults plain;
        plain.cells = {cell(0, QStringLiteral("a"), 1, 100, 10)};
        QVERIFY(!paretoXAvailable(plain, ParetoX::EnergyPerToken));
        QVERIFY(!paretoXAvailable(plain, ParetoX::CostPerMillionOutput));
        QVERIFY(paretoXAvailable(plain, ParetoX::Ttft));
        const QList<ParetoSeries> none = paretoSeries(plain, ParetoX::EnergyPerToken);
        QVERIFY(none[0].points.isEmpty());
        QCOMPARE(none[0].excluded.value(0).reason, QStringLiteral("no Energy per output token"));
    }

    void requestRatePointsAndServersApart()
    {
        SweepResults r;
        CellResult a = cell(0, QStringLiteral("a"), 256, 400, 10);
        a.openLoop = OpenLoopResult{};
        a.openLoop->targetRate = 4;
        CellResult b = cell(1, QStringLiteral("a"), 256, 300, 20);
        b.openLoop = OpenLoopResult{};
        b.openLoop->targetRate = 2;
        // Another server's better point does not dominate this server's points.
        CellResult other = cell(2, QStringLiteral("b"), 256, 9000, 1);
        other.openLoop = OpenLoopResult{};
        other.openLoop->targetRate = 4;
        r.cells = {a, b, other};
        const QList<ParetoSeries> s = paretoSeries(r, ParetoX::TokensPerUser);
        QCOMPARE(s.size(), 2);
        QCOMPARE(s[0].points.first().label, QStringLiteral("2 req/s")); // by rate, ascending
        QCOMPARE(frontierLabels(s[0]), QStringList{QStringLiteral("4 req/s")});
        QCOMPARE(s[0].points.first().dominatedBy, QStringLiteral("4 req/s"));
        QCOMPARE(frontierLabels(s[1]), QStringList{QStringLiteral("4 req/s")});
    }

    void reportHasTheSectionWithEscapedNames()
    {
        ReportHtmlInput in;
        in.results.cells = {cell(0, QStringLiteral("<b>srv</b>"), 1, 100, 10), cell(1, QStringLiteral("<b>srv</b>"), 8, 600, 1000.0 / 60),
                            cell(2, QStringLiteral("<b>srv</b>"), 16, 500, 25)};
        const QString html = QString::fromUtf8(reportHtml(in));
        QVERIFY(html.contains(QStringLiteral("<h2 id=\"pareto\">Pareto frontier")));
        QVERIFY2(html.contains(QStringLiteral("&lt;b&gt;srv&lt;/b&gt;: frontier at c=1 and c=8 (2 of 3 points)")), qPrintable(html));
        QVERIFY(!html.contains(QStringLiteral("<b>srv</b>")));
        QVERIFY(html.contains(QStringLiteral("dominated by c=8")));
        // The bundle's Pareto chart sits in the section, the others under Charts.
        in.charts = {{QStringLiteral("TTFT"), QStringLiteral("charts/ttft.svg"), QString()},
                     {QStringLiteral("Pareto"), QStringLiteral("charts/%1.svg").arg(kParetoChartStem), QString()}};
        const QString withCharts = QString::fromUtf8(reportHtml(in));
        const qsizetype section = withCharts.indexOf(QStringLiteral("<h2 id=\"pareto\">"));
        QVERIFY(withCharts.indexOf(QStringLiteral("charts/ttft.svg")) < section);
        QVERIFY(withCharts.indexOf(QStringLiteral("charts/%1.svg").arg(kParetoChartStem)) > section);
        // The comparison page: one part per set, set names escaped too.
        ComparisonHtmlInput cmp;
        cmp.sets = {{QStringLiteral("base<script>"), QStringLiteral("/tmp/x"), in.results}};
        const QString page = QString::fromUtf8(comparisonHtml(cmp));
        QVERIFY(page.contains(QStringLiteral("<h2 id=\"pareto\">Pareto frontier")));
        QVERIFY(page.contains(QStringLiteral("<h3>base&lt;script&gt;</h3>")));
        QVERIFY(page.contains(QStringLiteral("&lt;b&gt;srv&lt;/b&gt;: frontier at c=1 and c=8")));
        QVERIFY(!page.contains(QStringLiteral("<script>")));
        // Nothing measured: no section.
        ReportHtmlInput none;
        CellResult f = cell(0, QStringLiteral("a"), 1, 100, 10);
        f.status = CellStatus::Failed;
        none.results.cells = {f};
        QVERIFY(!QString::fromUtf8(reportHtml(none)).contains(QStringLiteral("id=\"pareto\"")));
    }

    // With GPU telemetry, report.html's Pareto section has a part for energy per output token:
    // the frontier named by load point and walked by ascending J/token as its line runs, the
    // dominated point marked, the runs without the figure named as left out (paretoLeftOut), the
    // bundle's chart inside the part, every server name escaped. Cost gets its part only where
    // a cell has one; a set with neither has no such part.
    void reportHasAPartPerPricedAxis()
    {
        const QString evil = QStringLiteral("<script>alert(1)</script>");
        const QString evilE = QStringLiteral("&lt;script&gt;alert(1)&lt;/script&gt;");
        ReportHtmlInput in;
        // 1000 output tokens a cell: c=1 0.5 J/tok at 100 tok/s, c=4 0.8 at 300, c=8 1.2 at 500,
        // c=16 1.3 at 400 (beaten by c=8 on both); c=32 and server b read no GPU.
        in.results.cells = {withGpu(cell(0, evil, 1, 100, 10), 500, false), withGpu(cell(1, evil, 4, 300, 12), 800, false),
                            withGpu(cell(2, evil, 8, 500, 15), 1200, false), withGpu(cell(3, evil, 16, 400, 30), 1300, false),
                            cell(4, evil, 32, 450, 40), cell(5, QStringLiteral("b"), 1, 90, 10), cell(6, QStringLiteral("b"), 4, 280, 12)};
        const QString energySvg = QStringLiteral("charts/%1.svg").arg(paretoChartStem(ParetoX::EnergyPerToken));
        in.charts = {{QStringLiteral("TTFT"), QStringLiteral("charts/ttft.svg"), QString()},
                     {QStringLiteral("Pareto"), QStringLiteral("charts/%1.svg").arg(kParetoChartStem), QString()},
                     {paretoChartTitle(ParetoX::EnergyPerToken), energySvg, QString()}};
        const QString html = QString::fromUtf8(reportHtml(in));
        QVERIFY(!html.contains(QStringLiteral("<script>")));
        QVERIFY(!html.contains(QStringLiteral("alert(1)</")));
        const QString energy = partFrom(html, QStringLiteral("<h3 id=\"pareto-energy\">"));
        QVERIFY2(!energy.isEmpty(), qPrintable(html));
        QVERIFY(html.indexOf(QStringLiteral("<h3 id=\"pareto-energy\">")) > html.indexOf(QStringLiteral("<h2 id=\"pareto\">")));
        QVERIFY(energy.startsWith(QStringLiteral("<h3 id=\"pareto-energy\">Pareto frontier: output throughput vs energy per output token</h3>")));
        QVERIFY2(energy.contains(QStringLiteral("<li>%1: frontier at c=1, c=4 and c=8 (3 of 4 points); left out: c=32 (no Energy per output token); "
                                                "along the frontier by ascending J/token: c=1 (0.500) \u2192 c=4 (0.800) \u2192 c=8 (1.200)</li>")
                                     .arg(evilE)),
                 qPrintable(energy));
        QVERIFY(energy.contains(QStringLiteral("<li>b: no point to judge; left out: c=1 and c=4 (no Energy per output token)</li>")));
        // The table: the points by load point, three on the frontier, c=16 dominated by c=8.
        QVERIFY(energy.contains(QStringLiteral("<th>Energy per output token (J/token)</th>")));
        QCOMPARE(energy.count(QStringLiteral("&#9733; frontier")), 3);
        QVERIFY(energy.contains(QRegularExpression(QStringLiteral("<td>%1</td><td class=\"n\">c=16</td><td class=\"n\">1</td>"
                                                                  "<td class=\"n\">400[.0-9]*</td><td class=\"n\">1.300</td><td>dominated by c=8</td>")
                                                       .arg(QRegularExpression::escape(evilE)))));
        const qsizetype c1 = energy.indexOf(QStringLiteral("\">c=1</td>")), c4 = energy.indexOf(QStringLiteral("\">c=4</td>")),
                        c8 = energy.indexOf(QStringLiteral("\">c=8</td>")), c16 = energy.indexOf(QStringLiteral("\">c=16</td>"));
        QVERIFY(c1 > 0 && c1 < c4 && c4 < c8 && c8 < c16);
        QVERIFY(!energy.contains(QStringLiteral(">c=32</td>")));
        // Its chart sits in the part, not under Charts; the tok/s/user chart stays in its own.
        QVERIFY(energy.contains(QStringLiteral("<img src=\"%1\"").arg(energySvg)));
        QCOMPARE(html.count(energySvg), 1);
        QVERIFY(!partFrom(html, QStringLiteral("<h2 id=\"pareto\">")).contains(energySvg));
        QVERIFY(partFrom(html, QStringLiteral("<h2 id=\"pareto\">")).contains(QStringLiteral("charts/%1.svg").arg(kParetoChartStem)));
        QVERIFY(html.indexOf(QStringLiteral("charts/ttft.svg")) < html.indexOf(QStringLiteral("<h2 id=\"pareto\">")));
        // No cell with a cost: no cost part.
        QVERIFY(!html.contains(QStringLiteral("pareto-cost")));
        QCOMPARE(reportParetoXs(in.results), (QList<ParetoX>{ParetoX::TokensPerUser, ParetoX::EnergyPerToken}));

        // With a cost on the GPU cells: every token costs the same, so the most throughput is the frontier.
        for (int i = 0; i < 4; ++i)
            in.results.cells[i].cost = CellCost{3.6, 2};
        const QString cost = partFrom(QString::fromUtf8(reportHtml(in)), QStringLiteral("<h3 id=\"pareto-cost\">"));
        QVERIFY2(cost.contains(QStringLiteral("<li>%1: frontier at c=8 (1 of 4 points); left out: c=32 (no Cost per million output tokens); "
                                              "along the frontier by ascending $/Mtok: c=8 (20.000)</li>")
                                   .arg(evilE)),
                 qPrintable(cost));
        QVERIFY(cost.contains(QStringLiteral("dominated by c=8")));

        // Runs without ITL (single-token answers) but with energy: the section is the energy
        // part alone, under a heading that says so.
        ReportHtmlInput noItl = in;
        for (CellResult &c : noItl.results.cells)
            c.metrics.remove(tag::itl);
        const QString priced = paretoSectionHtml(noItl.results);
        QVERIFY2(priced.startsWith(QStringLiteral("<h2 id=\"pareto\">Pareto frontier: throughput vs what it costs</h2>\n<h3 id=\"pareto-energy\">")),
                 qPrintable(priced));
        QVERIFY(!priced.contains(QStringLiteral("tok/s/user")));

        // Neither telemetry nor cost: the section as it was, with no priced part.
        ReportHtmlInput plain;
        plain.results.cells = {cell(0, evil, 1, 100, 10), cell(1, evil, 8, 600, 1000.0 / 60)};
        plain.charts = in.charts;
        const QString page = QString::fromUtf8(reportHtml(plain));
        QVERIFY(page.contains(QStringLiteral("<h2 id=\"pareto\">Pareto frontier: throughput vs tok/s/user</h2>")));
        QVERIFY(!page.contains(QStringLiteral("pareto-energy")) && !page.contains(QStringLiteral("pareto-cost")));
        QVERIFY(!partFrom(page, QStringLiteral("<h2 id=\"pareto\">")).contains(QStringLiteral("energy")));
        // (an energy chart a caller passes all the same stays with the other charts)
        QVERIFY(page.indexOf(energySvg) < page.indexOf(QStringLiteral("<h2 id=\"pareto\">")));
        QCOMPARE(reportParetoXs(plain.results), QList<ParetoX>{ParetoX::TokensPerUser});
        QCOMPARE(paretoSectionHtml(plain.results), QStringLiteral("<h2 id=\"pareto\">Pareto frontier: throughput vs tok/s/user</h2>\n")
                                                       + paretoIntroHtml() + paretoSetHtml(plain.results));
    }

    // The exported comparison: each set's energy and cost parts under the set's own heading (no
    // repeated ids), only for the sets that have the figures; a comparison of plain sets as before.
    void comparisonHasThePricedPartsOfEachSet()
    {
        const QString evil = QStringLiteral("<script>alert(1)</script>");
        SweepResults gpu;
        gpu.cells = {withGpu(cell(0, evil, 1, 100, 10), 500, false), withGpu(cell(1, evil, 4, 300, 12), 800, false),
                     withGpu(cell(2, evil, 8, 500, 15), 1200, false), withGpu(cell(3, evil, 16, 400, 30), 1300, false)};
        SweepResults plain;
        plain.cells = {cell(0, QStringLiteral("b"), 1, 90, 10), cell(1, QStringLiteral("b"), 8, 600, 1000.0 / 60)};
        ComparisonHtmlInput cmp;
        cmp.sets = {{QStringLiteral("h100"), QStringLiteral("/tmp/a"), gpu}, {QStringLiteral("cpu<i>"), QStringLiteral("/tmp/b"), plain}};
        const QString page = QString::fromUtf8(comparisonHtml(cmp));
        QVERIFY(!page.contains(QStringLiteral("<script>")));
        QVERIFY(page.contains(QStringLiteral("<h2 id=\"pareto\">Pareto frontiers: throughput vs tok/s/user and what it costs</h2>")));
        const qsizetype h100 = page.indexOf(QStringLiteral("<h3>h100</h3>")), other = page.indexOf(QStringLiteral("<h3>cpu&lt;i&gt;</h3>"));
        QVERIFY(h100 > 0 && other > h100);
        const QString first = page.mid(h100, other - h100);
        QVERIFY2(first.contains(QStringLiteral("<h4>Pareto frontier: output throughput vs energy per output token</h4>")), qPrintable(first));
        QVERIFY(first.contains(QStringLiteral("along the frontier by ascending J/token: c=1 (0.500) \u2192 c=4 (0.800) \u2192 c=8 (1.200)")));
        QVERIFY(first.contains(QStringLiteral("dominated by c=8")));
        QVERIFY(!page.contains(QStringLiteral("id=\"pareto-energy\"")));
        QVERIFY(!page.contains(QStringLiteral("<img"))); // the comparison's parts have no chart of their own
        QVERIFY(!page.mid(other).contains(QStringLiteral("energy per output token")));
        QVERIFY(!page.contains(QStringLiteral("vs cost per")));
        // Plain sets only: the heading and parts as before.
        cmp.sets = {{QStringLiteral("cpu"), QStringLiteral("/tmp/b"), plain}};
        const QString before = QString::fromUtf8(comparisonHtml(cmp));
        QVERIFY(before.contains(QStringLiteral("<h2 id=\"pareto\">Pareto frontier: throughput vs tok/s/user</h2>")));
        QVERIFY(!before.contains(QStringLiteral("<h4>")));
    }
};

QTEST_GUILESS_MAIN(TstPareto)
#include "tst_pareto.moc"
