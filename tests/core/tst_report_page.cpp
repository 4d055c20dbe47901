// report.html as a reader meets it: the summary first with the
// best server per metric and the warnings, hook outcomes as compact icons with their details on
// hover and in <details>, no empty Notes column, print CSS, repeats with confidence intervals
// and significance, the SLO search's sentences, and traces linked relatively when the export
// copies them (plain file names otherwise).
#include "TestSupport.h"
#include "metrics/MetricCatalogue.h"
#include "../fixtures/ReportTestData.h"
#include "report/BestSeries.h"
#include "report/BundleWriter.h"
#include "report/ComparisonHtml.h"
#include "report/ReportHtml.h"
#include "report/ReportSummary.h"
#include "results/HookSeverity.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;

namespace {
QString page(const SweepResults &r, const QMap<int, QByteArray> &icons = {})
{
    ReportHtmlInput in;
    in.results = r;
    in.hookIcons = icons;
    in.generatedAt = QStringLiteral("2026-05-01T10:00:00Z");
    return QString::fromUtf8(reportHtml(in));
}

void scale(CellResult &c, const QString &metric, double f)
{
    MetricStats m = c.metrics.value(metric);
    m.avg *= f, m.p50 *= f, m.p90 *= f, m.p99 *= f;
    c.metrics.insert(metric, m);
}

// beta: twice alpha's throughput and half its TTFT at every point.
SweepResults betaWins()
{
    SweepResults r = sbtest::sampleResults();
    for (CellResult &c : r.cells)
        if (c.server == QLatin1String("beta")) {
            scale(c, QStringLiteral("output_token_throughput"), 2);
            scale(c, QStringLiteral("time_to_first_token"), 0.5);
        }
    return r;
}

// Two servers at point 8, three runs each; a's TTFT p99 ~100 ms, b's ~150 ms.
SweepResults repeats()
{
    SweepResults r;
    int index = 0;
    for (const QString &server : {QStringLiteral("a"), QStringLiteral("b")})
        for (double jitter : {-1.0, 0.0, 1.5}) {
            CellResult c;
            c.index = index++;
            c.server = server;
            c.concurrency = 8;
            c.status = CellStatus::Completed;
            c.metrics.insert(QStringLiteral("time_to_first_token"), sbtest::stats(QStringLiteral("ms"), (server == QLatin1String("a") ? 40 : 60) + jitter));
            r.cells.append(c);
        }
    r.sloSearch = sloSearchResultFromJson(QJsonObject{{QStringLiteral("servers"),
                               QJsonArray{QJsonObject{{QStringLiteral("server"), QStringLiteral("a")},
                                                      {QStringLiteral("sustained"), 8},
                                                      {QStringLiteral("sentence"), QStringLiteral("a sustains 8 concurrent at TTFT p99 ≤ 200 ms <ok>")}}}}});
    return r;
}
} // namespace

class TestReportPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qputenv(sbtest::kEnvKeyName.toLatin1().constData(), sbtest::kEnvKey.toUtf8()); }
    void init() { sbtest::failOnQtWarnings(); }

    void summaryComesFirst()
    {
        SweepResults r = betaWins();
        r.cells[1].status = CellStatus::Degraded;
        r.cells[1].reason = QStringLiteral("3 of 8 requests failed");
        r.cells[2].warnings << QStringLiteral("prefix cache was warm");
        const QString html = page(r);
        const qsizetype summary = html.indexOf(QStringLiteral("<h2 id=\"summary\">Summary</h2>"));
        QVERIFY(summary > 0);
        QVERIFY(summary < html.indexOf(QStringLiteral("<h2>Run</h2>")));
        QVERIFY(html.indexOf(QStringLiteral("<h2>Run</h2>")) < html.indexOf(QStringLiteral("<h2>Cells</h2>")));
        const QString head = html.mid(summary, html.indexOf(QStringLiteral("<h2>Run</h2>")) - summary);
        // what was measured
        QVERIFY(head.contains(QStringLiteral("&lt;b&gt;alpha&lt;/b&gt; &amp; co, beta")));
        QVERIFY(head.contains(QStringLiteral("<b>Concurrency</b>: 1, 4")));
        QVERIFY(head.contains(QStringLiteral("4 cells: 3 completed, 1 degraded")));
        // best per metric, by the catalogue's direction (higher throughput, lower TTFT)
        // (one run per point: no claim of "best", only which value was better)
        QVERIFY(head.contains(QStringLiteral("Output throughput (higher is better): not testable at 2 of 2 points (one run each; better value: beta at 2)")));
        QVERIFY(head.contains(QStringLiteral("TTFT p99 (lower is better): not testable at 2 of 2 points (one run each; better value: beta at 2)")));
        QVERIFY(!head.contains(QStringLiteral("is significantly best")));
        // warnings: the degraded cell, the failed hooks, the validity warning
        QVERIFY(head.contains(QStringLiteral("cell #1 (&lt;b&gt;alpha&lt;/b&gt; &amp; co, c=4) degraded: 3 of 8 requests failed")));
        QVERIFY(head.contains(QStringLiteral("hook beta: profiler_start failed (route_missing) in 2 cell(s)")));
        QVERIFY(head.contains(QStringLiteral("prefix cache was warm")));
        // a validity warning names the cell that gave it, server and point
        QVERIFY2(head.contains(QStringLiteral("cell #2 (beta, c=1): prefix cache was warm")), qPrintable(head));
        SweepResults many = r;
        for (CellResult &c : many.cells)
            c.warnings = {QStringLiteral("host steal")};
        many.cells.append(many.cells.first());
        many.cells.last().index = 4;
        const QString manyLine = summarizeReport(many).warnings.filter(QStringLiteral("host steal")).value(0);
        QVERIFY2(manyLine.startsWith(QStringLiteral("cell #0 (")) && manyLine.contains(QStringLiteral(" and 1 more: host steal")),
                 qPrintable(manyLine));

        const ReportSummary clean = summarizeReport(sbtest::sampleResults());
        QVERIFY(clean.warnings.filter(QStringLiteral("degraded")).isEmpty());
    }

    // The SLO the run was measured against is stated once in the summary and with every finding
    // about goodput, which means nothing without it.
    void sloStatedWithItsFindings()
    {
        SweepResults r;
        r.specFingerprint.workload.insert(QStringLiteral("slo.time_to_first_token"), 60);
        r.specFingerprint.workload.insert(QStringLiteral("slo.inter_token_latency"), 12.5);
        int index = 0;
        for (const QString &server : {QStringLiteral("a"), QStringLiteral("b")}) {
            CellResult c;
            c.index = index++;
            c.server = server;
            c.concurrency = 4;
            c.status = CellStatus::Completed;
            c.metrics.insert(tag::goodput, sbtest::stats(QStringLiteral("req/s"), server == QLatin1String("a") ? 9 : 7));
            r.cells.append(c);
        }
        const ReportSummary s = summarizeReport(r);
        QCOMPARE(s.sloLimits, QStringLiteral("TTFT ≤ 60 ms and ITL ≤ 12.5 ms"));
        const QString goodput = s.best.filter(QStringLiteral("Goodput")).value(0);
        QVERIFY2(goodput.endsWith(QStringLiteral("(requests meeting TTFT ≤ 60 ms and ITL ≤ 12.5 ms)")), qPrintable(goodput));
        QVERIFY2(page(r).contains(QStringLiteral("<li><b>SLO</b>: TTFT ≤ 60 ms and ITL ≤ 12.5 ms per request")), "no SLO line in the summary");
        r.specFingerprint.workload.clear();
        QVERIFY(summarizeReport(r).sloLimits.isEmpty());
        QVERIFY(!page(r).contains(QStringLiteral("<b>SLO</b>")));
    }

    // A best claim carries its significance: a clear difference (a ~40 ms vs b ~60 ms over three
    // runs) is called best, an overlapping one at another point (run-to-run spread larger than the
    // gap) is "no significant difference", whichever mean is lower.
    void bestOnlyWhenSignificant()
    {
        SweepResults r = repeats();
        int index = int(r.cells.size());
        for (const QString &server : {QStringLiteral("a"), QStringLiteral("b")})
            for (double v : server == QLatin1String("a") ? std::vector<double>{40, 55, 70} : std::vector<double>{45, 56, 68}) {
                CellResult c;
                c.index = index++;
                c.server = server;
                c.concurrency = 16;
                c.status = CellStatus::Completed;
                c.metrics.insert(QStringLiteral("time_to_first_token"), sbtest::stats(QStringLiteral("ms"), v));
                r.cells.append(c);
            }
        const ReportSummary s = summarizeReport(r);
        const QStringList ttft = s.best.filter(QStringLiteral("TTFT p99"));
        QCOMPARE(ttft.size(), 1);
        QCOMPARE(ttft.first(), QStringLiteral("TTFT p99 (lower is better): a is significantly best at 1 of 2 points; "
                                              "no significant difference at 1 of 2 points"));
        // the decision itself, on known run values
        QCOMPARE(bestAtPoint({{QStringLiteral("a"), {40, 41, 39}}, {QStringLiteral("b"), {60, 61, 59}}}, true).verdict, BestVerdict::Significant);
        QCOMPARE(bestAtPoint({{QStringLiteral("a"), {40, 41, 39}}, {QStringLiteral("b"), {60, 61, 59}}}, true).series, QStringLiteral("a"));
        QCOMPARE(bestAtPoint({{QStringLiteral("a"), {40, 41, 39}}, {QStringLiteral("b"), {60, 61, 59}}}, false).series, QStringLiteral("b"));
        QCOMPARE(bestAtPoint({{QStringLiteral("a"), {40, 55, 70}}, {QStringLiteral("b"), {45, 56, 68}}}, true).verdict, BestVerdict::NotSignificant);
        QCOMPARE(bestAtPoint({{QStringLiteral("a"), {40}}, {QStringLiteral("b"), {60, 61}}}, true).verdict, BestVerdict::NotTestable);
        // a third series close to the winner takes the claim away
        QCOMPARE(bestAtPoint({{QStringLiteral("a"), {40, 41, 39}}, {QStringLiteral("b"), {60, 61, 59}}, {QStringLiteral("c"), {40.5, 41.5, 38}}}, true).verdict,
                 BestVerdict::NotSignificant);
    }

    void hooksAsIcons()
    {
        const SweepResults r = sbtest::sampleResults();
        // with the icon set: one CSS class per severity, the picture inline once
        const QByteArray okSvg = "<svg xmlns='x'><circle r='7'/></svg>";
        const QString html = page(r, {{int(HookSeverity::Ok), okSvg}, {int(HookSeverity::Failed), "<svg>fail</svg>"}});
        QVERIFY(html.contains(QStringLiteral(".hk0{background-image:url(\"data:image/svg+xml;base64,%1\")")
                                  .arg(QString::fromLatin1(okSvg.toBase64()))));
        QCOMPARE(html.count(QString::fromLatin1(okSvg.toBase64())), 1);
        // beta's failed profiler start: an icon whose title holds the details, and a closed <details>
        QVERIFY(html.contains(QRegularExpression(
            QStringLiteral("<span class=\"hk hk3 bad\" title=\"profiler_start route_missing POST /start_profile \u2192 404, 1 attempt\\(s\\), 3.5 ms "
                           "\\(before_warmup\\): 404 &lt;i&gt;Not Found&lt;/i&gt;\">"))));
        QVERIFY(html.contains(QStringLiteral("<details><summary>2 call(s)</summary>")));
        QVERIFY(!html.contains(QStringLiteral("<details open")));
        // without it: the severity glyphs
        const QString plain = page(r);
        QVERIFY(!plain.contains(QStringLiteral("data:image/svg+xml")));
        QVERIFY(plain.contains(QStringLiteral("title=\"profiler_start route_missing")));
        QVERIFY(plain.contains(QStringLiteral("\">%1</span>").arg(hookSeverityGlyph(HookSeverity::Failed))));
        QVERIFY(plain.contains(QStringLiteral("\">%1</span>").arg(hookSeverityGlyph(HookSeverity::Ok))));
    }

    void printCssAndNoEmptyNotes()
    {
        SweepResults r = betaWins();
        QString html = page(r);
        QVERIFY(html.contains(QStringLiteral("@media print{")));
        QVERIFY(html.contains(QStringLiteral("<th>Notes</th>"))); // alpha's cells have errors to show
        for (CellResult &c : r.cells) {
            c.errors.clear();
            c.errorSamples.clear();
        }
        html = page(r);
        QVERIFY(!html.contains(QStringLiteral("<th>Notes</th>")));
        // every row has as many cells as the heading has columns
        // (of the cells table: the Pareto table before it has its own columns)
        const QString cells = html.section(QStringLiteral("<table class=\"cells\">"), 1);
        const qsizetype headCols = cells.section(QStringLiteral("</thead>"), 0, 0).count(QStringLiteral("<th>"));
        const QString firstRow = cells.section(QStringLiteral("<tbody>"), 1).section(QStringLiteral("</tr>"), 0, 0);
        QCOMPARE(firstRow.count(QRegularExpression(QStringLiteral("<td[ >]"))), headCols);
    }

    void repeatsAndSloSentences()
    {
        const QString html = page(repeats());
        QVERIFY(html.contains(QStringLiteral("<h2 id=\"repeats\">Repeats</h2>")));
        // a: p99 = 2.5 × (40 + jitter) over jitter −1, 0, 1.5 → mean 100.42, CI half width t(0.975, 2) · sd / √3
        QVERIFY2(html.contains(QRegularExpression(QStringLiteral("<td class=\"n\">100\\.42 &plusmn; [0-9]+\\.[0-9]{2}</td>"))), "mean ± CI of a");
        QVERIFY(html.contains(QStringLiteral("<td class=\"n\">3</td>"))); // runs
        QVERIFY(html.contains(QStringLiteral("8: a 100.42 ms vs b 150.42 ms: differ significantly (p ")));
        QVERIFY(html.contains(QStringLiteral("<h3>SLO search</h3>")));
        QVERIFY(html.contains(QStringLiteral("a sustains 8 concurrent at TTFT p99 ≤ 200 ms &lt;ok&gt;")));
        // no repeats, no section
        QVERIFY(!page(sbtest::sampleResults()).contains(QStringLiteral("id=\"repeats\"")));
    }

    void tracesRelativeWhenIncluded()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("res"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        SweepResults r = sbtest::sampleResults();
        const QString traceDir = dir.filePath(QStringLiteral("server-traces"));
        for (CellResult &c : r.cells)
            c.traces = {QStringLiteral("%1/%2/rank-0.json").arg(traceDir).arg(c.index)};
        r.cells[3].traces << dir.filePath(QStringLiteral("gone/rank-1.json")); // deleted since the run
        for (int i = 0; i < 4; ++i)
            QVERIFY(sbtest::writeFile(r.cells[i].traces.first(), QStringLiteral("{\"trace\": %1}").arg(i).toUtf8()));
        QVERIFY(sbtest::writeFile(folder + QStringLiteral("/results.json"), QJsonDocument(toJson(r)).toJson()));

        const TraceTotals totals = traceTotals(r);
        QCOMPARE(totals.files, 4);
        QCOMPARE(totals.missing, 1);
        QCOMPARE(totals.bytes, qint64(4 * QByteArray("{\"trace\": 0}").size()));

        BundleOptions with;
        with.includeTraces = true;
        BundleReport report;
        QString error;
        const QString zip = dir.filePath(QStringLiteral("with.zip"));
        QVERIFY2(writeBundle(folder, zip, with, &report, &error), qPrintable(error));
        auto files = sbtest::readZip(zip);
        QCOMPARE(files.value(QStringLiteral("traces/002/rank-0.json")), QByteArray("{\"trace\": 2}"));
        QVERIFY(!report.warnings.filter(QStringLiteral("rank-1.json is not on disk")).isEmpty());
        QString html = QString::fromUtf8(files.value(QStringLiteral("report.html")));
        QVERIFY(html.contains(QStringLiteral("<a href=\"traces/002/rank-0.json\">rank-0.json</a>")));
        QVERIFY(html.contains(QStringLiteral("<code title=\"not included in this export\">rank-1.json</code>")));
        QVERIFY(!html.contains(dir.path()));
        QVERIFY(!html.contains(QStringLiteral("href=\"file:")));

        BundleOptions without;
        const QString zip2 = dir.filePath(QStringLiteral("without.zip"));
        QVERIFY2(writeBundle(folder, zip2, without, &report, &error), qPrintable(error));
        files = sbtest::readZip(zip2);
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            QVERIFY2(!it.key().startsWith(QLatin1String("traces/")), qPrintable(it.key()));
        html = QString::fromUtf8(files.value(QStringLiteral("report.html")));
        QVERIFY(html.contains(QStringLiteral("<code title=\"not included in this export\">rank-0.json</code>")));
        QVERIFY(!html.contains(QStringLiteral("href=\"traces/")));
        QVERIFY(!html.contains(dir.path()));
    }
    // Text a server controls (its name, a hook's message, an error sample) may carry an ESC
    // that rewrites a terminal a reader cats the page into, or a U+202E that turns "ok" around:
    // report.html and an exported comparison show them as visible escapes, as the GUI does.
    void serverControlCharactersAreShownEscaped()
    {
        const QString rlo = QString(QChar(0x202E));
        const QString esc = QString(QChar(0x1B));
        SweepResults r = sbtest::sampleResults();
        CellResult &c = r.cells.first();
        c.server = QStringLiteral("evil") + rlo + QStringLiteral("ko");
        c.reason = QStringLiteral("status ") + esc + QStringLiteral("[31mred");
        HookOutcome h;
        h.hook = HookKind::Reset;
        h.origin = QStringLiteral("http://127.0.0.1:1");
        h.verdict = HookVerdict::Error;
        h.message = QStringLiteral("refused ") + rlo + QStringLiteral("ko ") + esc + QStringLiteral("]0;title");
        c.hooks = {h};
        c.errors.insert(QStringLiteral("http_500"), 1);
        c.errorSamples.insert(QStringLiteral("http_500"), QStringLiteral("sample ") + esc + QStringLiteral("[2J"));
        const QString html = page(r);
        QVERIFY(!html.contains(rlo) && !html.contains(esc));
        QVERIFY(html.contains(QStringLiteral("evil\\u202eko")));
        QVERIFY(html.contains(QStringLiteral("status \\x1b[31mred")));
        QVERIFY(html.contains(QStringLiteral("refused \\u202eko \\x1b]0;title")));

        ComparisonHtmlInput in;
        in.sets = {ComparisonSetInfo{QStringLiteral("set ") + rlo, QStringLiteral("/tmp/x") + esc, r}};
        in.metric = QStringLiteral("time_to_first_token");
        in.stat = Stat::P50;
        const QString compared = QString::fromUtf8(comparisonHtml(in));
        QVERIFY(!compared.contains(rlo) && !compared.contains(esc));
        QVERIFY(compared.contains(QStringLiteral("evil\\u202eko")));
    }
};

QTEST_MAIN(TestReportPage)
#include "tst_report_page.moc"
