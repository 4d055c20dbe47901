// The benchmark client's plain-TCP reads carry the kernel's receive time: bytes that wait while
// the IO thread is busy are dated when they arrived, not when they were read (TTFT
// must not grow with the client's own lateness).
#include "TestSupport.h"
#include "load/IoReactor.h"
#include "load/PhaseState.h"
#include "load/RxStamp.h"
#include "load/StampedSocket.h"
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>
#include <unistd.h>

using namespace sb;

class TestStampedSocket : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void bytesAreDatedWhenTheyArrived()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        // The kernel switches receive stamping on system-wide a moment after the first socket
        // asks for it (the engine's connections meet it already on, from earlier ones).
        enableRxTimestamps(int(server.socketDescriptor()));
        QThread::msleep(100);
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, server.serverPort());
        QVERIFY(client.waitForConnected(5000));
        QVERIFY(server.waitForNewConnection(5000));
        QTcpSocket *peer = server.nextPendingConnection();
        int readable = 0;
        // As HttpConnection does: a duplicate of the connected descriptor, QTcpSocket let go.
        IoReactor reactor;
        StampedSocket stamped(::dup(int(client.socketDescriptor())), &reactor, [&] { ++readable; }, nullptr);
        client.abort();

        char buf[256];
        std::int64_t arrival = 0;
        QCOMPARE(stamped.read(buf, sizeof buf, &arrival), qint64(StampedSocket::WouldBlock));

        for (int round = 0; round < 3; ++round) {
            const std::int64_t sentNs = steadyNowNs();
            peer->write("data: {\"x\":1}\n\n");
            QVERIFY(peer->waitForBytesWritten(5000));
            QThread::msleep(150); // the reader is busy elsewhere
            const std::int64_t beforeRead = steadyNowNs();
            const qint64 n = stamped.read(buf, sizeof buf, &arrival);
            QCOMPARE(n, qint64(15));
            if (!stamped.kernelStamps())
                QSKIP("the kernel gives no receive timestamps here");
            QVERIFY2(arrival >= sentNs - 1'000'000, qPrintable(QString::number(arrival - sentNs)));
            // Dated at arrival (well before the read), not at the read 150 ms later.
            QVERIFY2(arrival < beforeRead - 100'000'000, qPrintable(QString::number(beforeRead - arrival)));
        }
        peer->write("data: {\"x\":2}\n\n");
        QTRY_VERIFY(readable > 0); // the notifier reports waiting bytes
        QCOMPARE(stamped.read(buf, sizeof buf, &arrival), qint64(15));

        // The peer's close reads as 0; writes go out.
        QVERIFY(stamped.write("GET / HTTP/1.1\r\n\r\n"));
        QVERIFY(peer->waitForReadyRead(5000));
        QCOMPARE(peer->readAll(), QByteArray("GET / HTTP/1.1\r\n\r\n"));
        peer->close();
        QTRY_COMPARE(stamped.read(buf, sizeof buf, &arrival), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestStampedSocket)
#include "tst_stamped_socket.moc"
