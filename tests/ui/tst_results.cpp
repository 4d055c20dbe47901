// Results view: table model (tester, hook glyphs/tooltips, live updates), CSV copy, selection ↔
// chart highlight, coalesced redraws, distribution read from records.jsonl.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/ChartPoints.h"
#include "charts/ChartsPanel.h"
#include "charts/InteractiveChartView.h"
#include "charts/MetricFormat.h"
#include "results/CellDetail.h"
#include "results/HookSeverity.h"
#include "run/HookLogModel.h"
#include "style/Theme.h"
#include "load/CellRecords.h"
#include "results/DistributionPane.h"
#include "results/ResultsTableModel.h"
#include "results/ResultsTableView.h"
#include "results/ResultsView.h"
#include "results/ServerMetricsPane.h"
#include "results/TimeSlicesPane.h"
#include <QStackedWidget>
#include <QComboBox>
#include <QLabel>
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
#include <QJsonDocument>
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

    // The Server tab: the selected cell's scraped series (key metrics combined over label sets
    // and listed first, other series by key, buckets left out), its reset's metrics verdict, and
    // a key aggregate per server against the sweep point.
    void serverTabShowsSeriesAndAggregates()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("cells/000")));
        QFile file(dir.filePath(QStringLiteral("cells/000/server_metrics.jsonl")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QString origin = QStringLiteral("http://127.0.0.1:8000");
        const int scrapes = 7;
        for (int i = 0; i < scrapes; ++i) {
            QJsonObject samples{
                {QStringLiteral("vllm:num_requests_running{engine=\"0\",model_name=\"m\"}"), i},
                {QStringLiteral("vllm:num_requests_running{engine=\"1\",model_name=\"m\"}"), 1},
                {QStringLiteral("vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"}"), 0.1 * i},
                {QStringLiteral("vllm:kv_cache_usage_perc{engine=\"1\",model_name=\"m\"}"), 0.3},
                {QStringLiteral("vllm:e2e_request_latency_seconds_bucket{le=\"1.0\"}"), 3},
                {QStringLiteral("vllm:e2e_request_latency_seconds_count"), i * 2},
                {QStringLiteral("process_cpu_seconds_total"), QStringLiteral("NaN")},
            };
            QJsonObject line{{QStringLiteral("t_ns"), qint64(i) * 500000000 - 1000000}, {QStringLiteral("origin"), origin},
                             {QStringLiteral("samples"), samples}};
            QVERIFY(file.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n') > 0);
        }
        QVERIFY(file.write("{\"t_ns\":4000000000,\"origin\":\"http://127.0.0.1:8000\",\"error\":\"no answer within 1 s\"}\n") > 0);
        file.close();

        SweepResults r = sbtest::makeSweepResults();
        r.cells[0].serverMetricsInfo = QJsonObject{{QStringLiteral("series"), QStringLiteral("cells/000/server_metrics.jsonl")}};
        HookOutcome reset = sbtest::hook(QStringLiteral("reset_kv_cache"), true, 1, 200, QStringLiteral("ok"));
        reset.metricsVerdict = MetricsVerdict::Confirmed;
        reset.metricsCachedTokens = 0;
        r.cells[0].hooks = {reset};
        int measured = 0;
        for (CellResult &c : r.cells) {
            c.serverMetrics.insert(QStringLiteral("vllm:num_requests_running"),
                                   QJsonObject{{QStringLiteral("type"), QStringLiteral("gauge")}, {QStringLiteral("unit"), QStringLiteral("requests")},
                                               {QStringLiteral("label"), QStringLiteral("running requests")}, {QStringLiteral("avg"), c.concurrency * 0.9}});
            measured += hasMeasurements(c.status);
        }
        r.cells[1].status = sb::CellStatus::Failed; // not plotted
        --measured;

        ResultsView view;
        view.resize(1400, 900);
        view.setResults(r, dir.path());
        auto *pane = view.findChild<ServerMetricsPane *>(QStringLiteral("serverPane"));
        QVERIFY(pane);
        QCOMPARE(pane->aggregateKeys(), QStringList{QStringLiteral("vllm:num_requests_running")});
        QCOMPARE(pane->plottedAggregatePoints(), qsizetype(measured));
        view.selectCell(0);
        QTRY_VERIFY_WITH_TIMEOUT(!pane->isLoading(), 20000);

        auto *picker = pane->findChild<QComboBox *>(QStringLiteral("serverMetric"));
        QStringList keys;
        for (int i = 0; i < picker->count(); ++i)
            keys << picker->itemData(i).toString();
        QCOMPARE(keys, (QStringList{QStringLiteral("vllm:num_requests_running"), QStringLiteral("vllm:kv_cache_usage_perc"),
                                    QStringLiteral("vllm:e2e_request_latency_seconds_count")}));
        QVERIFY2(picker->itemText(0).contains(QLatin1String("running requests")), qPrintable(picker->itemText(0)));
        QCOMPARE(picker->currentIndex(), 0);
        QCOMPARE(pane->plottedSeriesPoints(), qsizetype(scrapes));
        const QList<QPointF> running = pane->series().points.value(QStringLiteral("vllm:num_requests_running")).value(origin);
        QCOMPARE(running.size(), scrapes);
        QCOMPARE(running[3], QPointF(1.499, 4)); // summed over the two engines, seconds from the phase start
        QCOMPARE(pane->series().points.value(QStringLiteral("vllm:kv_cache_usage_perc")).value(origin)[2].y(), 0.25); // averaged
        QCOMPARE(pane->series().failedScrapes, 1);
        picker->setCurrentIndex(2);
        QCOMPARE(pane->plottedSeriesPoints(), qsizetype(scrapes));
        const QString verdict = pane->findChild<QLabel *>(QStringLiteral("serverResetVerdict"))->text();
        QVERIFY2(verdict.contains(QLatin1String("confirmed by metrics")), qPrintable(verdict));

        // A cell without a series says so and plots nothing.
        view.selectCell(2);
        QTRY_VERIFY_WITH_TIMEOUT(!pane->isLoading(), 20000);
        QCOMPARE(pane->plottedSeriesPoints(), 0);
        QVERIFY(pane->findChild<QLabel *>(QStringLiteral("serverResetVerdict"))->text().contains(QLatin1String("No server metrics")));
    }

    // What is loaded from a series file is bounded, and the pane says what was left out.
    void serverSeriesIsBounded()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("server_metrics.jsonl")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QJsonObject samples{{QStringLiteral("sglang:num_running_reqs"), 2}};
        for (int i = 0; i < ServerSeriesData::kMaxOtherSeries + 25; ++i)
            samples.insert(QStringLiteral("other_metric{i=\"%1\"}").arg(i), i);
        QVERIFY(file.write(QJsonDocument(QJsonObject{{QStringLiteral("t_ns"), 0}, {QStringLiteral("origin"), QStringLiteral("o")},
                                                     {QStringLiteral("samples"), samples}}).toJson(QJsonDocument::Compact) + "\nnot json\n") > 0);
        file.close();
        const ServerSeriesData data = readServerSeries(file.fileName());
        QCOMPARE(data.entries.size(), ServerSeriesData::kMaxOtherSeries + 1);
        QCOMPARE(data.entries.first().key, QStringLiteral("sglang:num_running_reqs"));
        QCOMPARE(data.badLines, 1);
        QCOMPARE(data.limits.size(), 1);
        QVERIFY(data.limits.first().contains(QLatin1String("25 more series")));
        QVERIFY(!readServerSeries(dir.filePath(QStringLiteral("missing.jsonl"))).error.isEmpty());
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

    // Requested vs measured ISL/OSL with the token source named; more than 2 % off is marked.
    void detailShowsRequestedVsMeasuredLengths()
    {
        CellResult c = sbtest::makeSweepResults().cells.at(0);
        auto lengths = [](double avg, double min, double max) {
            MetricStats s;
            s.count = 100, s.avg = avg, s.min = min, s.max = max;
            return s;
        };
        c.metrics.insert(tag::requestedInputLength, lengths(256, 256, 256));
        c.metrics.insert(tag::inputLength, lengths(299.8, 290, 310)); // +17.1 %: a warning
        c.metrics.insert(tag::requestedOutputLength, lengths(64, 64, 64));
        c.metrics.insert(tag::outputLength, lengths(63.5, 60, 64)); // -0.8 %: fine
        c.tokenSource = QStringLiteral("usage");
        const QString html = cellDetailHtml(c, QString());
        QVERIFY2(html.contains(QStringLiteral("requested avg 256 (min 256, max 256) · measured avg 299.8 (min 290, max 310)")), qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("⚠ +17.1 %, more than 2 % off")));
        QVERIFY(html.contains(QStringLiteral("requested avg 64 (min 64, max 64) · measured avg 63.5 (min 60, max 64) · -0.8 %</li>")));
        QCOMPARE(html.count(QStringLiteral("% off</b>")), 1); // (other ⚠ mark traces missing from disk)
        QVERIFY(html.contains(QStringLiteral("counted by the server (<i>usage</i>)")));
        c.tokenSource = QStringLiteral("counted");
        QVERIFY(cellDetailHtml(c, QString()).contains(QStringLiteral("counted by the client")));
        // OSL short by more than 2 %: the server stopped early.
        c.metrics.insert(tag::outputLength, lengths(40, 10, 64));
        QCOMPARE(cellDetailHtml(c, QString()).count(QStringLiteral("% off</b>")), 2);
        // Without lengths recorded, no section.
        QVERIFY(!cellDetailHtml(sbtest::makeSweepResults().cells.at(0), QString()).contains(QStringLiteral("Lengths")));
    }

    // An open-loop cell says what rate it achieved against its target and how late it sent.
    void detailShowsOpenLoopRateAndLag()
    {
        CellResult c = sbtest::makeSweepResults().cells.at(0);
        OpenLoopResult o;
        o.targetRate = 8;
        o.achievedRate = 7.5;
        o.arrival = QStringLiteral("poisson");
        o.lagP50Ms = 0.2, o.lagP99Ms = 1.5, o.lagMaxMs = 3;
        o.maxConcurrency = 64;
        c.openLoop = o;
        const QString html = cellDetailHtml(c, QString());
        QVERIFY2(html.contains(QStringLiteral("target 8 req/s, achieved 7.5 req/s (93.8 %)")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("schedule lag: p50 %1, p99 %2, max %3")
                                   .arg(formatWithUnit(0.2, unit::ms), formatWithUnit(1.5, unit::ms), formatWithUnit(3, unit::ms))),
                 qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("max_concurrency 64: never reached")));
        QVERIFY(html.contains(QStringLiteral("<h3>server-a · 8 req/s</h3>")));
    }

    // The "Over time" tab plots one point per slice: throughput, and TTFT where requests streamed.
    void overTimeTabPlotsSlices()
    {
        SweepResults r = sbtest::makeSweepResults();
        QJsonArray slices;
        for (int i = 0; i < 9; ++i)
            slices.append(QJsonObject{{QStringLiteral("t_s"), i}, {QStringLiteral("length_s"), 1}, {QStringLiteral("output_tokens"), 100 + i},
                                      {QStringLiteral("ttft_p50_ms"), i == 4 ? QJsonValue(QJsonValue::Null) : QJsonValue(20.0 + i)}});
        r.cells[3].timeSlices = slices;
        ResultsView view;
        view.setResults(r, QString());
        auto *pane = view.findChild<TimeSlicesPane *>(QStringLiteral("timeSlicesPane"));
        QVERIFY(pane);
        QCOMPARE(pane->throughputPoints(), 0);
        view.selectCell(3);
        QCOMPARE(pane->throughputPoints(), 9);
        QCOMPARE(pane->ttftPoints(), 8); // a slice where nothing streamed has no TTFT
        auto *chart = pane->findChild<InteractiveChartView *>(QStringLiteral("timeSlicesChart"))->chart();
        QCOMPARE(chart->series().size(), 2);
        QCOMPARE(static_cast<QXYSeries *>(chart->series().first())->points().at(8), QPointF(8, 108));
        QVERIFY(pane->findChild<QLabel *>(QStringLiteral("timeSlicesStatus"))->text().contains(QLatin1String("9 slices")));
        view.selectCell(2);
        QCOMPARE(pane->throughputPoints(), 0);
        QVERIFY(pane->findChild<QLabel *>(QStringLiteral("timeSlicesStatus"))->text().contains(QLatin1String("No time slices")));
    }

    // Nothing loaded: the view says what to do instead of showing empty axes.
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

    // The Distribution tab's width does not follow its status text (a long path while reading).
    void distributionWidthIsStable()
    {
        DistributionPane pane;
        pane.setRecordsFile(QString(), QString());
        const int before = pane.minimumSizeHint().width();
        const int hintBefore = pane.sizeHint().width();
        pane.setRecordsFile(QStringLiteral("/a/very/long/path/that/goes/on/and/on/and/on/for/a/while/cells/000-server-c8/records.jsonl"),
                            QStringLiteral("x"));
        QCOMPARE(pane.minimumSizeHint().width(), before);
        QCOMPARE(pane.sizeHint().width(), hintBefore);
        QTRY_VERIFY(!pane.isLoading());
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
