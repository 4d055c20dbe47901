// The IO threads' readiness set (load/IoReactor.h): one epoll set per thread instead of a
// QSocketNotifier per connection. It must call back exactly the ready sockets, serve
// more sockets than it takes per round, survive callbacks that remove themselves or others, and
// report writability only while asked to; a stale handle never reaches a newer socket; work
// deferred in a round runs right after it. Each case runs twice: on Qt's own loop (the reactor
// keeps a set of its own) and on an IO thread's EpollDispatcher (it shares the dispatcher's set).
#include "EpollThread.h"
#include "TestSupport.h"
#include "load/IoReactor.h"
#include <QSet>
#include <QTest>
#include <algorithm>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace sb;

namespace {
struct Pair {
    int mine = -1, peer = -1;
    Pair()
    {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds) == 0) {
            mine = fds[0];
            peer = fds[1];
        }
    }
    ~Pair()
    {
        ::close(mine);
        ::close(peer);
    }
    void poke() const { QCOMPARE(::write(peer, "x", 1), ssize_t(1)); }
    int drain() const
    {
        char buf[64];
        int total = 0;
        for (ssize_t n; (n = ::read(mine, buf, sizeof buf)) > 0;)
            total += int(n);
        return total;
    }
};

// Runs a case on the loop the global data names, and checks where the reactor's sockets went.
void onLoop(const std::function<void()> &body)
{
    QFETCH_GLOBAL(bool, epoll);
    if (!epoll) {
        body();
        return;
    }
    sbtest::EpollThread t;
    t.on(body);
}

void expectSetOfTheLoop(const IoReactor &reactor)
{
    QFETCH_GLOBAL(bool, epoll);
    QCOMPARE(reactor.inDispatcherSet(), epoll);
}
} // namespace

class TestIoReactor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }
    void initTestCase_data()
    {
        QTest::addColumn<bool>("epoll");
        QTest::newRow("qt-loop") << false;
        QTest::newRow("epoll-dispatcher") << true;
    }

    void callsBackOnlyTheReadySockets()
    {
        onLoop([&] {
            IoReactor reactor;
            expectSetOfTheLoop(reactor);
            // More sockets than one round takes: the rest are served in the next rounds.
            std::vector<std::unique_ptr<Pair>> pairs;
            std::vector<int> calls(400, 0);
            for (int i = 0; i < 400; ++i) {
                pairs.push_back(std::make_unique<Pair>());
                QVERIFY(pairs.back()->mine >= 0);
                reactor.add(pairs.back()->mine, [&, i] { ++calls[std::size_t(i)]; pairs[std::size_t(i)]->drain(); }, {});
            }
            QCOMPARE(reactor.watched(), 400);
            // 300 ready at once: more than one round (256) takes.
            for (int i = 0; i < 400; ++i)
                if (i % 4 != 0)
                    pairs[std::size_t(i)]->poke();
            QTRY_COMPARE(std::count(calls.begin(), calls.end(), 1), 300L);
            QTest::qWait(50);
            for (int i = 0; i < 400; ++i)
                QCOMPARE(calls[std::size_t(i)], i % 4 != 0 ? 1 : 0); // once each, and no others
        });
    }

    void callbacksMayRemoveThemselvesAndOthers()
    {
        onLoop([&] {
            IoReactor reactor;
            expectSetOfTheLoop(reactor);
            Pair a, b, c;
            quint64 ha = 0, hb = 0, hc = 0;
            int aCalls = 0, bCalls = 0, cCalls = 0;
            // Whichever of a and b runs first removes both: the other's event of the same round
            // must not reach its (removed) callback. c keeps working after that.
            auto removeBoth = [&] { reactor.remove(ha); reactor.remove(hb); };
            ha = reactor.add(a.mine, [&] { ++aCalls; removeBoth(); }, {});
            hb = reactor.add(b.mine, [&] { ++bCalls; removeBoth(); }, {});
            hc = reactor.add(c.mine, [&] { ++cCalls; c.drain(); }, {});
            a.poke();
            b.poke();
            c.poke();
            QTRY_COMPARE(cCalls, 1);
            QTest::qWait(50);
            QCOMPARE(aCalls + bCalls, 1);
            QCOMPARE(reactor.watched(), 1);
            // A removed socket's bytes wake nobody; a callback may also add a new socket.
            Pair d;
            int dCalls = 0;
            reactor.remove(hc);
            hc = reactor.add(c.mine, [&] { ++cCalls; c.drain(); reactor.add(d.mine, [&] { ++dCalls; d.drain(); }, {}); }, {});
            a.poke();
            c.poke();
            QTRY_COMPARE(cCalls, 2);
            d.poke();
            QTRY_COMPARE(dCalls, 1);
            QCOMPARE(aCalls + bCalls, 1);
        });
    }

    // A removed entry's slot serves the next socket, but its old handle is not the new one's:
    // a stale remove or write interest (a connection torn down twice) leaves the newcomer alone.
    void staleHandlesDoNotReachAReusedSlot()
    {
        onLoop([&] {
            IoReactor reactor;
            expectSetOfTheLoop(reactor);
            Pair a, b;
            int aCalls = 0, bCalls = 0, bWritable = 0;
            const quint64 ha = reactor.add(a.mine, [&] { ++aCalls; a.drain(); }, {});
            reactor.remove(ha);
            const quint64 hb = reactor.add(b.mine, [&] { ++bCalls; b.drain(); }, [&] { ++bWritable; });
            QVERIFY(hb != ha);
            reactor.remove(ha);
            reactor.setWriteInterest(ha, true);
            QCOMPARE(reactor.watched(), 1);
            b.poke();
            QTRY_COMPARE(bCalls, 1);
            QTest::qWait(50);
            QCOMPARE(bWritable, 0);
            QCOMPARE(aCalls, 0);
            reactor.setWriteInterest(hb, true);
            QTRY_VERIFY(bWritable > 0);
        });
    }

    // Work deferred inside a round runs after every callback of that round, before anything the
    // event loop holds (a queued call posted meanwhile); not for a context that is gone; and once:
    // what it defers in turn, and what is deferred outside a round, goes through the event loop.
    void deferredWorkRunsAfterTheRound()
    {
        onLoop([&] {
            IoReactor reactor;
            expectSetOfTheLoop(reactor);
            Pair a, b;
            QStringList order;
            auto gone = std::make_unique<QObject>();
            QObject keep;
            const auto onReady = [&](const Pair &p, const QString &name) {
                p.drain();
                order.append(name);
                reactor.defer(&keep, [&, name] {
                    order.append(QStringLiteral("deferred ") + name);
                    reactor.defer(&keep, [&] { order.append(QStringLiteral("deferred again")); });
                });
                QMetaObject::invokeMethod(&keep, [&] { order.append(QStringLiteral("queued")); }, Qt::QueuedConnection);
            };
            reactor.add(a.mine, [&] { onReady(a, QStringLiteral("a")); }, {});
            reactor.add(b.mine, [&] { onReady(b, QStringLiteral("b")); reactor.defer(gone.get(), [&] { order.append(QStringLiteral("gone")); }); gone.reset(); }, {});
            a.poke();
            b.poke();
            QTRY_COMPARE(order.count(QStringLiteral("deferred again")), 2);
            QTRY_COMPARE(order.count(QStringLiteral("queued")), 2);
            // Both sockets were ready in one round: their callbacks, then the deferred work, then
            // the event loop's.
            QVERIFY2(order.size() >= 4, qPrintable(order.join(QStringLiteral(", "))));
            QCOMPARE((QSet<QString>{order[0], order[1]}), (QSet<QString>{QStringLiteral("a"), QStringLiteral("b")}));
            QCOMPARE(order.mid(2, 2), (QStringList{QStringLiteral("deferred ") + order[0], QStringLiteral("deferred ") + order[1]}));
            QVERIFY(!order.contains(QStringLiteral("gone")));
            bool ran = false;
            reactor.defer(&keep, [&] { ran = true; });
            QVERIFY(!ran); // outside a round: not at once
            QTRY_VERIFY(ran);
        });
    }

    void writabilityOnlyWhileAsked()
    {
        onLoop([&] {
            IoReactor reactor;
            expectSetOfTheLoop(reactor);
            Pair p;
            int writable = 0;
            const quint64 h = reactor.add(p.mine, [] {}, [&] { ++writable; });
            QTest::qWait(50);
            QCOMPARE(writable, 0); // writable all along, but nobody asked
            reactor.setWriteInterest(h, true);
            QTRY_VERIFY(writable > 0);
            reactor.setWriteInterest(h, false);
            const int seen = writable;
            QTest::qWait(50);
            QCOMPARE(writable, seen);
        });
    }
};

QTEST_GUILESS_MAIN(TestIoReactor)
#include "tst_io_reactor.moc"
