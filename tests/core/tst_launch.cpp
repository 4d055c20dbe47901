// Servers SweepBench starts itself (`launch:`, core/launch): the embedded mock run as a separate
// process (`sweepbench mock-server`) is started before its first cell, waited for, restarted on
// `reset_kv_cache: restart` and after one death, given up after a second, and never outlives the
// sweep — also when sweepbench itself is killed.
#include "EngineFixture.h"
#include "LaunchedMock.h"
#include "launch/LaunchLog.h"
#include "launch/LaunchedServers.h"
#include "metrics/MetricCatalogue.h"
#include "report/SetComparison.h"
#include "results/ResultsStore.h"
#include "spec/SpecIO.h"
#include "TestSupport.h"
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>
#include <csignal>
#include <sys/prctl.h>
#include <sys/wait.h>

using namespace sb;

using sbtest::groupGone;
using sbtest::launchedMock;
using sbtest::readLog;
using sbtest::startedPids;
using sbtest::waitForLog;
using sbtest::writeSpec;

namespace {
QString binary() { return sbtest::sweepbenchBinary(); }
} // namespace

class TstLaunch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (binary().isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        // Orphans of a killed sweepbench come to this process, which reaps them (groupGone).
        prctl(PR_SET_CHILD_SUBREAPER, 1);
    }

    void logKeepsHeadAndTail()
    {
        QTemporaryDir dir;
        LaunchLog log(dir.filePath(QStringLiteral("servers/x.log")), 1000);
        QString error;
        QVERIFY2(log.open(&error), qPrintable(error));
        for (int i = 0; i < 20000; ++i)
            log.append(QByteArray::number(i).rightJustified(9, '0') + '\n'); // 200 kB in small writes
        QCOMPARE(log.lastLines(2), QStringLiteral("000019998 | 000019999"));
        QVERIFY(log.finish());
        const QByteArray text = readLog(log.path());
        QVERIFY(text.startsWith("000000000\n000000001\n"));
        QVERIFY(text.endsWith("000019999\n"));
        QVERIFY2(text.contains("[sweepbench: 198000 bytes of output dropped here"), text.constData());
        QVERIFY(text.size() < 2000 + 200);
        QCOMPARE(log.droppedBytes(), 198000);
    }

    void launchSweepStop()
    {
        QTemporaryDir dir;
        const SweepSpec spec = sbtest::smallSpec({launchedMock(QStringLiteral("m"))}, {1, 2}, 4);
        const sbtest::RunResult r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        for (const CellResult &c : r.results.cells)
            QCOMPARE(cellStatusName(c.status), QStringLiteral("completed"));
        const QByteArray log = readLog(dir.filePath(QStringLiteral("servers/m.log")));
        const QList<pid_t> pids = startedPids(log);
        QCOMPARE(pids.size(), 1); // one start for both cells
        QVERIFY2(log.contains("ready after"), log.constData());
        QVERIFY2(log.contains("stopped (exit code 0)"), log.constData()); // SIGTERM, a clean exit
        QVERIFY(::kill(-pids.first(), 0) != 0 && errno == ESRCH);
        QVERIFY(r.results.cells.first().origin.startsWith(QStringLiteral("http://127.0.0.1:")));
    }

    // launch.variants: each variant is its own series over the same points, launched with its
    // args on the same fixed port, the previous variant stopped first; every cell records what
    // its server was (server_info), secrets scrubbed, the GPUs a fake nvidia-smi lists.
    void variantsAreSeriesWithARestartBetween()
    {
        QTemporaryDir dir, bin;
        QFile smi(bin.filePath(QStringLiteral("nvidia-smi")));
        QVERIFY(smi.open(QIODevice::WriteOnly));
        smi.write("#!/bin/sh\necho 'NVIDIA L4, 23034 MiB, 550.54.15'\n");
        smi.close();
        QVERIFY(smi.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QByteArray oldPath = qgetenv("PATH");
        qputenv("PATH", bin.path().toLocal8Bit() + ':' + oldPath);

        ServerSpec s = launchedMock(QStringLiteral("m"));
        s.launch.port = pickFreeLoopbackPort(); // both variants on one port: the first must be gone
        s.launch.env = {{QStringLiteral("HF_TOKEN"), QStringLiteral("hf_launchsecret42")}};
        s.launch.matrix = {{QStringLiteral("--max-batch"), {QStringLiteral("4"), QStringLiteral("16")}}};
        const SweepSpec spec = sbtest::smallSpec({s}, {1, 2}, 3);
        const sbtest::RunResult r = sbtest::runSweep(spec, dir.path());
        qputenv("PATH", oldPath);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.results.cells.size(), 4);
        const QStringList series{QStringLiteral("m[max-batch=4]"), QStringLiteral("m[max-batch=16]")};
        QCOMPARE(r.results.serverNames(), series);

        SweepResults back;
        QString error;
        QVERIFY2(ResultsStore::readResults(dir.path(), &back, &error), qPrintable(error));
        QList<pid_t> pids;
        for (int v = 0; v < 2; ++v) {
            const QString log = dir.filePath(QStringLiteral("servers/%1.log").arg(series[v]));
            const QList<pid_t> started = startedPids(readLog(log));
            QCOMPARE(started.size(), 1); // one start per variant, both cells on it
            pids << started.first();
            for (int k = 0; k < 2; ++k) {
                const CellResult &c = back.cells[v * 2 + k];
                QCOMPARE(c.server, series[v]);
                QCOMPARE(cellStatusName(c.status), QStringLiteral("completed"));
                const ServerInfo &info = c.serverInfo;
                QCOMPARE(info.baseServer, QStringLiteral("m"));
                QCOMPARE(info.variant, series[v].mid(2, series[v].size() - 3));
                QCOMPARE(info.pid, qint64(started.first()));
                QVERIFY(info.processStartedAt.isValid());
                // What the server says about itself follows the variant's args.
                QCOMPARE(info.args.value(QStringLiteral("max_num_seqs")), v == 0 ? QStringLiteral("4") : QStringLiteral("16"));
                QVERIFY2(info.version.startsWith(QStringLiteral("0.0.0+sweepbench-mock")), qPrintable(info.version));
                QCOMPARE(info.command.mid(info.command.size() - 2), (QStringList{QStringLiteral("--max-batch"), v == 0 ? QStringLiteral("4") : QStringLiteral("16")}));
                QVERIFY(info.command.contains(QString::number(s.launch.port))); // {port} filled in
                QCOMPARE(info.env.value(0).second, QStringLiteral("[redacted]"));
                QCOMPARE(info.gpus.size(), 1);
                QCOMPARE(info.gpus.first().name, QStringLiteral("NVIDIA L4"));
            }
            // The first variant was stopped before the second started (same port).
            QVERIFY2(readLog(log).contains("stopped"), readLog(log).constData());
        }
        QVERIFY(pids[0] != pids[1]);
        QVERIFY(back.cells[2].serverInfo.processStartedAt >= back.cells[1].finishedAt);
        QVERIFY(::kill(-pids[0], 0) != 0 && ::kill(-pids[1], 0) != 0);
        QFile results(dir.filePath(QStringLiteral("results.json")));
        QVERIFY(results.open(QIODevice::ReadOnly));
        QVERIFY(!results.readAll().contains("hf_launchsecret42"));
        // The difference table of one set compares its variants, point by point.
        const QList<DifferenceRow> rows = compareSets({{QString(), back}}, tag::outputThroughput, Stat::Avg);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.first().serverA, series[0]);
        QCOMPARE(rows.first().serverB, series[1]);
        // sweep.yaml keeps the spec as given: one server with its matrix.
        const SpecLoadResult written = loadSpecFile(dir.filePath(QStringLiteral("sweep.yaml")));
        QVERIFY(written.ok());
        QCOMPARE(written.spec->servers.size(), 1);
        QCOMPARE(written.spec->servers.first().launch.matrix, s.launch.matrix);
    }

    void exitBeforeReady()
    {
        QTemporaryDir dir;
        ServerSpec s = launchedMock(QStringLiteral("m"));
        s.launch.command = {QStringLiteral("bash"), QStringLiteral("-c"), QStringLiteral("echo loading weights; echo CUDA out of memory >&2; exit 3")};
        const SweepSpec spec = sbtest::smallSpec({s}, {1, 2}, 4);
        QElapsedTimer t;
        t.start();
        const sbtest::RunResult r = sbtest::runSweep(spec, dir.path());
        QVERIFY(t.elapsed() < 20000); // not the ready timeout
        QCOMPARE(r.results.cells.size(), 2);
        for (const CellResult &c : r.results.cells) {
            QCOMPARE(cellStatusName(c.status), QStringLiteral("failed"));
            QVERIFY2(c.reason.contains(QStringLiteral("exited (exit code 3) before it was ready")), qPrintable(c.reason));
            QVERIFY2(c.reason.contains(QStringLiteral("CUDA out of memory")), qPrintable(c.reason));
        }
        QCOMPARE(startedPids(readLog(dir.filePath(QStringLiteral("servers/m.log")))).size(), 1); // given up, not retried per cell
    }

    void programNotFound()
    {
        QTemporaryDir dir;
        ServerSpec s = launchedMock(QStringLiteral("m"));
        s.launch.command = {QStringLiteral("sweepbench-no-such-server"), QStringLiteral("--port"), QStringLiteral("{port}")};
        const sbtest::RunResult r = sbtest::runSweep(sbtest::smallSpec({s}, {1, 2}, 4), dir.path());
        for (const CellResult &c : r.results.cells)
            QVERIFY2(c.reason == QStringLiteral("cannot start sweepbench-no-such-server: not found in PATH"), qPrintable(c.reason));
    }

    void readyTimeout()
    {
        QTemporaryDir dir;
        ServerSpec s = launchedMock(QStringLiteral("m"));
        s.launch.command = {QStringLiteral("sleep"), QStringLiteral("100")};
        s.launch.readyTimeoutS = 1;
        const SweepSpec spec = sbtest::smallSpec({s}, {1}, 4);
        const sbtest::RunResult r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(cellStatusName(r.results.cells.first().status), QStringLiteral("failed"));
        QVERIFY2(r.results.cells.first().reason.contains(QStringLiteral("server not ready after 1 s")), qPrintable(r.results.cells.first().reason));
        const QList<pid_t> pids = startedPids(readLog(dir.filePath(QStringLiteral("servers/m.log"))));
        QCOMPARE(pids.size(), 1);
        QVERIFY(groupGone(pids.first(), 5000));
    }

    void stopEscalatesToSigkill()
    {
        // A server (and its child) that ignore the stop signal: SIGKILL to the group after the grace.
        QTemporaryDir dir;
        ServerSpec s = launchedMock(QStringLiteral("m"));
        s.launch.command = {QStringLiteral("bash"), QStringLiteral("-c"), QStringLiteral("trap '' TERM; sleep 100 & wait")};
        s.launch.readyTimeoutS = 1;
        s.launch.graceS = 1;
        sbtest::runSweep(sbtest::smallSpec({s}, {1}, 4), dir.path());
        const QByteArray log = readLog(dir.filePath(QStringLiteral("servers/m.log")));
        QVERIFY2(log.contains("still running after 1 s: SIGKILL"), log.constData());
        QVERIFY(groupGone(startedPids(log).first(), 5000));
    }

    void logIsBounded()
    {
        QTemporaryDir dir;
        ServerSpec s = launchedMock(QStringLiteral("m"));
        s.launch.command = {QStringLiteral("bash"), QStringLiteral("-c"), QStringLiteral("yes | head -c 50000000; sleep 100")};
        s.launch.readyTimeoutS = 4;
        s.launch.logKeepMib = 0.01; // ~10 KiB of the start and ~10 KiB of the end
        const SweepSpec spec = sbtest::smallSpec({s}, {1}, 4);
        sbtest::runSweep(spec, dir.path());
        const QByteArray log = readLog(dir.filePath(QStringLiteral("servers/m.log")));
        QVERIFY2(log.size() < 3 * 10486 + 4096, QByteArray::number(log.size()).constData());
        QVERIFY2(log.contains("bytes of output dropped here"), log.right(2000).constData());
        QVERIFY(log.contains("y\ny\n"));
        QVERIFY(groupGone(startedPids(log).first(), 5000)); // bash and its sleep: the whole group
    }

    void restartBeforeEachCell_data()
    {
        QTest::addColumn<bool>("calibrate");
        QTest::addColumn<int>("starts");
        // Nothing reached the server started for the first cell: its restart is that start.
        QTest::newRow("no calibration") << false << 3;
        // The calibration's probes reached it: the first cell's restart is a real one.
        QTest::newRow("calibrated prompts") << true << 4;
    }
    void restartBeforeEachCell()
    {
        QFETCH(bool, calibrate);
        QFETCH(int, starts);
        QTemporaryDir dir;
        ServerSpec s = launchedMock(QStringLiteral("m"));
        s.reset.enabled = s.reset.restart = true;
        SweepSpec spec = sbtest::smallSpec({s}, {1, 2, 3}, 3);
        spec.workload.calibratePrompts = calibrate;
        const sbtest::RunResult r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        for (const CellResult &c : r.results.cells) {
            QCOMPARE(c.hooks.size(), 1);
            QCOMPARE(hookKindName(c.hooks.first().hook), QStringLiteral("restart"));
            QVERIFY(c.hooks.first().ok);
            QVERIFY(c.hooks.first().latencyMs > 0);
        }
        // Each cell measures a new process.
        const QList<pid_t> pids = startedPids(readLog(dir.filePath(QStringLiteral("servers/m.log"))));
        QCOMPARE(pids.size(), starts);
        const QList<pid_t> measured = pids.mid(starts - 3);
        QVERIFY(measured[0] != measured[1] && measured[1] != measured[2]);
        QVERIFY2(r.results.cells[1].hooks.first().message.contains(QStringLiteral("pid %1 → pid %2").arg(measured[0]).arg(measured[1])),
                 qPrintable(r.results.cells[1].hooks.first().message));
        QCOMPARE(r.results.cells[0].hooks.first().message.startsWith(QStringLiteral("restarted: pid")), calibrate);
        // The JSON edge names it, and it reads back.
        SweepResults back;
        QString error;
        QVERIFY2(ResultsStore::readResults(dir.path(), &back, &error), qPrintable(error));
        QCOMPARE(back.cells[2].hooks.first().hook, HookKind::Restart);
    }

    void diesMidCell_data()
    {
        QTest::addColumn<int>("kills");
        QTest::addColumn<QStringList>("statuses");
        QTest::newRow("once: restarted for the next cell") << 1 << QStringList{"failed", "completed", "completed"};
        QTest::newRow("twice: its cells end") << 2 << QStringList{"failed", "failed", "failed"};
    }
    void diesMidCell()
    {
        QFETCH(int, kills);
        QFETCH(QStringList, statuses);
        QTemporaryDir dir;
        // Slow enough (a request takes about a second) to be killed in its measured phase.
        const SweepSpec spec = sbtest::smallSpec({launchedMock(QStringLiteral("m"), {QStringLiteral("--step-base-ms"), QStringLiteral("100")})},
                                                 {1, 2, 3}, 4);
        sbtest::ServerKiller killer(dir.filePath(QStringLiteral("servers/m.log")), kills);
        const sbtest::RunResult r = sbtest::runSweep(spec, dir.path());
        killer.stop();
        const QList<pid_t> killed = killer.killed();
        const QString logPath = dir.filePath(QStringLiteral("servers/m.log"));
        QCOMPARE(killed.size(), kills);
        QStringList got;
        for (const CellResult &c : r.results.cells)
            got << cellStatusName(c.status);
        QCOMPARE(got, statuses);
        const QString first = r.results.cells[0].reason;
        QVERIFY2(first.startsWith(QStringLiteral("server process exited (signal 9) during the measured phase; last log lines: ")), qPrintable(first));
        const QList<pid_t> pids = startedPids(readLog(logPath));
        QCOMPARE(pids.size(), 2); // restarted once, never a third time
        if (kills == 2) {
            QVERIFY2(r.results.cells[1].reason.startsWith(QStringLiteral("server process exited (signal 9)")), qPrintable(r.results.cells[1].reason));
            QVERIFY2(r.results.cells[2].reason.contains(QStringLiteral("not restarted again")), qPrintable(r.results.cells[2].reason));
        }
        for (pid_t p : pids)
            QVERIFY(groupGone(p, 5000));
    }

    void hooksCheckTriesOneRestart()
    {
        QTemporaryDir dir;
        ServerSpec s = launchedMock(QStringLiteral("m"));
        s.reset.enabled = s.reset.restart = true;
        const SweepSpec spec = sbtest::smallSpec({s}, {1}, 4);
        const QString specPath = writeSpec(dir, spec);
        QVERIFY(!specPath.isEmpty());
        QProcess check;
        check.setProcessChannelMode(QProcess::MergedChannels);
        check.start(binary(), {QStringLiteral("hooks"), QStringLiteral("check"), specPath});
        QVERIFY(check.waitForFinished(60000));
        const QString output = QString::fromUtf8(check.readAll());
        QCOMPARE(check.exitCode(), 0);
        static const QRegularExpression row(QStringLiteral("restart .*✓ ok .*restarted: pid (\\d+) → pid (\\d+)"));
        const QRegularExpressionMatch m = row.match(output);
        QVERIFY2(m.hasMatch(), qPrintable(output));
        QVERIFY(m.captured(1) != m.captured(2));
        for (const QString &pid : {m.captured(1), m.captured(2)})
            QVERIFY(groupGone(pid_t(pid.toInt()), 5000));
    }

    // Each variant is launched with its own arguments, checked as its own server and stopped
    // before the next starts: the check sees what the sweep will run.
    void hooksCheckLaunchesEachVariant()
    {
        QTemporaryDir dir;
        ServerSpec s = launchedMock(QStringLiteral("m"));
        s.launch.port = pickFreeLoopbackPort(); // one port for both: the first must be stopped first
        s.reset.enabled = s.reset.restart = true;
        s.launch.variants = {{QStringLiteral("b4"), {QStringLiteral("--max-batch"), QStringLiteral("4")}, {}},
                             {QStringLiteral("b16"), {QStringLiteral("--max-batch"), QStringLiteral("16")}, {}}};
        const QString specPath = writeSpec(dir, sbtest::smallSpec({s}, {1}, 4));
        QVERIFY(!specPath.isEmpty());
        QProcess check;
        check.setProcessChannelMode(QProcess::MergedChannels);
        check.start(binary(), {QStringLiteral("hooks"), QStringLiteral("check"), specPath});
        QVERIFY(check.waitForFinished(90000));
        const QString output = QString::fromUtf8(check.readAll());
        QCOMPARE(check.exitCode(), 0);
        QList<pid_t> pids;
        for (const QString &v : {QStringLiteral("4"), QStringLiteral("16")}) {
            const QString series = QStringLiteral("m[b%1]").arg(v);
            // How it was started: the variant's args after the command, {port} filled in.
            const QRegularExpression launched(QStringLiteral("hint: launched: pid (\\d+): .* mock-server --flavor vllm --port %1 --max-batch %2\\n")
                                                  .arg(s.launch.port).arg(v));
            const QRegularExpressionMatch m = launched.match(output);
            QVERIFY2(m.hasMatch(), qPrintable(output));
            pids << pid_t(m.captured(1).toInt());
            // Its checks and its restart are reported under the variant's series name.
            QVERIFY2(output.contains(QRegularExpression(QStringLiteral("^%1 +http://127\\.0\\.0\\.1:%2 +reachability .*✓")
                                                            .arg(QRegularExpression::escape(series)).arg(s.launch.port),
                                                        QRegularExpression::MultilineOption)),
                     qPrintable(output));
            QVERIFY2(output.contains(QRegularExpression(QStringLiteral("^%1 .*restart .*✓ ok").arg(QRegularExpression::escape(series)),
                                                        QRegularExpression::MultilineOption)),
                     qPrintable(output));
        }
        QVERIFY(output.indexOf(QStringLiteral("m[b4]")) < output.indexOf(QStringLiteral("m[b16]")));
        QVERIFY(pids[0] != pids[1]);
        for (pid_t p : pids)
            QVERIFY(groupGone(p, 5000));
    }

    // The CLI run as a child: kill -9 or SIGTERM it while its launched server is up.
    void sweepbenchKilled_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGKILL: PR_SET_PDEATHSIG") << int(SIGKILL);
        QTest::newRow("SIGTERM: stopped gracefully") << int(SIGTERM);
        QTest::newRow("SIGINT: stopped gracefully") << int(SIGINT);
    }
    void sweepbenchKilled()
    {
        QFETCH(int, signal);
        QTemporaryDir dir;
        SweepSpec spec = sbtest::smallSpec({launchedMock(QStringLiteral("m"), {QStringLiteral("--step-base-ms"), QStringLiteral("100")})},
                                           {1}, 200);
        const QString specPath = writeSpec(dir, spec);
        QVERIFY(!specPath.isEmpty());
        QProcess run;
        run.setProcessChannelMode(QProcess::MergedChannels);
        run.start(binary(), {QStringLiteral("run"), specPath, QStringLiteral("--out"), dir.filePath(QStringLiteral("out"))});
        QVERIFY(run.waitForStarted());
        const QString logPath = dir.filePath(QStringLiteral("out/servers/m.log"));
        QVERIFY2(waitForLog(logPath, "ready after", 30000), run.readAll().constData());
        const pid_t server = startedPids(readLog(logPath)).first();
        QTest::qWait(300);
        ::kill(pid_t(run.processId()), signal);
        QVERIFY(run.waitForFinished(30000));
        QVERIFY2(groupGone(server, 5000), "the launched server outlived sweepbench");
        if (signal != SIGKILL) {
            const QByteArray log = readLog(logPath);
            QVERIFY2(log.contains("stopped (exit code 0)"), log.right(1000).constData());
            QVERIFY(!log.contains("SIGKILL"));
        }
    }
};

QTEST_GUILESS_MAIN(TstLaunch)
#include "tst_launch.moc"
