// Compare view: list of result sets (tester, editable names, stable styles), overlaid charts,
// loading through sb::loadResults.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/ChartPoints.h"
#include "charts/ChartsPanel.h"
#include "charts/InteractiveChartView.h"
#include "compare/CompareView.h"
#include "compare/ResultSetListModel.h"
#include <QAbstractItemModelTester>
#include <QChart>
#include <QListView>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
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
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
