// Host steal (load/HostSteal.h): the hypervisor's share of this machine's CPU time during a phase.
// On a virtual machine a preempted vCPU stalls the client's threads whatever the client does
// (tests/bench/open_loop_bench.cpp prints it beside the schedule lag), so a cell records it and
// its warnings name it: read from /proc/stat's aggregate line, measured over the real engine's
// phase, stored in results.json, and named by the late-send and validity warnings.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "engine/CellValidity.h"
#include "engine/OpenLoopCell.h"
#include "load/HostSteal.h"
#include "results/Results.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

using namespace sb;
using namespace sbtest;

class TstHostSteal : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void readsTheStealColumnOfTheAggregateLine()
    {
        // user nice system idle iowait irq softirq steal guest guest_nice
        QCOMPARE(stealTicks("cpu  4323731 312039 561196 1419863 30882 0 11105 48861 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"), 48861LL);
        QCOMPARE(stealTicks("cpu 1 2 3 4 5 6 7 0"), 0LL);          // no trailing newline, no guest columns
        QCOMPARE(stealTicks("cpu 1 2 3 4 5 6 7\n"), -1LL);         // a kernel without the steal column
        QCOMPARE(stealTicks("cpu0 1 2 3 4 5 6 7 8 0 0\n"), -1LL);  // a per-CPU line is not the aggregate
        QCOMPARE(stealTicks("cpu 1 2 3 4 5 6 7 x 0 0\n"), -1LL);
        QCOMPARE(stealTicks("cpu 1 2 3 4 5 6 7 -5 0 0\n"), -1LL);
        QCOMPARE(stealTicks(""), -1LL);
    }

    void readsThisMachinesCounter()
    {
#ifdef Q_OS_LINUX
        const double a = hostStealMs();
        QVERIFY2(a >= 0, "Linux has a steal column in /proc/stat");
        QVERIFY(hostStealMs() >= a); // a counter: never goes back
#else
        QSKIP("steal is read from Linux's /proc/stat");
#endif
    }

    void lateSendsNameTheSteal()
    {
        OpenLoopResult r;
        r.targetRate = 1000;
        r.arrival = QStringLiteral("poisson");
        r.lagP99Ms = 12;
        r.lagMaxMs = 30;
        const QString late = openLoopWarnings(r, 420).value(0);
        QVERIFY2(late.startsWith(QStringLiteral("the client sent late: schedule lag p99 12.00 ms")), qPrintable(late));
        QVERIFY2(late.contains(QStringLiteral("the hypervisor took 420 ms of this machine's CPU time meanwhile")), qPrintable(late));
        // Unknown or none: the warning says nothing about a hypervisor.
        QVERIFY(!openLoopWarnings(r, -1).value(0).contains(QStringLiteral("hypervisor")));
        QVERIFY(!openLoopWarnings(r, 0).value(0).contains(QStringLiteral("hypervisor")));
        // The client's own threads waiting for a CPU are named when they did, with their share.
        QVERIFY(!late.contains(QStringLiteral("waited for a CPU")));
        const QString busy = openLoopWarnings(r, 0, 0.237).value(0);
        QVERIFY2(busy.contains(QStringLiteral("a client IO thread waited for a CPU 23.7 % of the cell")), qPrintable(busy));
        QVERIFY(!openLoopWarnings(r, 0, 0.004).value(0).contains(QStringLiteral("waited for a CPU")));
        // On schedule: no warning at all, whatever the steal or the wait.
        r.lagP99Ms = 0.4;
        QVERIFY(openLoopWarnings(r, 420, 0.5).isEmpty());
    }

    void heavyStealIsAValidityWarning()
    {
        PhaseOutcome phase;
        CellMetricsOutput metrics;
        phase.wallS = 10;
        const double cpuMs = 10'000.0 * double(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN))); // every CPU, as /proc/stat sums
        phase.hostStealMs = 0.01 * cpuMs; // 1 %: background noise of a shared host
        QVERIFY(validityWarnings(phase, metrics, 1, false).isEmpty());
        phase.hostStealMs = 0.05 * cpuMs;
        const QStringList w = validityWarnings(phase, metrics, 1, false);
        QCOMPARE(w.size(), 1);
        QVERIFY2(w[0].startsWith(QStringLiteral("the hypervisor took %1 ms of this machine's CPU time during the phase (5.0 % steal)")
                                     .arg(phase.hostStealMs, 0, 'f', 0)),
                 qPrintable(w[0]));
        phase.hostStealMs = -1; // unknown
        QVERIFY(validityWarnings(phase, metrics, 1, false).isEmpty());
    }

    void theEngineRecordsItPerCell()
    {
#ifndef Q_OS_LINUX
        QSKIP("steal is read from Linux's /proc/stat");
#endif
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {2}, 4), out.path());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.results.cells.first().hostStealMs >= 0);
        const QJsonObject cell = QJsonDocument::fromJson(sbtest::readFile(out.filePath("results.json"))).object().value("cells").toArray().first().toObject();
        QVERIFY2(cell.value("host_steal_ms").isDouble(), qPrintable(QJsonDocument(cell).toJson()));
        QCOMPARE(cellResultFromJson(cell).hostStealMs, cell.value("host_steal_ms").toDouble());
        // A results file from before the field (or another machine): unknown, not zero.
        QJsonObject old = cell;
        old.remove("host_steal_ms");
        QCOMPARE(cellResultFromJson(old).hostStealMs, -1.0);
    }
};

QTEST_GUILESS_MAIN(TstHostSteal)
#include "tst_host_steal.moc"
