// The safety of zip import: entry names, refused archives (escapes, links, special files),
// size limits, corrupt archives and zip bombs, and extraction only under the process's own
// temporary root, removed when a killed process left it.
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "import/SafeUnzip.h"
#include "report/ResultsLoader.h"
#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

using namespace sb;

namespace {
struct Entry {
    QString name;
    QByteArray data;
    quint32 externalAttr = 0;
};

bool makeZip(const QString &path, const QList<Entry> &entries)
{
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdCreate))
        return false;
    for (const Entry &e : entries) {
        QuaZipNewInfo info(e.name);
        info.externalAttr = e.externalAttr;
        QuaZipFile f(&zip);
        if (!f.open(QIODevice::WriteOnly, info))
            return false;
        f.write(e.data);
        f.close();
        if (f.getZipError() != ZIP_OK)
            return false;
    }
    zip.close();
    return zip.getZipError() == ZIP_OK;
}

// A zip of zeros: `entries` entries of `entryBytes` each, written in 1 MiB pieces (deflate
// packs zeros about 1000:1, so 512 MiB is a 0.5 MB archive).
bool makeZipBomb(const QString &path, int entries, qint64 entryBytes)
{
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdCreate))
        return false;
    const QByteArray zeros(qMin<qint64>(entryBytes, 1024 * 1024), '\0');
    for (int e = 0; e < entries; ++e) {
        QuaZipFile f(&zip);
        if (!f.open(QIODevice::WriteOnly, QuaZipNewInfo(e == 0 ? QStringLiteral("results.json") : QStringLiteral("cells/%1/records.jsonl").arg(e))))
            return false;
        for (qint64 left = entryBytes; left > 0; left -= zeros.size())
            f.write(zeros.constData(), qMin<qint64>(left, zeros.size()));
        f.close();
        if (f.getZipError() != ZIP_OK)
            return false;
    }
    zip.close();
    return zip.getZipError() == ZIP_OK;
}

// The sample results folder, written to `folder` and zipped into `zip`.
bool makeSampleZip(const QString &folder, const QString &zip)
{
    if (!sbtest::writeSampleFolder(folder))
        return false;
    QList<Entry> entries;
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        entries.append({QDir(folder).relativeFilePath(path), sbtest::readFile(path)});
    }
    return makeZip(zip, entries);
}

qint64 bytesUnder(const QString &dir)
{
    qint64 total = 0;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

QStringList filesUnder(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        out.append(QDir(dir).relativeFilePath(it.next()));
    out.sort();
    return out;
}} // namespace

Q_DECLARE_METATYPE(QList<Entry>)

class TestImportZip : public QObject {
    Q_OBJECT
    QTemporaryDir m_sandboxParent;
    QString m_tmp; // TMPDIR for the process: the extraction root lives here

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_sandboxParent.isValid());
        // Nested two levels down so "../../x" from an extraction folder still lands inside the
        // observed tree and would be seen.
        m_tmp = m_sandboxParent.filePath(QStringLiteral("a/b/tmp"));
        QVERIFY(QDir().mkpath(m_tmp));
        qputenv("TMPDIR", m_tmp.toLocal8Bit());
        QString error;
        QVERIFY2(!newExtractionDir(&error).isEmpty(), qPrintable(error)); // the process root, made once
    }
    void init() { sbtest::failOnQtWarnings(); }

    void entryNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("safe");
        QTest::newRow("plain") << "results.json" << true;
        QTest::newRow("nested") << "cells/000-a-c1/records.jsonl" << true;
        QTest::newRow("dir") << "cells/" << true;
        QTest::newRow("dotdot") << "../../x" << false;
        QTest::newRow("inner dotdot") << "cells/../../x" << false;
        QTest::newRow("backslash dotdot") << "cells\\..\\..\\x" << false;
        QTest::newRow("absolute") << "/etc/passwd" << false;
        QTest::newRow("drive") << "C:/x" << false;
        QTest::newRow("backslash absolute") << "\\x" << false;
        QTest::newRow("control") << "a\nb" << false;
        QTest::newRow("empty") << "" << false;
    }
    void entryNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, safe);
        QCOMPARE(unsafeEntryReason(name).isEmpty(), safe);
    }

    void refusedArchives_data()
    {
        QTest::addColumn<QList<Entry>>("entries");
        QTest::addColumn<QString>("expected");
        const QByteArray results = "{\"schema\":\"sweepbench-results/1\",\"cells\":[]}";
        QTest::newRow("dotdot") << QList<Entry>{{QStringLiteral("results.json"), results}, {QStringLiteral("../../x"), "pwned"}}
                                << QStringLiteral("\"..\"");
        QTest::newRow("deep dotdot") << QList<Entry>{{QStringLiteral("results.json"), results}, {QStringLiteral("cells/../../../../x"), "pwned"}}
                                     << QStringLiteral("\"..\"");
        QTest::newRow("absolute") << QList<Entry>{{QStringLiteral("results.json"), results},
                                                  {m_sandboxParent.filePath(QStringLiteral("abs-x")), "pwned"}}
                                  << QStringLiteral("absolute");
        QTest::newRow("symlink") << QList<Entry>{{QStringLiteral("link"), m_sandboxParent.path().toUtf8(), quint32(0120777) << 16},
                                                 {QStringLiteral("results.json"), results}}
                                 << QStringLiteral("symbolic link");
        QTest::newRow("fifo") << QList<Entry>{{QStringLiteral("results.json"), results}, {QStringLiteral("p"), "", quint32(0010644) << 16}}
                              << QStringLiteral("special file");
    }
    void refusedArchives()
    {
        QFETCH(QList<Entry>, entries);
        QFETCH(QString, expected);
        QTemporaryDir work;
        const QString zip = work.filePath(QStringLiteral("evil.zip"));
        QVERIFY(makeZip(zip, entries));
        const QStringList before = filesUnder(m_sandboxParent.path());
        QString error;
        QVERIFY(!loadResults(zip, &error));
        QVERIFY2(error.contains(QStringLiteral("refused")) && error.contains(expected), qPrintable(error));
        // Nothing new anywhere in the sandbox: not outside, and the refused extraction is gone.
        QCOMPARE(filesUnder(m_sandboxParent.path()), before);
        QVERIFY(!QFileInfo::exists(m_sandboxParent.filePath(QStringLiteral("a/x"))));
        QVERIFY(!QFileInfo::exists(m_sandboxParent.filePath(QStringLiteral("abs-x"))));
    }

    void oversizedByLimits()
    {
        QTemporaryDir work;
        const QString zip = work.filePath(QStringLiteral("big.zip"));
        QVERIFY(makeZip(zip, {{QStringLiteral("a"), QByteArray(4096, 'a')}, {QStringLiteral("b"), QByteArray(4096, 'b')}}));
        UnzipLimits limits;
        limits.maxTotalBytes = 6000;
        QString error;
        const QString dest = work.filePath(QStringLiteral("out"));
        QVERIFY(!safeUnzip(zip, dest, &error, limits));
        QVERIFY2(error.contains(QStringLiteral("size limit")), qPrintable(error));
        QVERIFY(!QFileInfo::exists(dest));
        limits = UnzipLimits();
        limits.maxEntries = 1;
        QVERIFY(!safeUnzip(zip, dest, &error, limits));
        QVERIFY2(error.contains(QStringLiteral("entries")), qPrintable(error));
        QVERIFY(safeUnzip(zip, dest, &error)); // within the default limits
        QCOMPARE(filesUnder(dest), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    }

    void oversizedDeclaredSize()
    {
        // A central directory that claims 3 GiB: refused from the directory alone, before inflating.
        QTemporaryDir work;
        const QString zip = work.filePath(QStringLiteral("bomb.zip"));
        QVERIFY(makeZip(zip, {{QStringLiteral("results.json"), "{}"}}));
        QByteArray bytes = sbtest::readFile(zip);
        const qsizetype central = bytes.indexOf(QByteArray("PK\x01\x02", 4));
        QVERIFY(central > 0);
        const quint32 huge = 0xC0000000u;
        for (int i = 0; i < 4; ++i)
            bytes[central + 24 + i] = char((huge >> (8 * i)) & 0xff);
        QVERIFY(sbtest::writeFile(zip, bytes));
        QString error;
        QVERIFY(!loadResults(zip, &error));
        QVERIFY2(error.contains(QStringLiteral("refused")) && error.contains(QStringLiteral("size")), qPrintable(error));
    }

    void corruptArchives()
    {
        QTemporaryDir work;
        QString error;
        // Not a zip at all, with a .zip name.
        const QString garbage = work.filePath(QStringLiteral("garbage.zip"));
        QVERIFY(sbtest::writeFile(garbage, QByteArray(2048, '\x42')));
        QVERIFY(!loadResults(garbage, &error));
        QVERIFY2(error.contains(QStringLiteral("corrupt archive")), qPrintable(error));
        // Truncated: the central directory is gone.
        const QString good = work.filePath(QStringLiteral("good.zip"));
        QVERIFY(makeZip(good, {{QStringLiteral("results.json"), QByteArray(5000, 'x')}}));
        const QByteArray bytes = sbtest::readFile(good);
        const QString cut = work.filePath(QStringLiteral("cut.zip"));
        QVERIFY(sbtest::writeFile(cut, bytes.left(bytes.size() / 2)));
        QVERIFY(!loadResults(cut, &error));
        QVERIFY2(error.contains(QStringLiteral("corrupt archive")), qPrintable(error));
        // Damaged data: stored entry with flipped bytes fails its CRC.
        const QString stored = work.filePath(QStringLiteral("stored.zip"));
        {
            QuaZip zip(stored);
            QVERIFY(zip.open(QuaZip::mdCreate));
            QuaZipFile f(&zip);
            QVERIFY(f.open(QIODevice::WriteOnly, QuaZipNewInfo(QStringLiteral("results.json")), nullptr, 0, 0, 0));
            f.write(QByteArray(3000, 'y'));
            f.close();
            zip.close();
        }
        QByteArray damaged = sbtest::readFile(stored);
        const qsizetype at = damaged.indexOf(QByteArray(100, 'y'));
        QVERIFY(at > 0);
        damaged[at + 50] = 'Z';
        QVERIFY(sbtest::writeFile(stored, damaged));
        QVERIFY(!loadResults(stored, &error));
        QVERIFY2(error.contains(QStringLiteral("corrupt archive")) && error.contains(QStringLiteral("checksum")), qPrintable(error));
    }

    // Zip bombs are refused from the central directory, before a byte is written: one entry of
    // 512 MiB of zeros (0.5 MB packed), many entries of 1 MiB, many small ones adding up.
    void zipBombsAreRefusedBeforeWriting()
    {
        QTemporaryDir work;
        const struct {
            const char *name;
            int entries;
            qint64 entryBytes;
        } bombs[] = {{"one.zip", 1, qint64(512) * 1024 * 1024}, {"many.zip", 300, 1024 * 1024}, {"small.zip", 1500, 60 * 1024}};
        for (const auto &b : bombs) {
            const QString zip = work.filePath(QLatin1String(b.name));
            QVERIFY(makeZipBomb(zip, b.entries, b.entryBytes));
            const QString dest = work.filePath(QStringLiteral("out"));
            QString error;
            QVERIFY2(!safeUnzip(zip, dest, &error), b.name);
            QVERIFY2(error.contains(QLatin1String("zip bomb")) && error.contains(zip), qPrintable(error));
            QVERIFY(!QFileInfo::exists(dest));
        }
    }

    // `summary` of a zip bomb, as users run it: refused quickly, its temporary folder never
    // grows (sampled while it runs), and nothing is left behind afterwards.
    void summaryOfAZipBombLeavesNothingBehind()
    {
        const QString binary = qEnvironmentVariable("SWEEPBENCH_BINARY");
        if (binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QTemporaryDir work, tmp;
        const QString zip = work.filePath(QStringLiteral("bomb.zip"));
        QVERIFY(makeZipBomb(zip, 1, qint64(512) * 1024 * 1024));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp.path());
        p.setProcessEnvironment(env);
        QElapsedTimer clock;
        clock.start();
        p.start(binary, {QStringLiteral("summary"), zip});
        QVERIFY(p.waitForStarted());
        qint64 peak = 0;
        while (!p.waitForFinished(5))
            peak = qMax(peak, bytesUnder(tmp.path()));
        qInfo("summary of a %lld KB zip bomb (512 MiB of zeros): exit %d after %lld ms, temporary folder peaked at %lld bytes",
              qlonglong(QFileInfo(zip).size() / 1024), p.exitCode(), qlonglong(clock.elapsed()), qlonglong(peak));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY(p.exitCode() != 0);
        QVERIFY2(err.contains(QLatin1String("zip bomb")), qPrintable(err));
        QVERIFY2(peak <= kRatioFloorBytes, qPrintable(QString::number(peak)));
        QCOMPARE(filesUnder(tmp.path()), QStringList());
    }

    // A process killed before its exit handlers ran leaves its extraction root; the next start
    // removes it. A root whose process still runs is left alone.
    void theNextStartRemovesAKilledProcessesFolder()
    {
        if (qEnvironmentVariableIsEmpty("SWEEPBENCH_BINARY"))
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QTemporaryDir work, tmp;
        // A process that has ended: its id, taken while it ran, names no process now.
        QProcess sleeper;
        sleeper.start(QStringLiteral("sleep"), {QStringLiteral("0.05")});
        QVERIFY(sleeper.waitForStarted());
        const qint64 pid = sleeper.processId();
        QVERIFY(sleeper.waitForFinished());
        const QString stale = tmp.filePath(QStringLiteral("sweepbench-import-%1-aB3dE9").arg(pid));
        const QString live = tmp.filePath(QStringLiteral("sweepbench-import-%1-Zz9Yy8").arg(QCoreApplication::applicationPid()));
        QVERIFY(QDir().mkpath(stale + QStringLiteral("/z1")) && QDir().mkpath(live + QStringLiteral("/z1")));
        QVERIFY(sbtest::writeFile(stale + QStringLiteral("/z1/records.jsonl"), QByteArray(4096, 'x')));

        const QString zip = work.filePath(QStringLiteral("ok.zip"));
        QVERIFY(makeSampleZip(work.filePath(QStringLiteral("res")), zip));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp.path());
        const sbtest::CliRun summary = sbtest::runSweepbench({QStringLiteral("summary"), zip}, 60000, env);
        QVERIFY2(summary.code == 0 || summary.code == 1, qPrintable(summary.err));
        QVERIFY(!QFileInfo::exists(stale));
        QVERIFY(QFileInfo::exists(live)); // this test process still runs
        // The summary's own root is gone with it.
        QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{QFileInfo(live).fileName()});
    }

    void extractionStaysInTempRoot()
    {
        // A good zip extracts under TMPDIR's process root and nowhere else.
        QTemporaryDir work;
        const QString zip = work.filePath(QStringLiteral("ok.zip"));
        QVERIFY(makeSampleZip(work.filePath(QStringLiteral("res")), zip));
        QString error;
        const auto loaded = loadResults(zip, &error);
        QVERIFY2(loaded, qPrintable(error));
        QVERIFY(loaded->folder.startsWith(m_tmp + QStringLiteral("/sweepbench-import-")));
        QCOMPARE(loaded->results.cells.size(), 4);
        QVERIFY(QFileInfo(loaded->folder + QLatin1Char('/') + loaded->results.cells[0].recordsPath).isFile());
        QCOMPARE(loaded->displayName, QStringLiteral("ok.zip"));
    }
};

QTEST_GUILESS_MAIN(TestImportZip)
#include "tst_import_zip.moc"
