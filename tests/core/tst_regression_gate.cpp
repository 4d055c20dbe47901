// `sweepbench diff` (report/RegressionGate.h): real sweeps with repeats against embedded mocks
// over loopback — a mock whose every step takes 10 % longer is flagged, a second run of the same
// mock is not — then the binary's exit codes, its Markdown and JUnit files, the refusals (other
// workload, no common points, unreadable input, unknown metric, unwritable report), the
// Mann–Whitney path of single runs, and Mann–Whitney and Holm on hand-computed data.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "report/RegressionGate.h"
#include "report/RegressionGateReport.h"
#include "report/ResultsLoader.h"
#include "results/RankTests.h"
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <cmath>

using namespace sb;
using namespace sbtest;

namespace {
// Server timing known exactly and scaled as a whole: TTFT 100 ms (prefill of the 32-token prompt
// ends the first step), then a token every 20 ms. `scale` 1.1 makes every step 10 % longer.
MockConfig gateMock(double scale)
{
    MockConfig c = timedMock(Flavor::Vllm);
    c.stepBaseMs = 20 * scale;
    c.prefillPerTokenMs = 80.0 / 32.0 * scale;
    return c;
}

struct Junit {
    int testcases = 0;
    QStringList failed;  // testcase names with a <failure>
    QStringList errors;  // <error> messages
    QString error;       // the parser's, if any
};

Junit parseJunit(const QByteArray &xml)
{
    Junit j;
    QXmlStreamReader r(xml);
    QString testcase;
    while (!r.atEnd()) {
        if (r.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (r.name() == QLatin1String("testcase")) {
            ++j.testcases;
            testcase = r.attributes().value(QLatin1String("name")).toString();
        } else if (r.name() == QLatin1String("failure")) {
            j.failed.append(testcase);
        } else if (r.name() == QLatin1String("error")) {
            j.errors.append(r.attributes().value(QLatin1String("message")).toString());
        }
    }
    if (r.hasError())
        j.error = r.errorString();
    return j;
}

// The rows of the Markdown table (header and separator excluded).
QStringList tableRows(const QByteArray &md)
{
    QStringList rows;
    for (const QString &line : QString::fromUtf8(md).split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String("| ")) && !line.startsWith(QLatin1String("| series |")))
            rows.append(line);
    return rows;
}

LoadedResults onlyFirstRuns(LoadedResults set)
{
    QList<CellResult> kept;
    for (const CellResult &c : std::as_const(set.results.cells))
        if (c.repeat == 0)
            kept.append(c);
    set.results.cells = kept; // records paths stay relative to the folder
    return set;
}

const GateComparison *comparisonAt(const GateResult &r, double point, const QString &metricKey)
{
    for (const GateComparison &c : r.comparisons)
        if (c.point == point && c.metric.key() == metricKey)
            return &c;
    return nullptr;
}
} // namespace

class TstRegressionGate : public QObject
{
    Q_OBJECT
    QString m_binary;
    QTemporaryDir m_base, m_twin, m_slow, m_otherWorkload, m_files;

    struct Run {
        int code;
        QString out, err;
    };
    Run diff(const QStringList &args)
    {
        QProcess p;
        p.start(m_binary, QStringList{QStringLiteral("diff")} + args);
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    static SweepSpec gateSpec(const MockServer &mock, int repeats)
    {
        SweepSpec spec = smallSpec({serverFor(QStringLiteral("mock"), mock, Flavor::Vllm)}, {1, 4}, 6);
        spec.workload.outputTokens = 6;
        spec.repeats = repeats;
        return spec;
    }

    static bool sweep(double scale, const QTemporaryDir &out, int repeats, int inputTokens = 32)
    {
        QString error;
        auto mock = MockServer::start(gateMock(scale), &error);
        if (!mock)
            return false;
        SweepSpec spec = gateSpec(*mock, repeats);
        spec.workload.inputTokens = inputTokens;
        return runSweep(spec, out.path()).exitCode == 0;
    }

    static LoadedResults load(const QTemporaryDir &dir)
    {
        QString error;
        auto loaded = loadResults(dir.path(), &error);
        if (!loaded)
            qFatal("cannot load %s: %s", qPrintable(dir.path()), qPrintable(error));
        return *loaded;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_binary = qEnvironmentVariable("SWEEPBENCH_BINARY");
        // Three repeats per point on each side: Welch's test has runs to work with.
        QVERIFY(sweep(1.0, m_base, 3));
        QVERIFY(sweep(1.0, m_twin, 3));
        QVERIFY(sweep(1.1, m_slow, 3));
        QVERIFY(sweep(1.0, m_otherWorkload, 1, 48));
    }
    void init() { failOnQtWarnings(); }

    void slowerMockIsARegression()
    {
        const GateResult r = compareForRegressions(load(m_base), load(m_slow), GateOptions());
        const QString text = gateText(r);
        QCOMPARE(r.verdict, GateVerdict::Regression);
        QCOMPARE(r.comparisons.size(), 2 * 5); // 1 series × 2 points × 5 default metrics
        // At C=1 every gap is one step; at C=4 a gap may span another request's 80 ms prefill
        // step, so a run's ITL p50 there moves by a few percent with the arrival order (+4.4 %
        // once, not significant) while its TTFT p50, all prefill and queueing, scales cleanly.
        for (const auto &[point, metric] : {std::pair{1.0, "inter_token_latency.p50"}, std::pair{4.0, "time_to_first_token.p50"}}) {
            const GateComparison *c = comparisonAt(r, point, QLatin1String(metric));
            QVERIFY2(c && c->test == GateTest::Welch, qPrintable(text));
            QVERIFY2(c->regression(), qPrintable(text));
            QVERIFY2(std::abs(c->deltaPct - 10) < 3, qPrintable(text));
        }
        for (const GateComparison &c : r.comparisons) {
            // Flagged only in the worse direction: slower latencies, lower throughput.
            if (c.regression())
                QVERIFY2(c.metric.metric->better == Better::Lower ? c.deltaPct > 5 : c.deltaPct < -5, qPrintable(text));
        }

        const Run run = diff({m_base.path(), m_slow.path()});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.out.contains(QStringLiteral("regression: mock, C=1, ITL p50 ms: 20.")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("Welch, Holm-adjusted")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("+10.")) || run.out.contains(QStringLiteral("+9.")), qPrintable(run.out));
    }

    void sameMockTwiceIsNoRegression()
    {
        const Run run = diff({m_base.path(), m_twin.path()});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(QStringLiteral("no regression in 10 comparisons")), qPrintable(run.out));
    }

    void differentWorkloadsCannotBeCompared()
    {
        const Run run = diff({m_base.path(), m_otherWorkload.path()});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains(QStringLiteral("cannot compare: different workloads: workload.input_tokens: 32 -> 48")), qPrintable(run.err));
    }

    void noCommonPointsOrSeriesCannotBeCompared()
    {
        LoadedResults low = load(m_base), high = load(m_twin);
        low.results.cells.removeIf([](const CellResult &c) { return c.concurrency != 1; });
        high.results.cells.removeIf([](const CellResult &c) { return c.concurrency != 4; });
        GateResult r = compareForRegressions(low, high, GateOptions());
        QCOMPARE(r.verdict, GateVerdict::CannotCompare);
        QVERIFY2(r.reason.startsWith(QStringLiteral("no common points: ")) && r.reason.contains(QStringLiteral("at 1;")), qPrintable(r.reason));

        LoadedResults two = load(m_twin); // two servers, neither called "mock"
        for (int i = 0; i < two.results.cells.size(); ++i)
            two.results.cells[i].server = i % 2 ? QStringLiteral("x") : QStringLiteral("y");
        r = compareForRegressions(load(m_base), two, GateOptions());
        QCOMPARE(r.verdict, GateVerdict::CannotCompare);
        QVERIFY2(r.reason.startsWith(QStringLiteral("no series in common: ")), qPrintable(r.reason));

        const Run run = diff({m_base.path(), m_files.filePath(QStringLiteral("missing"))});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains(QStringLiteral("cannot compare: cannot read NEW: ")) && run.err.contains(QStringLiteral("no such file")), qPrintable(run.err));
    }

    void markdownAndJunitFiles()
    {
        const QString md = m_files.filePath(QStringLiteral("diff.md")), xml = m_files.filePath(QStringLiteral("diff.xml"));
        Run run = diff({m_base.path(), m_slow.path(), QStringLiteral("--markdown"), md, QStringLiteral("--junit=") + xml});
        QCOMPARE(run.code, 1);
        const QByteArray mdText = readFile(md);
        const QStringList rows = tableRows(mdText);
        QCOMPARE(rows.size(), 10);
        QVERIFY2(mdText.contains("❌"), mdText.constData());
        const auto itlRow = std::find_if(rows.begin(), rows.end(), [](const QString &r) { return r.contains(QStringLiteral("| C\\=1 | ITL p50 ms |")); });
        QVERIFY2(itlRow != rows.end() && itlRow->endsWith(QStringLiteral("| **regression** |")), mdText.constData());
        Junit j = parseJunit(readFile(xml));
        QVERIFY2(j.error.isEmpty(), qPrintable(j.error));
        QCOMPARE(j.testcases, 2); // series × points
        QCOMPARE(j.failed, (QStringList{QStringLiteral("mock at C=1"), QStringLiteral("mock at C=4")}));

        run = diff({m_base.path(), m_twin.path(), QStringLiteral("--markdown"), md, QStringLiteral("--junit"), xml});
        QCOMPARE(run.code, 0);
        QCOMPARE(tableRows(readFile(md)).size(), 10);
        j = parseJunit(readFile(xml));
        QCOMPARE(j.testcases, 2);
        QCOMPARE(j.failed, QStringList());

        run = diff({m_base.path(), m_otherWorkload.path(), QStringLiteral("--junit"), xml});
        QCOMPARE(run.code, 2);
        j = parseJunit(readFile(xml));
        QCOMPARE(j.testcases, 1);
        QCOMPARE(j.errors.size(), 1);
        QVERIFY(j.errors.first().startsWith(QStringLiteral("different workloads")));
    }

    void failedReportWriteFails()
    {
        const QString nowhere = m_files.filePath(QStringLiteral("no-such-folder/diff.md"));
        const Run run = diff({m_base.path(), m_twin.path(), QStringLiteral("--markdown"), nowhere});
        QCOMPARE(run.code, 3);
        QVERIFY2(run.err.contains(QStringLiteral("cannot write ")) && run.err.contains(QStringLiteral("no-such-folder")), qPrintable(run.err));
        QVERIFY(!QFile::exists(nowhere));
    }

    void untrustedNamesAreEscaped()
    {
        GateResult r;
        r.baseName = QStringLiteral("base|</x>");
        r.newName = QStringLiteral("new\x1b[31m");
        GateComparison c;
        c.series = QStringLiteral("evil | <b>name</b> & \"q\"\n| injected |");
        c.metric = defaultGateMetrics().at(1);
        c.base.n = c.candidate.n = 1;
        c.base.mean = 100;
        c.candidate.mean = 120;
        c.deltaPct = 20;
        c.test = GateTest::MannWhitney;
        c.p = c.adjustedP = 0.001;
        c.worse = c.significant = true;
        r.comparisons = {c};
        r.verdict = GateVerdict::Regression;
        const QByteArray md = gateMarkdown(r);
        const QStringList rows = tableRows(md);
        QCOMPARE(rows.size(), 1);
        QVERIFY2(rows.first().startsWith(QStringLiteral(R"(| evil \| \<b\>name\<\/b\> \& \"q\" \| injected \| | C\=0 |)")), md.constData());
        QVERIFY(!md.contains("\x1b"));
        const QByteArray xml = gateJUnitXml(r);
        const Junit j = parseJunit(xml);
        QVERIFY2(j.error.isEmpty(), qPrintable(j.error));
        QCOMPARE(j.testcases, 1);
        QCOMPARE(j.failed, QStringList{QStringLiteral("evil | <b>name</b> & \"q\" | injected | at C=0")});
        QVERIFY(!xml.contains("\x1b"));
    }

    void singleRunsUseRequestDistributions()
    {
        // Six requests a side: complete separation gives p = 0.005, so two tests stay clear of
        // α after Holm (the other metrics are covered with repeats above).
        GateOptions options;
        options.metrics = {defaultGateMetrics().at(0), *parseGateMetric(QStringLiteral("inter_token_latency"), nullptr)};
        const GateResult r = compareForRegressions(onlyFirstRuns(load(m_base)), onlyFirstRuns(load(m_slow)), options);
        const QString text = gateText(r);
        QCOMPARE(r.verdict, GateVerdict::Regression);
        for (double point : {1.0, 4.0}) {
            const GateComparison *throughput = comparisonAt(r, point, tag::outputThroughput);
            QVERIFY(throughput);
            QCOMPARE(throughput->test, GateTest::None);
            QCOMPARE(throughput->untested, QStringLiteral("not testable (1 run each)"));
            QVERIFY2(!throughput->regression(), qPrintable(text)); // worse, but never flagged untested
            const GateComparison *itl = comparisonAt(r, point, QStringLiteral("inter_token_latency.p50"));
            QCOMPARE(itl->test, GateTest::MannWhitney);
            QCOMPARE(itl->samplesBase, 6);
            QVERIFY(itl->adjustedP >= itl->p); // Holm never lowers a p value
            // At C=1 every request's ITL is one step apart: the two samples separate completely.
            // At C=4 a newcomer's prefill stalls the others' decode, so the per-request values of
            // six requests overlap and need not test significant.
            if (point == 1)
                QVERIFY2(itl->regression(), qPrintable(text));
        }
        QVERIFY2(text.contains(QStringLiteral("Mann–Whitney, Holm-adjusted")), qPrintable(text));
        QCOMPARE(r.tested(), 2); // ITL at 2 points; throughput untested
    }

    void mannWhitneyOnKnownData()
    {
        // Ranks of {1 2 3 3 5} among {3 4 6 7}: 1 2 4 4 7 (the three 3s share rank 4), sum 18,
        // U = 18 − 5·6/2 = 3 against a mean of 10. Variance with the tie term:
        // 20/12 · (10 − (3³ − 3)/(9·8)) = 16.111; z = −(7 − 0.5)/√16.111 = −1.6194; p = 0.10536.
        const MannWhitneyResult r = mannWhitneyU({1, 2, 3, 3, 5}, {3, 4, 6, 7});
        QCOMPARE(r.u, 3.0);
        QVERIFY2(std::abs(r.z + 1.6193869) < 1e-6, qPrintable(QString::number(r.z, 'g', 10)));
        QVERIFY2(std::abs(r.p - 0.1053641) < 1e-6, qPrintable(QString::number(r.p, 'g', 10)));
        // Complete separation of 5 and 5 without ties: U = 0, z = (12.5 − 0.5)/√(25·11/12).
        const MannWhitneyResult s = mannWhitneyU({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
        QCOMPARE(s.u, 0.0);
        QVERIFY(std::abs(s.p - 0.0121858) < 1e-6);
        QCOMPARE(mannWhitneyU({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}).p, s.p); // two-sided
        QCOMPARE(mannWhitneyU({4, 4, 4}, {4, 4}).p, 1.0);                 // all tied
        QVERIFY(std::isnan(mannWhitneyU({}, {1, 2}).p));
    }

    void holmOnKnownData()
    {
        // Sorted 0.005 0.01 0.03 0.04 times 4 3 2 1: 0.02 0.03 0.06 0.04 → non-decreasing 0.06.
        const double nan = std::nan("");
        const std::vector<double> adjusted = holmAdjusted({0.01, 0.04, nan, 0.03, 0.005});
        const std::vector<double> expected{0.03, 0.06, nan, 0.06, 0.02};
        QCOMPARE(adjusted.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            if (std::isnan(expected[i]))
                QVERIFY(std::isnan(adjusted[i]));
            else
                QVERIFY2(std::abs(adjusted[i] - expected[i]) < 1e-12, qPrintable(QString::number(adjusted[i])));
        }
        QVERIFY(holmAdjusted({0.6, 0.9}) == (std::vector<double>{1.0, 1.0})); // capped at 1
    }

    void unknownMetricListsTheValidOnes()
    {
        Run run = diff({m_base.path(), m_twin.path(), QStringLiteral("--metric"), QStringLiteral("ttft")});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains(QStringLiteral("unknown metric 'ttft'")), qPrintable(run.err));
        for (const QString &key : gateMetricKeys())
            QVERIFY2(run.err.contains(key), qPrintable(run.err));
        QVERIFY(!run.err.contains(tag::inputLength)); // no better direction: not offered
        run = diff({m_base.path(), m_twin.path(), QStringLiteral("--metric"), QStringLiteral("time_to_first_token.p42")});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains(QStringLiteral("has no stat 'p42'; valid: avg, p50")), qPrintable(run.err));

        // A chosen metric only: one row per point.
        run = diff({m_base.path(), m_slow.path(), QStringLiteral("--metric=inter_token_latency"), QStringLiteral("--threshold"), QStringLiteral("50%")});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err)); // 10 % slower is within a 50 % threshold
        QVERIFY2(run.out.contains(QStringLiteral("no regression in 2 comparisons")), qPrintable(run.out));
    }
};

QTEST_GUILESS_MAIN(TstRegressionGate)
#include "tst_regression_gate.moc"
