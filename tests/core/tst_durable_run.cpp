// The engine on a disk that fills mid-sweep: no finished cell is lost, the run stops at once
// with exit code 3 and names the file and the OS reason (README "Reliability").
#include "DiskFull.h"
#include "EngineFixture.h"
#include "TestSupport.h"
#include "results/ResultsStore.h"
#include <QDirIterator>
#include <QTemporaryDir>
#include <cerrno>
#include <functional>

using namespace sb;
using namespace sbtest;

namespace {
// Every file under dir whose name marks an unfinished write.
QStringList leftovers(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        if (f.endsWith(QLatin1String(".part")) || f.endsWith(QLatin1String(".tmp")))
            out.append(f);
    }
    return out;
}
} // namespace

class TestDurableRun : public QObject
{
    Q_OBJECT

    struct Stopped {
        int exitCode = -1;
        QString failure;
        int cellsFinished = 0;
    };

    // Runs the sweep; `onCellFinished` / `onPhase` run on the engine thread (direct connection),
    // so a limit they set is in force before the engine takes its next step.
    Stopped run(const SweepSpec &spec, const QString &out, const std::function<void(const CellResult &)> &onCellFinished,
                const std::function<void(const QString &)> &onPhase = {})
    {
        Stopped s;
        SweepEngine engine(spec, RunOptions{out});
        QSignalSpy finished(&engine, &SweepEngine::finished);
        QObject::connect(&engine, &SweepEngine::cellFinished, &engine, [&](const CellResult &c) {
            ++s.cellsFinished;
            if (onCellFinished)
                onCellFinished(c);
        }, Qt::DirectConnection);
        if (onPhase)
            QObject::connect(&engine, &SweepEngine::progress, &engine, [&](const ProgressSnapshot &p) { onPhase(runPhaseName(p.phase)); }, Qt::DirectConnection);
        engine.start();
        if (!sbtest::waitForSignal(finished, 180000)) {
            engine.cancel();
            sbtest::waitForSignal(finished, 30000);
        }
        s.exitCode = finished.isEmpty() ? -1 : finished.first().first().toInt();
        s.failure = engine.failureMessage();
        return s;
    }

private Q_SLOTS:
    void init() { failOnQtWarnings(); }

    void diskFillingMidSweepKeepsFinishedCells()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        const SweepSpec spec = smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {1, 2, 3, 4}, 4);
        QTemporaryDir out;
        std::unique_ptr<FileSizeLimit> limit;
        QByteArray afterFirstCell;
        const Stopped s = run(spec, out.path(), [&](const CellResult &c) {
            if (c.index != 0)
                return;
            // From here on no file may grow past the results.json just written: the next one
            // (one more finished cell) cannot be saved.
            afterFirstCell = readFile(out.filePath(QStringLiteral("results.json")));
            limit = std::make_unique<FileSizeLimit>(rlim_t(afterFirstCell.size()));
        });
        limit.reset();
        QCOMPARE(s.exitCode, exitcode::kWriteFailed);
        QVERIFY2(s.failure.contains(out.path()) && s.failure.contains(qt_error_string(EFBIG)), qPrintable(s.failure));
        QCOMPARE(s.cellsFinished, 2);                    // stopped at once: cells 2 and 3 never ran
        QCOMPARE(mock->stats().requests, 2 * 4);
        // The results.json from before the failure is still there, whole, with cell 0 in it.
        QCOMPARE(readFile(out.filePath(QStringLiteral("results.json"))), afterFirstCell);
        SweepResults disk;
        QVERIFY2(ResultsStore::readResults(out.path(), &disk, &error), qPrintable(error));
        QCOMPARE(disk.cells.size(), 4);
        QCOMPARE(disk.cells[0].status, CellStatus::Completed);
        QVERIFY(QFile::exists(out.filePath(disk.cells[0].recordsPath)));
        QCOMPARE(leftovers(out.path()), QStringList());
    }

    void recordsThatCannotBeWrittenFailTheCellAndStop()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Sglang), &error);
        QVERIFY2(mock, qPrintable(error));
        const SweepSpec spec = smallSpec({serverFor("sglang", *mock, Flavor::Sglang)}, {2, 4}, 6);
        QTemporaryDir out;
        std::unique_ptr<FileSizeLimit> limit;
        QByteArray planned;
        const Stopped s = run(spec, out.path(), {}, [&](const QString &phase) {
            if (phase == QLatin1String("measure") && !limit) {
                planned = readFile(out.filePath(QStringLiteral("results.json")));
                limit = std::make_unique<FileSizeLimit>(1); // the records file cannot take a line
            }
        });
        limit.reset();
        QCOMPARE(s.exitCode, exitcode::kWriteFailed);
        QVERIFY2(s.failure.contains(QLatin1String("records.jsonl")) && s.failure.contains(qt_error_string(EFBIG)), qPrintable(s.failure));
        QCOMPARE(s.cellsFinished, 1);
        QVERIFY(mock->stats().requests <= 6);
        // The plan written before the phase is intact; no half-written records were published.
        QCOMPARE(readFile(out.filePath(QStringLiteral("results.json"))), planned);
        QVERIFY(!QFile::exists(out.filePath(ResultsStore::cellDirName(0, QStringLiteral("sglang"), 2) + QStringLiteral("/records.jsonl"))));
        QCOMPARE(leftovers(out.path()), QStringList());
    }

    void cannotCreateTheFolderSaysWhy()
    {
        QTemporaryDir dir;
        QVERIFY(writeFileTo(dir.filePath(QStringLiteral("file")), "x"));
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY(mock);
        const SweepSpec spec = smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {1}, 2);
        const Stopped s = run(spec, dir.filePath(QStringLiteral("file/out")), {});
        QCOMPARE(s.exitCode, exitcode::kWriteFailed);
        QVERIFY2(s.failure.contains(qt_error_string(ENOTDIR)), qPrintable(s.failure));
        QCOMPARE(mock->stats().requests, 0);
    }

private:
    static bool writeFileTo(const QString &path, const QByteArray &data)
    {
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
    }
};

QTEST_GUILESS_MAIN(TestDurableRun)
#include "tst_durable_run.moc"
