// The sweepbench executable's headless commands, run as a user runs them.
#include "HostileServer.h"
#include "TestSupport.h"
#include <QProcess>
#include <algorithm>
#include <QTemporaryDir>
#include <QTest>

class TestCli : public QObject
{
    Q_OBJECT
    QString m_binary;

    struct Run {
        int code;
        QString out, err;
    };
    Run run(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 120000)
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(m_binary, args);
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return {-1, QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) + QStringLiteral("\n[killed: still running]")};
        }
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }
    // The worker thread finishes before the main thread enters its event loop.
    static QProcessEnvironment slowMainThread()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SWEEPBENCH_TEST_EXEC_DELAY_MS"), QStringLiteral("400"));
        return env;
    }
    QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
    {
        QFile f(dir.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return f.fileName();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_binary = qEnvironmentVariable("SWEEPBENCH_BINARY");
        if (m_binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
    }
    void init() { sbtest::failOnQtWarnings(); }

    void misspelledHookKeyIsNamed()
    {
        QTemporaryDir dir;
        const QString spec = write(dir, "s.yaml", "servers:\n  - name: a\n    url: http://127.0.0.1:9\n    model: m\n"
                                                  "    reset_kv_cach: true\nsweep:\n  concurrency: [1]\n");
        const Run r = run({"validate", spec});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(spec + ":5:5:"), qPrintable(r.err));
        QVERIFY(r.err.contains("reset_kv_cach"));
        QVERIFY(r.err.contains("did you mean 'reset_kv_cache'"));
        QCOMPARE(run({"run", spec, "--out", dir.filePath("o")}).code, 2); // run refuses it too
    }

    void malformedYamlNamesFileAndLine()
    {
        QTemporaryDir dir;
        const QString spec = write(dir, "bad.yaml", "name: x\nservers: [\n  {name: a\n");
        const Run r = run({"validate", spec});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(spec + ":"), qPrintable(r.err));
        QVERIFY(r.err.contains("YAML syntax error"));
    }

    void hooksCheckPrintsAVerdictPerOriginAndHook()
    {
        QTemporaryDir dir;
        const QString spec = write(dir, "h.yaml", "servers:\n  - name: trt\n    mock: trtllm\n    reset_kv_cache: true\n"
                                                  "    server_profiler: true\nsweep:\n  concurrency: [1]\n");
        const Run r = run({"hooks", "check", spec});
        QCOMPARE(r.code, 1); // trtllm-serve has no reset route
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.value(0).startsWith("SERVER") && lines.value(0).contains("ORIGIN"), qPrintable(r.out));
        // First the server itself: the embedded mock answers, and serves any model name (said so,
        // not left "not checked").
        QVERIFY2(lines.value(1).contains("http://127.0.0.1:") && lines.value(1).contains("reachability")
                     && lines.value(1).contains("✓ ok"), qPrintable(r.out));
        QVERIFY2(lines.value(2).contains("model_list") && lines.value(2).contains("✓ ok")
                     && lines.value(2).contains("embedded mock: serves any model name, 'demo-model' too"), qPrintable(r.out));
        QVERIFY2(lines.value(3).contains("http://127.0.0.1:") && lines.value(3).contains("reset_kv_cache")
                     && lines.value(3).contains("404") && lines.value(3).contains("✗ route_missing"), qPrintable(r.out));
        QVERIFY2(lines.value(4).contains("profiler_start") && lines.value(4).contains("✓ ok"), qPrintable(r.out));
        QVERIFY2(lines.value(5).contains("profiler_stop") && lines.value(5).contains("✓ ok"), qPrintable(r.out));
        // The advice is said once: it ends the verdict's message, so no separate hint line repeats it.
        QVERIFY2(r.out.count("enable_block_reuse") == 1, qPrintable(r.out));
    }
    // The table judges as every other view does (results/HookSeverity): a profiler stop that
    // failed is a warning (the numbers are fine, the traces may not be), so the check passes.
    void hooksCheckWarnsOnAFailedProfilerStop()
    {
        QTemporaryDir dir;
        const QString spec = write(dir, "p.yaml", "servers:\n  - name: v\n    mock: vllm\n"
                                                  "    server_profiler: {stop_path: /no_such_stop}\nsweep:\n  concurrency: [1]\n");
        const Run r = run({"hooks", "check", spec});
        QVERIFY2(r.code == 0, qPrintable(QStringLiteral("exit %1: %2 %3").arg(r.code).arg(r.out, r.err)));
        QVERIFY2(r.out.contains("profiler_start") && r.out.contains("✓ ok"), qPrintable(r.out));
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        const auto stop = std::find_if(lines.begin(), lines.end(), [](const QString &l) { return l.contains("profiler_stop"); });
        QVERIFY2(stop != lines.end() && stop->contains("⚠ route_missing"), qPrintable(r.out));
    }
    void hooksCheckAdvisesOnAnUnreachableServer()
    {
        QTemporaryDir dir;
        const QString spec = write(dir, "u.yaml", "servers:\n  - name: gone\n    url: http://127.0.0.1:9\n    model: m\n"
                                                  "    reset_kv_cache: true\nsweep:\n  concurrency: [1]\n");
        const Run r = run({"hooks", "check", spec});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains("hint: no answer from http://127.0.0.1:9") && r.out.contains("is the server running"), qPrintable(r.out));
        QVERIFY2(r.out.count("hint: no answer from") == 1, qPrintable(r.out)); // said once, not per hook
    }

    // A run that stops before its first cell finishes before exec(): its quit must not be lost
    // (it was, when the handlers ran on the engine's thread: the CLI then never exited).
    void aRunThatStopsAtOnceStillExits()
    {
        QTemporaryDir dir;
        const QString spec = write(dir, "s.yaml", "servers:\n  - name: a\n    url: http://127.0.0.1:9\n    model: m\n"
                                                  "sweep:\n  concurrency: [1]\n");
        const QString notAFolder = write(dir, "taken", "a file where the results folder should go");
        const Run r = run({"run", spec, "--out", notAFolder}, slowMainThread(), 30000);
        QVERIFY2(r.code == 3 || r.code == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(r.err)));
        QVERIFY2(r.err.contains(notAFolder), qPrintable(r.err));
    }
    // With every hook off there is still the server to check: an unreachable one fails (it used
    // to "pass" with nothing checked), and the command still exits.
    void hooksCheckWithNoHooksStillChecksTheServer()
    {
        QTemporaryDir dir;
        const QString spec = write(dir, "h.yaml", "servers:\n  - name: plain\n    url: http://127.0.0.1:9\n    model: m\n"
                                                  "sweep:\n  concurrency: [1]\n");
        const Run r = run({"hooks", "check", spec}, slowMainThread(), 30000);
        QVERIFY2(r.code == 1, qPrintable(QStringLiteral("exit %1: %2 %3").arg(r.code).arg(r.out, r.err)));
        QVERIFY2(r.out.contains("reachability") && r.out.contains("✗ error"), qPrintable(r.out));
        QVERIFY2(r.out.contains("hint: no answer from http://127.0.0.1:9"), qPrintable(r.out));
        QVERIFY2(r.out.contains("no hooks enabled"), qPrintable(r.out));
    }

    // A server that quotes the key back at every turn — in its model list (a served id named
    // after it, once upper-cased with '-' as '_') and in the 401 it answers every POST with,
    // calibration probes first: neither `hooks check` nor `run` prints it, on stdout or stderr.
    void noCommandPrintsTheKey()
    {
        static const QByteArray kKey = "sk-cli-Secret0123456789";
        hostile::Server server([](hostile::Conn &c) {
            for (;;) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                const QByteArray key = hostile::headerValue(req, "Authorization").mid(7); // "Bearer "
                const QByteArray answer = req.startsWith("GET /v1/models")
                    ? hostile::jsonResponse(200, "{\"data\":[{\"id\":\"org/" + key + "\"},{\"id\":\"" + key.toUpper().replace('-', '_') + "\"}]}")
                    : hostile::jsonResponse(401, "{\"error\":\"invalid key " + key + "\"}");
                if (!c.write(answer))
                    return;
            }
        });
        QTemporaryDir dir;
        const QString spec = write(dir, "k.yaml", "servers:\n  - name: echo\n    url: " + server.url() + "\n    model: m\n"
                                                  "    api_key: " + kKey + "\nworkload:\n  requests_per_cell: 2\n"
                                                  "sweep:\n  concurrency: [1]\n");
        const auto showsKey = [](const Run &r) {
            return (r.out + r.err).toLower().replace(QLatin1Char('_'), QLatin1Char('-')).contains(QString::fromLatin1(kKey.left(10)).toLower());
        };
        const Run check = run({"hooks", "check", spec}, QProcessEnvironment::systemEnvironment(), 60000);
        QVERIFY2(check.code == 1 && check.out.contains("model_list"), qPrintable(check.out + check.err));
        QVERIFY2(check.out.contains("[redacted]"), qPrintable(check.out)); // the server did list the key
        QVERIFY2(!showsKey(check), qPrintable(check.out + check.err));

        const Run sweep = run({"run", spec, "--out", dir.filePath("o")}, QProcessEnvironment::systemEnvironment(), 60000);
        QVERIFY2(sweep.code == 1, qPrintable(QStringLiteral("exit %1: %2").arg(sweep.code).arg(sweep.err)));
        QVERIFY2(sweep.err.contains("not calibrated") && sweep.err.contains("[redacted]"), qPrintable(sweep.err));
        QVERIFY2(!showsKey(sweep), qPrintable(sweep.out + sweep.err));
    }

    void validSpecValidates()
    {
        const Run r = run({"validate", sbtest::sourcePath("resources/example-sweep.yaml")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("ok"));
    }

    void usageErrorsExitTwo()
    {
        QCOMPARE(run({"run"}).code, 2);
        QCOMPARE(run({"run", "x.yaml", "--bogus"}).code, 2);
        QCOMPARE(run({"hooks", "nope"}).code, 2);
        QCOMPARE(run({"help", "nope"}).code, 2);
    }

    void helpDocumentsEveryCommand()
    {
        const Run main = run({"--help"});
        QCOMPARE(main.code, 0);
        for (const char *c : {"run", "demo", "validate", "hooks", "summary", "diff", "export", "mock-server", "help"}) {
            QVERIFY2(main.out.contains(QLatin1String(c)), c);
            const Run one = run({"help", QLatin1String(c)});
            QCOMPARE(one.code, 0);
            QVERIFY2(one.out.size() > 60, c);
        }
        QVERIFY(run({"help", "run"}).out.contains("--resume"));
        QVERIFY(run({"--version"}).out.startsWith("sweepbench "));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
