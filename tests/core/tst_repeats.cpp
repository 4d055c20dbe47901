// sweep.repeats with the real engine against two embedded mocks over loopback: every point runs
// N times as cells of their own (own folder, own cache reset), results.json carries each point's
// mean and 95 % CI over its runs, and the summary says that a server whose timing model is slower
// differs significantly at each point. (A server and its twin are not asserted either way: the
// mock is nearly deterministic, so tiny real differences may test significant.)
#include "EngineFixture.h"
#include "TestSupport.h"
#include "results/RepeatStats.h"
#include "report/SummaryCommand.h"
#include "results/PointSummary.h"
#include "results/ResultsStore.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cmath>

using namespace sb;
using namespace sbtest;

class TstRepeats : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void eachPointRunsNTimes()
    {
        QString error;
        MockConfig slowCfg = timedMock(Flavor::Vllm);
        slowCfg.prefillPerTokenMs *= 2; // TTFT 90 ms instead of 50 ms by the timing model
        auto fast = MockServer::start(timedMock(Flavor::Vllm), &error);
        auto twin = MockServer::start(timedMock(Flavor::Vllm), &error);
        auto slow = MockServer::start(slowCfg, &error);
        QVERIFY2(fast && twin && slow, qPrintable(error));
        QList<ServerSpec> servers{serverFor("fast", *fast, Flavor::Vllm), serverFor("twin", *twin, Flavor::Vllm),
                                  serverFor("slow", *slow, Flavor::Vllm)};
        for (ServerSpec &s : servers)
            s.reset.enabled = true;
        SweepSpec spec = smallSpec(servers, {1, 4}, 8);
        spec.repeats = 3;
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.results.cells.size(), 3 * 2 * 3);
        QCOMPARE(fast->stats().resetsDone, 6); // one reset per run: hooks run per repeat
        const CellResult &third = r.results.cells[2];
        QCOMPARE(third.repeat, 2);
        QCOMPARE(third.concurrency, 1);
        QCOMPARE(third.recordsPath, QStringLiteral("cells/002-fast-c1-n3/records.jsonl"));
        QVERIFY(QFile::exists(out.filePath(third.recordsPath)));

        // results.json: the point's mean and CI are those of its three cells.
        const QJsonObject json = QJsonDocument::fromJson(sbtest::readFile(out.filePath("results.json"))).object();
        const QJsonArray points = json.value("points").toArray();
        QCOMPARE(points.size(), 6);
        const QJsonObject p = points[1].toObject(); // fast at C=4
        QCOMPARE(p.value("server").toString(), QStringLiteral("fast"));
        QCOMPARE(p.value("concurrency").toDouble(), 4.0);
        QCOMPARE(p.value("runs").toInt(), 3);
        std::vector<double> runs;
        for (const CellResult &c : r.results.cells)
            if (c.server == QLatin1String("fast") && c.concurrency == 4)
                runs.push_back(c.metrics.value("time_to_first_token").p99);
        const MeanCi expected = meanCi95(runs);
        const QJsonObject p99 = p.value("metrics").toObject().value("time_to_first_token").toObject().value("p99").toObject();
        QCOMPARE(p99.value("n").toInt(), 3);
        QVERIFY(std::abs(p99.value("mean").toDouble() - expected.mean) < 1e-9);
        QVERIFY(std::abs(p99.value("ci95_high").toDouble() - expected.high()) < 1e-9);

        // Significance, per point: the slow timing model is told apart from the fast one.
        SweepResults disk;
        QVERIFY(ResultsStore::readResults(out.path(), &disk, &error));
        const QString text = formatSummaryTable(disk);
        for (const char *line : {"  1: fast ", "  4: fast "})
            QVERIFY2(text.contains(QLatin1String(line)), qPrintable(text));
        const QList<PointComparison> pairs = comparePoints(summarizePoints(disk), QStringLiteral("time_to_first_token.p99"));
        QCOMPARE(pairs.size(), 6); // 3 pairs at each of 2 points
        for (const PointComparison &c : pairs) {
            const bool slowInvolved = c.serverA == QLatin1String("slow") || c.serverB == QLatin1String("slow");
            if (slowInvolved)
                QVERIFY2(c.welch.significant(), qPrintable(text));
        }
        QVERIFY2(text.contains(QStringLiteral("vs slow")) && text.contains(QStringLiteral("differ significantly")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TstRepeats)
#include "tst_repeats.moc"
