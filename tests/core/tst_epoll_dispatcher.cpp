// The IO threads' event loop (load/EpollDispatcher.h) replaces Qt's on those threads, so it must
// do everything Qt code there relies on: queued calls from other threads, QTimer (never early,
// repeating, stopped, moved to the thread while running), QSocketNotifier read and write (and a
// notifier deleted by its own handler), QTcpSocket connecting and talking to a QTcpServer, and
// quit(). LoadGenerator's IO threads run on it and their reactors share its set.
#include "EpollThread.h"
#include "TestSupport.h"
#include "io/SteadyClock.h"
#include "load/EpollDispatcher.h"
#include "load/IoReactor.h"
#include "load/LoadGenerator.h"
#include <QElapsedTimer>
#include <QSocketNotifier>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <functional>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace sb;

using sbtest::EpollThread;

class TestEpollDispatcher : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void queuedCallsFromOtherThreadsRunPromptly()
    {
        EpollThread t;
        bool isEpoll = false;
        t.on([&] { isEpoll = EpollDispatcher::current() != nullptr; });
        QVERIFY(isEpoll);
        QObject ctx;
        ctx.moveToThread(&t.thread);
        // Posted while the thread sleeps in epoll_wait (no timer, no socket: an endless wait):
        // only the wake-up can make these run.
        std::atomic<int> ran{0};
        for (int i = 0; i < 1000; ++i) {
            QMetaObject::invokeMethod(&ctx, [&] { ran.fetch_add(1); }, Qt::QueuedConnection);
            if (i % 100 == 0)
                QThread::msleep(2);
        }
        QTRY_COMPARE_WITH_TIMEOUT(ran.load(), 1000, 2000);
        t.on([] {}); // and the thread still answers after the burst
    }

    // Wake-ups from other threads racing the loop's own draining of them: none may be lost, or a
    // posted call (quit() among them) would wait for an event that never comes.
    void noWakeUpIsLostToARace()
    {
        EpollThread t;
        EpollDispatcher *dispatcher = nullptr;
        t.on([&] { dispatcher = EpollDispatcher::current(); });
        QVERIFY(dispatcher);
        std::atomic<bool> stop{false};
        std::thread hammer([&] {
            while (!stop.load())
                dispatcher->wakeUp();
        });
        QObject ctx;
        ctx.moveToThread(&t.thread);
        int lost = 0;
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; clock.elapsed() < 1500; ++i) {
            std::atomic<bool> ran{false};
            QMetaObject::invokeMethod(&ctx, [&] { ran = true; }, Qt::QueuedConnection);
            QElapsedTimer wait;
            wait.start();
            while (!ran.load() && wait.elapsed() < 1000)
                QThread::yieldCurrentThread();
            if (!ran.load()) {
                ++lost;
                break;
            }
        }
        stop = true;
        hammer.join();
        QCOMPARE(lost, 0);
        std::atomic<bool> last{false};
        QMetaObject::invokeMethod(&ctx, [&] { last = true; }, Qt::QueuedConnection);
        QTRY_VERIFY_WITH_TIMEOUT(last.load(), 1000);
    }

    void timersFireNeverEarlyAndRepeat()
    {
        EpollThread t;
        std::int64_t startNs = 0;
        std::atomic<std::int64_t> firedNs{0};
        std::atomic<int> repeats{0}, stoppedFired{0};
        int remaining = -2;
        QTimer *single = nullptr, *repeating = nullptr, *stopped = nullptr;
        t.on([&] {
            single = new QTimer;
            single->setSingleShot(true);
            single->setTimerType(Qt::PreciseTimer);
            QObject::connect(single, &QTimer::timeout, [&] { firedNs = steadyNowNs(); });
            repeating = new QTimer;
            QObject::connect(repeating, &QTimer::timeout, [&] { repeats.fetch_add(1); });
            stopped = new QTimer;
            QObject::connect(stopped, &QTimer::timeout, [&] { stoppedFired.fetch_add(1); });
            startNs = steadyNowNs();
            single->start(30);
            repeating->start(10);
            stopped->start(20);
            stopped->stop();
            remaining = single->remainingTime();
        });
        QVERIFY2(remaining > 20 && remaining <= 30, qPrintable(QString::number(remaining)));
        QTRY_VERIFY_WITH_TIMEOUT(firedNs.load() != 0, 2000);
        QVERIFY2(firedNs.load() - startNs >= 30'000'000, qPrintable(QString::number(firedNs.load() - startNs)));
        QTRY_VERIFY_WITH_TIMEOUT(repeats.load() >= 5, 2000);
        t.on([&] {
            repeating->stop();
            delete single;
            delete repeating;
            delete stopped;
        });
        const int seen = repeats.load();
        QTest::qWait(50);
        QCOMPARE(repeats.load(), seen);
        QCOMPARE(stoppedFired.load(), 0);
    }

    // moveToThread() takes a running timer's registration from the old loop to the new one.
    void aTimerMovedToTheThreadKeepsRunning()
    {
        EpollThread t;
        QObject holder;
        QTimer timer(&holder);
        std::atomic<int> fired{0};
        std::atomic<bool> onIoThread{true};
        connect(&timer, &QTimer::timeout, &holder, [&] {
            fired.fetch_add(1);
            if (QThread::currentThread() != &t.thread)
                onIoThread = false;
        });
        timer.start(5);
        holder.moveToThread(&t.thread);
        QTRY_VERIFY_WITH_TIMEOUT(fired.load() >= 3, 2000);
        QVERIFY(onIoThread.load());
        t.on([&] { timer.stop(); holder.moveToThread(QCoreApplication::instance()->thread()); });
    }

    void socketNotifiersReadWriteAndDeleteThemselves()
    {
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
        EpollThread t;
        std::atomic<int> reads{0}, writes{0}, selfDeleted{0};
        QSocketNotifier *reader = nullptr, *writer = nullptr;
        t.on([&] {
            reader = new QSocketNotifier(fds[0], QSocketNotifier::Read);
            QObject::connect(reader, &QSocketNotifier::activated, [&] {
                char buf[16];
                while (::read(fds[0], buf, sizeof buf) > 0) {
                }
                reads.fetch_add(1);
            });
            writer = new QSocketNotifier(fds[0], QSocketNotifier::Write);
            writer->setEnabled(false);
            QObject::connect(writer, &QSocketNotifier::activated, [&] {
                writes.fetch_add(1);
                writer->setEnabled(false);
            });
        });
        QTest::qWait(30);
        QCOMPARE(reads.load(), 0); // nothing written yet
        QCOMPARE(::write(fds[1], "x", 1), ssize_t(1));
        QTRY_COMPARE_WITH_TIMEOUT(reads.load(), 1, 2000);
        t.on([&] { writer->setEnabled(true); }); // read and write watched on one descriptor
        QTRY_COMPARE_WITH_TIMEOUT(writes.load(), 1, 2000);
        QCOMPARE(::write(fds[1], "y", 1), ssize_t(1));
        QTRY_COMPARE_WITH_TIMEOUT(reads.load(), 2, 2000);
        QTest::qWait(30);
        QCOMPARE(writes.load(), 1); // disabled by its handler: no more
        t.on([&] {
            reader->setEnabled(false);
            delete writer;
            // A notifier whose handler deletes it (as a socket dropped on its last read does).
            QObject::connect(reader, &QSocketNotifier::activated, [&] {
                delete reader;
                reader = nullptr;
                selfDeleted.fetch_add(1);
            });
            reader->setEnabled(true);
        });
        QCOMPARE(::write(fds[1], "z", 1), ssize_t(1));
        QTRY_COMPARE_WITH_TIMEOUT(selfDeleted.load(), 1, 2000);
        QCOMPARE(::write(fds[1], "w", 1), ssize_t(1));
        QTest::qWait(30);
        QCOMPARE(selfDeleted.load(), 1);
        ::close(fds[0]);
        ::close(fds[1]);
    }

    // QTcpSocket's connect and reads run on socket notifiers and a timer of the thread's loop.
    void tcpSocketTalksToAServerOnTheSameLoop()
    {
        EpollThread t;
        QByteArray echoed;
        std::atomic<bool> done{false};
        QTcpServer *server = nullptr;
        QTcpSocket *client = nullptr;
        t.on([&] {
            server = new QTcpServer;
            QVERIFY(server->listen(QHostAddress::LocalHost, 0));
            QObject::connect(server, &QTcpServer::newConnection, server, [server] {
                QTcpSocket *peer = server->nextPendingConnection();
                QObject::connect(peer, &QTcpSocket::readyRead, peer, [peer] { peer->write(peer->readAll().toUpper()); });
            });
            client = new QTcpSocket;
            QObject::connect(client, &QTcpSocket::connected, client, [&] { client->write("hello over epoll"); });
            QObject::connect(client, &QTcpSocket::readyRead, client, [&] {
                echoed += client->readAll();
                if (echoed.size() >= 16)
                    done = true;
            });
            client->connectToHost(QHostAddress::LocalHost, server->serverPort());
        });
        QTRY_VERIFY_WITH_TIMEOUT(done.load(), 5000);
        QCOMPARE(echoed, QByteArray("HELLO OVER EPOLL"));
        t.on([&] {
            delete client;
            delete server;
        });
    }

    void quitEndsTheThreadAtOnce()
    {
        auto t = std::make_unique<EpollThread>();
        t->on([] {});
        QElapsedTimer clock;
        clock.start();
        t->thread.quit(); // the thread sleeps in an endless epoll_wait: only the interrupt ends it
        QVERIFY(t->thread.wait(5000));
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    }

    // A reactor made on such a thread puts its sockets in the dispatcher's set; on Qt's own loop
    // it keeps a set of its own.
    void reactorsShareTheDispatchersSet()
    {
        IoReactor onMain;
        QVERIFY(!onMain.inDispatcherSet());
        EpollThread t;
        bool shared = false;
        int calls = 0;
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
        std::unique_ptr<IoReactor> reactor;
        t.on([&] {
            reactor = std::make_unique<IoReactor>();
            shared = reactor->inDispatcherSet();
            reactor->add(fds[0], [&] {
                char buf[8];
                while (::read(fds[0], buf, sizeof buf) > 0) {
                }
                ++calls;
            }, {});
        });
        QVERIFY(shared);
        QCOMPARE(::write(fds[1], "x", 1), ssize_t(1));
        QTRY_COMPARE_WITH_TIMEOUT(calls, 1, 2000);
        t.on([&] { reactor.reset(); });
        ::close(fds[0]);
        ::close(fds[1]);
    }

    void loadGeneratorThreadsRunOnIt()
    {
        LoadGenerator generator(2);
        QCOMPARE(generator.ioThreadsOnEpoll(), 2);
    }
};

QTEST_GUILESS_MAIN(TestEpollDispatcher)
#include "tst_epoll_dispatcher.moc"
