// The `launch:` mapping, its variants (a list or a matrix) and `reset_kv_cache: restart` in the
// spec: parsed, validated with located errors, written back to an equal spec, and expanded into
// one server per variant (docs/spec-reference.md).
#include "tst_spec_helpers.h"
#include "spec/LaunchVariants.h"
#include "spec/SecretSet.h"
#include <QTest>

using namespace spectest;

namespace {
// The current data row's spec is refused with its diagnostic at keyPath, line and column.
void expectLocatedError()
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
} // namespace

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
    void locatedErrors() { expectLocatedError(); }

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

    void variantList()
    {
        const QByteArray yaml = R"(servers:
  - name: vllm-tp1
    model: tiny
    flavor: vllm
    launch:
      command: [vllm, serve, /models/tiny, --port, "{port}"]
      env: {VLLM_SERVER_DEV_MODE: "1", LOG: info}
      variants:
        - {name: small, args: [--max-num-seqs, "64"]}
        - name: big
          args: [--max-num-seqs, "256"]
          env: {LOG: debug, EXTRA: "1"}
  - name: other
    url: http://localhost:9000
    model: tiny
sweep:
  concurrency: [1, 4]
)";
        const sb::SpecLoadResult r = sb::loadSpecText(yaml, QStringLiteral("s.yaml"));
        QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
        const sb::LaunchSpec &l = r.spec->servers.first().launch;
        QCOMPARE(l.variants.size(), 2);
        QCOMPARE(l.variants[1].name, QStringLiteral("big"));
        QCOMPARE(l.variants[1].args, (QStringList{QStringLiteral("--max-num-seqs"), QStringLiteral("256")}));
        QCOMPARE(l.variants[1].env.size(), 2);

        const sb::SweepSpec expanded = sb::withLaunchVariantsExpanded(*r.spec);
        QCOMPARE(expanded.servers.size(), 3); // two variants, then the other server, in spec order
        QCOMPARE(expanded.servers[0].name, QStringLiteral("vllm-tp1[small]"));
        QCOMPARE(expanded.servers[1].name, QStringLiteral("vllm-tp1[big]"));
        QCOMPARE(expanded.servers[2].name, QStringLiteral("other"));
        QCOMPARE(expanded.servers[1].variantOf, QStringLiteral("vllm-tp1"));
        QCOMPARE(expanded.servers[1].variant, QStringLiteral("big"));
        QCOMPARE(expanded.servers[1].launch.command.mid(5), (QStringList{QStringLiteral("--max-num-seqs"), QStringLiteral("256")}));
        // The variant's env adds to the launch's, replacing a variable of the same name.
        const QList<QPair<QString, QString>> env{{QStringLiteral("VLLM_SERVER_DEV_MODE"), QStringLiteral("1")},
                                                 {QStringLiteral("LOG"), QStringLiteral("debug")},
                                                 {QStringLiteral("EXTRA"), QStringLiteral("1")}};
        QCOMPARE(expanded.servers[1].launch.env, env);
        QVERIFY(expanded.servers[1].launch.variants.isEmpty());
        QCOMPARE(sb::withLaunchVariantsExpanded(expanded).servers.size(), 3); // idempotent
        QCOMPARE(expanded.servers.size() * expanded.cellsPerServer(), 6);

        const sb::SpecLoadResult back = sb::loadSpecText(sb::saveSpecYaml(*r.spec), QStringLiteral("back.yaml"));
        QVERIFY2(back.ok(), qPrintable(dump(back.diagnostics)));
        QCOMPARE(back.spec->servers.first().launch.variants, l.variants);
    }

    void variantMatrix()
    {
        const QByteArray yaml = R"(servers:
  - name: vllm-tp1
    model: tiny
    launch:
      command: [vllm, serve, /models/tiny]
      variants: {"--max-num-seqs": [64, 256], "--enable-chunked-prefill": [true, false], VLLM_ATTENTION_BACKEND: [FLASH_ATTN]}
sweep:
  concurrency: [1]
)";
        const sb::SpecLoadResult r = sb::loadSpecText(yaml, QStringLiteral("s.yaml"));
        QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
        const sb::LaunchSpec &l = r.spec->servers.first().launch;
        QCOMPARE(l.matrix.size(), 3);
        QCOMPARE(sb::launchMatrixCombinations(l), 4);
        const QList<sb::LaunchVariant> v = sb::launchVariants(l);
        QCOMPARE(v.size(), 4);
        QCOMPARE(v[0].name, QStringLiteral("max-num-seqs=64,enable-chunked-prefill=true,VLLM_ATTENTION_BACKEND=FLASH_ATTN"));
        QCOMPARE(v[0].args, (QStringList{QStringLiteral("--max-num-seqs"), QStringLiteral("64"), QStringLiteral("--enable-chunked-prefill")}));
        QCOMPARE(v[1].args, (QStringList{QStringLiteral("--max-num-seqs"), QStringLiteral("64"), QStringLiteral("--no-enable-chunked-prefill")}));
        QCOMPARE(v[3].args.mid(0, 2), (QStringList{QStringLiteral("--max-num-seqs"), QStringLiteral("256")}));
        QCOMPARE(v[2].env, (QList<QPair<QString, QString>>{{QStringLiteral("VLLM_ATTENTION_BACKEND"), QStringLiteral("FLASH_ATTN")}}));
        const sb::SweepSpec expanded = sb::withLaunchVariantsExpanded(*r.spec);
        QCOMPARE(expanded.servers.size(), 4);
        QCOMPARE(expanded.servers[3].name, QStringLiteral("vllm-tp1[max-num-seqs=256,enable-chunked-prefill=false,VLLM_ATTENTION_BACKEND=FLASH_ATTN]"));

        // Written back as a matrix, read back to the same axes (true/false and numbers included).
        const QByteArray written = sb::saveSpecYaml(*r.spec);
        const sb::SpecLoadResult back = sb::loadSpecText(written, QStringLiteral("back.yaml"));
        QVERIFY2(back.ok(), qPrintable(dump(back.diagnostics) + QLatin1Char('\n') + QString::fromUtf8(written)));
        QCOMPARE(back.spec->servers.first().launch.matrix, l.matrix);
        QVERIFY(back.spec->servers.first().launch.variants.isEmpty());
    }

    void variantErrors_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        const QByteArray head = "servers:\n  - name: a\n    model: m\n    launch:\n      command: [x]\n";
        const QByteArray tail = "sweep:\n  concurrency: [1]\n";
        // 4 × 4 × 5 = 80 > 64: refused at the key whose values pass the bound, before any expansion.
        QTest::newRow("matrix too large") << head + "      variants: {--a: [1, 2, 3, 4], --b: [1, 2, 3, 4], --c: [1, 2, 3, 4, 5]}\n" + tail
                                          << "servers[0].launch.variants.--c" << 6 << 61 << "at most 64 variants";
        QTest::newRow("variants empty") << head + "      variants: []\n" + tail << "servers[0].launch.variants" << 6 << 17 << "a list of variants";
        QTest::newRow("variant not a mapping") << head + "      variants: [--max-num-seqs]\n" + tail
                                               << "servers[0].launch.variants[0]" << 6 << 18 << "expected a mapping {name, args";
        QTest::newRow("variant without name") << head + "      variants:\n        - args: [--x]\n" + tail
                                              << "servers[0].launch.variants[0].name" << 7 << 11 << "missing required key";
        QTest::newRow("args not a list") << head + "      variants:\n        - {name: a, args: --x 1}\n" + tail
                                         << "servers[0].launch.variants[0].args" << 7 << 27 << "expected a list of arguments";
        QTest::newRow("unknown variant key") << head + "      variants:\n        - {name: a, arg: [--x]}\n" + tail
                                             << "servers[0].launch.variants[0].arg" << 7 << 21 << "unknown key";
        QTest::newRow("matrix values not a list") << head + "      variants: {--max-num-seqs: 64}\n" + tail
                                                  << "servers[0].launch.variants.--max-num-seqs" << 6 << 34 << "non-empty list of values";
        QTest::newRow("matrix value not a scalar") << head + "      variants: {--max-num-seqs: [[64]]}\n" + tail
                                                   << "servers[0].launch.variants.--max-num-seqs[0]" << 6 << 35 << "expected a value";
        QTest::newRow("duplicate variant names") << head + "      variants:\n        - {name: a}\n        - {name: a}\n" + tail
                                                 << "servers[0].launch.variants[1].name" << 8 << 18 << "duplicate variant name 'a'";
        QTest::newRow("bracket in name") << head + "      variants:\n        - {name: \"x[1]\"}\n" + tail
                                         << "servers[0].launch.variants[0].name" << 7 << 18 << "without '[' or ']'";
        QTest::newRow("matrix key neither flag nor env") << head + "      variants: {max num seqs: [1, 2]}\n" + tail
                                                         << "servers[0].launch.variants.max num seqs" << 6 << 18 << "a flag (--name) or an environment variable";
        QTest::newRow("matrix value twice") << head + "      variants: {--n: [1, 1]}\n" + tail
                                            << "servers[0].launch.variants.--n" << 6 << 18 << "listed twice";
        QTest::newRow("series takes a server's name") << QByteArray("servers:\n  - name: a\n    model: m\n    launch:\n      command: [x]\n"
                                                                    "      variants: [{name: v}]\n  - name: a[v]\n    url: http://localhost:1\n    model: m\n") + tail
                                                      << "servers[1].name" << 7 << 11 << "duplicate server name 'a[v]'";
    }
    void variantErrors() { expectLocatedError(); }

    void variantAndCommandSecrets()
    {
        const sb::SpecLoadResult r = sb::loadSpecText("servers:\n  - name: a\n    model: m\n"
                                                      "    launch:\n      command: [x, --api-key, sk-commandline123, --max-num-batched-tokens, \"8192000\", --hf-token=hf_inline4567]\n"
                                                      "      variants: [{name: v, args: [--admin-api-key, adm_secret789], env: {HF_TOKEN: hf_variant0001}}]\n"
                                                      "sweep:\n  concurrency: [1]\n");
        QVERIFY2(r.ok(), qPrintable(dump(r.diagnostics)));
        const QStringList secrets = sb::SecretSet::fromSpec(*r.spec).values();
        for (const char *s : {"sk-commandline123", "hf_inline4567", "adm_secret789", "hf_variant0001"})
            QVERIFY2(secrets.contains(QLatin1String(s)), s);
        QVERIFY(!secrets.contains(QStringLiteral("8192000"))); // --max-num-batched-tokens names no secret
        const QByteArray stripped = sb::saveSpecYaml(*r.spec, sb::SecretPolicy::Strip);
        QVERIFY2(!stripped.contains("hf_variant0001"), stripped.constData());
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
