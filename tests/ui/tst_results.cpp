// Results view: table model (tester, hook glyphs/tooltips, live updates), CSV copy, selection ↔
// chart highlight, coalesced redraws, distribution read from records.jsonl.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/ChartPoints.h"
#include "charts/ChartsPanel.h"
#include "charts/InteractiveChartView.h"
#include "results/CellDetail.h"
#include "results/HookSeverity.h"
#include "run/HookLogModel.h"
#include "style/Theme.h"
#include "load/CellRecords.h"
#include "results/DistributionPane.h"
#include "results/ResultsTableModel.h"
#include "results/ResultsTableView.h"
#include "results/ResultsView.h"
#include "results/TableCsv.h"
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QClipboard>
#include <QIcon>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <QTextBrowser>
#include <QXYSeries>
#include <QUrl>

using namespace sb;
using namespace sb::ui;
using M = ResultsTableModel;

class TestResults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void modelUnderTester()
    {
        M model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResults(sbtest::makeSweepResults());
        QCOMPARE(model.rowCount(), 15);
        QCOMPARE(model.columnCount(), int(M::ColumnCount));
        CellResult c = sbtest::makeCell(7, 1, 16);
        c.status = sb::CellStatus::Failed;
        c.failed = 3;
        c.errors.insert(QStringLiteral("timeout"), 3);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.updateCell(c); // replace
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.rowCount(), 15);
        QCOMPARE(model.index(7, M::StatusColumn).data().toString(), QStringLiteral("failed"));
        QVERIFY(model.index(7, M::FailedColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("3 × timeout")));
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.updateCell(sbtest::makeCell(100, 3, 2)); // insert at end
        model.updateCell(sbtest::makeCell(50, 3, 1));  // out of order: inserted before 100
        QCOMPARE(inserted.size(), 2);
        QCOMPARE(model.rowCount(), 17);
        QCOMPARE(model.rowOfCell(50), 15);
        QCOMPARE(model.rowOfCell(100), 16);
        QCOMPARE(model.cellAt(16)->concurrency, 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void columnsShowNumbers()
    {
        M model;
        model.setResults(sbtest::makeSweepResults());
        const QModelIndex ttft = model.index(3, M::TtftP50Column); // server a, c=64
        QCOMPARE(ttft.data(M::SortRole).toDouble(), sbtest::ttftP50(0, 64));
        QCOMPARE(ttft.data().toString(), QStringLiteral("640"));
        QCOMPARE(model.index(3, M::ServerColumn).data().toString(), QStringLiteral("server-a"));
        QCOMPARE(model.index(3, M::ConcurrencyColumn).data().toInt(), 64);
        QCOMPARE(model.index(3, 0).data(M::CellIndexRole).toInt(), 3);
        const QStringList traces = model.index(0, M::TracesColumn).data(M::TracePathsRole).toStringList();
        QCOMPARE(traces.size(), 2);
        // the fixture's traces are not on disk: marked (tst_trace_links covers both cases)
        QCOMPARE(model.index(0, M::TracesColumn).data().toString(), QStringLiteral("⚠ ") + QFileInfo(traces.first()).fileName() + QStringLiteral(" +1"));
        QVERIFY(model.index(0, M::TracesColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("rank-1.json")));
        QCOMPARE(model.index(5, M::TracesColumn).data().toString(), QString());
        QVERIFY(!model.headerData(M::TtftP50Column, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }

    void hookIconsAndToolTips()
    {
        M model;
        model.setResults(sbtest::makeSweepResults());
        // server a: everything first try
        const QModelIndex reset = model.index(0, M::ResetColumn);
        QCOMPARE(reset.data(M::HookStateRole).toInt(), int(HookState::Ok));
        QVERIFY(!reset.data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY(!reset.data(Qt::DisplayRole).isValid()); // the glyph speaks
        const QString tip = reset.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("HTTP 200")) && tip.contains(QStringLiteral("1 attempt"))
                     && tip.contains(QStringLiteral("/reset_prefix_cache")) && tip.contains(QStringLiteral("12.5 ms")),
                 qPrintable(tip));
        QVERIFY(!tip.contains(QStringLiteral("by metrics")));
        // The server's counter judged the reset (docs/server-metrics.md): the tooltip says so.
        SweepResults judged = sbtest::makeSweepResults();
        judged.cells[0].hooks[0].metricsVerdict = MetricsVerdict::NotConfirmed;
        judged.cells[0].hooks[0].metricsCachedTokens = 4096;
        model.setResults(judged);
        QVERIFY2(model.index(0, M::ResetColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("reset NOT confirmed by metrics (4096 cached tokens)")),
                 qPrintable(model.index(0, M::ResetColumn).data(Qt::ToolTipRole).toString()));
        model.setResults(sbtest::makeSweepResults());
        // server b: reset needed 3 attempts
        const QModelIndex retried = model.index(5, M::ResetColumn);
        QCOMPARE(retried.data(M::HookStateRole).toInt(), int(HookState::Retried));
        QCOMPARE(retried.data(M::CsvRole).toString(), QStringLiteral("ok after 3 attempts"));
        QVERIFY(retried.data(Qt::ToolTipRole).toString().contains(QStringLiteral("3 attempts")));
        // server c: profiler stop failed → warning, with verdict and message
        const QModelIndex stop = model.index(10, M::ProfilerStopColumn);
        QCOMPARE(stop.data(M::HookStateRole).toInt(), int(HookState::Warning));
        QVERIFY(stop.data(Qt::ToolTipRole).toString().contains(QStringLiteral("timeout")));
        QVERIFY(stop.data(Qt::ToolTipRole).toString().contains(QStringLiteral("server said no")));
        QVERIFY(stop.data(Qt::ToolTipRole).toString().contains(QStringLiteral("no response")));
        // a failed reset is an error; a cell without hooks shows nothing
        CellResult c = sbtest::makeCell(0, 0, 1);
        c.hooks << sbtest::hook(QStringLiteral("reset_kv_cache"), false, 4, 503, QStringLiteral("busy"));
        model.updateCell(c);
        QCOMPARE(model.index(0, M::ResetColumn).data(M::HookStateRole).toInt(), int(HookState::Failed));
        QCOMPARE(model.index(0, M::ProfilerStartColumn).data(M::HookStateRole).toInt(), int(HookState::None));
        QVERIFY(!model.index(0, M::ProfilerStartColumn).data(Qt::DecorationRole).isValid());
        // distinct glyphs per state
        const QImage ok = hookStateIcon(HookState::Ok).pixmap(16).toImage();
        const QImage bad = hookStateIcon(HookState::Failed).pixmap(16).toImage();
        QVERIFY(ok != bad);
    }

    void oneHookJudgementEverywhere()
    {
        // A reset whose route is missing (stock trtllm-serve): the table, the Run tab's hook log
        // and the detail pane used to call it ⚠, ✗ and red. One severity, one icon set now.
        CellResult c = sbtest::makeCell(0, 0, 1);
        c.hooks << sbtest::hook(QStringLiteral("reset_kv_cache"), false, 1, 404, QStringLiteral("route_missing"))
                << sbtest::hook(QStringLiteral("profiler_stop"), false, 1, 404, QStringLiteral("route_missing"));
        QCOMPARE(hookSeverity(c.hooks[0]), HookSeverity::Failed);
        QCOMPARE(hookSeverity(c.hooks[1]), HookSeverity::Warning);
        M model;
        SweepResults r;
        r.cells << c;
        model.setResults(r);
        QCOMPARE(model.index(0, M::ResetColumn).data(M::HookStateRole).toInt(), int(HookState::Failed));
        QCOMPARE(model.index(0, M::ProfilerStopColumn).data(M::HookStateRole).toInt(), int(HookState::Warning));
        ui::HookLogModel log;
        log.append({{0, c.server, 1, c.hooks[0]}, {0, c.server, 1, c.hooks[1]}});
        for (int i : {0, 1}) {
            const int column = i == 0 ? M::ResetColumn : M::ProfilerStopColumn;
            const QImage table = model.index(0, column).data(Qt::DecorationRole).value<QIcon>().pixmap(16).toImage();
            const QImage logged = log.index(i, ui::HookLogModel::Verdict).data(Qt::DecorationRole).value<QIcon>().pixmap(16).toImage();
            QVERIFY(!table.isNull());
            QCOMPARE(logged, table);
        }
        const QString detail = cellDetailHtml(c, QString());
        QVERIFY2(detail.contains(ui::hookSeverityColor(HookSeverity::Failed).name()), qPrintable(detail));
        QVERIFY2(detail.contains(ui::hookSeverityColor(HookSeverity::Warning).name()), qPrintable(detail));
    }

    void csv()
    {
        M model;
        SweepResults r = sbtest::makeSweepResults(1);
        r.cells[0].server = QStringLiteral("vllm, \"fast\"");
        model.setResults(r);
        const QString all = tableToCsv(&model);
        const QStringList lines = all.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        QVERIFY(lines.at(0).startsWith(QStringLiteral("Server,Conc.,Status,OK,Failed,TTFT p50")));
        QVERIFY2(lines.at(1).startsWith(QStringLiteral("\"vllm, \"\"fast\"\"\",1,completed,10,0,10,")), qPrintable(lines.at(1)));
        // full precision, not the display rounding
        QVERIFY(lines.at(5).contains(QString::number(sbtest::throughput(0, 256), 'g', 17).left(10)));
        QVERIFY(lines.at(5).contains(QStringLiteral("ok")));
        const QString two = tableToCsv(&model, {4, 2});
        QCOMPARE(two.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts).size(), 3);
        QVERIFY(two.split(QStringLiteral("\r\n")).at(1).contains(QStringLiteral(",256,")));

        // Clipboard copies get the same formula guard as results.csv: server names come from specs.
        r.cells[0].server = QStringLiteral("=HYPERLINK(\"http://x\")");
        model.setResults(r);
        const QString guarded = tableToCsv(&model, {0});
        QVERIFY2(guarded.split(QStringLiteral("\r\n")).at(1).startsWith(QStringLiteral("\"'=HYPERLINK(\"\"http://x\"\")\",1,")),
                 qPrintable(guarded));

        ResultsTableView view(&model);
        view.selectCell(2);
        view.selectionModel()->select(view.model()->index(4, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view.copySelectionAsCsv();
        const QStringList copied = QApplication::clipboard()->text().split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(copied.size(), 3);
        QVERIFY(copied.at(1).contains(QStringLiteral(",16,")));
        view.selectCell(-1);
        QCOMPARE(view.selectionCsv(), view.allCsv()); // nothing selected → everything
    }

    void selectionHighlightsPointsAndBack()
    {
        ResultsView view;
        view.resize(1200, 800);
        view.setResults(sbtest::makeSweepResults(), QString());
        auto *tp = view.findChild<InteractiveChartView *>(QStringLiteral("throughputChart"));
        auto *mc = view.findChild<InteractiveChartView *>(QStringLiteral("metricChart"));
        QVERIFY(tp && mc);
        QCOMPARE(taggedSeries(tp->chart()).size(), 3);
        QSignalSpy selected(&view, &ResultsView::cellSelected);
        view.selectCell(8);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(view.selectedCell(), 8);
        QCOMPARE(highlightedPoints(tp->chart()), (QList<ChartPointRef>{{0, 8}}));
        QCOMPARE(highlightedPoints(mc->chart()), (QList<ChartPointRef>{{0, 8}}));
        auto *detail = view.findChild<QTextBrowser *>(QStringLiteral("cellDetail"));
        QVERIFY(detail->toPlainText().contains(QStringLiteral("server-b · concurrency 64")));
        // click on a point of server c, c=4 (cell 11) in the metric chart
        QXYSeries *serverC = taggedSeries(mc->chart()).at(2);
        Q_EMIT serverC->clicked(serverC->at(1));
        QCOMPARE(view.selectedCell(), 11);
        auto *table = view.findChild<ResultsTableView *>(QStringLiteral("cellTable"));
        QCOMPARE(table->currentCellIndex(), 11);
        QCOMPARE(highlightedPoints(tp->chart()), (QList<ChartPointRef>{{0, 11}}));
        // highlight survives a rebuild
        view.updateCell(view.results().cells.at(0));
        view.findChild<ChartsPanel *>()->flush();
        QCOMPARE(highlightedPoints(tp->chart()), (QList<ChartPointRef>{{0, 11}}));
        view.selectCell(-1);
        QCOMPARE(view.selectedCell(), -1);
        QVERIFY(highlightedPoints(tp->chart()).isEmpty());
    }

    void liveUpdatesAreCoalesced()
    {
        ResultsView view;
        SweepResults r = sbtest::makeSweepResults();
        const QList<CellResult> cells = r.cells;
        r.cells.clear();
        view.setResults(r, QString());
        auto *panel = view.findChild<ChartsPanel *>();
        const int before = panel->rebuildCount();
        for (const CellResult &c : cells)
            view.updateCell(c);
        for (const CellResult &c : cells)
            view.updateCell(c); // replaces
        QCOMPARE(view.results().cells.size(), 15);
        QCOMPARE(panel->rebuildCount(), before); // nothing drawn synchronously
        QTRY_COMPARE(panel->rebuildCount(), before + 1);
        QTest::qWait(2 * ChartsPanel::kRebuildDelayMs);
        QCOMPARE(panel->rebuildCount(), before + 1);
        auto *tp = view.findChild<InteractiveChartView *>(QStringLiteral("throughputChart"));
        QCOMPARE(taggedSeries(tp->chart()).size(), 3);
        QCOMPARE(taggedSeries(tp->chart()).at(0)->count(), 5);
    }

    void recordsReader()
    {
        QTemporaryDir dir;
        QVERIFY(sbtest::writeRecords(dir.path(), QStringLiteral("r.jsonl"), 100));
        QFile f(dir.filePath(QStringLiteral("r.jsonl")));
        QVERIFY(f.open(QIODevice::Append));
        f.write("not json\n\n");
        f.close();
        const CellRecordSamples s = readCellRecords(dir.filePath(QStringLiteral("r.jsonl")));
        QCOMPARE(s.records, 100);
        QCOMPARE(s.failed, 10);
        QCOMPARE(s.malformed, 1);
        QCOMPARE(s.ttftMs.size(), 90);
        QCOMPARE(s.latencyMs.size(), 90);
        QCOMPARE(s.ttftMs.first(), 1.0);
        QVERIFY(!readCellRecords(dir.filePath(QStringLiteral("missing.jsonl"))).error.isEmpty());
    }

    void distributionOfSelectedCell()
    {
        QTemporaryDir dir;
        const SweepResults r = sbtest::makeSweepResults();
        QVERIFY(sbtest::writeRecords(dir.path(), r.cells.at(4).recordsPath, 500));
        ResultsView view;
        view.setResults(r, dir.path());
        auto *pane = view.findChild<DistributionPane *>();
        QSignalSpy loaded(pane, &DistributionPane::loaded);
        view.selectCell(4);
        QTRY_VERIFY(!pane->isLoading());
        QVERIFY(loaded.size() >= 1);
        QCOMPARE(pane->samples().records, 500);
        QCOMPARE(pane->samples().ttftMs.size(), 450);
        QVERIFY(pane->chartView()->chart()->title().contains(QStringLiteral("450 requests")));
        // a cell without a records file: an error message, no crash, no stale samples
        view.selectCell(5);
        QTRY_VERIFY(!pane->isLoading());
        QCOMPARE(pane->samples().records, 0);
        QVERIFY(!pane->samples().error.isEmpty());
        // quick reselects: the last one wins
        view.selectCell(6);
        view.selectCell(4);
        QTRY_VERIFY(!pane->isLoading());
        QCOMPARE(pane->samples().records, 500);
    }

    void detailPaneContent()
    {
        CellResult c = sbtest::makeSweepResults().cells.at(10);
        c.errors.insert(QStringLiteral("http_500"), 2);
        c.errorSamples.insert(QStringLiteral("http_500"), QStringLiteral("Internal <error>"));
        c.warnings << QStringLiteral("prefix cache was warm");
        QTemporaryDir tmp; // a trace on disk is linked (a missing one is marked: tst_trace_links)
        const QString trace = tmp.filePath(QStringLiteral("x.json"));
        QFile traceFile(trace);
        QVERIFY(traceFile.open(QIODevice::WriteOnly));
        traceFile.close();
        c.traces << trace;
        c.hooks.first().path = QStringLiteral("/flush_cache?timeout=%20");
        const QString html = cellDetailHtml(c, QStringLiteral("/tmp/out"));
        QVERIFY(html.contains(QStringLiteral("Internal &lt;error&gt;")));
        QVERIFY(html.contains(QStringLiteral("prefix cache was warm")));
        QVERIFY(html.contains(QUrl::fromLocalFile(trace).toString()));
        QVERIFY(html.contains(QStringLiteral("/flush_cache?timeout=%20")));
        QVERIFY(html.contains(QStringLiteral("profiler_stop")));
        QVERIFY(html.contains(QStringLiteral("/tmp/out/cells/010/records.jsonl")));
    }

    void openResultsFolder()
    {
        QTemporaryDir dir;
        QVERIFY(sbtest::writeResultsFolder(dir.path(), sbtest::makeSweepResults(2), 20));
        ResultsView view;
        QString error;
        QVERIFY2(view.openResults(dir.path(), &error), qPrintable(error));
        QCOMPARE(view.results().cells.size(), 10);
        QVERIFY(!view.openResults(dir.filePath(QStringLiteral("nope")), &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(view.results().cells.size(), 10); // unchanged after a failed open
    }
};

QTEST_MAIN(TestResults)
#include "tst_results.moc"
