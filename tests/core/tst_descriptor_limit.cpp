// A sweep at high concurrency must not die of the desktop's soft limit of 1024 open files
// (issue 8: exact concurrency at C=1024). The engine raises the soft limit to the hard one and
// grows the descriptor table before a phase; when the hard limit itself is too low, the cell
// says so. Runs the real engine over loopback against the in-process mock (which holds the
// server side of every connection in this same process).
#include "EngineFixture.h"
#include "TestSupport.h"
#include "load/DescriptorLimit.h"
#include <QFile>
#include <QTemporaryDir>
#include <sys/resource.h>

using namespace sb;
using namespace sbtest;

namespace {
long fdTableSize() // FDSize: slots in this process's descriptor table
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("FDSize:"))
            return line.mid(7).trimmed().toLong();
    return -1;
}
} // namespace

class TestDescriptorLimit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void softLimitIsRaisedAndTableGrown()
    {
        rlimit lim{};
        QVERIFY(::getrlimit(RLIMIT_NOFILE, &lim) == 0);
        if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < 2000)
            QSKIP("the hard limit here is below 2000 descriptors");
        rlimit low = lim;
        low.rlim_cur = 256;
        QVERIFY(::setrlimit(RLIMIT_NOFILE, &low) == 0);
        const long now = raiseDescriptorLimit();
        QVERIFY(::getrlimit(RLIMIT_NOFILE, &low) == 0);
        QCOMPARE(low.rlim_cur, lim.rlim_max);
        QCOMPARE(now, lim.rlim_max == RLIM_INFINITY ? -1L : long(lim.rlim_max));

        reserveDescriptors(1500);
        QVERIFY2(fdTableSize() >= 1501, qPrintable(QString::number(fdTableSize())));
    }

    void highConcurrencyRunsUnderALowSoftLimit()
    {
        rlimit lim{};
        QVERIFY(::getrlimit(RLIMIT_NOFILE, &lim) == 0);
        if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < 2000)
            QSKIP("the hard limit here is below 2000 descriptors");
        rlimit low = lim;
        low.rlim_cur = 256; // 600 connections need 1200 here (client and mock side)
        QVERIFY(::setrlimit(RLIMIT_NOFILE, &low) == 0);
        QString error;
        MockConfig cfg = timedMock(Flavor::Vllm);
        cfg.stepBaseMs = 5;
        cfg.prefillPerTokenMs = 0;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {600}, 1200);
        spec.workload.outputTokens = 4;
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.exitCode, 0);
        const CellResult &cell = r.results.cells.value(0);
        QCOMPARE(cell.failed, 0);
        QCOMPARE(cell.completed, 1200);
        QCOMPARE(mock->stats().maxInFlight, 600);
        for (const QString &w : cell.warnings)
            QVERIFY2(!w.contains(QStringLiteral("files and sockets")), qPrintable(w));
    }

    void tooLowAHardLimitIsReported()
    {
        // Lowering the hard limit cannot be undone without privileges: this is the last case.
        rlimit lim{};
        QVERIFY(::getrlimit(RLIMIT_NOFILE, &lim) == 0);
        if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < 300)
            QSKIP("the hard limit here is already below 300 descriptors");
        rlimit low{300, 300};
        QVERIFY(::setrlimit(RLIMIT_NOFILE, &low) == 0);
        QString error;
        MockConfig cfg = timedMock(Flavor::Vllm);
        cfg.stepBaseMs = 5;
        cfg.prefillPerTokenMs = 0;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {250}, 500);
        spec.workload.outputTokens = 4;
        spec.workload.requestTimeoutS = 10;
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        const CellResult &cell = r.results.cells.value(0);
        QVERIFY2(cell.warnings.join('\n').contains(QStringLiteral("may open only 300 files and sockets")), qPrintable(cell.warnings.join('\n')));
        QVERIFY(cell.failed > 0); // 250 connections need 500 descriptors here: the rest fail, each recorded
        QCOMPARE(cell.completed + cell.failed, 500);
        ::setrlimit(RLIMIT_NOFILE, &lim); // as root this restores it; otherwise the process ends anyway
    }
};

QTEST_GUILESS_MAIN(TestDescriptorLimit)
#include "tst_descriptor_limit.moc"
