// Import of other tools' results (real AIPerf 0.13.0 output; vLLM bench serve documents built
// from its source's key set, see tests/fixtures/README.md); the safety of zip import is
// tst_import_zip's.
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "import/VllmImport.h"
#include "report/ResultsLoader.h"
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <limits>

using namespace sb;

namespace {
QString fixture(const QString &rel) { return sbtest::sourcePath(QStringLiteral("tests/fixtures/") + rel); }

// profile_export_aiperf.json of a run under tests/fixtures/aiperf-0.13.0/.
QJsonObject fixtureRun(const QString &rel)
{
    QFile f(fixture(QStringLiteral("aiperf-0.13.0/") + rel + QStringLiteral("/profile_export_aiperf.json")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

int avg(const QJsonObject &run, const char *metric)
{
    return int(run.value(QLatin1String(metric)).toObject().value(QStringLiteral("avg")).toDouble());
}
} // namespace

class TestImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void aiperfSingleRun()
    {
        QString error;
        const auto loaded = loadResults(fixture(QStringLiteral("aiperf/single")), &error);
        QVERIFY2(loaded, qPrintable(error));
        const SweepResults &r = loaded->results;
        QCOMPARE(r.sourceTool, QStringLiteral("aiperf"));
        QCOMPARE(r.toolVersion, QStringLiteral("0.13.0"));
        QCOMPARE(r.cells.size(), 1);
        const CellResult &c = r.cells.first();
        QCOMPARE(c.server, QStringLiteral("mock-model"));
        QCOMPARE(c.origin, QStringLiteral("http://127.0.0.1:18731"));
        QCOMPARE(c.concurrency, 2);
        QCOMPARE(c.completed, 8);
        QCOMPARE(c.failed, 0);
        QCOMPARE(c.status, sb::CellStatus::Completed);
        QCOMPARE(tokenSourceName(c.tokenSource), QStringLiteral("usage"));
        QVERIFY(c.durationS > 0);
        QVERIFY(c.startedAt.isValid());
        QVERIFY(qAbs(c.metrics.value(QStringLiteral("time_to_first_token")).p50 - 12.3320995) < 1e-6);
        QCOMPARE(c.metrics.value(QStringLiteral("time_to_first_token")).unit, QStringLiteral("ms"));
        QVERIFY(c.metrics.value(QStringLiteral("output_token_throughput")).onlyAvg);
        QVERIFY(c.metrics.value(QStringLiteral("output_token_throughput")).avg > 0);
        // Metrics we have no use for yet are kept under their own names.
        QVERIFY(c.metrics.contains(QStringLiteral("http_req_waiting")));
        QVERIFY(c.metrics.contains(QStringLiteral("effective_concurrency")));
        QCOMPARE(loaded->displayName, QStringLiteral("single"));
    }

    void aiperfConcurrencySweep()
    {
        QString error;
        const auto loaded = loadResults(fixture(QStringLiteral("aiperf/sweep")), &error);
        QVERIFY2(loaded, qPrintable(error));
        const SweepResults &r = loaded->results;
        QCOMPARE(r.sourceTool, QStringLiteral("aiperf"));
        QCOMPARE(r.cells.size(), 3);
        QCOMPARE(r.cells[0].concurrency, 1);
        QCOMPARE(r.cells[1].concurrency, 2);
        QCOMPARE(r.cells[2].concurrency, 4);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(r.cells[i].index, i);
            QCOMPARE(r.cells[i].completed, 8);
            QVERIFY(std::isfinite(r.cells[i].metrics.value(QStringLiteral("request_latency")).p99));
        }
        QVERIFY(r.startedAt.isValid() && r.finishedAt >= r.startedAt);
    }

    // Real AIPerf 0.13.0 runs against the mock (tests/fixtures/make_aiperf_fixtures.py): the
    // counts come from request_count (successes) and error_request_count; 0.13.0's
    // completed_request_count is their sum.
    void aiperf013PlainRun()
    {
        const QJsonObject run = fixtureRun(QStringLiteral("plain"));
        QString error;
        const auto loaded = loadResults(fixture(QStringLiteral("aiperf-0.13.0/plain")), &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.toolVersion, QStringLiteral("0.13.0"));
        QCOMPARE(loaded->results.cells.size(), 1);
        const CellResult &c = loaded->results.cells.first();
        QCOMPARE(c.concurrency, 2);
        QCOMPARE(c.completed, avg(run, "request_count"));
        QVERIFY(c.completed > 0);
        QCOMPARE(c.failed, 0);
        QCOMPARE(c.status, sb::CellStatus::Completed);
        QVERIFY(c.reason.isEmpty());
    }

    // With --warmup-request-count AIPerf writes phases/warmup/ and phases/profiling/ beside the
    // run: one cell, the run's, never the warmup (it used to show 3 cells).
    void aiperf013WarmupIsNotACell()
    {
        const QJsonObject run = fixtureRun(QStringLiteral("warmup"));
        const QJsonObject warmup = fixtureRun(QStringLiteral("warmup/phases/warmup"));
        QVERIFY(avg(warmup, "request_count") != avg(run, "request_count")); // the fixture can tell them apart
        QString error;
        const auto loaded = loadResults(fixture(QStringLiteral("aiperf-0.13.0/warmup")), &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.cells.size(), 1);
        const CellResult &c = loaded->results.cells.first();
        QCOMPARE(c.completed, avg(run, "request_count"));
        QCOMPARE(c.failed, 0);
        QCOMPARE(c.concurrency, 2);
        QVERIFY2(c.reason.isEmpty(), qPrintable(c.reason)); // the top-level run, not a phase folder
        QCOMPARE(c.durationS, run.value(QStringLiteral("benchmark_duration")).toObject().value(QStringLiteral("avg")).toDouble());
    }

    // Some requests failed (mock --error-rate), warmup included: successes and errors each once,
    // and the warmup's failed records in profile_export.jsonl are not the run's.
    void aiperf013ErrorsCountedOnce()
    {
        const QJsonObject run = fixtureRun(QStringLiteral("errors"));
        const int ok = avg(run, "request_count"), failed = avg(run, "error_request_count");
        QVERIFY(failed > 0);
        QCOMPARE(avg(run, "completed_request_count"), ok + failed); // 0.13.0's meaning
        QString error;
        const auto loaded = loadResults(fixture(QStringLiteral("aiperf-0.13.0/errors")), &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.cells.size(), 1);
        const CellResult &c = loaded->results.cells.first();
        QCOMPARE(c.completed, ok);
        QCOMPARE(c.failed, failed);
        QCOMPARE(c.errors.value(QStringLiteral("http_500")), failed);
        QCOMPARE(c.concurrency, 4);
    }

    // A run folder without a top-level file (only phases/) is read from phases/profiling.
    void aiperf013PhasesOnlyTakesProfiling()
    {
        QTemporaryDir dir;
        for (const char *phase : {"warmup", "profiling"}) {
            const QString sub = QStringLiteral("phases/%1").arg(QLatin1String(phase));
            QVERIFY(QDir(dir.path()).mkpath(sub));
            QVERIFY(QFile::copy(fixture(QStringLiteral("aiperf-0.13.0/errors/%1/profile_export_aiperf.json").arg(sub)),
                                dir.filePath(sub + QStringLiteral("/profile_export_aiperf.json"))));
        }
        QString error;
        const auto loaded = loadResults(dir.path(), &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.cells.size(), 1);
        const QJsonObject profiling = fixtureRun(QStringLiteral("errors/phases/profiling"));
        QCOMPARE(loaded->results.cells.first().completed, avg(profiling, "request_count"));
        QCOMPARE(loaded->results.cells.first().failed, avg(profiling, "error_request_count"));
    }

    // Counts in a hostile file are clamped, never overflow (a fuzzed import must not be UB).
    void aiperfHugeCountsSaturate()
    {
        QTemporaryDir dir;
        QJsonObject run = fixtureRun(QStringLiteral("plain"));
        run.insert(QStringLiteral("request_count"), QJsonObject{{QStringLiteral("unit"), QStringLiteral("requests")}, {QStringLiteral("avg"), 1e300}});
        run.insert(QStringLiteral("error_request_count"), QJsonObject{{QStringLiteral("unit"), QStringLiteral("requests")}, {QStringLiteral("avg"), -1e300}});
        QFile f(dir.filePath(QStringLiteral("profile_export_aiperf.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.write(QJsonDocument(run).toJson()) > 0);
        f.close();
        QString error;
        const auto loaded = loadResults(dir.path(), &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.cells.first().completed, std::numeric_limits<int>::max());
        QCOMPARE(loaded->results.cells.first().failed, 0);
    }

    void aiperfSweepAggregateOnly()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("sweep_aggregate"))));
        QVERIFY(QFile::copy(fixture(QStringLiteral("aiperf/sweep/sweep_aggregate/profile_export_aiperf_sweep.json")),
                            dir.filePath(QStringLiteral("sweep_aggregate/profile_export_aiperf_sweep.json"))));
        QString error;
        const auto loaded = loadResults(dir.path(), &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.cells.size(), 3);
        QCOMPARE(loaded->results.cells[2].concurrency, 4);
        QVERIFY(loaded->results.cells[0].metrics.value(QStringLiteral("time_to_first_token")).p50 > 0);
    }

    void vllmSingleFile()
    {
        const QString file = fixture(QStringLiteral("vllm/sweep/openai-chat-infqps-concurrency1-mock-model-20261129-221000.json"));
        QString error;
        const auto loaded = loadResults(file, &error);
        QVERIFY2(loaded, qPrintable(error));
        const SweepResults &r = loaded->results;
        QCOMPARE(r.sourceTool, QStringLiteral("vllm-bench"));
        QCOMPARE(r.cells.size(), 1);
        const CellResult &c = r.cells.first();
        QCOMPARE(c.server, QStringLiteral("mock-model"));
        QCOMPARE(c.concurrency, 1);
        QCOMPARE(c.completed, 8);
        // Mapped: ttft -> TTFT, tpot -> AIPerf ITL, itl -> inter-chunk latency.
        QCOMPARE(c.metrics.value(QStringLiteral("time_to_first_token")).p99, 6.9);
        QCOMPARE(c.metrics.value(QStringLiteral("time_to_first_token")).p50, 4.98);
        QCOMPARE(c.metrics.value(QStringLiteral("inter_token_latency")).avg, 2.31);
        QCOMPARE(c.metrics.value(QStringLiteral("inter_chunk_latency")).p99, 4.1);
        QVERIFY(std::isnan(c.metrics.value(QStringLiteral("time_to_first_token")).p90)); // not requested
        QVERIFY(c.metrics.value(QStringLiteral("output_token_throughput")).onlyAvg);
        QCOMPARE(c.metrics.value(QStringLiteral("output_token_throughput")).unit, QStringLiteral("tokens/sec"));
        // Kept under their own names.
        QVERIFY(c.metrics.contains(QStringLiteral("total_token_throughput")));
        QVERIFY(c.metrics.contains(QStringLiteral("max_output_tokens_per_s")));
        QVERIFY(!c.metrics.contains(QStringLiteral("goodput"))); // null without SLOs
    }

    void vllmFolderIsASweep()
    {
        QString error;
        const auto loaded = loadResults(fixture(QStringLiteral("vllm/sweep")), &error);
        QVERIFY2(loaded, qPrintable(error));
        const SweepResults &r = loaded->results;
        QCOMPARE(r.sourceTool, QStringLiteral("vllm-bench"));
        QCOMPARE(r.cells.size(), 3);
        QCOMPARE(r.cells[1].concurrency, 2);
        QCOMPARE(r.cells[2].concurrency, 4);
        QCOMPARE(r.cells[1].metrics.value(QStringLiteral("request_latency")).p50, 35.0);
        QCOMPARE(r.cells[1].metrics.value(QStringLiteral("request_latency")).p90, 40.2);
        QVERIFY(r.cells[1].metrics.contains(QStringLiteral("client_queue_time")));
    }

    void unreadableInputs()
    {
        QString error;
        QVERIFY(!loadResults(QStringLiteral("/nonexistent/path"), &error));
        QVERIFY(error.contains(QStringLiteral("no such file")));
        QTemporaryDir empty;
        QVERIFY(!loadResults(empty.path(), &error));
        QVERIFY(error.contains(QStringLiteral("no results")));
        QVERIFY(sbtest::writeFile(empty.filePath(QStringLiteral("x.json")), "{\"hello\": 1}"));
        QVERIFY(!loadResults(empty.filePath(QStringLiteral("x.json")), &error));
        QVERIFY(error.contains(QStringLiteral("not a result file SweepBench can read")));
    }

    void recordsPathOutsideIsDropped()
    {
        QTemporaryDir dir;
        SweepResults r = sbtest::sampleResults();
        r.cells[0].recordsPath = QStringLiteral("../../etc/passwd");
        r.cells[1].recordsPath = QStringLiteral("/etc/passwd");
        QVERIFY(sbtest::writeFile(dir.filePath(QStringLiteral("results.json")), QJsonDocument(toJson(r)).toJson()));
        QString error;
        const auto loaded = loadResults(dir.path(), &error);
        QVERIFY2(loaded, qPrintable(error));
        QVERIFY(loaded->results.cells[0].recordsPath.isEmpty());
        QVERIFY(loaded->results.cells[1].recordsPath.isEmpty());
        QVERIFY(!loaded->results.cells[0].warnings.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
