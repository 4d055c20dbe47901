// `sweepbench mock-server`: flags, the printed URL, a clean stop on SIGTERM.
#include "TestSupport.h"
#include "commands/MockServerCli.h"
#include "tst_mock_client.h"
#include <QTcpServer>
#include <QTest>
#include <csignal>

using namespace mocktest;

class TestMockCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void helpAndBadFlags()
    {
        const QString help = sb::mockServerHelpText();
        QVERIFY(help.startsWith(QStringLiteral("Usage: sweepbench mock-server")));
        for (const char *flag : {"--flavor", "--port", "--host", "--no-dev-mode", "--no-profiler", "--trace-dir",
                                 "--error-rate", "--disconnect-rate", "--malformed-rate", "--stall-ms",
                                 "--first-byte-delay-ms", "--loop-block-ms", "--step-base-ms", "--max-batch", "--cache-blocks"})
            QVERIFY2(help.contains(QLatin1String(flag)), flag);
        const QString prog = QStringLiteral("sweepbench mock-server");
        QCOMPARE(sb::runMockServerCommand({prog, "--flavor", "tgi"}), 2);
        QCOMPARE(sb::runMockServerCommand({prog, "--error-rate", "2"}), 2);
        QCOMPARE(sb::runMockServerCommand({prog, "--bogus"}), 2);
        QCOMPARE(sb::runMockServerCommand({prog, "extra"}), 2);
    }

    void servesUntilSigterm()
    {
        const quint16 port = sbtest::freePort();
        QVERIFY(port);
        int status = -1;
        bool flushed = false;
        QTimer::singleShot(100, [&] {
            Client c(port);
            status = c.call("POST", "/reset_prefix_cache").status; // --no-dev-mode: 404
            flushed = c.call("POST", "/flush_cache?timeout=0").status == 200;
            ::raise(SIGTERM); // handled: the self-pipe ends the command's event loop
        });
        const int rc = sb::runMockServerCommand({QStringLiteral("sweepbench mock-server"), "--flavor", "sglang",
                                                 "--port", QString::number(port), "--no-dev-mode", "--seed", "3"});
        QCOMPARE(rc, 0);
        QCOMPARE(status, 404); // sglang has no /reset_prefix_cache
        QVERIFY(flushed);
        // The port is free again: the server stopped cleanly.
        QTcpServer again;
        QVERIFY(again.listen(QHostAddress::LocalHost, port));
    }
};

QTEST_MAIN(TestMockCommand)
#include "tst_mock_command.moc"
