// Files SweepBench reads are bounded: regular files only, a size cap, a cell cap; an export of
// a truncated records.jsonl says so in the manifest.
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "io/BoundedJson.h"
#include "io/JsonScan.h"
#include "io/LineReader.h"
#include "io/ReadLimits.h"
#include "report/BundleWriter.h"
#include "report/ResultsLoader.h"
#include <QBuffer>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace sb;

namespace {
// A results.json with `cells` minimal cells, written as text (no need to build the objects).
QByteArray manyCells(int cells)
{
    QByteArray out = "{\"schema\": \"sweepbench-results/1\", \"tool\": {\"name\": \"sweepbench\"}, \"cells\": [";
    for (int i = 0; i < cells; ++i) {
        if (i)
            out += ',';
        out += "{\"index\": " + QByteArray::number(i) + ", \"server\": \"s\", \"concurrency\": 1, \"status\": \"completed\"}";
    }
    return out + "]}";
}
} // namespace

class TestFileBounds : public QObject
{
    Q_OBJECT
    QString m_binary;

    struct Run {
        int code = -1;
        QString out, err;
    };
    Run cli(const QStringList &args)
    {
        QProcess p;
        p.start(m_binary, args);
        if (!p.waitForFinished(60000)) { // a reader blocked on a FIFO or reading /dev/zero forever
            p.kill();
            p.waitForFinished();
            return {};
        }
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_binary = qEnvironmentVariable("SWEEPBENCH_BINARY");
        // The sample spec names this variable for its key: the exporter must be able to learn it.
        qputenv(sbtest::kEnvKeyName.toLatin1().constData(), sbtest::kEnvKey.toUtf8());
    }
    void init() { sbtest::failOnQtWarnings(); }

    void loaderRefusesDevicesAndFifos()
    {
        QString error;
        QVERIFY(!loadResults(QStringLiteral("/dev/zero"), &error));
        QVERIFY2(error.contains(QLatin1String("a device")), qPrintable(error));
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("results.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QVERIFY(!loadResults(fifo, &error));
        QVERIFY2(error.contains(QLatin1String("FIFO")), qPrintable(error));
        QVERIFY(!loadResults(dir.path(), &error)); // the folder's results.json is that FIFO
        QVERIFY2(error.contains(QLatin1String("FIFO")), qPrintable(error));
    }

    void loaderRefusesTooManyCellsAndTooLargeFiles()
    {
        QTemporaryDir dir;
        QVERIFY(sbtest::writeFile(dir.filePath(QStringLiteral("ok/results.json")), manyCells(kMaxResultsCells)));
        QString error;
        const auto ok = loadResults(dir.filePath(QStringLiteral("ok")), &error);
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(ok->results.cells.size(), kMaxResultsCells);

        QVERIFY(sbtest::writeFile(dir.filePath(QStringLiteral("many/results.json")), manyCells(kMaxResultsCells + 1)));
        QVERIFY(!loadResults(dir.filePath(QStringLiteral("many")), &error));
        QVERIFY2(error.contains(QStringLiteral("%1 cells (the limit is %2)").arg(kMaxResultsCells + 1).arg(kMaxResultsCells)), qPrintable(error));

        // Sparse: the size alone refuses it, nothing is read.
        const QString big = dir.filePath(QStringLiteral("big/results.json"));
        QVERIFY(sbtest::writeFile(big, "{"));
        QVERIFY(QFile::resize(big, kMaxResultsFileBytes + 1));
        QVERIFY(!loadResults(dir.filePath(QStringLiteral("big")), &error));
        QVERIFY2(error.contains(QLatin1String("too large")), qPrintable(error));
    }

    // The caps are checked on the text, before a document tree is built.
    void scanCountsValuesAndCellsWithoutParsing()
    {
        const QByteArray doc = "{\"a\": \"x,[]{}\\\"\", \"cells\": [{\"b\": [1, 2]}, 3, \"s,]\"], \"n\": {\"cells\": [1, 2, 3, 4]}}";
        const JsonShape shape = scanJsonShape(doc, "cells");
        QCOMPARE(shape.arrayItems, 3); // the nested "cells" is not the top-level one
        // {}, "a", "x,[]{}\"", "cells", [], {}, "b", [], 1, 2, 3, "s,]", "n", {}, "cells", [], 1, 2, 3, 4
        QCOMPARE(shape.values, 20);
        QCOMPARE(shape.largestItemValues, 5); // {}, "b", [], 1, 2
        QCOMPARE(shape.largestItemIndex, 0);
        QVERIFY(QJsonDocument::fromJson(doc).isObject()); // the sample is valid JSON
        const JsonShape last = scanJsonShape("{\"cells\": [1, {\"t\": [1, 2, 3]}, [4]]}", "cells");
        QCOMPARE(last.largestItemValues, 6);
        QCOMPARE(last.largestItemIndex, 1);
        QCOMPARE(scanJsonShape("{\"cells\": [], \"x\": 1, \"cells\": [1, 2]}", "cells").arrayItems, 2); // repeated key: the largest
        QCOMPARE(scanJsonShape("{\"cells\": []}", "cells").arrayItems, 0);
        QCOMPARE(scanJsonShape("{\"cells\": {\"x\": [1, 2]}}", "cells").arrayItems, 0);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v.json"));
        QVERIFY(sbtest::writeFile(path, "{\"list\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}"));
        JsonFileCaps caps;
        caps.maxValues = 10;
        QJsonObject o;
        QString error;
        QVERIFY(!readJsonFile(path, &o, &error, caps));
        QVERIFY2(error.contains(QLatin1String("holds 13 JSON values (the limit is 10)")), qPrintable(error));
        caps.maxValues = 13;
        QVERIFY2(readJsonFile(path, &o, &error, caps), qPrintable(error));
        QCOMPARE(o.value(QStringLiteral("list")).toArray().size(), 10);

        // One cell of many values is refused by position, whatever the total.
        QVERIFY(sbtest::writeFile(path, "{\"cells\": [{\"a\": 1}, {\"time_slices\": [1, 2, 3, 4, 5, 6]}]}"));
        caps = JsonFileCaps();
        caps.arrayKey = "cells";
        caps.maxItems = 10;
        caps.itemName = "cells";
        caps.maxItemValues = 8;
        QVERIFY(!readJsonFile(path, &o, &error, caps));
        QVERIFY2(error.contains(QLatin1String("cells[1] holds 9 JSON values (the limit for one of its cells is 8)")), qPrintable(error));
        caps.maxItemValues = 9;
        QVERIFY2(readJsonFile(path, &o, &error, caps), qPrintable(error));
    }

    void exportWarnsAboutTruncatedRecords()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("res"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        const SweepResults r = sbtest::sampleResults();
        // Cell 1 cut mid-line (no newline), cell 2's last line not JSON, cell 0 intact.
        QByteArray cut = sbtest::readFile(folder + QLatin1Char('/') + r.cells[1].recordsPath);
        cut.chop(20);
        QVERIFY(sbtest::writeFile(folder + QLatin1Char('/') + r.cells[1].recordsPath, cut));
        QVERIFY(sbtest::writeFile(folder + QLatin1Char('/') + r.cells[2].recordsPath,
                                  sbtest::readFile(folder + QLatin1Char('/') + r.cells[2].recordsPath) + "{\"i\":8,\"send\n"));
        const QString zip = dir.filePath(QStringLiteral("r.zip"));
        BundleReport report;
        QString error;
        QVERIFY2(writeBundle(folder, zip, BundleOptions(), &report, &error), qPrintable(error));
        const QString all = report.warnings.join('\n');
        QVERIFY2(all.contains(QStringLiteral("cell 1: %1 is truncated (the last line has no newline)").arg(r.cells[1].recordsPath)), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("cell 2: %1 is truncated (the last line is not JSON").arg(r.cells[2].recordsPath)), qPrintable(all));
        QVERIFY(!all.contains(QStringLiteral("cell 0:")) && !all.contains(QStringLiteral("cell 3:")));
        const auto files = sbtest::readZip(zip);
        QCOMPARE(files.value(r.cells[1].recordsPath), cut); // bundled as it is
        const QJsonArray manifestWarnings = QJsonDocument::fromJson(files.value(QStringLiteral("manifest.json"))).object().value(QStringLiteral("warnings")).toArray();
        int truncated = 0;
        for (const QJsonValue &w : manifestWarnings)
            truncated += w.toString().contains(QLatin1String("is truncated"));
        QCOMPARE(truncated, 2);
    }

    // A line past the reader's bound: Skip goes on at the next line (a trailing one without a
    // newline included); Stop ends the reading there, having read no further than the bound.
    void lineReaderSkipsOrStopsAtALongLine()
    {
        QByteArray text = "a\n" + QByteArray(100, 'x') + "\n b \n" + QByteArray(100, 'y') + "\nc\n" + QByteArray(50, 'z');
        QBuffer skipping(&text);
        QVERIFY(skipping.open(QIODevice::ReadOnly));
        LineReader skip(skipping, 16);
        QByteArrayList lines;
        QByteArray line;
        while (skip.next(&line))
            lines.append(line);
        QCOMPARE(lines, (QByteArrayList{"a", "b", "c"}));
        QCOMPARE(skip.tooLong(), 3);

        QBuffer stopping(&text);
        QVERIFY(stopping.open(QIODevice::ReadOnly));
        LineReader stop(stopping, 16, LineReader::TooLong::Stop);
        QVERIFY(stop.next(&line));
        QCOMPARE(line, QByteArray("a"));
        QVERIFY(!stop.next(&line));
        QCOMPARE(stop.tooLong(), 1);
        QCOMPARE(stopping.pos(), 2 + 16); // "a\n" and the 16 bytes the bound allows, no more
        QVERIFY(!stop.next(&line));       // stays stopped
    }

    // As users run them: refused at once, with the reason, exit 2.
    void cliRefusesAtOnce()
    {
        if (m_binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        const Run zero = cli({QStringLiteral("summary"), QStringLiteral("/dev/zero")});
        QCOMPARE(zero.code, 2);
        QVERIFY2(zero.err.contains(QLatin1String("/dev/zero is a device; only regular files are read")), qPrintable(zero.err));
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("r.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const Run pipe = cli({QStringLiteral("summary"), fifo});
        QCOMPARE(pipe.code, 2);
        QVERIFY2(pipe.err.contains(QLatin1String("FIFO")), qPrintable(pipe.err));

        const QString folder = dir.filePath(QStringLiteral("res"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        const QString records = folder + QLatin1Char('/') + sbtest::sampleResults().cells[3].recordsPath;
        QByteArray cut = sbtest::readFile(records);
        cut.chop(5);
        QVERIFY(sbtest::writeFile(records, cut));
        const Run exported = cli({QStringLiteral("export"), folder, QStringLiteral("-o"), dir.filePath(QStringLiteral("r.zip"))});
        QCOMPARE(exported.code, 0);
        QVERIFY2(exported.err.contains(QLatin1String("warning: cell 3:")) && exported.err.contains(QLatin1String("truncated")), qPrintable(exported.err));
    }
};

QTEST_GUILESS_MAIN(TestFileBounds)
#include "tst_file_bounds.moc"
