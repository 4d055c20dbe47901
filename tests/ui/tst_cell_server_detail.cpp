// The Results tab's cell detail shows what the cell's server was (server_info) and, for a cell
// that failed while SweepBench ran the server, the last lines that server process wrote: a real
// sweep on the embedded mock launched as a separate process (`sweepbench mock-server`), killed
// with SIGKILL inside the first cell's measured phase, then the result set shown in the real
// ResultsView. The server's output holds markup, which must be shown as text.
#include "../core/EngineFixture.h"
#include "../core/LaunchedMock.h"
#include "ScreenshotSupport.h"
#include "TestSupport.h"
#include "launch/LaunchLogExcerpt.h"
#include "results/CellDetail.h"
#include "results/ResultsStore.h"
#include "results/ResultsView.h"
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <sys/prctl.h>
#include <sys/stat.h>

using namespace sb;
using namespace sb::ui;

class TstCellServerDetail : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (sbtest::sweepbenchBinary().isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        prctl(PR_SET_CHILD_SUBREAPER, 1); // the killed server's orphans come here to be reaped
    }
    void init() { sbtest::failOnQtWarnings(); }

    void aFailedCellShowsItsServersLastLines()
    {
        QTemporaryDir dir;
        // 100 lines of noise, then a line naming the process (bash's $$ is the pid exec keeps) with
        // markup in it, then the mock itself; a request takes about a second (--step-base-ms 100).
        sb::ServerSpec s = sbtest::launchedMock(QStringLiteral("m"));
        s.launch.command = {QStringLiteral("bash"), QStringLiteral("-c"),
                            QStringLiteral("for i in $(seq 1 100); do echo \"noise $i\"; done; "
                                           "echo \"boot $$ <b>bold</b><img src='x'><a href='file:///etc/passwd'>link</a>\"; "
                                           "exec \"$0\" mock-server --flavor vllm --port \"$1\" --step-base-ms 100"),
                            sbtest::sweepbenchBinary(), QStringLiteral("{port}")};
        const SweepSpec spec = sbtest::smallSpec({s}, {1, 2}, 4);
        sbtest::ServerKiller killer(dir.filePath(QStringLiteral("servers/m.log")), 1);
        const sbtest::RunResult r = sbtest::runSweep(spec, dir.path());
        killer.stop();
        QCOMPARE(killer.killed().size(), 1);
        const pid_t killed = killer.killed().first();

        SweepResults results;
        QString error;
        QVERIFY2(ResultsStore::readResults(dir.path(), &results, &error), qPrintable(error));
        QCOMPARE(results.cells.size(), 2);
        const CellResult &failed = results.cells[0];
        QCOMPARE(failed.status, CellStatus::Failed);
        QVERIFY2(failed.reason.startsWith(QStringLiteral("server process exited (signal 9)")), qPrintable(failed.reason));
        QCOMPARE(failed.serverInfo.pid, qint64(killed));
        QCOMPARE(results.cells[1].status, CellStatus::Completed); // on a restarted process
        const qint64 restarted = results.cells[1].serverInfo.pid;
        QVERIFY(restarted > 0 && restarted != killed);

        ResultsView view;
        view.resize(1200, 800);
        view.show();
        view.setResults(results, dir.path());
        view.selectCell(failed.index);
        auto *detail = view.findChild<QTextBrowser *>(QStringLiteral("cellDetail"));
        QVERIFY(detail);
        const QString text = detail->toPlainText();
        // What the server was: the mock's version, its model, how it was launched, its process.
        QVERIFY2(text.contains(QStringLiteral("version: 0.0.0+sweepbench-mock")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("model: demo-model")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("launched as: bash -c")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("process: pid %1").arg(killed)), qPrintable(text));
        // The last lines of the killed process, its markup as text, bounded, nothing of the next process.
        QVERIFY2(text.contains(QStringLiteral("Server log")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("lines process %1 wrote").arg(killed)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("boot %1 <b>bold</b><img src='x'><a href='file:///etc/passwd'>link</a>").arg(killed)), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("noise 100")));
        QVERIFY2(!text.contains(QStringLiteral("noise 2\n")), "more than the last 40 lines were shown");
        QVERIFY2(!text.contains(QStringLiteral("boot %1").arg(restarted)), "the restarted process's lines were shown for the failed cell");
        const QString html = detail->toHtml();
        QVERIFY(!html.contains(QStringLiteral("<img")));
        QVERIFY(!html.contains(QStringLiteral("file:///etc/passwd\"")));
        QVERIFY2(!html.contains(QStringLiteral("font-weight:700;\">bold")), "the server's <b> was obeyed");
        sbtest::saveScreenshot(&view, QStringLiteral("cell-detail-failed-launched-server.png"));

        // The completed cell on the restarted process: its server, no log excerpt.
        view.selectCell(results.cells[1].index);
        const QString ok = detail->toPlainText();
        QVERIFY2(ok.contains(QStringLiteral("process: pid %1").arg(restarted)), qPrintable(ok));
        QVERIFY(!ok.contains(QStringLiteral("Server log")));
        QVERIFY(sbtest::groupGone(pid_t(restarted), 5000));
    }

    // The excerpt reads a bounded part of a log however it was written: a line longer than the
    // byte bound, a log without the pid's start, a FIFO in the log's place.
    void theExcerptIsBounded()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[sweepbench 2026-01-01T00:00:00Z] started pid 41: x\nearly\n");
        f.write("[sweepbench 2026-01-01T00:00:01Z] started pid 42: x\n");
        f.write(QByteArray(100 * 1024, 'y') + '\n');
        f.write("last of 42\n[sweepbench 2026-01-01T00:00:09Z] started pid 43: x\nof 43\n");
        f.close();
        LaunchLogExcerpt e = readLaunchLogExcerpt(path, 42);
        QVERIFY(e.foundProcess);
        QVERIFY(e.cut);
        QVERIFY2(e.text.endsWith(QStringLiteral("last of 42")), qPrintable(e.text.right(100)));
        QVERIFY(e.text.size() <= kLaunchExcerptBytes);
        QVERIFY(!e.text.contains(QStringLiteral("of 43")));
        e = readLaunchLogExcerpt(path, 41);
        QCOMPARE(e.text, QStringLiteral("[sweepbench 2026-01-01T00:00:00Z] started pid 41: x\nearly"));
        QVERIFY(!e.cut);
        e = readLaunchLogExcerpt(path, 4); // "started pid 4" is a prefix of 41, 42 and 43: not its start
        QVERIFY(!e.foundProcess);
        QVERIFY(e.text.endsWith(QStringLiteral("of 43")));
        const QString fifo = dir.filePath(QStringLiteral("fifo.log"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        e = readLaunchLogExcerpt(fifo, 42); // refused at once, never blocks
        QVERIFY(!e.error.isEmpty());
        QVERIFY(e.text.isEmpty());
    }
};

QTEST_MAIN(TstCellServerDetail)
#include "tst_cell_server_detail.moc"
