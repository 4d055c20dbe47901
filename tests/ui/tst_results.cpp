// Results view: table model (tester, hook glyphs/tooltips, live updates), CSV copy, selection ↔
// chart highlight, coalesced redraws, the empty state and the folder link. The panes beside the
// table (Server, Over time, distribution, cell detail) are tst_results_panes'.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/ChartPoints.h"
#include "charts/ChartsPanel.h"
#include "charts/InteractiveChartView.h"
#include "charts/DifferencePanel.h"
#include "metrics/MetricCatalogue.h"
#include "load/CellRecords.h"
#include "results/CellDetail.h"
#include "results/HookSeverity.h"
#include "results/ResultsTableModel.h"
#include "results/ResultsTableView.h"
#include "results/ResultsView.h"
#include "results/ServerMetricsPane.h"
#include "results/TableCsv.h"
#include "run/HookLogModel.h"
#include "style/Theme.h"
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QSignalSpy>
#include <QScrollBar>
#include <QSet>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTabWidget>
#include <QTreeWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QXYSeries>

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

    // A cell without measurements reads "–" in every metric column (not 0.00, not blank), and
    // a cancelled cell that had sent requests says it is partial.
    void unmeasuredCellsShowDash()
    {
        M model;
        SweepResults r = sbtest::makeSweepResults();
        r.cells[1].status = sb::CellStatus::Failed;
        r.cells[2].status = sb::CellStatus::Cancelled;
        r.cells[2].completed = 16;
        r.cells[2].failed = 0;
        model.setResults(r);
        for (int col : {int(M::TtftP50Column), int(M::OutputThroughputColumn), int(M::RequestThroughputColumn)}) {
            QCOMPARE(model.index(1, col).data().toString(), QStringLiteral("–"));
            QCOMPARE(model.index(2, col).data().toString(), QStringLiteral("–"));
            QVERIFY(!model.index(1, col).data(M::SortRole).isValid()); // sorts and exports as missing
            QVERIFY(model.index(0, col).data().toString() != QStringLiteral("–"));
        }
        QCOMPARE(model.index(2, M::StatusColumn).data().toString(), QStringLiteral("cancelled (partial: 16 requests)"));
        QCOMPARE(model.index(2, M::StatusColumn).data(M::CsvRole).toString(), QStringLiteral("cancelled"));
        QCOMPARE(model.index(1, M::StatusColumn).data(Qt::ForegroundRole).value<QColor>(), cellStatusColor(sb::CellStatus::Failed));
    }

    // The results-folder link reads on the dark palette: it is drawn in the palette's link colour,
    // moved away from the background when the two are too close (dark blue on dark grey).
    void folderLinkReadsInDarkPalette()
    {
        QPalette poor;
        poor.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
        poor.setColor(QPalette::Link, QColor(0x00, 0x00, 0x8b));
        QVERIFY(contrastRatio(poor.color(QPalette::Link), poor.color(QPalette::Window)) < 2);
        QVERIFY(contrastRatio(linkColor(poor), poor.color(QPalette::Window)) >= 4.5);
        QPalette light;
        light.setColor(QPalette::Window, Qt::white);
        light.setColor(QPalette::Link, QColor(0x00, 0x66, 0xcc));
        QCOMPARE(linkColor(light), QColor(0x00, 0x66, 0xcc)); // readable already: kept

        applyTheme(ThemeMode::Dark);
        ResultsView view;
        QTemporaryDir dir;
        view.setResults(sbtest::makeSweepResults(), dir.path());
        const QString summary = view.findChild<QLabel *>(QStringLiteral("resultsSummary"))->text();
        const QColor link = linkColor(view.palette());
        QVERIFY2(summary.contains(QStringLiteral("color:%1").arg(link.name())), qPrintable(summary));
        QVERIFY(contrastRatio(link, view.palette().color(QPalette::Window)) >= 4.5);
        applyTheme(ThemeMode::Light);
        QTRY_VERIFY(view.findChild<QLabel *>(QStringLiteral("resultsSummary"))->text().contains(linkColor(view.palette()).name()));
        QVERIFY(contrastRatio(linkColor(view.palette()), view.palette().color(QPalette::Window)) >= 4.5);
    }

    void columnsShowNumbers()
    {
        M model;
        model.setResults(sbtest::makeSweepResults());
        const QModelIndex ttft = model.index(3, M::TtftP50Column); // server a, c=64
        QCOMPARE(ttft.data(M::SortRole).toDouble(), sbtest::ttftP50(0, 64));
        QCOMPARE(ttft.data().toString(), QStringLiteral("640"));
        QCOMPARE(model.index(3, M::ServerColumn).data().toString(), QStringLiteral("server-a"));
        QCOMPARE(model.index(3, M::LoadColumn).data().toInt(), 64);
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
        // a launched server's restart is that cell's reset: shown in the reset column, named
        CellResult restarted = sbtest::makeCell(0, 0, 1);
        restarted.hooks << sbtest::hook(QStringLiteral("restart"), false, 1, 0, QStringLiteral("error"));
        model.updateCell(restarted);
        QCOMPARE(model.index(0, M::ResetColumn).data(M::HookStateRole).toInt(), int(HookState::Failed));
        QVERIFY2(model.index(0, M::ResetColumn).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("restart: ")),
                 qPrintable(model.index(0, M::ResetColumn).data(Qt::ToolTipRole).toString()));
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
        log.append({{0, c.server, QStringLiteral("c=1"), c.hooks[0]}, {0, c.server, QStringLiteral("c=1"), c.hooks[1]}});
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
        QVERIFY(lines.at(0).startsWith(QStringLiteral("Server,Conc.,Run,Status,OK,Failed,TTFT p50")));
        QVERIFY2(lines.at(1).startsWith(QStringLiteral("\"vllm, \"\"fast\"\"\",1,1,completed,10,0,10,")), qPrintable(lines.at(1)));
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
        QVERIFY(detail->toPlainText().contains(QStringLiteral("server-b · c=64")));
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

    // The table model and the Server pane read the view's one snapshot, not copies kept in step:
    // after a cell update every reader holds the same new object, and the old one is unchanged.
    void viewsReadOneSharedSnapshot()
    {
        ResultsView view;
        view.setResults(sbtest::makeSweepResults(), QString());
        auto *model = view.findChild<ResultsTableModel *>();
        auto *pane = view.findChild<ServerMetricsPane *>(QStringLiteral("serverPane"));
        QVERIFY(model && pane);
        const ResultSnapshot before = view.snapshot();
        QCOMPARE(model->snapshot().get(), before.get());
        QCOMPARE(pane->snapshot().get(), before.get());
        QCOMPARE(&view.results(), before.get());

        CellResult c = before->cells.at(3);
        QVERIFY(c.serverMetrics.isEmpty()); // the pane used to be left with its old copy then
        const int oldCompleted = c.completed;
        c.completed = oldCompleted + 1000;
        view.updateCell(c);
        const ResultSnapshot after = view.snapshot();
        QVERIFY(after.get() != before.get());
        QCOMPARE(model->snapshot().get(), after.get());
        QCOMPARE(pane->snapshot().get(), after.get());
        QCOMPARE(after->cells.at(3).completed, oldCompleted + 1000);
        QCOMPARE(before->cells.at(3).completed, oldCompleted); // immutable: a reader of the old one sees no change
        QCOMPARE(model->index(3, M::OkColumn).data().toString(),
                 QString::number(oldCompleted + 1000));

        CellResult added = sbtest::makeCell(100, 0, 512); // a new cell: inserted, again one snapshot
        view.updateCell(added);
        QCOMPARE(model->snapshot().get(), view.snapshot().get());
        QCOMPARE(pane->snapshot().get(), view.snapshot().get());
        QCOMPARE(model->rowCount(), int(view.snapshot()->cells.size()));
        QCOMPARE(view.snapshot()->cells.constLast().index, 100);

        view.clear(); // a whole new (empty) set: one snapshot again
        QCOMPARE(model->snapshot().get(), view.snapshot().get());
        QCOMPARE(pane->snapshot().get(), view.snapshot().get());
        QCOMPARE(after->cells.size(), before->cells.size()); // still whole for whoever holds it
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

    // Nothing loaded: the view says what to do instead of showing empty axes.
    // A request-rate cell is named by its rate everywhere (its concurrency field holds the
    // max_concurrency cap, 256 here), repeats get a Run column, and the rows can be told apart.
    void rateCellsAndRepeatsIdentifiable()
    {
        const SweepResults r = sbtest::makeRateSweepResults(2, {2, 8, 16}, 2);
        M model;
        model.setResults(r);
        QCOMPARE(model.headerData(M::LoadColumn, Qt::Horizontal).toString(), QStringLiteral("Rate"));
        QCOMPARE(model.index(0, M::LoadColumn).data().toString(), QStringLiteral("2 req/s"));
        QCOMPARE(model.index(2, M::LoadColumn).data().toString(), QStringLiteral("8 req/s"));
        QCOMPARE(model.index(2, M::LoadColumn).data(M::SortRole).toDouble(), 8.0);
        const QString tip = model.index(0, M::LoadColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("2 req/s")) && tip.contains(QLatin1String("256")) && tip.contains(QLatin1String("max_concurrency")), qPrintable(tip));
        QCOMPARE(model.index(0, M::RepeatColumn).data().toInt(), 1);
        QCOMPARE(model.index(1, M::RepeatColumn).data().toInt(), 2);
        // every row reads differently: server, point and run together
        QSet<QString> rows;
        for (int i = 0; i < model.rowCount(); ++i)
            rows.insert(QStringLiteral("%1|%2|%3").arg(model.index(i, M::ServerColumn).data().toString(),
                                                       model.index(i, M::LoadColumn).data().toString(),
                                                       model.index(i, M::RepeatColumn).data().toString()));
        QCOMPARE(rows.size(), model.rowCount());
        ResultsTableView view(&model);
        QVERIFY(!view.isColumnHidden(M::RepeatColumn));
        model.setResults(sbtest::makeSweepResults()); // no repeats: no Run column
        QVERIFY(view.isColumnHidden(M::RepeatColumn));
        QCOMPARE(model.headerData(M::LoadColumn, Qt::Horizontal).toString(), QStringLiteral("Conc."));
        QCOMPARE(model.index(0, M::LoadColumn).data().toInt(), 1);
    }

    // Repeats grouped: one row per server × point with mean ± CI, its runs beneath; picking a
    // run selects its cell. Without repeats the grouping is not offered.
    void repeatsGroupedByPoint()
    {
        ResultsView view;
        view.setResults(sbtest::makeRateSweepResults(2, {2, 8, 16}, 2), QString());
        auto *tree = view.findChild<QTreeWidget *>(QStringLiteral("repeatsTree"));
        auto *tabs = view.findChild<QTabWidget *>(QStringLiteral("tableTabs"));
        QVERIFY(tree && tabs);
        QVERIFY(tabs->isTabVisible(tabs->indexOf(tree)));
        QCOMPARE(tree->topLevelItemCount(), 6);
        QTreeWidgetItem *first = tree->topLevelItem(0);
        QCOMPARE(first->text(0), QStringLiteral("server-a"));
        QCOMPARE(first->text(1), QStringLiteral("2 req/s"));
        QCOMPARE(first->text(2), QStringLiteral("2"));
        QCOMPARE(first->childCount(), 2);
        QVERIFY2(first->text(3).startsWith(QStringLiteral("22.00 ± ")), qPrintable(first->text(3))); // TTFT p50 over the runs
        QCOMPARE(first->child(1)->text(0), QStringLiteral("run 2"));
        QCOMPARE(first->child(1)->text(1), QStringLiteral("2 req/s"));
        tree->setCurrentItem(tree->topLevelItem(1)->child(1));
        QCOMPARE(view.selectedCell(), 3);
        view.setResults(sbtest::makeSweepResults(), QString());
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(tree)));
    }

    // A new set starts with its first column in view, whatever the last one was scrolled to.
    void horizontalScrollResetsForANewSet()
    {
        ResultsView view;
        view.resize(700, 600);
        view.setResults(sbtest::makeSweepResults(), QString());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto *table = view.findChild<ResultsTableView *>();
        QScrollBar *bar = table->horizontalScrollBar();
        QVERIFY(bar->maximum() > 0); // the table is wider than its pane
        bar->setValue(bar->maximum());
        view.setResults(sbtest::makeRateSweepResults(), QString());
        QCOMPARE(bar->value(), 0);
        bar->setValue(bar->maximum());
        view.clear(); // a new run starts
        view.updateCell(sbtest::makeCell(0, 0, 4));
        QCOMPARE(bar->value(), 0);
    }

    // Any two servers of one set: per point A, B, Δ % and whether the runs show a difference.
    void withinSetDifferences()
    {
        ResultsView view;
        // server b's TTFT is a's × 1.2; 3 runs per point with ±2 % run-to-run spread: significant
        view.setResults(sbtest::makeRateSweepResults(2, {2, 8}, 3, 0.02), QString());
        view.findChild<ChartsPanel *>()->setMetric(tag::ttft, Stat::P50);
        view.findChild<ChartsPanel *>()->flush();
        auto *panel = view.findChild<DifferencePanel *>(QStringLiteral("resultsDifferences"));
        QVERIFY(panel);
        QTableWidget *t = panel->table();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("2 req/s"));
        QCOMPARE(t->item(0, 1)->text().section(QLatin1Char(' '), 0, 0), QStringLiteral("22.00")); // mean of a's runs
        QCOMPARE(t->item(0, 3)->text(), QStringLiteral("+20.0 %"));
        QVERIFY2(t->item(0, 4)->text().startsWith(QLatin1String("yes")), qPrintable(t->item(0, 4)->text()));
        QCOMPARE(t->item(0, 5)->text(), QStringLiteral("server-a"));
        QCOMPARE(t->item(0, 6)->text(), QStringLiteral("server-b"));
        // the same 20 % with ±50 % spread between runs: not a difference the runs show
        view.setResults(sbtest::makeRateSweepResults(2, {2, 8}, 3, 0.5), QString());
        view.findChild<ChartsPanel *>()->flush();
        QCOMPARE(t->rowCount(), 2);
        QVERIFY2(t->item(0, 4)->text().startsWith(QLatin1String("no")), qPrintable(t->item(0, 4)->text()));
        // the user's pair: B against A
        QVERIFY(panel->choosePair({0, QStringLiteral("server-b")}, {0, QStringLiteral("server-a")}));
        QCOMPARE(t->item(0, 5)->text(), QStringLiteral("server-b"));
        QVERIFY(t->item(0, 3)->text().startsWith(QStringLiteral("−")));
    }

    // With results loaded and no cell chosen, the cell panes say to pick one, not to run a sweep.
    void cellPanesAskForACell()
    {
        ResultsView view;
        view.setResults(sbtest::makeSweepResults(), QString());
        for (const char *pane : {"timeSlicesPane", "serverPane"}) {
            const QList<QLabel *> empties = view.findChild<QWidget *>(QString::fromLatin1(pane))->findChildren<QLabel *>(QStringLiteral("emptyChart"));
            QVERIFY(!empties.isEmpty());
            QVERIFY2(empties.first()->text().contains(QLatin1String("Select a cell")), qPrintable(empties.first()->text()));
            QVERIFY(!empties.first()->text().contains(QLatin1String("run a sweep")));
        }
    }

    void emptyStateSaysWhatToDo()
    {
        ResultsView view;
        auto *pages = view.findChild<QStackedWidget *>();
        auto *empty = view.findChild<QLabel *>(QStringLiteral("resultsEmptyState"));
        QVERIFY(pages && empty);
        QCOMPARE(pages->currentWidget(), static_cast<QWidget *>(empty));
        for (const char *hint : {"Run a sweep", "Open results folder", "drop a results folder"})
            QVERIFY2(empty->text().contains(QLatin1String(hint)), hint);
        view.setResults(sbtest::makeSweepResults(), QString());
        QVERIFY(pages->currentWidget() != empty);
        view.clear();
        QCOMPARE(pages->currentWidget(), static_cast<QWidget *>(empty));
        view.updateCell(sbtest::makeCell(0, 0, 4)); // the first cell of a run shows the results
        QVERIFY(pages->currentWidget() != empty);
        CellResult cancelled = sbtest::makeCell(1, 0, 8);
        cancelled.status = sb::CellStatus::Cancelled;
        view.updateCell(cancelled);
        QVERIFY(view.findChild<QLabel *>(QStringLiteral("resultsSummary"))->text().contains(QLatin1String("1 cancelled")));
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
