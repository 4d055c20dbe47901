// A profiled cell's results.json carries its trace_summary (docs/traces.md): the engine reads the
// traces its window left once the window has settled, and the embedded mock's vLLM and
// TensorRT-LLM personalities write each scheduler step under the name the real server uses.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "results/ResultsStore.h"
#include <QTemporaryDir>

using namespace sb;

class TestTraceEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void profiledCellHasTraceSummary_data()
    {
        QTest::addColumn<Flavor>("flavor");
        QTest::addColumn<StepSource>("source");
        QTest::newRow("vllm") << Flavor::Vllm << StepSource::VllmAnnotations;
        QTest::newRow("trtllm") << Flavor::Trtllm << StepSource::StepLabels;
    }
    void profiledCellHasTraceSummary()
    {
        QFETCH(Flavor, flavor);
        QFETCH(StepSource, source);
        QTemporaryDir dir;
        MockConfig cfg = mockDefaults(flavor);
        cfg.traceDir = dir.filePath(QStringLiteral("traces")); // vLLM writes where it was started to
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec server = sbtest::serverFor(QStringLiteral("s"), *mock, flavor);
        server.profiler.enabled = true;
        server.profiler.traceDir = cfg.traceDir;
        SweepSpec spec = sbtest::smallSpec({server}, {4}, 24);
        const auto r = sbtest::runSweep(spec, dir.filePath(QStringLiteral("out")));
        QCOMPARE(r.results.cells.size(), 1);
        QVERIFY2(r.results.cells[0].status == CellStatus::Completed, qPrintable(r.results.cells[0].reason));

        SweepResults disk;
        QVERIFY2(ResultsStore::readResults(dir.filePath(QStringLiteral("out")), &disk, &error), qPrintable(error));
        const CellResult &cell = disk.cells.at(0);
        QVERIFY2(cell.traceSummary, "a profiled cell has a trace_summary");
        const TraceSummary &s = *cell.traceSummary;
        QCOMPARE(s.files.size(), 1);
        const TraceFileSummary &f = s.files[0];
        QVERIFY2(f.error.isEmpty(), qPrintable(f.error));
        QCOMPARE(f.stepSource, source);
        QCOMPARE(f.rank, 0);
        // 24 requests of 8 tokens at C=4: at least one prefill step and several decode steps.
        QVERIFY2(f.stats.steps >= 8, qPrintable(QString::number(f.stats.steps)));
        QCOMPARE(s.merged.steps, f.stats.steps);
        qint64 counted = 0;
        bool prefill = false;
        for (const StepKindStats &k : f.stats.stepKinds) {
            counted += k.count;
            QVERIFY(k.p50Ms >= 0 && k.p50Ms <= k.p90Ms && k.p90Ms <= k.p99Ms && k.p99Ms <= k.maxMs && k.maxMs > 0 && k.maxMs < 10000);
            QVERIFY2(k.batchMean >= 1 && k.batchMax <= 4, qPrintable(QString::number(k.batchMax)));
            prefill = prefill || k.kind == StepKind::Prefill || k.kind == StepKind::Mixed;
        }
        QCOMPARE(counted, f.stats.steps);
        QVERIFY(prefill);
        if (flavor == Flavor::Vllm) {
            QCOMPARE(f.version, QStringLiteral("sweepbench-mock"));
            QCOMPARE(f.worldSize, 1);
        } else {
            QCOMPARE(f.profileId, QStringLiteral("1"));
        }
        QCOMPARE(s.rankCheck, RankCheck::NotApplicable);
        QVERIFY(sbtest::readFile(dir.filePath(QStringLiteral("out/results.json"))).contains("\"trace_summary\""));
    }
};

QTEST_GUILESS_MAIN(TestTraceEngine)
#include "tst_trace_engine.moc"
