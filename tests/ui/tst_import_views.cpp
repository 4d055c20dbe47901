// Other tools' result sets (tests/fixtures/<tool>-<version>, real output) open where a result set
// opens: the Results tab (table and cell detail, which lists the fields not mapped), Compare
// (one series per set) and the main window's Open (a .jsonl is a result set).
#include "TestSupport.h"
#include "charts/ChartPoints.h"
#include "charts/ChartsPanel.h"
#include "charts/InteractiveChartView.h"
#include "compare/CompareView.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/PathKind.h"
#include "results/ResultsTableModel.h"
#include "results/ResultsView.h"
#include "style/ElidedLabel.h"
#include <QLabel>
#include <QChart>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QXYSeries>

using namespace sb;
using namespace sb::ui;

namespace {
QString fixture(const QString &rel) { return sbtest::sourcePath(QStringLiteral("tests/fixtures/") + rel); }

const QStringList &importedSets()
{
    static const QStringList sets{fixture(QStringLiteral("guidellm-0.8.1/benchmarks.json")), fixture(QStringLiteral("inference-perf-0.7.0")),
                                  fixture(QStringLiteral("genai-bench-0.0.5")), fixture(QStringLiteral("sglang-0.5.23/bench_serving.jsonl"))};
    return sets;
}
} // namespace

class TestImportViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void resultsTab_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("tool");
        const QStringList tools{"guidellm", "inference-perf", "genai-bench", "sglang"};
        for (int i = 0; i < tools.size(); ++i)
            QTest::newRow(qPrintable(tools[i])) << importedSets().at(i) << tools[i];
    }

    void resultsTab()
    {
        QFETCH(QString, path);
        QFETCH(QString, tool);
        ResultsView view;
        view.resize(1200, 800);
        QString error;
        QVERIFY2(view.openResults(path, &error), qPrintable(error));
        QCOMPARE(view.results().cells.size(), 2);
        auto *table = view.findChild<QTableView *>(QStringLiteral("cellTable"));
        QVERIFY(table);
        QCOMPARE(table->model()->rowCount(), 2);
        // TTFT p50 is a number on every row, as the import read it.
        for (int row = 0; row < 2; ++row) {
            bool ok = false;
            const QString text = table->model()->index(row, ResultsTableModel::TtftP50Column).data().toString();
            text.toDouble(&ok);
            QVERIFY2(ok, qPrintable(text));
        }
        view.selectCell(view.results().cells.first().index);
        const QString detail = view.findChild<QTextBrowser *>(QStringLiteral("cellDetail"))->toPlainText();
        QVERIFY2(detail.contains(tool + QStringLiteral(" fields not mapped: ")), qPrintable(detail));
        // Where the set came from: the tool on the origin line under the summary, every field
        // (its command or settings too) in its tooltip.
        auto *summary = view.findChild<ElidedLabel *>(QStringLiteral("resultsOrigin"));
        QVERIFY2(summary->fullText().startsWith(QStringLiteral("Imported from ") + tool), qPrintable(summary->fullText()));
        QVERIFY2(summary->toolTip().contains(QStringLiteral("<b>Tool</b>: ") + tool), qPrintable(summary->toolTip()));
        if (tool != QLatin1String("inference-perf")) // its report keeps neither a command line nor settings
            QVERIFY2(summary->toolTip().contains(QStringLiteral("<b>Command or settings</b>: ")), qPrintable(summary->toolTip()));
    }

    void compareTab()
    {
        CompareView view;
        QString error;
        for (const QString &path : importedSets())
            QVERIFY2(view.addResultSet(path, &error), qPrintable(error));
        QCOMPARE(view.resultSetCount(), importedSets().size());
        view.findChild<ChartsPanel *>()->flush();
        const auto series = taggedSeries(view.findChild<InteractiveChartView *>(QStringLiteral("metricChart"))->chart());
        QCOMPARE(series.size(), importedSets().size()); // one server each
        for (QXYSeries *s : series)
            QCOMPARE(s->count(), 2); // C=1 and C=2
    }

    void openFromTheMainWindow()
    {
        QCOMPARE(classifyPath(QStringLiteral("/x/bench_serving.jsonl")), PathKind::Results);
        MainWindow w;
        QString error;
        QVERIFY2(w.openPath(importedSets().last(), &error, true), qPrintable(error));
        QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::ResultsIndex));
        QCOMPARE(w.resultsView()->results().sourceTool, QStringLiteral("sglang-bench"));
    }
};

QTEST_MAIN(TestImportViews)
#include "tst_import_views.moc"
