// io/DurableWrite.h and io/BoundedRead.h: a failed write never replaces a good file and names
// the file and the OS reason; reads refuse devices, FIFOs and oversize files at once.
#include "DiskFull.h"
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "io/BoundedRead.h"
#include "io/DurableWrite.h"
#include "load/LoadGenerator.h"
#include "report/BundleWriter.h"
#include "load/RequestFactory.h"
#include "mock/MockServer.h"
#include <QTemporaryDir>
#include <algorithm>
#include <QTest>
#include <cerrno>
#include <sys/stat.h>

using namespace sb;

namespace {
QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}
} // namespace

class TestDurableWrite : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void atomicWriteReplacesAndLeavesNothingBehind()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("results.json"));
        QString error;
        QVERIFY2(writeFileAtomically(path, "first", &error), qPrintable(error));
        QVERIFY2(writeFileAtomically(path, "second, longer", &error), qPrintable(error));
        QCOMPARE(sbtest::readFile(path), QByteArray("second, longer"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("results.json")});
    }

    void failedWriteKeepsThePreviousFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("results.json"));
        const QByteArray good(300, 'g');
        QString error;
        QVERIFY(writeFileAtomically(path, good, &error));
        {
            sbtest::FileSizeLimit limit(1000);
            QVERIFY(limit.ok());
            QVERIFY(!writeFileAtomically(path, QByteArray(5000, 'n'), &error));
        }
        QVERIFY2(error.contains(path) && error.contains(qt_error_string(EFBIG)), qPrintable(error));
        QVERIFY(!error.contains(QLatin1String("Unknown error")));
        QCOMPARE(sbtest::readFile(path), good);
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("results.json")}); // the temporary file is gone
    }

    void fullTmpfsKeepsThePreviousFile()
    {
        QTemporaryDir dir;
        sbtest::SmallTmpfs fs(dir.filePath(QStringLiteral("small")), "200k");
        if (!fs.mounted())
            QSKIP("needs root to mount a 200 KB tmpfs");
        const QString path = dir.filePath(QStringLiteral("small/results.json"));
        const QByteArray good(20000, 'g');
        QString error;
        QVERIFY2(writeFileAtomically(path, good, &error), qPrintable(error));
        QVERIFY(fs.fill() > 0);
        QVERIFY(!writeFileAtomically(path, QByteArray(30000, 'n'), &error));
        QVERIFY2(error.contains(path) && error.contains(qt_error_string(ENOSPC)), qPrintable(error));
        QCOMPARE(sbtest::readFile(path), good);
        QCOMPARE(entries(dir.filePath(QStringLiteral("small"))), (QStringList{QStringLiteral("filler"), QStringLiteral("results.json")}));
    }

    // The export zip: a failed write names the zip and the OS reason, and the old zip stays.
    void failedZipKeepsThePreviousOne()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("res"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        qputenv(sbtest::kEnvKeyName.toLatin1().constData(), sbtest::kEnvKey.toUtf8());
        const QString zip = dir.filePath(QStringLiteral("out/report.zip"));
        QVERIFY(sbtest::writeFile(zip, "old zip"));
        QString error;
        {
            sbtest::FileSizeLimit limit(2000);
            QVERIFY(!writeBundle(folder, zip, BundleOptions(), nullptr, &error));
        }
        QVERIFY2(error.contains(zip) && error.contains(qt_error_string(EFBIG)), qPrintable(error));
        QCOMPARE(sbtest::readFile(zip), QByteArray("old zip"));
        QCOMPARE(entries(dir.filePath(QStringLiteral("out"))), QStringList{QStringLiteral("report.zip")});
    }

    void checkedFileKeepsTheFirstError()
    {
        CheckedFile f;
        QVERIFY(f.open(QStringLiteral("/dev/full")));
        QVERIFY(!f.write("abc"));
        QVERIFY2(f.error().contains(QLatin1String("/dev/full")) && f.error().contains(qt_error_string(ENOSPC)), qPrintable(f.error()));
        const QString first = f.error();
        QVERIFY(!f.write("more")); // refused after the first failure
        QVERIFY(!f.finish());
        QCOMPARE(f.error(), first);

        QTemporaryDir dir;
        CheckedFile g;
        QVERIFY(!g.open(dir.filePath(QStringLiteral("missing/x.jsonl"))));
        QVERIFY2(g.error().contains(qt_error_string(ENOENT)), qPrintable(g.error()));
    }

    // A phase whose records cannot be written stops at once instead of measuring on, and says
    // which file and why.
    void phaseStopsWhenRecordsCannotBeWritten()
    {
        QString error;
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.stepBaseMs = 1;
        cfg.stepPerSeqMs = 0;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec server;
        server.name = QStringLiteral("m");
        server.urls = {mock->url().toString()};
        server.model = QStringLiteral("demo-model");
        WorkloadSpec w;
        w.inputTokens = 8;
        w.outputTokens = 4;
        const ServerTarget target = resolveTarget(server.urls.first(), server.endpoint);
        const RequestFactory factory(server, target, w, "durable");
        PhaseConfig phase;
        phase.targets = {PhaseTarget{target, &factory}};
        phase.concurrency = 4;
        phase.requests = 0;       // unlimited: only the write failure can end it before the deadline
        phase.durationS = 120;
        phase.timeoutS = 30;
        phase.recordsPath = QStringLiteral("/dev/full");
        LoadGenerator load(1);
        const PhaseOutcome out = load.runPhase(phase);
        QVERIFY2(out.recordsError.contains(QLatin1String("/dev/full")) && out.recordsError.contains(qt_error_string(ENOSPC)),
                 qPrintable(out.recordsError));
        QVERIFY(!out.cancelled); // stopped for the write error, not by the user
        // A later phase of the same generator is not affected.
        phase.recordsPath.clear();
        phase.requests = 8;
        phase.durationS = 0;
        const PhaseOutcome next = load.runPhase(phase);
        QVERIFY(next.recordsError.isEmpty());
        QCOMPARE(int(next.records.size()), 8);
        QVERIFY(std::all_of(next.records.begin(), next.records.end(), [](const RequestRecord &r) { return r.ok(); }));
    }

    void readsRefuseDevicesFifosFoldersAndOversizeFiles()
    {
        QByteArray data;
        QString error;
        QVERIFY(!readRegularFile(QStringLiteral("/dev/zero"), kMaxResultsFileBytes, &data, &error));
        QVERIFY2(error.contains(QLatin1String("/dev/zero")) && error.contains(QLatin1String("a device")), qPrintable(error));
        QVERIFY(data.isEmpty());

        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QVERIFY(!readRegularFile(fifo, kMaxResultsFileBytes, &data, &error)); // returns: no writer is waited for
        QVERIFY2(error.contains(QLatin1String("FIFO")), qPrintable(error));
        QVERIFY(!checkRegularFile(fifo, kMaxResultsFileBytes, &error));

        QVERIFY(!readRegularFile(dir.path(), kMaxResultsFileBytes, &data, &error));
        QVERIFY2(error.contains(QLatin1String("a folder")), qPrintable(error));

        const QString big = dir.filePath(QStringLiteral("big.json"));
        QVERIFY(sbtest::writeFile(big, QByteArray(4096, ' ')));
        QVERIFY(!readRegularFile(big, 1024, &data, &error));
        QVERIFY2(error.contains(QLatin1String("too large")), qPrintable(error));
        QVERIFY(readRegularFile(big, 4096, &data, &error));
        QCOMPARE(data.size(), 4096);
    }
};

QTEST_GUILESS_MAIN(TestDurableWrite)
#include "tst_durable_write.moc"
