// Compare view: list of result sets (tester, editable names, stable styles), overlaid charts,
// loading through sb::loadResults.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/ChartPoints.h"
#include "charts/ChartsPanel.h"
#include "charts/DifferencePanel.h"
#include "charts/InteractiveChartView.h"
#include "compare/CompareView.h"
#include "compare/ResultSetListModel.h"
#include "metrics/MetricCatalogue.h"
#include "report/SetComparison.h"
#include <QLabel>
#include <QLegend>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QAbstractItemModelTester>
#include <QChart>
#include <QListView>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QPushButton>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {
LoadedResults loaded(const QString &name, int servers)
{
    LoadedResults l;
    l.results = sbtest::makeSweepResults(servers);
    l.displayName = name;
    l.folder = QStringLiteral("/tmp/") + name;
    return l;
}

// One server, points 1 and 4, `runs` repeated cells per point whose TTFT p99 is values[run]
// (+ the point, so points differ).
LoadedResults repeated(const QString &name, const QList<double> &values)
{
    LoadedResults l;
    l.displayName = name;
    int index = 0;
    for (int c : {1, 4})
        for (double v : values) {
            CellResult cell = sbtest::makeCell(index++, 0, c);
            MetricStats ttft = cell.metrics.value(tag::ttft);
            ttft.p99 = v + c;
            cell.metrics.insert(tag::ttft, ttft);
            l.results.cells.append(cell);
        }
    return l;
}

// Every cell of `r` as asked of a launched vLLM of this version and --max-num-seqs.
SweepResults withServer(SweepResults r, const QString &version, const QString &maxNumSeqs)
{
    for (CellResult &c : r.cells) {
        c.serverInfo.flavor = QStringLiteral("vllm");
        c.serverInfo.version = version;
        c.serverInfo.command = {QStringLiteral("vllm"), QStringLiteral("serve"), QStringLiteral("/models/tiny"), QStringLiteral("--port"),
                                QStringLiteral("8123"), QStringLiteral("--max-num-seqs"), maxNumSeqs};
        c.serverInfo.fetchedAt = QDateTime::fromSecsSinceEpoch(1700000000, Qt::UTC);
    }
    return r;
}

QString cellText(QTableWidget *t, int row, int col)
{
    const QTableWidgetItem *i = t->item(row, col);
    return i ? i->text() : QStringLiteral("<null>");
}

QStringList scatterNames(QChart *chart)
{
    QStringList out;
    for (QXYSeries *s : taggedSeries(chart))
        out << s->name();
    return out;
}
} // namespace

class TestCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void listModel()
    {
        ResultSetListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.add(loaded(QStringLiteral("baseline"), 2), QStringLiteral("/tmp/baseline"));
        model.add(loaded(QStringLiteral("tuned"), 2), QStringLiteral("/tmp/tuned"));
        model.add(loaded(QStringLiteral("third"), 1), QStringLiteral("/tmp/third"));
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.flags(model.index(0)) & Qt::ItemIsEditable);
        QVERIFY(!model.index(0).data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY(model.index(1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("10 cells, 2 servers")));
        QVERIFY(model.setData(model.index(1), QStringLiteral("  tuned v2 ")));
        QCOMPARE(model.index(1).data().toString(), QStringLiteral("tuned v2"));
        QVERIFY(!model.setData(model.index(1), QStringLiteral("   "))); // a legend needs a name
        // styles stay with their sets when one is removed, and the free one is reused
        QCOMPARE(model.index(2).data(ResultSetListModel::StyleIndexRole).toInt(), 2);
        model.remove(0);
        QCOMPARE(model.index(1).data(ResultSetListModel::StyleIndexRole).toInt(), 2);
        model.add(loaded(QStringLiteral("fourth"), 1), QStringLiteral("/tmp/fourth"));
        QCOMPARE(model.index(2).data(ResultSetListModel::StyleIndexRole).toInt(), 0);
        const auto inputs = model.chartInputs();
        QCOMPARE(inputs.size(), 3);
        QCOMPARE(inputs.at(0).name, QStringLiteral("tuned v2"));
        QCOMPARE(inputs.at(0).styleIndex, 1);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void twoSetsWithEditedName()
    {
        CompareView view;
        view.resize(1200, 700);
        QSignalSpy changed(&view, &CompareView::resultSetsChanged);
        view.addLoadedResults(loaded(QStringLiteral("baseline"), 3));
        view.addLoadedResults(loaded(QStringLiteral("tuned"), 2));
        QCOMPARE(view.resultSetCount(), 2);
        QCOMPARE(changed.size(), 2);
        auto *panel = view.findChild<ChartsPanel *>();
        panel->flush();
        auto *tp = view.findChild<InteractiveChartView *>(QStringLiteral("throughputChart"));
        QCOMPARE(taggedSeries(tp->chart()).size(), 5);
        QVERIFY(scatterNames(tp->chart()).contains(QStringLiteral("tuned: server-b")));
        // rename through the list, as a user would
        auto *list = view.findChild<QListView *>(QStringLiteral("resultSets"));
        QVERIFY(list->model()->setData(list->model()->index(1, 0), QStringLiteral("tuned (TP=2)")));
        panel->flush();
        QVERIFY2(scatterNames(tp->chart()).contains(QStringLiteral("tuned (TP=2): server-b")),
                 qPrintable(scatterNames(tp->chart()).join(QLatin1Char('|'))));
        auto *a = qobject_cast<QScatterSeries *>(taggedSeries(tp->chart()).at(0));
        auto *b = qobject_cast<QScatterSeries *>(taggedSeries(tp->chart()).at(3));
        QCOMPARE(a->color(), b->color()); // server-a in both sets
        QVERIFY(a->markerShape() != b->markerShape());
        view.removeResultSet(0);
        panel->flush();
        QCOMPARE(taggedSeries(tp->chart()).size(), 2);
        view.clear();
        panel->flush();
        QCOMPARE(taggedSeries(tp->chart()).size(), 0);
    }

    void addFromDisk()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("run-a"));
        const QString b = dir.filePath(QStringLiteral("run-b"));
        QVERIFY(sbtest::writeResultsFolder(a, sbtest::makeSweepResults(1)));
        QVERIFY(sbtest::writeResultsFolder(b, sbtest::makeSweepResults(2)));
        CompareView view;
        QString error;
        QVERIFY2(view.addResultSet(a, &error), qPrintable(error));
        QVERIFY2(view.addResultSet(b, &error), qPrintable(error));
        QVERIFY(!view.addResultSet(dir.filePath(QStringLiteral("missing")), &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(view.resultSetCount(), 2);
        auto *panel = view.findChild<ChartsPanel *>();
        panel->flush();
        const QStringList names = scatterNames(view.findChild<InteractiveChartView *>(QStringLiteral("metricChart"))->chart());
        QCOMPARE(names, (QStringList{"run-a: server-a", "run-b: server-a", "run-b: server-b"}));
    }

    // Two sets whose servers ran another version with other flags say so in one line; a set like
    // the first adds nothing. Read back from results.json, as Compare opens them.
    void serverDifferencesAreNamed()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("run-a"));
        const QString b = dir.filePath(QStringLiteral("run-b"));
        const QString same = dir.filePath(QStringLiteral("run-same"));
        QVERIFY(sbtest::writeResultsFolder(a, withServer(sbtest::makeSweepResults(1), QStringLiteral("0.6.1"), QStringLiteral("256"))));
        QVERIFY(sbtest::writeResultsFolder(b, withServer(sbtest::makeSweepResults(1), QStringLiteral("0.6.3"), QStringLiteral("128"))));
        QVERIFY(sbtest::writeResultsFolder(same, withServer(sbtest::makeSweepResults(1), QStringLiteral("0.6.1"), QStringLiteral("256"))));
        CompareView view;
        view.resize(1024, 700);
        view.show();
        auto *label = view.findChild<QLabel *>(QStringLiteral("compareServerDifferences"));
        QVERIFY(label);
        QString error;
        QVERIFY2(view.addResultSet(a, &error), qPrintable(error));
        QVERIFY(!label->isVisible()); // one set: nothing to compare
        QVERIFY2(view.addResultSet(same, &error), qPrintable(error));
        QVERIFY(!label->isVisible()); // the same server and flags: nothing said
        QVERIFY2(view.addResultSet(b, &error), qPrintable(error));
        QVERIFY(label->isVisible());
        QCOMPARE(label->textFormat(), Qt::PlainText); // versions and flags are the servers' text
        QCOMPARE(label->text(), QStringLiteral("The servers differ: server-a ran with version 0.6.1 in run-a and 0.6.3 in run-b, "
                                               "--max-num-seqs 256 in run-a and 128 in run-b."));
        view.removeResultSet(2);
        QVERIFY(!label->isVisible());

        // Sets from different tools: the label says where each came from (results/Provenance.h),
        // and the set list's tooltip carries the other tool's command.
        QVERIFY2(view.addResultSet(sbtest::sourcePath(QStringLiteral("tests/fixtures/aiperf-0.13.0/plain")), &error), qPrintable(error));
        QVERIFY(label->isVisible());
        QVERIFY2(label->text().startsWith(QStringLiteral("The sets differ in where they came from:\nTool: sweepbench")), qPrintable(label->text()));
        QVERIFY2(label->text().contains(QStringLiteral(" | aiperf 0.13.0")), qPrintable(label->text()));
        auto *list = view.findChild<QListView *>(QStringLiteral("resultSets"));
        QVERIFY(list && list->model()->rowCount() == 3);
        const QString tip = list->model()->index(2, 0).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("Command or settings: aiperf profile --model")), qPrintable(tip));
    }

    // The series are listed in a table under the charts with their full names, not in a legend
    // inside the plot; the value column follows the clicked point.
    void legendTable()
    {
        CompareView view;
        view.resize(1200, 800);
        const QString longName = QStringLiteral("my-sweep-2026-01-02T03-04-05-baseline-with-a-long-name");
        view.addLoadedResults(loaded(longName, 3));
        view.addLoadedResults(loaded(QStringLiteral("tuned"), 2));
        auto *panel = view.findChild<ChartsPanel *>();
        panel->setMetric(tag::ttft, Stat::P50);
        panel->flush();
        auto *tp = view.findChild<InteractiveChartView *>(QStringLiteral("throughputChart"));
        QVERIFY(!tp->chart()->legend()->isVisible());
        auto *legend = view.findChild<QTableWidget *>(QStringLiteral("legendTable"));
        QVERIFY(legend);
        QCOMPARE(legend->rowCount(), 5); // sets × servers
        QStringList names;
        for (int r = 0; r < legend->rowCount(); ++r) {
            names << cellText(legend, r, 0);
            QVERIFY(!legend->item(r, 0)->icon().isNull()); // the swatch
        }
        QCOMPARE(names, (QStringList{longName + ": server-a", longName + ": server-b", longName + ": server-c",
                                     "tuned: server-a", "tuned: server-b"}));
        QVERIFY(legend->horizontalHeaderItem(2)->text().contains(QStringLiteral("click a point")));
        QCOMPARE(cellText(legend, 1, 2), QString());

        // click the point of set 1, server-b at c=16 (cell index 7 of makeSweepResults)
        Q_EMIT panel->pointClicked(ChartPointRef{1, 7});
        QCOMPARE(legend->horizontalHeaderItem(2)->text(), QStringLiteral("TTFT p50 (ms) at 16"));
        QCOMPARE(cellText(legend, 1, 2), QStringLiteral("161.00")); // ttftP50(1, 16) = 10*16 + 1
        QCOMPARE(cellText(legend, 3, 2), QStringLiteral("160.00"));
        QCOMPARE(cellText(legend, 1, 1), QStringLiteral("1"));

        // hovering another point shows its values while the pointer is there, then the selection again
        QXYSeries *series = taggedSeries(tp->chart()).at(0); // baseline: server-a
        const QPointF c4 = series->at(1);                    // its c=4 point
        QTest::ignoreMessage(QtWarningMsg, "This plugin does not support raise()"); // the view's own hover tooltip, offscreen
        Q_EMIT series->hovered(c4, true);
        QCOMPARE(legend->horizontalHeaderItem(2)->text(), QStringLiteral("TTFT p50 (ms) at 4"));
        QCOMPARE(cellText(legend, 0, 2), QStringLiteral("40.00"));
        Q_EMIT series->hovered(c4, false);
        QCOMPARE(legend->horizontalHeaderItem(2)->text(), QStringLiteral("TTFT p50 (ms) at 16"));
    }

    // Δ% on known numbers: B's TTFT p50 is A's × 1.25; one run per point → n/a.
    void differenceTable()
    {
        LoadedResults a = loaded(QStringLiteral("A"), 1);
        LoadedResults b = loaded(QStringLiteral("B"), 1);
        for (CellResult &c : b.results.cells) {
            MetricStats t = c.metrics.value(tag::ttft);
            t.p50 *= 1.25;
            c.metrics.insert(tag::ttft, t);
        }
        CompareView view;
        view.addLoadedResults(a);
        view.addLoadedResults(b);
        auto *panel = view.findChild<ChartsPanel *>();
        panel->setMetric(tag::ttft, Stat::P50);
        panel->flush();
        auto *diff = view.findChild<QTableWidget *>(QStringLiteral("differenceTable"));
        QCOMPARE(diff->rowCount(), 5);
        QCOMPARE(cellText(diff, 2, 0), QStringLiteral("16"));
        QCOMPARE(cellText(diff, 2, 1), QStringLiteral("160.00"));
        QCOMPARE(cellText(diff, 2, 2), QStringLiteral("200.00"));
        QCOMPARE(cellText(diff, 2, 3), QStringLiteral("+25.0 %"));
        QCOMPARE(cellText(diff, 2, 4), QStringLiteral("not testable (1 run each)"));
        QCOMPARE(cellText(diff, 2, 5), QStringLiteral("A: server-a"));
        QCOMPARE(cellText(diff, 2, 6), QStringLiteral("B: server-a"));
        QVERIFY(diff->item(2, 3)->toolTip().contains(QStringLiteral("B is worse"))); // lower TTFT is better
    }

    // Repeats: Welch's t-test on the runs' values, the CLI's test and wording.
    void significance()
    {
        const LoadedResults base = repeated(QStringLiteral("base"), {100, 101, 99, 100.5});
        const LoadedResults far = repeated(QStringLiteral("far"), {150, 151, 149, 150.5});
        const LoadedResults near = repeated(QStringLiteral("near"), {100.2, 99.1, 101.3, 100.1});
        const auto rows = compareSets({{base.displayName, base.results}, {far.displayName, far.results}, {near.displayName, near.results}},
                                      tag::ttft, Stat::P99);
        QCOMPARE(rows.size(), 4); // 2 pairs × 2 points
        QVERIFY(rows.at(0).welch && rows.at(0).welch->significant());
        QVERIFY(significanceText(rows.at(0)).startsWith(QStringLiteral("yes (p ")));
        QVERIFY(significanceExplanation(rows.at(0)).contains(QStringLiteral("differ significantly")));
        QCOMPARE(rows.at(0).a.n, 4);
        QVERIFY(rows.at(2).welch && !rows.at(2).welch->significant());
        QVERIFY(significanceText(rows.at(2)).startsWith(QStringLiteral("no (p = ")));
        QVERIFY(significanceExplanation(rows.at(2)).contains(QStringLiteral("no significant difference")));

        CompareView view;
        view.addLoadedResults(base);
        view.addLoadedResults(far);
        auto *panel = view.findChild<ChartsPanel *>();
        panel->setMetric(tag::ttft, Stat::P99);
        panel->flush();
        auto *diff = view.findChild<QTableWidget *>(QStringLiteral("differenceTable"));
        QCOMPARE(diff->rowCount(), 2);
        QVERIFY(cellText(diff, 0, 4).startsWith(QStringLiteral("yes")));
        QVERIFY(cellText(diff, 0, 1).contains(QStringLiteral(" ± "))); // mean ± CI over the runs
    }

    // Pairs by the user's choice, not only by name: two servers of one set, or differently
    // named servers across sets; "Default pairs" goes back to matching names.
    void differencesOfAnyTwoSeries()
    {
        LoadedResults a = loaded(QStringLiteral("A"), 2);
        LoadedResults b = loaded(QStringLiteral("B"), 2);
        CompareView view;
        view.addLoadedResults(a);
        view.addLoadedResults(b);
        auto *charts = view.findChild<ChartsPanel *>();
        charts->setMetric(tag::ttft, Stat::P50);
        charts->flush();
        auto *panel = view.findChild<DifferencePanel *>();
        QVERIFY(panel);
        QTableWidget *diff = panel->table();
        QCOMPARE(diff->rowCount(), 10); // default: server-a and server-b each against itself across sets
        // within set A: server-a (TTFT p50 = 10c) against server-b (10c + 1)
        QVERIFY(panel->choosePair({0, QStringLiteral("server-a")}, {0, QStringLiteral("server-b")}));
        QCOMPARE(diff->rowCount(), 5);
        QCOMPARE(cellText(diff, 0, 1), QStringLiteral("10.00"));
        QCOMPARE(cellText(diff, 0, 2), QStringLiteral("11.00"));
        QCOMPARE(cellText(diff, 0, 3), QStringLiteral("+10.0 %"));
        QCOMPARE(cellText(diff, 0, 5), QStringLiteral("A: server-a"));
        QCOMPARE(cellText(diff, 0, 6), QStringLiteral("A: server-b"));
        // across sets, different names
        QVERIFY(panel->choosePair({1, QStringLiteral("server-b")}, {0, QStringLiteral("server-a")}));
        QCOMPARE(cellText(diff, 0, 5), QStringLiteral("B: server-b"));
        QCOMPARE(cellText(diff, 0, 6), QStringLiteral("A: server-a"));
        // the choice survives a change of metric
        charts->setMetric(tag::ttft, Stat::P99);
        charts->flush();
        QCOMPARE(cellText(diff, 0, 5), QStringLiteral("B: server-b"));
        QVERIFY(!panel->choosePair({0, QStringLiteral("no-such")}, {0, QStringLiteral("server-a")}));
        panel->chooseDefaultPairs();
        QCOMPARE(diff->rowCount(), 10);
    }

    void exportComparison()
    {
        QTemporaryDir dir;
        const QString evil = QStringLiteral("<b>tuned</b> & co");
        CompareView view;
        view.addLoadedResults(loaded(QStringLiteral("baseline"), 2));
        LoadedResults other = loaded(QStringLiteral("x"), 2);
        view.addLoadedResults(other);
        auto *list = view.findChild<QListView *>(QStringLiteral("resultSets"));
        QVERIFY(list->model()->setData(list->model()->index(1, 0), evil));
        QString error;
        const QString path = dir.filePath(QStringLiteral("cmp.html"));
        QVERIFY2(view.exportComparison(path, &error), qPrintable(error));
        const QString html = QString::fromUtf8(sbtest::readFile(path));
        QVERIFY(html.contains(QStringLiteral("baseline")));
        QVERIFY(html.contains(QStringLiteral("&lt;b&gt;tuned&lt;/b&gt; &amp; co")));
        QVERIFY(!html.contains(evil));
        QVERIFY(html.contains(QStringLiteral("<h2>Summary</h2>")));
        QVERIFY(html.contains(QStringLiteral("Differences")));
        QVERIFY(html.contains(QStringLiteral("data:image/png;base64,")));
        QVERIFY(html.contains(QStringLiteral("Content-Security-Policy")));
        QVERIFY(html.contains(QStringLiteral("not testable (1 run each)")));
        QVERIFY(view.statusText().contains(path));
    }

    // The compared sets reopen at the next start; a folder removed meanwhile is dropped with a
    // status message (no box), and forgotten.
    void settingsRoundTrip()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("run-a"));
        const QString b = dir.filePath(QStringLiteral("run-b"));
        QVERIFY(sbtest::writeResultsFolder(a, sbtest::makeSweepResults(1)));
        QVERIFY(sbtest::writeResultsFolder(b, sbtest::makeSweepResults(2)));
        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        {
            CompareView first;
            QVERIFY(first.restoreSavedSets(&settings).isEmpty());
            QVERIFY(first.addResultSet(a));
            QVERIFY(first.addResultSet(b));
            auto *list = first.findChild<QListView *>(QStringLiteral("resultSets"));
            QVERIFY(list->model()->setData(list->model()->index(1, 0), QStringLiteral("tuned (TP=2)")));
        }
        {
            CompareView second;
            QVERIFY(second.restoreSavedSets(&settings).isEmpty());
            QCOMPARE(second.resultSetCount(), 2);
            auto *list = second.findChild<QListView *>(QStringLiteral("resultSets"));
            QCOMPARE(list->model()->index(1, 0).data().toString(), QStringLiteral("tuned (TP=2)"));
        }
        QVERIFY(QDir(b).removeRecursively());
        {
            CompareView third;
            QSignalSpy status(&third, &CompareView::statusMessage);
            const QStringList dropped = third.restoreSavedSets(&settings);
            QCOMPARE(dropped, QStringList{QFileInfo(b).absoluteFilePath()});
            QCOMPARE(third.resultSetCount(), 1);
            QVERIFY(third.statusText().contains(QFileInfo(b).absoluteFilePath()));
            QCOMPARE(status.size(), 1);
        }
        CompareView fourth;
        QVERIFY(fourth.restoreSavedSets(&settings).isEmpty()); // forgotten, not reported again
        QCOMPARE(fourth.resultSetCount(), 1);
    }

    void emptyState()
    {
        CompareView view;
        view.resize(1024, 620);
        view.show();
        auto *empty = view.findChild<QLabel *>(QStringLiteral("compareEmptyState"));
        auto *stack = view.findChild<QStackedWidget *>();
        QCOMPARE(stack->currentWidget(), empty);
        QVERIFY(empty->isVisible());
        QVERIFY(empty->text().contains(QStringLiteral("Add folder")));
        QVERIFY(empty->text().contains(QStringLiteral("drop")));
        QVERIFY(!view.findChild<QPushButton *>(QStringLiteral("exportComparison"))->isEnabled());
        view.addLoadedResults(loaded(QStringLiteral("baseline"), 1));
        QVERIFY(!empty->isVisible());
        QVERIFY(view.findChild<ChartsPanel *>()->isVisible());
        view.clear();
        QVERIFY(empty->isVisible());
    }

    // 1024×700 window: the Compare page gets ~620 px; the plot keeps a usable height.
    void smallWindowKeepsPlotHeight()
    {
        CompareView view;
        view.resize(1024 - 20, 600);
        view.addLoadedResults(loaded(QStringLiteral("baseline"), 3));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto *panel = view.findChild<ChartsPanel *>();
        QVERIFY2(panel->height() >= CompareView::kMinimumChartHeight, qPrintable(QString::number(panel->height())));
        QVERIFY(view.findChild<QTableWidget *>(QStringLiteral("legendTable"))->isVisible());
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
