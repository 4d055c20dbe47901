// What the designer's Launch section rests on: a launch command edited as one shell-like line
// (launch/CommandLine) and "Test launch" (launch/LaunchTrial), which starts the server as a sweep
// would, reports it ready or why not, and leaves no process behind.
#include "launch/CommandLine.h"
#include "launch/LaunchTrial.h"
#include "TestSupport.h"
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <cerrno>

using namespace sb;

namespace {

QString binary() { return qEnvironmentVariable("SWEEPBENCH_BINARY"); }

ServerSpec launched(const QStringList &command)
{
    ServerSpec s;
    s.name = QStringLiteral("trial");
    s.model = QStringLiteral("demo-model");
    s.launch.enabled = true;
    s.launch.command = command;
    s.launch.readyTimeoutS = 30;
    s.launch.graceS = 5;
    return s;
}

LaunchTrial::Snapshot waitForEnd(LaunchTrial &trial, int withinMs)
{
    if (!QTest::qWaitFor([&] { return trial.finished(); }, withinMs))
        qWarning("the trial did not finish within %d ms", withinMs); // fails the test (failOnQtWarnings)
    return trial.snapshot();
}

// The pid an outcome message names ("… pid 123 …"), or -1.
pid_t pidIn(const QString &message)
{
    static const QRegularExpression re(QStringLiteral("pid (\\d+)"));
    const auto m = re.match(message);
    return m.hasMatch() ? pid_t(m.captured(1).toInt()) : -1;
}

} // namespace

class TstLaunchTrial : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void commandLinesSplitLikeAShell()
    {
        QCOMPARE(splitCommandLine(QStringLiteral("vllm serve /m --port {port}")).argv,
                 (QStringList{"vllm", "serve", "/m", "--port", "{port}"}));
        QCOMPARE(splitCommandLine(QStringLiteral("  a   'b c'  \"d \\\"e\\\"\" f\\ g ''  ")).argv,
                 (QStringList{"a", "b c", "d \"e\"", "f g", ""}));
        QCOMPARE(splitCommandLine(QStringLiteral("x '$HOME' \"*\"")).argv, (QStringList{"x", "$HOME", "*"})); // no expansion
        const CommandLineSplit open = splitCommandLine(QStringLiteral("serve 'unclosed"));
        QVERIFY(open.argv.isEmpty());
        QCOMPARE(open.error, QStringLiteral("the ' at column 7 is never closed"));
        QCOMPARE(splitCommandLine(QStringLiteral("a \"b")).error, QStringLiteral("the \" at column 3 is never closed"));
        QVERIFY(splitCommandLine(QStringLiteral("a \\")).error.contains(QStringLiteral("column 3")));
    }

    void joinedLinesReadBackAsTheSameArgv()
    {
        const QList<QStringList> cases = {
            {"vllm", "serve", "/models/tiny", "--port", "{port}"},
            {"bash", "-c", "echo it's \"quoted\" && exit 3"},
            {"", "a b", "$X", "back\\slash", "tab\there", "new\nline", "'"},
        };
        for (const QStringList &argv : cases) {
            const QString line = joinCommandLine(argv);
            QCOMPARE(splitCommandLine(line).argv, argv);
        }
        QCOMPARE(joinCommandLine({"vllm", "serve", "--port", "{port}"}), QStringLiteral("vllm serve --port {port}"));
        QCOMPARE(joinCommandLine({"a b", "it's"}), QStringLiteral("'a b' 'it'\\''s'"));
    }

    void aTrialStartsWaitsAndStopsTheServer()
    {
        if (binary().isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QTemporaryDir dir;
        // A line on stdout before the server starts shows the log is read while it starts.
        LaunchTrial trial(launched({QStringLiteral("bash"), QStringLiteral("-c"),
                                    QStringLiteral("echo loading tiny weights; exec \"$0\" mock-server --flavor vllm --port \"$1\""),
                                    binary(), QStringLiteral("{port}")}),
                          dir.path());
        QCOMPARE(trial.snapshot().state, LaunchTrial::State::Starting);
        trial.start();
        const LaunchTrial::Snapshot s = waitForEnd(trial, 40000);
        QVERIFY2(trial.finished(), qPrintable(s.message));
        QCOMPARE(LaunchTrial::stateName(s.state), QStringLiteral("ready"));
        QVERIFY2(s.message.startsWith(QStringLiteral("ready after")), qPrintable(s.message));
        QVERIFY(s.url.startsWith(QStringLiteral("http://127.0.0.1:")));
        QVERIFY2(s.log.contains(QStringLiteral("loading tiny weights")), qPrintable(s.log));
        const pid_t pid = pidIn(s.message);
        QVERIFY2(pid > 0, qPrintable(s.message));
        QVERIFY(::kill(-pid, 0) != 0 && errno == ESRCH); // the whole group is gone
        QVERIFY(QFile::exists(trial.logPath()));
    }

    void aServerThatExitsIsNamed()
    {
        QTemporaryDir dir;
        LaunchTrial trial(launched({QStringLiteral("bash"), QStringLiteral("-c"), QStringLiteral("echo CUDA out of memory >&2; exit 3")}),
                          dir.path());
        trial.start();
        const LaunchTrial::Snapshot s = waitForEnd(trial, 20000);
        QCOMPARE(s.state, LaunchTrial::State::Failed);
        QVERIFY2(s.message.contains(QStringLiteral("exit code 3")), qPrintable(s.message));
        QVERIFY2(s.message.contains(QStringLiteral("CUDA out of memory")), qPrintable(s.message));
    }

    void cancellingStopsAServerStillStarting()
    {
        QTemporaryDir dir;
        // Never ready: it listens nowhere.
        LaunchTrial trial(launched({QStringLiteral("bash"), QStringLiteral("-c"), QStringLiteral("echo started; sleep 100")}), dir.path());
        trial.start();
        QVERIFY(QTest::qWaitFor([&] { return trial.snapshot().log.contains(QStringLiteral("started")); }, 10000));
        QCOMPARE(trial.snapshot().state, LaunchTrial::State::Starting);
        trial.cancel();
        const LaunchTrial::Snapshot s = waitForEnd(trial, 20000);
        QVERIFY(trial.finished());
        QCOMPARE(s.state, LaunchTrial::State::Cancelled);
        const QByteArray log = sbtest::readFile(trial.logPath());
        static const QRegularExpression started(QStringLiteral("started pid (\\d+)"));
        const auto m = started.match(QString::fromUtf8(log));
        QVERIFY2(m.hasMatch(), log.constData());
        const pid_t pid = pid_t(m.captured(1).toInt());
        QVERIFY(::kill(-pid, 0) != 0 && errno == ESRCH); // sleep went with its group
    }
};

QTEST_GUILESS_MAIN(TstLaunchTrial)
#include "tst_launch_trial.moc"
