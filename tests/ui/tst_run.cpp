// Run tab: the hook log model under QAbstractItemModelTester, and a real run against the
// embedded mock servers that is cancelled in the middle.
#include "TestSupport.h"
#include "../core/DiskFull.h"
#include "run/HookLogModel.h"
#include "run/LiveChart.h"
#include "run/RunTab.h"
#include "style/ElidedLabel.h"
#include "style/Theme.h"
#include <QAbstractItemModelTester>
#include <QChart>
#include <QLabel>
#include <QXYSeries>
#include <cerrno>
#include <QDir>
#include <QElapsedTimer>
#include <QTimer>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QLineEdit>
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
            batch.append({i / 3, QStringLiteral("srv"), QStringLiteral("c=8"), outcome(QStringLiteral("reset_kv_cache"), i % 50 != 0, i % 50 ? QStringLiteral("ok") : QStringLiteral("route_missing"))});
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

    // Cell-boundary labels run along the top of the plot, above every curve: the highest sample
    // stays below the band the labels take.
    void boundaryLabelsClearTheCurves()
    {
        LiveChart chart;
        chart.resize(800, 240);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.addBoundary(0, QStringLiteral("mock-vllm · 2 req/s"));
        for (int i = 0; i < 100; ++i)
            chart.addSample(i * 0.1, 1090, 8); // flat at its maximum (just under a round axis end): the worst case for a label
        chart.addBoundary(5, QStringLiteral("mock-vllm · 8 req/s"));
        chart.flush();
        QCoreApplication::processEvents();
        const QRectF plot = chart.chart()->plotArea();
        const double band = plot.top() + QFontMetrics(chart.font()).height() + 2;
        for (QAbstractSeries *s : chart.chart()->series()) {
            auto *line = qobject_cast<QXYSeries *>(s);
            for (const QPointF &p : line->points())
                QVERIFY2(chart.chart()->mapToPosition(p, line).y() > band,
                         qPrintable(QStringLiteral("%1 at y=%2, labels down to %3").arg(line->name()).arg(chart.chart()->mapToPosition(p, line).y()).arg(band)));
        }
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
        // The tab says it was cancelled, and the bar is not drawn as a success.
        QCOMPARE(tab.outcome(), QStringLiteral("cancelled"));
        const QString text = tab.findChild<QLabel *>(QStringLiteral("sweepStatus"))->text();
        QVERIFY2(text.contains(QLatin1String("cancelled")), qPrintable(text));
        QCOMPARE(tab.sweepProgress()->property("outcome").toString(), QStringLiteral("cancelled"));
        QVERIFY(tab.sweepProgress()->palette().color(QPalette::Highlight) != tab.palette().color(QPalette::Highlight));
    }

    // A whole run: the chart marks every cell's start with its server and point, the progress
    // pane shows the running cell's hooks and request counts, and the folder field names the
    // folder really written.
    void monitorShowsCellsHooksAndFolder()
    {
        QTemporaryDir out;
        RunTab tab;
        tab.show();
        auto *folder = tab.findChild<QLineEdit *>(QStringLiteral("outDir"));
        QVERIFY(folder->text().isEmpty());
        QSignalSpy finished(&tab, &RunTab::runFinished);
        const SweepSpec spec = mockSpec(8);
        QVERIFY(tab.start(spec, out.path()));
        QCOMPARE(folder->text(), QDir::toNativeSeparators(out.path()));
        // While cells run, the counts row fills in (sent/ok/failed/in flight of the running cell).
        auto *counts = tab.findChild<QLabel *>(QStringLiteral("cellCounts"));
        QTRY_VERIFY_WITH_TIMEOUT(counts->text().contains(QLatin1String(" sent")), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QCOMPARE(finished.first().first().toInt(), 0);
        QCOMPARE(tab.outcome(), QStringLiteral("completed"));
        QCOMPARE(counts->text(), QStringLiteral("8 sent · 8 ok · 0 failed · 0 in flight")); // the last cell's final numbers
        // The mocks publish their scheduler's running/waiting gauges: the chart shows the server's side live.
        QVERIFY(tab.liveChart()->serverPointCount() > 0);

        const int cells = int(spec.servers.size() * spec.concurrency.size());
        const QList<LiveChart::Boundary> marks = tab.liveChart()->boundaries();
        QCOMPARE(marks.size(), cells);
        for (int i = 0; i < cells; ++i) {
            const ServerSpec &server = spec.servers[i / int(spec.concurrency.size())];
            const int c = spec.concurrency[i % spec.concurrency.size()];
            QVERIFY2(marks[i].label.contains(server.name) && marks[i].label.contains(QStringLiteral("c=%1").arg(c)), qPrintable(marks[i].label));
            if (i > 0)
                QVERIFY(marks[i].elapsedS >= marks[i - 1].elapsedS);
        }

        // The hooks row holds the last cell's calls, one verdict each, as the hook log has them.
        QList<HookKind> lastCell;
        for (const HookLogModel::Entry &e : tab.hookLog()->entries())
            if (e.cellIndex == cells - 1)
                lastCell << e.outcome.hook;
        QVERIFY(!lastCell.isEmpty());
        const QList<QLabel *> shown = tab.findChild<QWidget *>(QStringLiteral("cellHooks"))->findChildren<QLabel *>(QStringLiteral("cellHook"));
        QCOMPARE(shown.size(), lastCell.size());
        for (int i = 0; i < shown.size(); ++i) {
            QVERIFY2(shown[i]->text().startsWith(hookKindName(lastCell[i])), qPrintable(shown[i]->text()));
            QCOMPARE(shown[i]->property("severity").toString(), QStringLiteral("ok"));
        }
        // The cell line says how the last cell ended, not "#0 · concurrency 0 · done".
        const QString cellLine = tab.findChild<QLabel *>(QStringLiteral("cellStatus"))->text();
        QVERIFY2(cellLine.contains(QLatin1String("completed")) && cellLine.contains(spec.servers.last().name), qPrintable(cellLine));

        // A second run gets a fresh folder, not the one the field shows from the first run.
        const QString first = folder->text();
        QVERIFY(tab.start(spec, QString()));
        QVERIFY(folder->text() != first);
        QVERIFY(folder->text().startsWith(QDir::toNativeSeparators(QDir::homePath() + QStringLiteral("/SweepBench/results/"))));
        tab.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
        QDir(tab.outDir()).removeRecursively();
    }

    // A request-rate cell's concurrency field holds its max_concurrency cap: the monitor names the
    // cell by its rate (hook log, cell boundaries on the live chart), never "c=256".
    void rateCellsNamedByRate()
    {
        QTemporaryDir out;
        RunTab tab;
        QSignalSpy finished(&tab, &RunTab::runFinished);
        SweepSpec spec = mockSpec(4);
        spec.concurrency.clear();
        spec.openLoop.rates = {40, 80};
        QVERIFY(tab.start(spec, out.path()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QCOMPARE(finished.first().first().toInt(), 0);
        QVERIFY(!tab.hookLog()->entries().isEmpty());
        for (int row = 0; row < tab.hookLog()->rowCount(); ++row) {
            const QString cell = tab.hookLog()->index(row, HookLogModel::Cell).data().toString();
            QVERIFY2(cell.contains(QLatin1String(" req/s")) && !cell.contains(QLatin1String("c=")), qPrintable(cell));
        }
        QVERIFY(tab.hookLog()->index(0, HookLogModel::Cell).data().toString().endsWith(QLatin1String("40 req/s")));
        const QList<LiveChart::Boundary> marks = tab.liveChart()->boundaries();
        QCOMPARE(marks.size(), 4);
        QVERIFY2(marks[1].label.endsWith(QLatin1String("80 req/s")), qPrintable(marks[1].label));
    }

    // Against a port nobody listens on, every cell fails and the tab says why, in red.
    void unreachableServerSaysWhy()
    {
        const quint16 port = sbtest::freePort(); // connecting is refused
        QVERIFY(port);
        SweepSpec spec = mockSpec(8);
        spec.servers.removeLast();
        spec.servers[0].mock.clear();
        spec.servers[0].urls = {QStringLiteral("http://127.0.0.1:%1").arg(port)};
        spec.servers[0].reset.enabled = false;
        spec.servers[0].profiler.enabled = false;
        spec.concurrency = {1, 2};
        QTemporaryDir out;
        RunTab tab;
        QSignalSpy finished(&tab, &RunTab::runFinished);
        QVERIFY(tab.start(spec, out.path()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QCOMPARE(finished.first().first().toInt(), exitcode::kNotAllCompleted);
        QCOMPARE(tab.outcome(), QStringLiteral("failed"));
        const QString text = tab.findChild<QLabel *>(QStringLiteral("sweepStatus"))->text();
        QVERIFY2(text.contains(QLatin1String("failed")) && text.contains(QLatin1String("server unreachable"))
                     && text.contains(QLatin1String("Connection refused")),
                 qPrintable(text));
        QCOMPARE(tab.sweepProgress()->palette().color(QPalette::Highlight), cellStatusColor(CellStatus::Failed));
        // The bold title carries the verdict only; the long reason wraps in the label beneath it,
        // so the window never grows to the width of a server's error message.
        auto *title = tab.findChild<ElidedLabel *>(QStringLiteral("runTitle"));
        QVERIFY2(title->fullText().startsWith(QLatin1String("Sweep failed")) && !title->fullText().contains(QLatin1String("Connection refused")),
                 qPrintable(title->fullText()));
        QVERIFY(title->toolTip().contains(QLatin1String("Connection refused"))); // the whole sentence on hover
        QVERIFY(tab.minimumSizeHint().width() < 1200);
        // In the narrowest window the title ends in "…" instead of being cut mid-letter; with
        // room it is whole.
        tab.resize(tab.minimumSizeHint().width(), 700);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QTRY_VERIFY(title->width() < title->fontMetrics().horizontalAdvance(title->fullText()));
        QVERIFY2(title->text().endsWith(QChar(0x2026)) && title->fullText().startsWith(title->text().chopped(1)), qPrintable(title->text()));
        tab.resize(2400, 700);
        QTRY_COMPARE(title->text(), title->fullText());
        const QString cellLine = tab.findChild<QLabel *>(QStringLiteral("cellStatus"))->text();
        QVERIFY2(cellLine.contains(QLatin1String("failed")) && !cellLine.contains(QLatin1String("done")), qPrintable(cellLine));
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
