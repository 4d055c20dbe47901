// The `launch:` mapping and `reset_kv_cache: restart` in the spec: parsed, validated with
// located errors, written back to an equal spec (docs/spec-reference.md).
#include "tst_spec_helpers.h"
#include "spec/SecretSet.h"
#include <QTest>

using namespace spectest;

class TstLaunchSpec : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesEveryKey()
    {
        const QByteArray yaml = R"(servers:
  - name: vllm-tp1
    model: tiny
    flavor: vllm
    reset_kv_cache: restart
    launch:
      command: [vllm, serve, /models/tiny, --port, "{port}", --served-model-name, tiny]
      env: {VLLM_SERVER_DEV_MODE: "1"}
      ready: {path: /health, timeout_seconds: 900}
      stop: {signal: INT, grace_seconds: 12}
      log_keep_mib: 2
sweep:
  concurrency: [1]
)";
        const sb::SpecLoadResult r = sb::loadSpecText(yaml, QStringLiteral("s.yaml"));
        QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
        const sb::ServerSpec &s = r.spec->servers.first();
        QVERIFY(s.urls.isEmpty()); // the launch's own http://127.0.0.1:{port}
        QVERIFY(s.launch.enabled);
        QCOMPARE(s.launch.command.size(), 7);
        QCOMPARE(s.launch.command[4], QStringLiteral("{port}"));
        QCOMPARE(s.launch.env.first().first, QStringLiteral("VLLM_SERVER_DEV_MODE"));
        QCOMPARE(s.launch.env.first().second, QStringLiteral("1"));
        QCOMPARE(s.launch.readyPath, QStringLiteral("/health"));
        QCOMPARE(s.launch.readyTimeoutS, 900.0);
        QCOMPARE(s.launch.stopSignal, QStringLiteral("INT"));
        QCOMPARE(s.launch.graceS, 12.0);
        QCOMPARE(s.launch.logKeepMib, 2.0);
        QVERIFY(s.reset.enabled && s.reset.restart);

        // Written back: tst_spec_write's roundTripEveryKey.
    }

    void locatedErrors_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::newRow("restart without launch") << QByteArray("servers:\n  - name: a\n    url: http://localhost:8000\n    model: m\n"
                                                               "    reset_kv_cache: restart\nsweep:\n  concurrency: [1]\n")
                                                << "servers[0].reset_kv_cache" << 5 << 21 << "restart needs launch";
        QTest::newRow("command not a list") << QByteArray("servers:\n  - name: a\n    model: m\n    launch:\n      command: vllm serve x\n"
                                                          "sweep:\n  concurrency: [1]\n")
                                            << "servers[0].launch.command" << 5 << 16 << "argv, never a shell";
        QTest::newRow("launch and mock") << QByteArray("servers:\n  - name: a\n    mock: vllm\n    launch:\n      command: [x]\n"
                                                       "sweep:\n  concurrency: [1]\n")
                                         << "servers[0].launch" << 4 << 5 << "mutually exclusive";
        QTest::newRow("unknown stop signal") << QByteArray("servers:\n  - name: a\n    model: m\n    launch:\n      command: [x]\n"
                                                           "      stop: {signal: TREM}\nsweep:\n  concurrency: [1]\n")
                                             << "servers[0].launch.stop.signal" << 6 << 22 << "did you mean 'TERM'";
        QTest::newRow("unknown key") << QByteArray("servers:\n  - name: a\n    model: m\n    launch:\n      command: [x]\n"
                                                   "      ready_path: /health\nsweep:\n  concurrency: [1]\n")
                                     << "servers[0].launch.ready_path" << 6 << 7 << "unknown key";
        QTest::newRow("port out of range") << QByteArray("servers:\n  - name: a\n    model: m\n    launch:\n      command: [x]\n"
                                                         "      port: 70000\nsweep:\n  concurrency: [1]\n")
                                           << "servers[0].launch.port" << 6 << 13 << "65535";
    }
    void locatedErrors()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, keyPath);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, text);
        const sb::SpecLoadResult r = sb::loadSpecText(yaml, QStringLiteral("s.yaml"));
        QVERIFY(!r.ok());
        const QString problem = expectDiag(r, keyPath, line, column, text);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void credentialEnvIsASecret()
    {
        const sb::SpecLoadResult r = sb::loadSpecText("servers:\n  - name: a\n    model: m\n"
                                                      "    launch: {command: [x], env: {HF_TOKEN: hf_abcdefgh123, LOG_LEVEL: debug}}\n"
                                                      "sweep:\n  concurrency: [1]\n");
        QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
        QVERIFY(sb::SecretSet::fromSpec(*r.spec).values().contains(QStringLiteral("hf_abcdefgh123")));
        const QByteArray stripped = sb::saveSpecYaml(*r.spec, sb::SecretPolicy::Strip);
        QVERIFY2(!stripped.contains("hf_abcdefgh123") && stripped.contains("LOG_LEVEL"), stripped.constData());
        QVERIFY(sb::saveSpecYaml(*r.spec).contains("hf_abcdefgh123"));
    }

    void urlFollowsThePort()
    {
        // A url naming {port} is valid with launch: (its port is known only at run time).
        const sb::SpecLoadResult r = sb::loadSpecText("servers:\n  - name: a\n    model: m\n    url: http://127.0.0.1:{port}/v1\n"
                                                      "    launch: {command: [x, --port, \"{port}\"]}\nsweep:\n  concurrency: [1]\n");
        QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
    }
};

QTEST_GUILESS_MAIN(TstLaunchSpec)
#include "tst_launch_spec.moc"
