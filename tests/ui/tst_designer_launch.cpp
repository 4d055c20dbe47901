// The server form's Launch section: the command as one shell-like line, the environment as
// NAME=value lines, the ready and stop settings, `reset_kv_cache: restart` as a way to reset, and
// "Test launch", which starts the server in a real window, shows its log until it is ready and
// stops it again.
#include "ScreenshotSupport.h"
#include "TestSupport.h"
#include "designer/DesignTab.h"
#include "designer/HookEditor.h"
#include "designer/LaunchEditor.h"
#include "designer/LaunchVariantsEditor.h"
#include "designer/ServerEditor.h"
#include "designer/TestLaunchDialog.h"
#include "run/RunTab.h"
#include "run/ServerLogPane.h"
#include "spec/SpecIO.h"
#include <QApplication>
#include <QComboBox>
#include <QGroupBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <cerrno>

using namespace sb;
using namespace sb::ui;

namespace {

QString binary() { return qEnvironmentVariable("SWEEPBENCH_BINARY"); }

SweepSpec launchedSpec()
{
    SweepSpec spec = DesignTab::newSpec();
    ServerSpec &s = spec.servers.first();
    s.mock.clear();
    s.name = QStringLiteral("vllm-tp1");
    s.flavor = Flavor::Vllm;
    s.launch.enabled = true;
    s.launch.command = {QStringLiteral("vllm"), QStringLiteral("serve"), QStringLiteral("/models/tiny model"),
                        QStringLiteral("--port"), QStringLiteral("{port}")};
    s.launch.env = {{QStringLiteral("VLLM_SERVER_DEV_MODE"), QStringLiteral("1")}};
    return spec;
}

// As if pasted: one edit with the whole line (typed key by key, every prefix would be an edit).
void typeInto(QLineEdit *edit, const QString &text)
{
    edit->setText(text);
    Q_EMIT edit->textEdited(text);
}

// As typed into a cell: the table creates the item or changes its text, and says so (itemChanged).
void setCell(QTableWidget *table, int row, int column, const QString &text)
{
    if (QTableWidgetItem *item = table->item(row, column))
        item->setText(text);
    else
        table->setItem(row, column, new QTableWidgetItem(text));
}

QStringList rowTexts(const QTableWidget *table)
{
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < table->columnCount(); ++c)
            cells << (table->item(r, c) ? table->item(r, c)->text() : QString());
        rows << cells.join(QLatin1Char('|'));
    }
    return rows;
}

// The spec the designer saves, loaded again as `sweepbench run` would load it.
SweepSpec reloaded(const SweepSpec &spec)
{
    const SpecLoadResult r = loadSpecText(saveSpecYaml(spec));
    if (!r.ok())
        qWarning("%s", saveSpecYaml(spec).constData());
    return r.ok() ? *r.spec : SweepSpec();
}

} // namespace

class TestDesignerLaunch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void theFormShowsAndEditsTheLaunch()
    {
        DesignTab tab;
        tab.setSpec(launchedSpec());
        LaunchEditor *launch = tab.serverEditor()->launchEditor();
        QVERIFY(launch->group()->isChecked());
        QCOMPARE(launch->commandEdit()->text(), QStringLiteral("vllm serve '/models/tiny model' --port {port}"));
        QCOMPARE(launch->envEdit()->toPlainText(), QStringLiteral("VLLM_SERVER_DEV_MODE=1"));

        typeInto(launch->commandEdit(), QStringLiteral("vllm serve \"/m 2\" --max-num-seqs 8 --port {port}"));
        launch->envEdit()->setPlainText(QStringLiteral("VLLM_SERVER_DEV_MODE=1\n# a comment\nHF_HOME=/cache/hf"));
        tab.validateNow();
        const ServerSpec s = tab.spec().servers.first();
        QCOMPARE(s.launch.command, (QStringList{"vllm", "serve", "/m 2", "--max-num-seqs", "8", "--port", "{port}"}));
        QCOMPARE(s.launch.env.size(), 2);
        QCOMPARE(s.launch.env.at(1), (QPair<QString, QString>{"HF_HOME", "/cache/hf"}));
        QVERIFY(tab.isValid());
        // What the designer saves is what a hand-written launch: would say.
        const QByteArray yaml = saveSpecYaml(tab.spec());
        QVERIFY2(yaml.contains("launch:"), yaml.constData());
        QVERIFY2(yaml.contains("/m 2"), yaml.constData());
    }

    void unreadableLinesAreMarkedAndBlockTheRun()
    {
        DesignTab tab;
        tab.show();
        tab.setSpec(launchedSpec());
        LaunchEditor *launch = tab.serverEditor()->launchEditor();
        typeInto(launch->commandEdit(), QStringLiteral("vllm serve 'unclosed"));
        tab.validateNow();
        QVERIFY(launch->hasLocalErrors());
        QVERIFY(!tab.isValid());
        QVERIFY(!launch->testButton()->isEnabled());
        // The last argv that could be read is kept, not replaced by half a line.
        QCOMPARE(tab.spec().servers.first().launch.command.first(), QStringLiteral("vllm"));
        QVERIFY(tab.spec().servers.first().launch.command.contains(QStringLiteral("/models/tiny model")));
        typeInto(launch->commandEdit(), QStringLiteral("vllm serve /m"));
        launch->envEdit()->setPlainText(QStringLiteral("VLLM_SERVER_DEV_MODE=1\nnot a variable"));
        tab.validateNow();
        QVERIFY(!tab.isValid());
        launch->envEdit()->setPlainText(QStringLiteral("VLLM_SERVER_DEV_MODE=1"));
        tab.validateNow();
        QVERIFY(tab.isValid());
    }

    void theSpecsOwnErrorsShowBesideTheLaunchFields()
    {
        DesignTab tab;
        tab.show();
        SweepSpec spec = launchedSpec();
        spec.servers.first().launch.port = 70000;
        tab.setSpec(spec);
        tab.validateNow();
        QVERIFY(!tab.isValid());
        QVERIFY2(tab.serverEditor()->launchEditor()->errors().message(QStringLiteral("launch.port")).contains(QStringLiteral("65535")),
                 qPrintable(tab.serverEditor()->launchEditor()->errors().message(QStringLiteral("launch.port"))));
    }

    void restartIsAWayToReset()
    {
        DesignTab tab;
        SweepSpec spec = launchedSpec();
        spec.servers.first().reset.enabled = true;
        spec.servers.first().reset.restart = true;
        tab.setSpec(spec);
        auto *how = tab.serverEditor()->findChild<QComboBox *>(QStringLiteral("resetHow"));
        QVERIFY(how);
        QCOMPARE(how->currentIndex(), 1);
        QVERIFY(!tab.serverEditor()->findChild<QLineEdit *>(QStringLiteral("resetPath"))->isEnabled());
        QVERIFY(tab.spec().servers.first().reset.restart);
        QVERIFY(saveSpecYaml(tab.spec()).contains("reset_kv_cache: restart"));
        // Without launch the validator says why a restart cannot work.
        tab.serverEditor()->launchEditor()->group()->setChecked(false);
        tab.validateNow();
        QVERIFY(!tab.isValid());
        how->setCurrentIndex(0);
        Q_EMIT how->activated(0);
        tab.validateNow();
        QVERIFY(!tab.spec().servers.first().reset.restart);
        QVERIFY(tab.serverEditor()->findChild<QLineEdit *>(QStringLiteral("resetPath"))->isEnabled());
    }

    void testLaunchShowsTheLogUntilReadyAndStops()
    {
        if (binary().isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        DesignTab tab;
        tab.resize(1024, 700);
        tab.show();
        SweepSpec spec = launchedSpec();
        spec.servers.first().launch.command = {QStringLiteral("bash"), QStringLiteral("-c"),
                                               QStringLiteral("echo loading tiny weights; exec \"$0\" mock-server --flavor vllm --port \"$1\""),
                                               binary(), QStringLiteral("{port}")};
        spec.servers.first().launch.readyTimeoutS = 30;
        spec.servers.first().launch.graceS = 5;
        tab.setSpec(spec);
        LaunchEditor *launch = tab.serverEditor()->launchEditor();
        QVERIFY(launch->testButton()->isEnabled());
        QTest::mouseClick(launch->testButton(), Qt::LeftButton);
        TestLaunchDialog *dialog = tab.serverEditor()->findChild<TestLaunchDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(QTest::qWaitFor([&] { return dialog->trialFinished() && dialog->statusText().startsWith(QStringLiteral("✓")); }, 40000));
        QVERIFY2(dialog->statusText().contains(QStringLiteral("ready after")), qPrintable(dialog->statusText()));
        QVERIFY2(dialog->logText().contains(QStringLiteral("loading tiny weights")), qPrintable(dialog->logText()));
        sbtest::saveScreenshot(dialog, QStringLiteral("test-launch-ready.png"));
        static const QRegularExpression pidRe(QStringLiteral("pid (\\d+)"));
        const auto m = pidRe.match(dialog->statusText());
        QVERIFY(m.hasMatch());
        QVERIFY(::kill(-pid_t(m.captured(1).toInt()), 0) != 0 && errno == ESRCH); // stopped, nothing left
        auto *button = dialog->findChild<QPushButton *>(QStringLiteral("testLaunchButton"));
        QCOMPARE(button->text(), QStringLiteral("Close"));
        QPointer<TestLaunchDialog> guard(dialog);
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return guard.isNull(); }, 5000)); // closed and deleted
    }

    void variantsListEditsRoundTripsAndPreviews()
    {
        DesignTab tab;
        tab.show();
        tab.setSpec(launchedSpec());
        LaunchVariantsEditor *variants = tab.serverEditor()->launchEditor()->variantsEditor();
        QCOMPARE(variants->form(), LaunchVariantsEditor::None);
        QVERIFY(!variants->preview()->isVisible());
        auto *form = variants->findChild<QComboBox *>(QStringLiteral("launchVariantsForm"));
        form->setCurrentIndex(LaunchVariantsEditor::List);
        Q_EMIT form->activated(LaunchVariantsEditor::List);
        QTableWidget *table = variants->listTable();
        QVERIFY(table->isVisible());
        QCOMPARE(table->rowCount(), 1); // a row to type into
        setCell(table, 0, LaunchVariantsEditor::NameColumn, QStringLiteral("seqs64"));
        setCell(table, 0, LaunchVariantsEditor::ArgsColumn, QStringLiteral("--max-num-seqs 64"));
        QTest::mouseClick(variants->addButton(), Qt::LeftButton);
        QCOMPARE(table->rowCount(), 2);
        setCell(table, 1, LaunchVariantsEditor::NameColumn, QStringLiteral("seqs256-fp8"));
        setCell(table, 1, LaunchVariantsEditor::ArgsColumn, QStringLiteral("--max-num-seqs 256 --served-model-name \"tiny model\""));
        setCell(table, 1, LaunchVariantsEditor::EnvColumn, QStringLiteral("VLLM_ATTENTION_BACKEND=FLASHINFER NOTE='a b=c'"));
        tab.validateNow();
        QVERIFY(tab.isValid());
        const QList<LaunchVariant> expected{
            {QStringLiteral("seqs64"), {QStringLiteral("--max-num-seqs"), QStringLiteral("64")}, {}},
            {QStringLiteral("seqs256-fp8"),
             {QStringLiteral("--max-num-seqs"), QStringLiteral("256"), QStringLiteral("--served-model-name"), QStringLiteral("tiny model")},
             {{QStringLiteral("VLLM_ATTENTION_BACKEND"), QStringLiteral("FLASHINFER")}, {QStringLiteral("NOTE"), QStringLiteral("a b=c")}}}};
        QCOMPARE(tab.spec().servers.first().launch.variants, expected);
        // The preview names the series the sweep will show.
        QVERIFY(variants->preview()->isVisible());
        QCOMPARE(variants->preview()->text(), QStringLiteral("2 series: vllm-tp1[seqs64], vllm-tp1[seqs256-fp8]"));
        tab.resize(1024, 700);
        if (auto *scroll = tab.findChild<QScrollArea *>(QStringLiteral("serverFormScroll")))
            scroll->ensureWidgetVisible(variants->preview(), 0, 0);
        sbtest::saveScreenshot(&tab, QStringLiteral("designer-launch-variants.png"));
        auto *name = tab.serverEditor()->findChild<QLineEdit *>(QStringLiteral("serverName"));
        QVERIFY(name);
        typeInto(name, QStringLiteral("vllm-a"));
        QVERIFY2(variants->preview()->text().startsWith(QStringLiteral("2 series: vllm-a[seqs64]")), qPrintable(variants->preview()->text()));

        // Saved, loaded back and shown again: nothing written is lost, and it saves the same.
        const SweepSpec edited = tab.spec();
        const SweepSpec back = reloaded(edited);
        QCOMPARE(back.servers.first().launch.variants, expected);
        DesignTab again;
        again.show();
        again.setSpec(back);
        LaunchVariantsEditor *shown = again.serverEditor()->launchEditor()->variantsEditor();
        QCOMPARE(shown->form(), LaunchVariantsEditor::List);
        // The values as written, quoted the one way the editor writes them.
        QCOMPARE(rowTexts(shown->listTable()),
                 (QStringList{QStringLiteral("seqs64|--max-num-seqs 64|"),
                              QStringLiteral("seqs256-fp8|--max-num-seqs 256 --served-model-name 'tiny model'|VLLM_ATTENTION_BACKEND=FLASHINFER 'NOTE=a b=c'")}));
        QCOMPARE(again.spec().servers.first().launch.variants, expected);
        QCOMPARE(saveSpecYaml(again.spec()), saveSpecYaml(edited));

        // Back to no variants: the server runs its command as written.
        form->setCurrentIndex(LaunchVariantsEditor::None);
        Q_EMIT form->activated(LaunchVariantsEditor::None);
        QVERIFY(tab.spec().servers.first().launch.variants.isEmpty());
        QVERIFY(!saveSpecYaml(tab.spec()).contains("variants"));
    }

    void variantsMatrixRoundTripsAndPreviews()
    {
        DesignTab tab;
        tab.show();
        tab.setSpec(launchedSpec());
        LaunchVariantsEditor *variants = tab.serverEditor()->launchEditor()->variantsEditor();
        variants->setForm(LaunchVariantsEditor::Matrix);
        QTableWidget *table = variants->matrixTable();
        setCell(table, 0, LaunchVariantsEditor::KeyColumn, QStringLiteral("--max-num-seqs"));
        setCell(table, 0, LaunchVariantsEditor::ValuesColumn, QStringLiteral("64 256"));
        QTest::mouseClick(variants->addButton(), Qt::LeftButton);
        setCell(table, 1, LaunchVariantsEditor::KeyColumn, QStringLiteral("--enable-chunked-prefill"));
        setCell(table, 1, LaunchVariantsEditor::ValuesColumn, QStringLiteral("true false"));
        QTest::mouseClick(variants->addButton(), Qt::LeftButton);
        setCell(table, 2, LaunchVariantsEditor::KeyColumn, QStringLiteral("VLLM_NOTE"));
        setCell(table, 2, LaunchVariantsEditor::ValuesColumn, QStringLiteral("'two words'"));
        tab.validateNow();
        QVERIFY(tab.isValid());
        const QList<LaunchMatrixAxis> expected{{QStringLiteral("--max-num-seqs"), {QStringLiteral("64"), QStringLiteral("256")}},
                                               {QStringLiteral("--enable-chunked-prefill"), {QStringLiteral("true"), QStringLiteral("false")}},
                                               {QStringLiteral("VLLM_NOTE"), {QStringLiteral("two words")}}};
        QCOMPARE(tab.spec().servers.first().launch.matrix, expected);
        QVERIFY(tab.spec().servers.first().launch.variants.isEmpty());
        const QString preview = variants->preview()->text();
        QVERIFY2(preview.startsWith(QStringLiteral("4 series: vllm-tp1[max-num-seqs=64,enable-chunked-prefill=true,VLLM_NOTE=two words], "
                                                   "vllm-tp1[max-num-seqs=64,enable-chunked-prefill=false,VLLM_NOTE=two words]")),
                 qPrintable(preview));
        QVERIFY(preview.endsWith(QStringLiteral("vllm-tp1[max-num-seqs=256,enable-chunked-prefill=false,VLLM_NOTE=two words]")));

        const SweepSpec back = reloaded(tab.spec());
        QCOMPARE(back.servers.first().launch.matrix, expected);
        DesignTab again;
        again.setSpec(back);
        LaunchVariantsEditor *shown = again.serverEditor()->launchEditor()->variantsEditor();
        QCOMPARE(shown->form(), LaunchVariantsEditor::Matrix);
        QCOMPARE(rowTexts(shown->matrixTable()), rowTexts(table));
        QCOMPARE(saveSpecYaml(again.spec()), saveSpecYaml(tab.spec()));

        // Past 64 combinations the preview says so, and the spec's error shows under the table.
        setCell(table, 0, LaunchVariantsEditor::ValuesColumn, QStringLiteral("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33"));
        tab.validateNow();
        QVERIFY(!tab.isValid());
        QVERIFY2(variants->preview()->text().contains(QStringLiteral("More than 64 combinations")), qPrintable(variants->preview()->text()));
        QVERIFY2(variants->messageLine()->text().contains(QStringLiteral("more than 64 combinations")), qPrintable(variants->messageLine()->text()));
    }

    void variantErrorsPointAtTheirRow()
    {
        DesignTab tab;
        tab.show();
        tab.setSpec(launchedSpec());
        LaunchVariantsEditor *variants = tab.serverEditor()->launchEditor()->variantsEditor();
        variants->setForm(LaunchVariantsEditor::List);
        QTableWidget *table = variants->listTable();
        setCell(table, 0, LaunchVariantsEditor::NameColumn, QStringLiteral("a"));
        QTest::mouseClick(variants->addButton(), Qt::LeftButton);
        setCell(table, 1, LaunchVariantsEditor::NameColumn, QStringLiteral("b"));
        QTest::mouseClick(variants->addButton(), Qt::LeftButton);
        setCell(table, 2, LaunchVariantsEditor::NameColumn, QStringLiteral("a"));
        tab.validateNow();
        // The validator's error (servers[0].launch.variants[2].name) lands on the third row.
        QVERIFY(!tab.isValid());
        QVERIFY(variants->rowError(0).isEmpty());
        QVERIFY(variants->rowError(1).isEmpty());
        QVERIFY2(variants->rowError(2).contains(QStringLiteral("row 3: duplicate variant name 'a'")), qPrintable(variants->rowError(2)));
        QCOMPARE(table->item(2, LaunchVariantsEditor::NameColumn)->toolTip(), variants->rowError(2));
        QVERIFY(table->item(2, LaunchVariantsEditor::NameColumn)->background().style() != Qt::NoBrush);
        QVERIFY(variants->messageLine()->text().contains(QStringLiteral("row 3")));
        // Not beside another field of the Launch section.
        QVERIFY(tab.serverEditor()->launchEditor()->errors().message(QStringLiteral("launch.command")).isEmpty());

        // A cell that cannot be read is marked at once and blocks the run; the spec keeps the last readable variants.
        setCell(table, 2, LaunchVariantsEditor::NameColumn, QStringLiteral("c"));
        setCell(table, 1, LaunchVariantsEditor::ArgsColumn, QStringLiteral("--flag 'unclosed"));
        QVERIFY(variants->hasLocalErrors());
        QVERIFY2(variants->rowError(1).contains(QStringLiteral("row 2, arguments")), qPrintable(variants->rowError(1)));
        tab.validateNow();
        QVERIFY(!tab.isValid());
        setCell(table, 1, LaunchVariantsEditor::ArgsColumn, QStringLiteral("--flag ok"));
        setCell(table, 0, LaunchVariantsEditor::EnvColumn, QStringLiteral("not-a-name=1"));
        QVERIFY2(variants->rowError(0).contains(QStringLiteral("row 1, environment")), qPrintable(variants->rowError(0)));
        setCell(table, 0, LaunchVariantsEditor::EnvColumn, QString());
        tab.validateNow();
        QVERIFY(tab.isValid());
        QCOMPARE(tab.spec().servers.first().launch.variants.size(), 3);
        QVERIFY(variants->rowError(2).isEmpty());

        // A matrix key the validator refuses is marked on its row.
        variants->setForm(LaunchVariantsEditor::Matrix);
        QTableWidget *matrix = variants->matrixTable();
        setCell(matrix, 0, LaunchVariantsEditor::KeyColumn, QStringLiteral("--max-num-seqs"));
        setCell(matrix, 0, LaunchVariantsEditor::ValuesColumn, QStringLiteral("8 16"));
        QTest::mouseClick(variants->addButton(), Qt::LeftButton);
        setCell(matrix, 1, LaunchVariantsEditor::KeyColumn, QStringLiteral("not a flag"));
        setCell(matrix, 1, LaunchVariantsEditor::ValuesColumn, QStringLiteral("x"));
        tab.validateNow();
        QVERIFY(!tab.isValid());
        QVERIFY(variants->rowError(0).isEmpty());
        QVERIFY2(variants->rowError(1).contains(QStringLiteral("row 2: expected a flag")), qPrintable(variants->rowError(1)));
        QVERIFY(matrix->item(1, LaunchVariantsEditor::ValuesColumn)->background().style() != Qt::NoBrush);
    }

    void switchingToAMockKeepsTheFlavor()
    {
        DesignTab tab;
        SweepSpec spec = DesignTab::newSpec();
        spec.servers.first().mock.clear();
        spec.servers.first().urls = {QStringLiteral("http://127.0.0.1:30000")};
        spec.servers.first().flavor = Flavor::Sglang;
        tab.setSpec(spec);
        auto *target = tab.serverEditor()->findChild<QComboBox *>(QStringLiteral("targetKind"));
        QVERIFY(target);
        target->setCurrentIndex(1);
        Q_EMIT target->activated(1);
        const ServerSpec s = tab.spec().servers.first();
        QCOMPARE(s.mock, QStringLiteral("sglang"));
        QCOMPARE(toString(s.flavor), QStringLiteral("sglang")); // it used to become vllm, the first mock in the list
        QVERIFY(!tab.serverEditor()->launchEditor()->isEnabled()); // a mock needs no launch
    }

    void theRunTabFollowsALaunchedServersLog()
    {
        if (binary().isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QTemporaryDir out;
        RunTab tab;
        tab.resize(1024, 700);
        tab.show();
        SweepSpec spec;
        spec.name = QStringLiteral("launch-log");
        ServerSpec s;
        s.name = QStringLiteral("launched");
        s.model = QStringLiteral("demo-model");
        s.flavor = Flavor::Vllm;
        s.launch.enabled = true;
        s.launch.command = {QStringLiteral("bash"), QStringLiteral("-c"),
                            QStringLiteral("echo loading tiny weights; exec \"$0\" mock-server --flavor vllm --port \"$1\""), binary(),
                            QStringLiteral("{port}")};
        s.launch.readyTimeoutS = 30;
        s.launch.graceS = 5;
        spec.servers << s;
        spec.workload.requestsPerCell = 8;
        spec.workload.inputTokens = 16;
        spec.workload.outputTokens = 16;
        spec.concurrency = {1, 2};
        QSignalSpy finished(&tab, &RunTab::runFinished);
        QVERIFY(tab.start(spec, out.path()));
        QPlainTextEdit *log = tab.logPane()->serverLog(QStringLiteral("launched"));
        QVERIFY(log);
        QCOMPARE(tab.logPane()->count(), 2); // the engine's log, then the server's
        // While the sweep runs, the server's own output appears in its tab.
        QVERIFY(QTest::qWaitFor([&] { return log->toPlainText().contains(QStringLiteral("loading tiny weights")) || !finished.isEmpty(); }, 30000));
        QVERIFY2(finished.isEmpty() || log->toPlainText().contains(QStringLiteral("loading tiny weights")), "the log was not followed during the run");
        QVERIFY(sbtest::waitForSignal(finished, 60000));
        QCOMPARE(finished.first().first().toInt(), 0);
        QVERIFY2(log->toPlainText().contains(QStringLiteral("stopped")), qPrintable(log->toPlainText())); // the last read after the end
        // The next run without launched servers leaves only the engine's tab.
        spec.servers.first().launch = {};
        spec.servers.first().mock = QStringLiteral("vllm");
        QTemporaryDir out2;
        finished.clear();
        QVERIFY(tab.start(spec, out2.path()));
        QCOMPARE(tab.logPane()->count(), 1);
        QVERIFY(sbtest::waitForSignal(finished, 60000));
    }

    void closingWhileStartingStopsTheServer()
    {
        DesignTab tab;
        tab.show();
        SweepSpec spec = launchedSpec();
        spec.servers.first().launch.command = {QStringLiteral("bash"), QStringLiteral("-c"), QStringLiteral("echo started; sleep 100")};
        spec.servers.first().launch.graceS = 5;
        tab.setSpec(spec);
        QTest::mouseClick(tab.serverEditor()->launchEditor()->testButton(), Qt::LeftButton);
        QPointer<TestLaunchDialog> dialog = tab.serverEditor()->findChild<TestLaunchDialog *>();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitFor([&] { return dialog->logText().contains(QStringLiteral("started")); }, 10000));
        static const QRegularExpression pidRe(QStringLiteral("started pid (\\d+)"));
        const auto m = pidRe.match(dialog->logText());
        QVERIFY2(m.hasMatch(), qPrintable(dialog->logText()));
        const pid_t pid = pid_t(m.captured(1).toInt());
        QVERIFY(::kill(-pid, 0) == 0); // running
        dialog->close();
        QVERIFY(!dialog->isVisible()); // hidden at once: the UI does not wait for the stop
        QVERIFY(QTest::qWaitFor([&] { return dialog.isNull(); }, 15000));
        QVERIFY(::kill(-pid, 0) != 0 && errno == ESRCH);
    }
};

QTEST_MAIN(TestDesignerLaunch)
#include "tst_designer_launch.moc"
