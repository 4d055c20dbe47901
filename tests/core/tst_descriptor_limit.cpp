// A sweep at high concurrency must not die of the desktop's soft limit of 1024 open files
// (exact concurrency at C=1024). The engine raises the soft limit to the hard one and
// grows the descriptor table before a phase; when the hard limit itself is too low, the cell
// says so. Runs the real engine over loopback against the in-process mock (which holds the
// server side of every connection in this same process).
#include "EngineFixture.h"
#include "TestSupport.h"
#include "load/DescriptorLimit.h"
#include <QFile>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <algorithm>
#include <sys/resource.h>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

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
        const rlim_t expected = std::min<rlim_t>(lim.rlim_max, rlim_t(1) << 20); // capped at a million
        QCOMPARE(low.rlim_cur, expected);
        QCOMPARE(now, long(expected));

        reserveDescriptors(1500);
        QVERIFY2(fdTableSize() >= 1501, qPrintable(QString::number(fdTableSize())));
    }

    void highConcurrencyRunsUnderALowSoftLimit()
    {
        rlimit lim{};
        QVERIFY(::getrlimit(RLIMIT_NOFILE, &lim) == 0);
        if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < 2000)
            QSKIP("the hard limit here is below 2000 descriptors");
        QString error;
        MockConfig cfg = timedMock(Flavor::Vllm);
        cfg.stepBaseMs = 100; // 0.5 s per request: all 600 connections are open at once
        cfg.prefillPerTokenMs = 0;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        // Lowered after the mock started (it raises the limit too): the engine must raise it.
        rlimit low = lim;
        low.rlim_cur = 256; // 600 connections need 1200 here (client and mock side)
        QVERIFY(::setrlimit(RLIMIT_NOFILE, &low) == 0);
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

    void mockKeepsAcceptingAfterRunningOutOfDescriptors()
    {
        // A QTcpServer stops accepting for good after a failed accept (no descriptor left)
        // unless told to resume: every later cell against that mock would time out.
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        rlimit lim{};
        QVERIFY(::getrlimit(RLIMIT_NOFILE, &lim) == 0);
        rlimit low = lim;
        low.rlim_cur = 256; // the soft limit only: it goes back up below without privileges
        QVERIFY(::setrlimit(RLIMIT_NOFILE, &low) == 0);
        std::vector<int> hoard; // every descriptor left...
        for (int fd; (fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0;)
            hoard.push_back(fd);
        QVERIFY(!hoard.empty());
        ::close(hoard.back()); // ...but one, for the client's socket (one client: a second's
        hoard.pop_back();      // descriptor could go to the mock's accept of the first)
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, quint16(mock->url().port()));
        QVERIFY(client.waitForConnected(5000)); // the kernel's handshake: the mock cannot accept
        QTest::qWait(200);                      // and its accept fails meanwhile
        for (int fd : hoard)
            ::close(fd);
        QVERIFY(::setrlimit(RLIMIT_NOFILE, &lim) == 0);
        client.write("GET /health HTTP/1.1\r\nHost: mock\r\n\r\n");
        QVERIFY(client.waitForBytesWritten(5000));
        QVERIFY2(client.bytesAvailable() > 0 || client.waitForReadyRead(5000), "the mock never accepted the connection");
        QVERIFY2(client.readAll().startsWith("HTTP/1.1 200"), "no answer from /health");
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
        spec.workload.requestTimeoutS = 2; // connections the mock could not accept wait this long
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        const CellResult &cell = r.results.cells.value(0);
        QVERIFY2(cell.warnings.join('\n').contains(QStringLiteral("may open only 300 files and sockets")), qPrintable(cell.warnings.join('\n')));
        // 250 connections need 500 descriptors here. Those that cannot open fail, each recorded;
        // those the mock cannot accept yet wait in its backlog until descriptors free up. How
        // many of each depends on timing; every request ends one way or the other.
        QCOMPARE(cell.completed + cell.failed, 500);

        ::setrlimit(RLIMIT_NOFILE, &lim); // as root this restores it; otherwise the process ends anyway
    }
};

QTEST_GUILESS_MAIN(TestDescriptorLimit)
#include "tst_descriptor_limit.moc"
