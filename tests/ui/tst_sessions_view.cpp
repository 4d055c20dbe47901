// Sessions and shared prefixes in the GUI: the designer's session fields and prefix count survive
// a round trip through the form and the YAML, and its preview says how a session's prompts grow;
// the Results view's Cache tab shows the selected cell's per-turn rows, its TTFT-by-turn chart
// and the prefix-cache line (ideal against reported), and says when a cell ran neither.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "charts/InteractiveChartView.h"
#include "designer/DatasetEditor.h"
#include "designer/DesignTab.h"
#include "designer/LengthEditor.h"
#include "designer/SessionEditor.h"
#include "designer/WorkloadForm.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/SpecTemplates.h"
#include <QValueAxis>
#include <QAction>
#include <QApplication>
#include <QStandardPaths>
#include "results/CachePane.h"
#include "results/DistributionPane.h"
#include <QComboBox>
#include <QSignalSpy>
#include <QFile>
#include <QTemporaryDir>
#include "results/ResultsView.h"
#include "spec/SpecIO.h"
#include "workload/Dataset.h"
#include <QChart>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QXYSeries>

using namespace sb;
using namespace sb::ui;

namespace {
bool writeText(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}
} // namespace

class TestSessionsView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a throwaway location
        QApplication::setOrganizationName(QStringLiteral("SweepBenchTest"));
    }
    void init() { sbtest::failOnQtWarnings(); }

    // File → New from template: each template is a valid sweep, opened unsaved in the designer.
    void templatesOpenAsNewSweeps()
    {
        MainWindow w;
        w.show();
        QCOMPARE(specTemplates().size(), 2);
        for (const SpecTemplate &t : specTemplates()) {
            QString error;
            const std::optional<SweepSpec> spec = loadTemplate(t, &error);
            QVERIFY2(spec, qPrintable(error));
            for (const SpecDiagnostic &d : validateSpec(*spec))
                QVERIFY2(!d.isError(), qPrintable(t.resource + QStringLiteral(": ") + d.toString()));
            auto *act = w.findChild<QAction *>(t.id);
            QVERIFY(act);
            act->trigger();
            QCOMPARE(saveSpecYaml(w.designTab()->spec()), saveSpecYaml(*spec));
            QVERIFY(w.designTab()->spec().sourcePath.isEmpty());
        }
        // The cache-effect template: the same workload with and without a reset, shared prefixes on.
        QString error;
        const SweepSpec cache = *loadTemplate(specTemplates().at(0), &error);
        QCOMPARE(cache.servers.size(), 2);
        QVERIFY(cache.servers[0].reset.enabled != cache.servers[1].reset.enabled);
        QVERIFY(cache.workload.prompts == PromptMode::SharedPrefix);
        QVERIFY(loadTemplate(specTemplates().at(1), &error)->workload.sessions);
    }

    void sessionFieldsSurviveTheForm()
    {
        const SpecLoadResult loaded = loadSpecText("servers: [{name: a, mock: vllm}]\n"
                                                   "workload:\n"
                                                   "  input_tokens: 512\n"
                                                   "  output_tokens: 24\n"
                                                   "  prompts: shared_prefix\n"
                                                   "  shared_prefix_tokens: 256\n"
                                                   "  shared_prefix_count: 4\n"
                                                   "  sessions: {turns: {min: 2, max: 6}, think_time_ms: 500, follow_up_tokens: 64, "
                                                   "session_header: X-Session-ID}\n"
                                                   "sweep: {concurrency: [1, 2]}\n");
        QVERIFY2(loaded.ok(), qPrintable(loaded.diagnostics.value(0).toString()));
        DesignTab tab;
        tab.show();
        tab.setSpec(*loaded.spec);
        QCOMPARE(saveSpecYaml(tab.spec()), saveSpecYaml(*loaded.spec));
        WorkloadForm *form = tab.workloadForm();
        QVERIFY(form->sessionEditor()->enabledBox()->isChecked());
        QCOMPARE(form->sessionEditor()->turnsEditor()->kind(), LengthEditor::Uniform);
        QCOMPARE(tab.findChild<QSpinBox *>(QStringLiteral("sharedPrefixCount"))->value(), 4);
        QCOMPARE(tab.findChild<QSpinBox *>(QStringLiteral("followUpTokens"))->value(), 64);
        QCOMPARE(tab.findChild<QLineEdit *>(QStringLiteral("sessionHeader"))->text(), QStringLiteral("X-Session-ID"));
        form->updatePreview();
        const QString shape = form->cacheShape()->text();
        QVERIFY2(!form->cacheShape()->isHidden() && shape.contains(QLatin1String("4 shared prefixes of 256 tokens")) &&
                     shape.contains(QStringLiteral("512 → 600 → 688 → 776")),
                 qPrintable(shape));

        // Edited in the form: what is saved is what the fields say.
        tab.findChild<QSpinBox *>(QStringLiteral("sharedPrefixCount"))->setValue(8);
        tab.findChild<QSpinBox *>(QStringLiteral("followUpTokens"))->setValue(0);
        QCOMPARE(tab.spec().workload.sharedPrefixCount, 8);
        QCOMPARE(tab.spec().workload.sessions->followUpTokens, 0);
        // Switched off: no sessions in the spec, and their fields are disabled.
        form->sessionEditor()->enabledBox()->setChecked(false);
        QVERIFY(!tab.spec().workload.sessions);
        QVERIFY(!tab.findChild<QLineEdit *>(QStringLiteral("sessionHeader"))->isEnabled());
        // On again: the fields kept what they held.
        form->sessionEditor()->enabledBox()->setChecked(true);
        QVERIFY(tab.spec().workload.sessions && tab.spec().workload.sessions->turnsDist);
        // A spec without sessions starts the fields at two turns.
        const SpecLoadResult plain = loadSpecText("servers: [{name: a, mock: vllm}]\nsweep: {concurrency: [1]}\n");
        tab.setSpec(*plain.spec);
        QVERIFY(!form->sessionEditor()->enabledBox()->isChecked());
        form->sessionEditor()->enabledBox()->setChecked(true);
        QCOMPARE(tab.spec().workload.sessions->turns, 2);
    }

    // Sessions with a dataset: its conversations give the turns and messages, so those fields are
    // off and not written (the spec stays valid), and the dataset is read as sessions.
    void datasetSessionsInTheDesigner()
    {
        QTemporaryDir dir;
        QVERIFY(writeText(dir.filePath(QStringLiteral("chat.json")),
                          "[{\"conversations\": [{\"from\": \"human\", \"value\": \"q1\"}, {\"from\": \"gpt\", \"value\": \"a1\"},"
                          " {\"from\": \"human\", \"value\": \"q2\"}, {\"from\": \"gpt\", \"value\": \"a2\"}]},"
                          " {\"conversations\": [{\"from\": \"human\", \"value\": \"q\"}, {\"from\": \"gpt\", \"value\": \"a\"}]}]\n"));
        const SpecLoadResult loaded = loadSpecText("servers: [{name: a, mock: vllm}]\n"
                                                   "workload:\n"
                                                   "  dataset: {format: sharegpt, path: \"" + dir.filePath(QStringLiteral("chat.json")).toUtf8() + "\"}\n"
                                                   "  sessions: {think_time_ms: 100}\n"
                                                   "sweep: {concurrency: [1]}\n",
                                                   dir.filePath(QStringLiteral("s.yaml")));
        QVERIFY2(loaded.ok(), qPrintable(loaded.diagnostics.value(0).toString()));
        DesignTab tab;
        tab.show();
        tab.setSpec(*loaded.spec);
        WorkloadForm *form = tab.workloadForm();
        SessionEditor *sessions = form->sessionEditor();
        QVERIFY(sessions->enabledBox()->isChecked());
        QVERIFY(!sessions->turnsEditor()->isEnabled());
        QVERIFY(!sessions->followUpBox()->isEnabled());
        QVERIFY(tab.findChild<QLineEdit *>(QStringLiteral("sessionHeader"))->isEnabled());
        QCOMPARE(saveSpecYaml(tab.spec()), saveSpecYaml(*loaded.spec));
        QVERIFY(validateSpec(tab.spec()).isEmpty());
        DatasetEditor *dataset = form->datasetEditor();
        QTRY_VERIFY2(!dataset->isLoading() && dataset->loaded(), qPrintable(dataset->loadError()));
        QCOMPARE(dataset->loaded()->stats.sessions, 2); // read as a run reads it
        QCOMPARE(dataset->loaded()->entries.size(), std::size_t(3));

        // Sessions off: single requests, one per conversation.
        sessions->enabledBox()->setChecked(false);
        QVERIFY(!tab.spec().workload.sessions);
        QTRY_VERIFY2(!dataset->isLoading() && dataset->loaded(), qPrintable(dataset->loadError()));
        QCOMPARE(dataset->loaded()->stats.sessions, 0);
        QCOMPARE(dataset->loaded()->entries.size(), std::size_t(2));
        // Synthetic prompts again: the turns are the form's to give.
        sessions->enabledBox()->setChecked(true);
        dataset->sourceBox()->setCurrentIndex(0); // as a user picks it
        Q_EMIT dataset->sourceBox()->activated(0);
        QVERIFY(!tab.spec().workload.dataset);
        QVERIFY(sessions->turnsEditor()->isEnabled());
        QVERIFY(sessions->followUpBox()->isEnabled());
        sessions->followUpBox()->setValue(16);
        QCOMPARE(tab.spec().workload.sessions->followUpTokens, 16);
    }

    void distributionSplitsByTurn()
    {
        QTemporaryDir dir;
        QByteArray lines;
        for (int i = 0; i < 12; ++i) // 4 sessions of 3 turns; turn 1 slow, later turns fast
            lines += QStringLiteral("{\"i\":%1,\"ok\":true,\"ttft_ms\":%2,\"itl_ms\":2.0,\"latency_ms\":90,\"session_id\":%3,\"turn\":%4}\n")
                         .arg(i)
                         .arg(i % 3 == 0 ? 40.0 : 12.0)
                         .arg(i / 3)
                         .arg(i % 3 + 1)
                         .toUtf8();
        const QString path = dir.filePath(QStringLiteral("records.jsonl"));
        QVERIFY(writeText(path, lines));
        DistributionPane pane;
        pane.show();
        QSignalSpy loaded(&pane, &DistributionPane::loaded);
        pane.setRecordsFile(path, QStringLiteral("s C=2"));
        QVERIFY(sbtest::waitForSignal(loaded, 10000));
        QComboBox *turn = pane.turnChoice();
        QVERIFY(turn->isVisible());
        QCOMPARE(turn->count(), 3 + 2); // all, turn 1, turns 2+, turn 2, turn 3
        QCOMPARE(pane.shownSamples(), 12);
        turn->setCurrentIndex(turn->findText(QStringLiteral("Turn 1")));
        QCOMPARE(pane.shownSamples(), 4);
        turn->setCurrentIndex(turn->findText(QStringLiteral("Turns 2+")));
        QCOMPARE(pane.shownSamples(), 8);
        QVERIFY(pane.chartView()->chart()->title().contains(QLatin1String("Turns 2+")) ||
                !pane.chartView()->chart()->axes().isEmpty());

        // Records without turns: no choice shown, every sample drawn.
        const QString plain = dir.filePath(QStringLiteral("plain.jsonl"));
        QVERIFY(writeText(plain, "{\"i\":0,\"ok\":true,\"ttft_ms\":5}\n{\"i\":1,\"ok\":true,\"ttft_ms\":6}\n"));
        loaded.clear();
        pane.setRecordsFile(plain, QStringLiteral("u"));
        QVERIFY(sbtest::waitForSignal(loaded, 10000));
        QVERIFY(!turn->isVisible());
        QCOMPARE(pane.shownSamples(), 2);
    }

    void cacheTabShowsTurnsAndTheIdeal()
    {
        SweepResults r = sbtest::makeSweepResults();
        CellResult &cell = r.cells[1];
        for (int t = 1; t <= 4; ++t) {
            TurnStats row;
            row.turn = t;
            row.completed = 4;
            row.ttftP50Ms = t == 1 ? 31.0 : 15.0 + t;
            row.ttftAvgMs = row.ttftP50Ms;
            row.inputTokensAvg = 512 + (t - 1) * 88;
            row.historyTokensAvg = t == 1 ? -1 : 536 + (t - 2) * 88;
            row.cachedTokensAvg = t == 1 ? 0 : row.historyTokensAvg - 10;
            cell.byTurn.push_back(row);
        }
        cell.prefixCache = PrefixCacheStats{0, -1, true, 1, 0.722, 0.709, 0.705};
        r.cells[2].prefixCache = PrefixCacheStats{4, 448, false, 128, 0.563, -1, 0.582};
        ResultsView view;
        view.resize(1200, 800);
        view.show();
        view.setResults(r, QString());
        auto *pane = view.findChild<CachePane *>(QStringLiteral("cachePane"));
        QVERIFY(pane);
        view.selectCell(1);
        QCOMPARE(pane->turnTable()->rowCount(), 4);
        QCOMPARE(pane->turnTable()->item(1, 3)->text(), QStringLiteral("17.0"));  // turn 2's TTFT p50
        QCOMPARE(pane->turnTable()->item(0, 7)->text(), QStringLiteral("—"));     // turn 1 has no history
        QCOMPARE(pane->turnTable()->item(3, 8)->text(), QStringLiteral("702"));   // turn 4's cached tokens
        QVERIFY2(pane->statusText().contains(QLatin1String("session histories")) && pane->statusText().contains(QLatin1String("72.2 %")) &&
                     pane->statusText().contains(QLatin1String("70.9 %")),
                 qPrintable(pane->statusText()));
        auto *chart = pane->findChild<InteractiveChartView *>(QStringLiteral("turnsChart"))->chart();
        QCOMPARE(chart->series().size(), 3); // TTFT, history, cached
        QCOMPARE(static_cast<QXYSeries *>(chart->series().first())->points().at(0), QPointF(1, 31));
        // Turns are whole numbers: one tick per turn, labelled without decimals (a narrow pane
        // elided the nice-number ticks 1.5, 2.5… to "…").
        const auto *turnAxis = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(turnAxis);
        QCOMPARE(turnAxis->tickCount(), 4);
        QCOMPARE(turnAxis->labelFormat(), QStringLiteral("%d"));
        QCOMPARE(turnAxis->min(), 1.0);
        QCOMPARE(turnAxis->max(), 4.0);
        QVERIFY(!pane->turnTable()->isHidden());

        view.selectCell(2); // shared prefixes, no sessions: the line, no table
        QVERIFY2(pane->statusText().contains(QLatin1String("4 shared prefixes of 448 tokens")) &&
                     pane->statusText().contains(QLatin1String("whole 128-token blocks")) && pane->statusText().contains(QLatin1String("58.2 %")),
                 qPrintable(pane->statusText()));
        QVERIFY(pane->turnTable()->isHidden());
        view.selectCell(0);
        QVERIFY2(pane->statusText().contains(QLatin1String("neither sessions nor shared prefixes")), qPrintable(pane->statusText()));
    }
};

QTEST_MAIN(TestSessionsView)
#include "tst_sessions_view.moc"
