// The real engine over real loopback sockets against the in-process mock server.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "results/ResultsStore.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <csignal>

using namespace sb;
using namespace sbtest;

class TestEngine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void exactConcurrencyAndServerTiming()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {1, 8, 64}, 64);
        spec.workload.outputTokens = 16;
        QTemporaryDir out;
        QList<int> serverMax;
        // Run cell by cell so the mock's peak in flight is read per concurrency.
        RunResult all;
        for (int c : {1, 8, 64}) {
            mock->resetStats();
            SweepSpec one = spec;
            one.concurrency = {c};
            RunResult r = runSweep(one, out.filePath(QString::number(c)));
            QCOMPARE(r.exitCode, 0);
            serverMax.append(mock->stats().maxInFlight);
            all.results.cells.append(r.results.cells.first());
        }
        QCOMPARE(serverMax, (QList<int>{1, 8, 64})); // the server saw exactly C, never more
        for (const CellResult &cell : std::as_const(all.results.cells)) {
            QCOMPARE(cell.status, sb::CellStatus::Completed);
            QCOMPARE(cell.completed, 64);
            QCOMPARE(cell.failed, 0);
            QCOMPARE(cell.maxInFlight, cell.concurrency);
            QCOMPARE(tokenSourceName(cell.tokenSource), QStringLiteral("usage"));
            // Between ramp-up and drain the closed loop holds C (64 requests at C=64: no such span).
            if (cell.concurrency < 64)
                QVERIFY2(cell.steadyMeanInFlight >= 0.95 * cell.concurrency, qPrintable(QString::number(cell.steadyMeanInFlight)));
            else
                QCOMPARE(cell.steadyMeanInFlight, -1.0);
        }
        const CellResult &c1 = all.results.cells[0];
        const double ttft = c1.metrics["time_to_first_token"].p50;
        // The role-only first chunk arrives at once; counting it would give a TTFT near 0.
        QVERIFY2(ttft >= 50 && ttft <= 62, qPrintable(QString::number(ttft)));
        const double itl = c1.metrics["inter_token_latency"].avg;
        QVERIFY2(itl >= 9 && itl <= 12, qPrintable(QString::number(itl)));
        const double latency = c1.metrics["request_latency"].p50;
        QVERIFY2(latency >= 200 && latency <= 230, qPrintable(QString::number(latency)));
        QCOMPARE(c1.metrics["output_sequence_length"].avg, 16.0);
        const double t1 = all.results.cells[0].metrics["output_token_throughput"].avg;
        const double t8 = all.results.cells[1].metrics["output_token_throughput"].avg;
        const double t64 = all.results.cells[2].metrics["output_token_throughput"].avg;
        QVERIFY(t8 > t1 && t64 > t8);
    }

    void exactConcurrency256()
    {
        QString error;
        MockConfig cfg = timedMock(Flavor::Vllm);
        cfg.stepBaseMs = 20;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {256}, 512), out.path());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(mock->stats().maxInFlight, 256);
        QCOMPARE(r.results.cells[0].completed, 512);
        QCOMPARE(r.results.cells[0].maxInFlight, 256);
        QVERIFY(r.results.cells[0].meanInFlight > 200);
        QVERIFY2(r.results.cells[0].steadyMeanInFlight > 0.95 * 256, qPrintable(QString::number(r.results.cells[0].steadyMeanInFlight)));
    }

    void resultsAndRecordsOnDisk()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY(mock);
        ServerSpec server = serverFor("a/b server", *mock, Flavor::Vllm);
        server.apiKey = QStringLiteral("sk-secret-value-123");
        SweepSpec spec = smallSpec({server}, {2, 4}, 10);
        spec.workload.slo.ttftMs = 1000;
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.exitCode, 0);
        SweepResults disk;
        QVERIFY(ResultsStore::readResults(out.path(), &disk, &error));
        QCOMPARE(disk.schema, QStringLiteral("sweepbench-results/1"));
        QCOMPARE(disk.cells.size(), 2);
        const CellResult &cell = disk.cells[1];
        QCOMPARE(cell.recordsPath, QStringLiteral("cells/001-a_b_server-c4/records.jsonl"));
        QCOMPARE(cell.origin, QStringLiteral("http://127.0.0.1:%1").arg(mock->port()));
        for (const char *m : {"time_to_first_token", "inter_token_latency", "request_latency", "inter_chunk_latency",
                              "output_sequence_length", "input_sequence_length", "output_token_throughput",
                              "request_throughput", "goodput", "good_request_fraction"})
            QVERIFY2(cell.metrics.contains(QLatin1String(m)), m);
        QCOMPARE(cell.metrics["time_to_first_token"].unit, QStringLiteral("ms"));
        QCOMPARE(cell.metrics["good_request_fraction"].avg, 1.0);
        QFile records(out.filePath(cell.recordsPath));
        QVERIFY(records.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = records.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 10);
        const QJsonObject line = QJsonDocument::fromJson(lines.first()).object();
        for (const char *k : {"i", "request_id", "send_ns", "first_token_ns", "end_ns", "ttft_ms", "latency_ms", "status", "ok",
                              "input_tokens", "output_tokens", "cached_tokens", "token_source", "resent", "inter_chunk_us"})
            QVERIFY2(line.contains(QLatin1String(k)), k);
        QCOMPARE(line.value("status").toInt(), 200);
        QCOMPARE(line.value("output_tokens").toInt(), 8);
        QCOMPARE(line.value("inter_chunk_us").toArray().size(), 7);
        // The resolved spec is kept, without the key.
        const QByteArray yaml = sbtest::readFile(out.filePath("sweep.yaml"));
        QVERIFY(yaml.contains("a/b server"));
        QVERIFY(!yaml.contains("sk-secret-value-123"));
        QVERIFY(!sbtest::readFile(out.filePath("results.json")).contains("sk-secret-value-123"));
    }

    void failedRequestsCountedByKind()
    {
        QString error;
        MockConfig cfg = timedMock(Flavor::Vllm);
        cfg.errorRate = 0.5;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({serverFor("flaky", *mock, Flavor::Vllm)}, {4}, 40), out.path());
        const CellResult &cell = r.results.cells[0];
        QCOMPARE(cell.completed + cell.failed, 40);
        QVERIFY(cell.failed > 5);
        QCOMPARE(cell.errors.value("http_500"), cell.failed);
        QVERIFY(!cell.errorSamples.value("http_500").isEmpty());
        // The cell ran, but with this many failures its figures are not to be trusted as is.
        QCOMPARE(cell.status, sb::CellStatus::Degraded);
        QVERIFY2(cell.reason.contains(QStringLiteral("http_500")), qPrintable(cell.reason));
    }

    void resumeSkipsFinishedCells()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY(mock);
        const SweepSpec spec = smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {1, 2}, 6);
        QTemporaryDir out;
        RunResult first = runSweep(spec, out.path());
        QCOMPARE(first.exitCode, 0);
        // Pretend the second cell did not finish.
        SweepResults disk;
        QVERIFY(ResultsStore::readResults(out.path(), &disk, &error));
        disk.cells[1].status = sb::CellStatus::Cancelled;
        QVERIFY(ResultsStore(out.path()).writeResults(disk, &error));
        mock->resetStats();
        RunResult second = runSweep(spec, out.path(), true);
        QCOMPARE(second.exitCode, 0);
        QCOMPARE(mock->stats().requests, 6); // only the second cell ran again
        QCOMPARE(second.results.cells[0].startedAt, first.results.cells[0].startedAt);
        QCOMPARE(second.results.cells[1].status, sb::CellStatus::Completed);
    }

    void killedRunKeepsFinishedCells()
    {
        const QString binary = qEnvironmentVariable("SWEEPBENCH_BINARY");
        if (binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QString error;
        MockConfig cfg = timedMock(Flavor::Vllm);
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        QTemporaryDir dir;
        const QString specPath = dir.filePath("spec.yaml");
        QFile f(specPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("servers:\n  - name: vllm\n    url: %1\n    model: m\n    flavor: vllm\n"
                               "    server_profiler: true\n"
                               "workload:\n  input_tokens: 32\n  output_tokens: 8\n  requests_per_cell: 20\n"
                               "sweep:\n  concurrency: [1, 2, 3, 4, 5, 6, 7, 8]\n")
                    .arg(mock->url().toString()).toUtf8());
        f.close();
        const QString outDir = dir.filePath("out");
        QProcess proc;
        proc.start(binary, {"run", specPath, "--out", outDir});
        QVERIFY(proc.waitForStarted());
        // Wait for two finished cells, then kill -9: no chance to clean up.
        QTRY_VERIFY_WITH_TIMEOUT(sbtest::readFile(outDir + "/results.json").count("\"status\": \"completed\"") >= 2, 60000);
        proc.kill();
        proc.waitForFinished();
        SweepResults disk;
        QVERIFY2(ResultsStore::readResults(outDir, &disk, &error), qPrintable(error));
        int completed = 0;
        for (const auto &c : disk.cells) {
            if (c.status != sb::CellStatus::Completed)
                continue;
            ++completed;
            QCOMPARE(c.completed, 20);
            QCOMPARE(sbtest::readFile(outDir + "/" + c.recordsPath).count('\n'), 20);
        }
        QVERIFY(completed >= 2);
    }

    void sigintCancelsAndStopsTheProfiler()
    {
        const QString binary = qEnvironmentVariable("SWEEPBENCH_BINARY");
        if (binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QString error;
        MockConfig cfg = timedMock(Flavor::Vllm);
        QTemporaryDir dir;
        cfg.traceDir = dir.filePath("traces");
        auto mock = MockServer::start(cfg, &error);
        QVERIFY(mock);
        const QString specPath = dir.filePath("spec.yaml");
        QFile f(specPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("servers:\n  - name: vllm\n    url: %1\n    model: m\n    flavor: vllm\n"
                               "    server_profiler: {trace_dir: %2}\n"
                               "workload:\n  input_tokens: 32\n  output_tokens: 200\n  requests_per_cell: 100000\n"
                               "sweep:\n  concurrency: [4, 8]\n")
                    .arg(mock->url().toString(), cfg.traceDir).toUtf8());
        f.close();
        const QString outDir = dir.filePath("out");
        QProcess proc;
        proc.start(binary, {"run", specPath, "--out", outDir});
        QVERIFY(proc.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(mock->stats().inFlight == 4, 20000);
        ::kill(pid_t(proc.processId()), SIGINT);
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(proc.exitCode(), 1);
        SweepResults disk;
        QVERIFY(ResultsStore::readResults(outDir, &disk, &error));
        QCOMPARE(disk.cells[0].status, sb::CellStatus::Cancelled);
        QCOMPARE(disk.cells[1].status, sb::CellStatus::Cancelled);
        // The profiler window was closed although the run was cancelled.
        QStringList calls;
        for (const auto &e : mock->controlEvents())
            calls << QString::fromLatin1(e.target);
        QCOMPARE(calls, (QStringList{"/start_profile", "/stop_profile"}));
        QCOMPARE(disk.cells[0].hooks.size(), 2);
        QCOMPARE(disk.cells[0].hooks[1].hook, HookKind::ProfilerStop);
        QVERIFY(disk.cells[0].hooks[1].ok);
        QCOMPARE(mock->stats().inFlight, 0);
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
