// Run tab: the hook log model under QAbstractItemModelTester, and a real run against the
// embedded mock servers that is cancelled in the middle.
#include "TestSupport.h"
#include "../core/DiskFull.h"
#include "run/HookLogModel.h"
#include "run/LiveChart.h"
#include "run/RunTab.h"
#include <QAbstractItemModelTester>
#include <QLabel>
#include <cerrno>
#include <QDir>
#include <QElapsedTimer>
#include <QTimer>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {
HookOutcome outcome(const QString &hook, bool ok, const QString &verdict, int attempts = 1)
{
    HookOutcome o;
    o.hook = *hookKindFromString(hook);
    o.ok = ok;
    o.verdict = hookVerdictFromString(verdict);
    o.status = ok ? 200 : 404;
    o.attempts = attempts;
    o.latencyMs = 3.5;
    o.at = QDateTime::currentDateTimeUtc();
    return o;
}

SweepSpec mockSpec(int requests)
{
    SweepSpec spec;
    spec.name = QStringLiteral("cancel-test");
    for (const char *p : {"vllm", "sglang"}) {
        ServerSpec s;
        s.name = QStringLiteral("mock-") + QString::fromLatin1(p);
        s.mock = QString::fromLatin1(p);
        s.flavor = *flavorFromString(s.mock);
        s.model = QStringLiteral("demo-model");
        s.reset.enabled = true;
        s.profiler.enabled = true;
        spec.servers << s;
    }
    spec.workload.requestsPerCell = requests;
    spec.workload.outputTokens = 64;
    spec.workload.inputTokens = 32;
    spec.concurrency = {4, 8, 16};
    return spec;
}
} // namespace

class TestRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void hookLogModelUnderTester()
    {
        HookLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QList<HookLogModel::Entry> batch;
        for (int i = 0; i < 500; ++i)
            batch.append({i / 3, QStringLiteral("srv"), 8, outcome(QStringLiteral("reset_kv_cache"), i % 50 != 0, i % 50 ? QStringLiteral("ok") : QStringLiteral("route_missing"))});
        model.append(batch);
        QCOMPARE(inserted.count(), 1); // one insert per batch, not per row
        QCOMPARE(model.rowCount(), 500);
        QCOMPARE(model.failures(), 10);
        QVERIFY(!model.index(0, HookLogModel::Verdict).data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY(model.index(1, HookLogModel::Cell).data().toString().contains(QLatin1String("c=8")));
        model.append({{1, QString(), 0, outcome(QStringLiteral("profiler_stop"), true, QStringLiteral("ok"), 3)}});
        QCOMPARE(model.rowCount(), 501);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void liveChartKeepsPoints()
    {
        LiveChart chart;
        for (int i = 0; i < 2000; ++i)
            chart.addSample(i * 0.1, 100 + i, i % 64);
        chart.flush();
        QCOMPARE(chart.pointCount(), 2000);
        chart.clear();
        QCOMPARE(chart.pointCount(), 0);
    }

    void defaultOutDir()
    {
        SweepSpec spec;
        spec.name = QStringLiteral("my sweep/1");
        const QString dir = RunTab::defaultOutDir(spec);
        QVERIFY(dir.startsWith(QDir::homePath() + QStringLiteral("/SweepBench/results/my_sweep_1-")));
    }

    // A run that stops because results cannot be written says why on the tab itself.
    void writeFailureIsShown()
    {
        QTemporaryDir out;
        RunTab tab;
        QSignalSpy finished(&tab, &RunTab::runFinished);
        {
            sbtest::FileSizeLimit limit(1); // nothing fits: sweep.yaml is the first write
            QVERIFY(tab.start(mockSpec(4), out.path()));
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        }
        QCOMPARE(finished.first().first().toInt(), exitcode::kWriteFailed);
        const QString text = tab.findChild<QLabel *>(QStringLiteral("sweepStatus"))->text();
        QVERIFY2(text.contains(QLatin1String("results could not be written")) && text.contains(QLatin1String("sweep.yaml"))
                     && text.contains(qt_error_string(EFBIG)),
                 qPrintable(text));
    }

    void cancelMidRun()
    {
        QTemporaryDir out;
        RunTab tab;
        tab.show();
        QSignalSpy finished(&tab, &RunTab::runFinished);
        QSignalSpy running(&tab, &RunTab::runningChanged);
        QVERIFY(tab.start(mockSpec(400), out.path()));
        QVERIFY(tab.isRunning());
        QVERIFY(!tab.start(mockSpec(1), out.path())); // one run at a time
        // Wait until the first cell is measuring, then cancel.
        QTRY_VERIFY_WITH_TIMEOUT(tab.cellProgress()->value() > 0 || tab.hookLog()->rowCount() > 0, 60000);
        tab.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(!tab.isRunning());
        QVERIFY(finished.first().first().toInt() != 0);
        const SweepResults results = tab.results();
        int completed = 0;
        for (const CellResult &c : results.cells)
            completed += c.status == sb::CellStatus::Completed;
        QVERIFY2(completed < 6, "cancel did not stop the sweep");
        // The engine still stops profilers on cancel: any start that happened has a stop.
        int starts = 0, stops = 0;
        for (const HookLogModel::Entry &e : tab.hookLog()->entries()) {
            starts += e.outcome.hook == HookKind::ProfilerStart && e.outcome.ok;
            stops += e.outcome.hook == HookKind::ProfilerStop;
        }
        QCOMPARE(stops, starts);
        QCOMPARE(running.count(), 2);
    }

    // The UI thread must keep turning while 1024 streams run: measure the longest gap between
    // ticks of a 20 ms timer. Lenient bound (shared CI boxes); a blocked UI shows as seconds.
    void staysResponsiveAtC1024()
    {
        QTemporaryDir out;
        SweepSpec spec = mockSpec(2048);
        spec.servers.removeLast();
        spec.servers[0].reset.enabled = false;
        spec.servers[0].profiler.enabled = false;
        spec.workload.outputTokens = 16;
        spec.concurrency = {1024};
        RunTab tab;
        tab.show();
        QSignalSpy finished(&tab, &RunTab::runFinished);
        QElapsedTimer clock;
        qint64 last = 0, worst = 0;
        QTimer tick;
        tick.setInterval(20);
        connect(&tick, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            worst = std::max(worst, now - last);
            last = now;
        });
        QVERIFY(tab.start(spec, out.path()));
        clock.start();
        tick.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 180000);
        tick.stop();
        qInfo("longest UI-thread gap during the C=1024 cell: %lld ms", worst);
        QCOMPARE(finished.first().first().toInt(), 0);
        QVERIFY2(worst < 1000, "the UI thread stalled during the run");
    }
};

QTEST_MAIN(TestRun)
#include "tst_run.moc"
