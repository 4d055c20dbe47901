// The server form's Launch section: the command as one shell-like line, the environment as
// NAME=value lines, the ready and stop settings, `reset_kv_cache: restart` as a way to reset, and
// "Test launch", which starts the server in a real window, shows its log until it is ready and
// stops it again.
#include "ScreenshotSupport.h"
#include "TestSupport.h"
#include "designer/DesignTab.h"
#include "designer/HookEditor.h"
#include "designer/LaunchEditor.h"
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
#include <QSpinBox>
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
