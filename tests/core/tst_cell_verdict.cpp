// Honest cell status: a cell whose measured requests partly failed is never silently
// `completed` — degraded past sweep.max_error_rate, a warning below it, failed with the most
// frequent error named when nothing succeeded; results.json carries the error rate and the
// connection counters; failed cells are not measured data.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "TestSupport.h"
#include "engine/CellVerdict.h"
#include "results/ResultsStore.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>

using namespace sb;

namespace {
CellResult counted(int ok, const QMap<QString, int> &errors)
{
    CellResult c;
    c.completed = ok;
    for (auto it = errors.cbegin(); it != errors.cend(); ++it)
        c.failed += it.value();
    c.errors = errors;
    return c;
}

// Fails every `every`-th request with a 500; answers the others with a short stream.
hostile::Server::Handler failingEvery(std::atomic<int> *served, int every)
{
    return [served, every](hostile::Conn &c) {
        while (true) {
            const QByteArray req = c.readRequest();
            if (req.isEmpty())
                return;
            const int n = ++*served;
            const QByteArray answer = every > 0 && n % every == 0 ? hostile::jsonResponse(500, "{\"error\":\"injected\"}")
                                                                  : hostile::sseResponse(hostile::sseBody(4));
            if (!c.write(answer))
                return;
        }
    };
}

SweepSpec hostileSpec(const hostile::Server &server, int requests)
{
    return sbtest::smallSpec({sbtest::serverAt(QString::fromLatin1(server.url()), QStringLiteral("hostile"))}, {1}, requests);
}
} // namespace

class TestCellVerdict : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void verdicts()
    {
        QCOMPARE(judgeCell(counted(100, {}), 0.01, false).status, CellStatus::Completed);
        QVERIFY(judgeCell(counted(100, {}), 0.01, false).warnings.isEmpty());

        const CellVerdict under = judgeCell(counted(199, {{"timeout", 1}}), 0.01, false);
        QCOMPARE(under.status, CellStatus::Completed);
        QCOMPARE(under.warnings.size(), 1);
        QVERIFY(under.warnings.first().contains(QStringLiteral("1 of 200")));

        const CellVerdict over = judgeCell(counted(48, {{"connection", 24}, {"http_500", 1}}), 0.01, false);
        QCOMPARE(over.status, CellStatus::Degraded);
        QVERIFY(qAbs(over.errorRate - 25.0 / 73) < 1e-9);
        QVERIFY2(over.reason.contains(QStringLiteral("connection ×24")), qPrintable(over.reason));

        const CellVerdict none = judgeCell(counted(0, {{"bad_json", 3}, {"timeout", 5}}), 0.5, false);
        QCOMPARE(none.status, CellStatus::Failed);
        QVERIFY2(none.reason.contains(QStringLiteral("timeout ×5")), qPrintable(none.reason)); // the most frequent, not the first by name

        QCOMPARE(judgeCell(counted(0, {}), 0.01, false).status, CellStatus::Failed);
        QCOMPARE(judgeCell(counted(5, {{"timeout", 5}}), 0.01, true).status, CellStatus::Cancelled);
        // max_error_rate 0: any failure degrades.
        QCOMPARE(judgeCell(counted(1000, {{"timeout", 1}}), 0.0, false).status, CellStatus::Degraded);
    }

    void statusVocabularyRoundTrips()
    {
        for (CellStatus s : {CellStatus::Pending, CellStatus::Completed, CellStatus::Degraded, CellStatus::Failed, CellStatus::Skipped,
                             CellStatus::Cancelled})
            QCOMPARE(cellStatusFromString(cellStatusName(s)), std::optional<CellStatus>(s));
        QVERIFY(!cellStatusFromString(QStringLiteral("done")));
        QVERIFY(hasMeasurements(CellStatus::Degraded));
        QVERIFY(!hasMeasurements(CellStatus::Failed));
        QVERIFY(!hasMeasurements(CellStatus::Cancelled));
    }

    // The real engine against a server that fails one request in five: degraded at the default
    // 1 %, exit code 1, and results.json says why.
    void engineMarksDegraded()
    {
        std::atomic<int> served{0};
        hostile::Server server(failingEvery(&served, 5));
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(hostileSpec(server, 20), dir.path());
        QCOMPARE(r.exitCode, 1);
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Degraded);
        QCOMPARE(cell.completed, 16);
        QCOMPARE(cell.failed, 4);
        QVERIFY(qAbs(cell.errorRate - 0.2) < 1e-9);
        QVERIFY2(cell.reason.contains(QStringLiteral("http_500")), qPrintable(cell.reason));
        const QJsonObject onDisk = QJsonDocument::fromJson(sbtest::readFile(dir.filePath(QStringLiteral("results.json"))))
                                       .object()
                                       .value(QStringLiteral("cells"))
                                       .toArray()
                                       .at(0)
                                       .toObject();
        QCOMPARE(onDisk.value(QStringLiteral("status")).toString(), QStringLiteral("degraded"));
        QVERIFY(qAbs(onDisk.value(QStringLiteral("error_rate")).toDouble() - 0.2) < 1e-9);
        QVERIFY(onDisk.value(QStringLiteral("requests")).toObject().contains(QStringLiteral("reconnects")));
    }

    // The same failures under a tolerant max_error_rate: completed, with a warning.
    void toleratedFailuresWarn()
    {
        std::atomic<int> served{0};
        hostile::Server server(failingEvery(&served, 10));
        QTemporaryDir dir;
        SweepSpec spec = hostileSpec(server, 20);
        spec.maxErrorRate = 0.25;
        const auto r = sbtest::runSweep(spec, dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QCOMPARE(cell.failed, 2);
        QVERIFY(std::any_of(cell.warnings.cbegin(), cell.warnings.cend(), [](const QString &w) { return w.contains(QStringLiteral("2 of 20")); }));
        QCOMPARE(r.exitCode, 0);
    }

    // A reset that answered ok while the server kept its cache: the first measured requests
    // reusing cached prompt tokens contradict it (llama.cpp with its host-RAM cache does this).
    void resetContradictedByCachedTokens_data()
    {
        QTest::addColumn<int>("cached");
        QTest::addColumn<QString>("proof");
        QTest::newRow("cache kept") << 500 << QStringLiteral("contradicted");
        QTest::newRow("cache empty") << 0 << QStringLiteral("consistent");
    }
    void resetContradictedByCachedTokens()
    {
        QFETCH(int, cached);
        QFETCH(QString, proof);
        hostile::Server server([cached](hostile::Conn &c) {
            while (true) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                const QByteArray answer =
                    req.startsWith("POST /reset_prefix_cache")
                        ? hostile::jsonResponse(200, "{\"success\":true}")
                        : hostile::sseResponse(hostile::sseBody(4, ",\"prompt_tokens_details\":{\"cached_tokens\":" + QByteArray::number(cached) + "}"));
                if (!c.write(answer))
                    return;
            }
        });
        QTemporaryDir dir;
        SweepSpec spec = hostileSpec(server, 8);
        spec.servers[0].flavor = Flavor::Vllm;
        spec.servers[0].reset.enabled = true;
        const auto r = sbtest::runSweep(spec, dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QCOMPARE(cell.hooks.size(), 1);
        QVERIFY(cell.hooks[0].ok);
        QCOMPARE(cacheProofName(cell.hooks[0].cacheProof), proof);
        const bool warned = std::any_of(cell.warnings.cbegin(), cell.warnings.cend(), [](const QString &w) { return w.contains(QStringLiteral("cached prompt tokens")); });
        QCOMPARE(warned, cached > 0);
        QVERIFY(sbtest::readFile(dir.filePath(QStringLiteral("results.json"))).contains("\"cache_proof\": \"" + proof.toLatin1() + '"'));
    }

    // A server killed mid-sweep: the next cell's reset finds it gone; every cell after that
    // fails at once on one connect, saying since when, instead of retrying its whole budget.
    void deadServerEndsTheSweepFast()
    {
        auto server = std::make_unique<hostile::Server>([](hostile::Conn &c) {
            while (true) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                const QByteArray answer = req.startsWith("POST /reset_prefix_cache") ? hostile::jsonResponse(200, "{\"success\":true}")
                                                                                    : hostile::sseResponse(hostile::sseBody(4));
                if (!c.write(answer))
                    return;
            }
        });
        SweepSpec spec = hostileSpec(*server, 4);
        spec.concurrency = {1, 2, 4, 8};
        spec.servers[0].flavor = Flavor::Vllm;
        spec.servers[0].reset.enabled = true;
        spec.servers[0].reset.maxRetryS = 2;
        QTemporaryDir dir;
        SweepEngine engine(spec, RunOptions{dir.path(), false});
        QSignalSpy finished(&engine, &SweepEngine::finished);
        QObject::connect(&engine, &SweepEngine::cellFinished, [&](const CellResult &cell) {
            if (cell.index == 0)
                server.reset(); // the server process dies
        });
        engine.start();
        QVERIFY(sbtest::waitForSignal(finished, 120000));
        const auto cells = engine.results().cells;
        QCOMPARE(cells[0].status, CellStatus::Completed);
        QCOMPARE(cells[1].status, CellStatus::Failed); // its reset found the server gone
        QVERIFY(!cells[1].hooks.isEmpty());
        for (int i : {2, 3}) {
            QCOMPARE(cells[i].status, CellStatus::Failed);
            QVERIFY2(cells[i].reason.contains(QStringLiteral("server unreachable")) && cells[i].reason.contains(QStringLiteral("in cell 1")),
                     qPrintable(cells[i].reason));
            QVERIFY(cells[i].hooks.isEmpty()); // not retried: one connect decided
        }
        QCOMPARE(finished.first().first().toInt(), 1);
    }

    // A server that is not there at all: its first cell fails on one connect, before any reset
    // retry (the default budget spent 55 s on "Connection refused"), prompt calibration or
    // request, and so does every later cell while it stays away.
    void absentServerFailsAtOnce()
    {
        const quint16 port = sbtest::freePort(); // connecting is refused
        QVERIFY(port);
        ServerSpec s = sbtest::serverAt(QStringLiteral("http://127.0.0.1:%1").arg(port), QStringLiteral("absent"));
        s.flavor = Flavor::Vllm;
        s.reset.enabled = true; // default 60 s retry budget
        SweepSpec spec = sbtest::smallSpec({s}, {1, 2}, 4);
        spec.workload.calibratePrompts = true;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 1);
        const auto &cells = r.results.cells;
        QCOMPARE(cells.size(), 2);
        for (const CellResult &cell : cells) {
            QCOMPARE(cell.status, CellStatus::Failed);
            QVERIFY(cell.hooks.isEmpty()); // no reset was tried: one connect decided
            QCOMPARE(cell.completed + cell.failed, 0);
            QVERIFY2(cell.reason.startsWith(QStringLiteral("server unreachable at http://127.0.0.1:%1 (Connection refused)").arg(port)),
                     qPrintable(cell.reason));
        }
        QVERIFY2(cells[0].reason.contains(QStringLiteral("before its first cell: nothing was sent")), qPrintable(cells[0].reason));
        QVERIFY2(cells[1].reason.contains(QStringLiteral("it has not answered since cell 0, its first")), qPrintable(cells[1].reason));
    }

    // A server without keep-alive (Connection: close on every answer) leaves each slot empty
    // while the client connects again: a low in-flight mean is the server's doing, and the
    // warning names the reconnects instead of blaming the client.
    void closedConnectionsAreNamedNotTheClient()
    {
        hostile::Server server([](hostile::Conn &c) {
            if (!c.readRequest().isEmpty())
                c.write(hostile::sseResponse(hostile::sseBody(4), "Connection: close\r\n"));
        });
        QTemporaryDir dir;
        SweepSpec spec = hostileSpec(server, 60);
        spec.concurrency = {2};
        const auto r = sbtest::runSweep(spec, dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QCOMPARE(cell.reconnects, 58); // every request after each slot's first
        const QString all = cell.warnings.join(QLatin1Char('|'));
        QVERIFY2(!all.contains(QStringLiteral("did not keep up")), qPrintable(all));
        QVERIFY2(cell.steadyMeanInFlight < 0.9 * 2, qPrintable(QStringLiteral("in flight %1: connecting took no time").arg(cell.steadyMeanInFlight)));
        QVERIFY2(all.contains(QStringLiteral("the server closed its connections, so 58 of 60 requests waited for a new connection")), qPrintable(all));
    }

    // Nothing succeeded: failed, with the top error named.
    void everyRequestFailed()
    {
        std::atomic<int> served{0};
        hostile::Server server(failingEvery(&served, 1));
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(hostileSpec(server, 6), dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Failed);
        QVERIFY2(cell.reason.contains(QStringLiteral("all 6 measured requests failed")) && cell.reason.contains(QStringLiteral("http_500")),
                 qPrintable(cell.reason));
        QCOMPARE(r.exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestCellVerdict)
#include "tst_cell_verdict.moc"
