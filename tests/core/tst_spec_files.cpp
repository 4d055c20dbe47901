// Spec files are read like every other input (spec/SpecIO.h readSpecFile, io/BoundedRead.h):
// regular files only, at most kMaxSmallFileBytes. /dev/zero, a .yaml symlink to it, a FIFO and an
// over-size file are refused at once, naming the file and what was expected, by loadSpecFile and
// by every command that takes a spec. A reader that blocks on the FIFO fails the test instead of
// hanging it: a watchdog opens the FIFO's other end, and a CLI still running is killed.
#include "FifoWatchdog.h"
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "io/ReadLimits.h"
#include "spec/SpecIO.h"
#include "tst_spec_helpers.h"
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace sb;

class TestSpecFiles : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_binary;
    QString m_fifo, m_symlink, m_big, m_good;

    struct Run {
        int code = -1;
        QString out, err;
    };
    // 60 s: far longer than a refusal takes; a CLI blocked on the FIFO or reading /dev/zero is
    // killed and the call fails.
    Run cli(const QStringList &args)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::SeparateChannels);
        p.start(m_binary, args);
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return {-1, QString(), QStringLiteral("[killed: still running after 60 s]")};
        }
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_binary = qEnvironmentVariable("SWEEPBENCH_BINARY");
        m_fifo = m_dir.filePath(QStringLiteral("pipe.yaml"));
        QCOMPARE(::mkfifo(QFile::encodeName(m_fifo).constData(), 0600), 0);
        m_symlink = m_dir.filePath(QStringLiteral("x.yaml"));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), m_symlink));
        // Sparse: one byte over the cap, a valid spec at its start, costs no disk.
        m_big = m_dir.filePath(QStringLiteral("big.yaml"));
        QVERIFY(sbtest::writeFile(m_big, spectest::kMinimal));
        QVERIFY(QFile::resize(m_big, kMaxSmallFileBytes + 1));
        m_good = m_dir.filePath(QStringLiteral("good.yaml"));
        QVERIFY(sbtest::writeFile(m_good, spectest::kMinimal));
    }
    void init() { sbtest::failOnQtWarnings(); }

    void refused_data()
    {
        QTest::addColumn<QString>("which");
        QTest::addColumn<QString>("expected");
        QTest::newRow("/dev/zero") << QStringLiteral("zero") << QStringLiteral("/dev/zero is a device; only regular files are read");
        QTest::newRow("x.yaml -> /dev/zero") << QStringLiteral("symlink") << QStringLiteral("x.yaml is a device; only regular files are read");
        QTest::newRow("FIFO") << QStringLiteral("fifo") << QStringLiteral("pipe.yaml is a pipe (FIFO); only regular files are read");
        QTest::newRow("over 16 MiB") << QStringLiteral("big") << QStringLiteral("big.yaml is too large (16 MiB; the limit is 16 MiB)");
    }
    QString pathOf(const QString &which) const
    {
        return which == QLatin1String("zero") ? QStringLiteral("/dev/zero")
               : which == QLatin1String("symlink") ? m_symlink
               : which == QLatin1String("fifo")    ? m_fifo
                                                   : m_big;
    }

    void refused()
    {
        QFETCH(QString, which);
        QFETCH(QString, expected);
        const QString path = pathOf(which);
        sbtest::FifoWatchdog watchdog(m_fifo, 10);
        QByteArray text = "untouched";
        const SpecLoadResult r = loadSpecFile(path, &text);
        QVERIFY2(!watchdog.fired(), "loadSpecFile blocked on the FIFO");
        QVERIFY(!r.ok() && !r.spec && !r.draft);
        QCOMPARE(r.diagnostics.size(), 1);
        QCOMPARE(r.diagnostics.first().file, path);
        QVERIFY2(r.diagnostics.first().toString().contains(QStringLiteral("cannot read the spec: ")), qPrintable(r.diagnostics.first().toString()));
        QVERIFY2(r.diagnostics.first().message.contains(expected), qPrintable(r.diagnostics.first().message));
        QCOMPARE(text, QByteArray("untouched"));
        QString error;
        QVERIFY(!readSpecFile(path, &text, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void aSpecWithinTheCapIsRead()
    {
        QByteArray text;
        const SpecLoadResult r = loadSpecFile(m_good, &text);
        QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
        QCOMPARE(text, QByteArray(spectest::kMinimal));
        QCOMPARE(r.spec->sourcePath, m_good);
    }

    // Every command that takes a spec, as users run them: exit 2 at once, the reason on stderr.
    void everyCommandRefuses_data()
    {
        const QStringList commands[] = {
            {QStringLiteral("validate"), QStringLiteral("SPEC")},
            {QStringLiteral("run"), QStringLiteral("SPEC"), QStringLiteral("--out"), QStringLiteral("OUT")},
            {QStringLiteral("hooks"), QStringLiteral("check"), QStringLiteral("SPEC")},
            {QStringLiteral("cluster"), QStringLiteral("slurm"), QStringLiteral("SPEC"), QStringLiteral("--shards"), QStringLiteral("2"),
             QStringLiteral("--out"), QStringLiteral("OUT")},
            {QStringLiteral("cluster"), QStringLiteral("k8s"), QStringLiteral("SPEC"), QStringLiteral("--shards"), QStringLiteral("2"),
             QStringLiteral("--jobs-dir"), QStringLiteral("OUT")},
            {QStringLiteral("export"), QStringLiteral("RESULTS"), QStringLiteral("-o"), QStringLiteral("OUT.zip"), QStringLiteral("--spec"),
             QStringLiteral("SPEC")}};
        QTest::addColumn<QString>("which");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QStringList>("args"); // SPEC stands for the spec's path
        const QList<std::pair<QString, QString>> inputs{{QStringLiteral("zero"), QStringLiteral("/dev/zero is a device")},
                                                        {QStringLiteral("symlink"), QStringLiteral("x.yaml is a device")},
                                                        {QStringLiteral("fifo"), QStringLiteral("pipe.yaml is a pipe (FIFO)")},
                                                        {QStringLiteral("big"), QStringLiteral("big.yaml is too large")}};
        for (const QStringList &command : commands)
            for (const auto &[which, expected] : inputs)
                QTest::addRow("%s %s %s", qPrintable(command[0]), qPrintable(command[1]), qPrintable(which)) << which << expected << command;
    }
    void everyCommandRefuses()
    {
        if (m_binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QFETCH(QString, which);
        QFETCH(QString, expected);
        QFETCH(QStringList, args);
        QTemporaryDir out;
        for (QString &a : args) {
            if (a == QLatin1String("SPEC"))
                a = pathOf(which);
            else if (a == QLatin1String("RESULTS"))
                a = out.filePath(QStringLiteral("results"));
            else
                a.replace(QLatin1String("OUT"), out.filePath(QStringLiteral("out")));
        }
        sbtest::FifoWatchdog watchdog(m_fifo, 30); // frees a blocked CLI too, which the kill would only end
        const Run r = cli(args);
        QVERIFY2(!watchdog.fired(), "the command blocked on the FIFO");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(expected) && (r.err.contains(QLatin1String("only regular files")) || r.err.contains(QLatin1String("limit is 16 MiB"))),
                 qPrintable(r.err));
        QVERIFY2(QDir(out.path()).isEmpty(), "nothing is written for a spec that was not read");
    }
};

QTEST_GUILESS_MAIN(TestSpecFiles)
#include "tst_spec_files.moc"
