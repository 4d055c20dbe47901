// saveSpecYaml: what it writes reads back to an equal spec; secrets are stripped on request;
// hook presets stay presets.
#include "TestSupport.h"
#include "tst_spec_helpers.h"
#include <QJsonArray>
#include <QTest>

using namespace sb;

class TstSpecWrite : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }
    void roundTripEveryKey();
    void roundTripMinimal();
    void roundTripExample();
    void hookPresetWrittenAsTrue();
    void stripSecrets();
    void awkwardStrings();
};

// Field-by-field comparison, so a failure names the field.
static void compareSpecs(const SweepSpec &a, const SweepSpec &b)
{
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.description, b.description);
    QCOMPARE(a.servers.size(), b.servers.size());
    for (int i = 0; i < a.servers.size(); ++i) {
        const ServerSpec &x = a.servers[i], &y = b.servers[i];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.urls, y.urls);
        QCOMPARE(x.mock, y.mock);
        QCOMPARE(x.model, y.model);
        SPEC_COMPARE_ENUM(x.endpoint, y.endpoint);
        SPEC_COMPARE_ENUM(x.flavor, y.flavor);
        QCOMPARE(x.apiKey, y.apiKey);
        QCOMPARE(x.apiKeyEnv, y.apiKeyEnv);
        QCOMPARE(x.headers, y.headers);
        QCOMPARE(x.reset.enabled, y.reset.enabled);
        QCOMPARE(x.reset.path, y.reset.path);
        QCOMPARE(x.reset.timeoutS, y.reset.timeoutS);
        QCOMPARE(x.reset.maxRetryS, y.reset.maxRetryS);
        SPEC_COMPARE_ENUM(x.reset.placement, y.reset.placement);
        QCOMPARE(x.profiler.enabled, y.profiler.enabled);
        QCOMPARE(x.profiler.startPath, y.profiler.startPath);
        QCOMPARE(x.profiler.stopPath, y.profiler.stopPath);
        QCOMPARE(x.profiler.timeoutS, y.profiler.timeoutS);
        QCOMPARE(x.profiler.stopTimeoutS, y.profiler.stopTimeoutS);
        QCOMPARE(x.profiler.startBody.has_value(), y.profiler.startBody.has_value());
        if (x.profiler.startBody)
            QCOMPARE(*x.profiler.startBody, *y.profiler.startBody);
        QCOMPARE(x.profiler.traceDir, y.profiler.traceDir);
        QCOMPARE(x.reset.restart, y.reset.restart);
        QCOMPARE(x.launch.enabled, y.launch.enabled);
        QCOMPARE(x.launch.command, y.launch.command);
        QCOMPARE(x.launch.env, y.launch.env);
        QCOMPARE(x.launch.port, y.launch.port);
        QCOMPARE(x.launch.readyPath, y.launch.readyPath);
        QCOMPARE(x.launch.readyTimeoutS, y.launch.readyTimeoutS);
        QCOMPARE(x.launch.stopSignal, y.launch.stopSignal);
        QCOMPARE(x.launch.graceS, y.launch.graceS);
        QCOMPARE(x.launch.logKeepMib, y.launch.logKeepMib);
        QVERIFY(x.telemetry == y.telemetry);
        QVERIFY(x.cost == y.cost);
    }
    QVERIFY(a.telemetry == b.telemetry);
    QVERIFY(a.cost == b.cost);
    const WorkloadSpec &w = a.workload, &v = b.workload;
    QCOMPARE(w.streaming, v.streaming);
    QCOMPARE(w.inputTokens, v.inputTokens);
    QCOMPARE(w.outputTokens, v.outputTokens);
    QCOMPARE(w.ignoreEos, v.ignoreEos);
    QCOMPARE(w.requestsPerCell, v.requestsPerCell);
    QCOMPARE(w.durationS, v.durationS);
    QCOMPARE(w.warmupRequests, v.warmupRequests);
    QCOMPARE(w.requestTimeoutS, v.requestTimeoutS);
    SPEC_COMPARE_ENUM(w.prompts, v.prompts);
    QCOMPARE(w.sharedPrefixTokens, v.sharedPrefixTokens);
    QCOMPARE(w.slo.ttftMs, v.slo.ttftMs);
    QCOMPARE(w.slo.itlMs, v.slo.itlMs);
    QCOMPARE(w.slo.latencyMs, v.slo.latencyMs);
    QCOMPARE(a.concurrency, b.concurrency);
    SPEC_COMPARE_ENUM(a.onHookFailure, b.onHookFailure);
}

static SweepSpec reload(const SweepSpec &spec, SecretPolicy policy = SecretPolicy::Keep)
{
    const QByteArray yaml = saveSpecYaml(spec, policy);
    const SpecLoadResult r = loadSpecText(yaml, QStringLiteral("written.yaml"));
    if (!r.ok())
        qFatal("written spec does not load:\n%s\n---\n%s", yaml.constData(), qPrintable(spectest::dump(r.diagnostics)));
    return *r.spec;
}

static SweepSpec everyKeySpec()
{
    SweepSpec s;
    s.name = QStringLiteral("every key");
    s.description = QStringLiteral("two lines:\nsecond: yes");
    ServerSpec a;
    a.name = QStringLiteral("vllm-a");
    a.urls = {QStringLiteral("https://10.0.0.5:8443/base")};
    a.model = QStringLiteral("meta-llama/Llama-3.1-8B-Instruct");
    a.endpoint = Endpoint::Completions;
    a.flavor = Flavor::Vllm;
    a.apiKey = QStringLiteral("sk-secret-value");
    a.headers = {{"X-Team", "infra"}, {"X-Count", "5"}, {"X-Flag", "true"}, {"Authorization", "Bearer tok"}};
    a.reset.enabled = true; // preset form
    a.profiler.enabled = true;
    a.profiler.startPath = QStringLiteral("/start_profile");
    a.profiler.stopPath = QStringLiteral("/stop_profile?x=1");
    a.profiler.timeoutS = 12.5;
    a.profiler.stopTimeoutS = 1200;
    a.profiler.traceDir = QStringLiteral("/tmp/traces");
    a.profiler.startBody = QJsonObject{{"output_dir", "/tmp/traces"},
                                       {"num_steps", 5},
                                       {"ratio", 0.125},
                                       {"with_stack", true},
                                       {"as_text", "42"},
                                       {"empty", QJsonObject()},
                                       {"none", QJsonValue::Null},
                                       {"activities", QJsonArray{"CPU", "GPU", 3, QJsonArray()}},
                                       {"nested", QJsonObject{{"a", QJsonObject{{"b", QJsonArray{1, QJsonObject{{"c", "~"}}}}}}}}};
    ServerSpec b;
    b.name = QStringLiteral("sglang-mock");
    b.mock = QStringLiteral("sglang");
    b.model = QStringLiteral("demo-model");
    b.flavor = Flavor::Sglang;
    b.apiKeyEnv = QStringLiteral("SGLANG_KEY");
    b.reset.enabled = true; // explicit map form
    b.reset.path = QStringLiteral("/flush_cache?timeout=30");
    b.reset.timeoutS = 45;
    b.reset.maxRetryS = 0;
    b.reset.placement = ResetPlacement::Both;
    b.profiler.enabled = false; // disabled but configured
    b.profiler.traceDir = QStringLiteral("/srv/t");
    ServerSpec c; // replicas of one server: a list of URLs
    c.name = QStringLiteral("replicas");
    c.urls = {QStringLiteral("http://10.0.0.7:8000"), QStringLiteral("http://10.0.0.8:8000/v1")};
    c.model = QStringLiteral("m");
    ServerSpec d; // started by SweepBench, restarted before each cell
    d.name = QStringLiteral("launched");
    d.model = QStringLiteral("tiny");
    d.flavor = Flavor::Vllm;
    d.reset.enabled = d.reset.restart = true;
    d.launch.enabled = true;
    d.launch.command = {QStringLiteral("vllm"), QStringLiteral("serve"), QStringLiteral("/models/tiny"), QStringLiteral("--port"),
                        QStringLiteral("{port}")};
    d.launch.env = {{QStringLiteral("VLLM_SERVER_DEV_MODE"), QStringLiteral("1")}};
    d.launch.port = 8123;
    d.launch.readyPath = QStringLiteral("/v1/models");
    d.launch.readyTimeoutS = 120;
    d.launch.stopSignal = QStringLiteral("INT");
    d.launch.graceS = 0;
    d.launch.logKeepMib = 0.5;
    // GPU telemetry and cost: the top level's for every server, a server's own replacing them
    // (an empty list turns telemetry off for it).
    s.telemetry = {TelemetrySpec{QStringLiteral("http://gpu-node:9400/metrics"), {}},
                   TelemetrySpec{QStringLiteral("https://gpu-node-2:9400/dcgm/metrics"), {{"Authorization", "Bearer dcgm-secret"}, {"X-Team", "infra"}}}};
    s.cost = CostSpec{2.5, 8};
    b.telemetry = QList<TelemetrySpec>();
    c.telemetry = QList<TelemetrySpec>{{QStringLiteral("http://10.0.0.7:9400/metrics"), {}}};
    c.cost = CostSpec{1.25, 2};
    s.servers = {a, b, c, d};
    s.workload.streaming = false;
    s.workload.inputTokens = 1024;
    s.workload.outputTokens = 16;
    s.workload.ignoreEos = false;
    s.workload.requestsPerCell = 0;
    s.workload.durationS = 90.5;
    s.workload.warmupRequests = 8;
    s.workload.requestTimeoutS = 0.1;
    s.workload.prompts = PromptMode::SharedPrefix;
    s.workload.sharedPrefixTokens = 512;
    s.workload.slo.ttftMs = 200;
    s.workload.slo.itlMs = 12.75;
    s.workload.slo.latencyMs = 5000;
    s.concurrency = {1, 2, 4, 8, 1024};
    s.onHookFailure = HookFailurePolicy::Abort;
    return s;
}

void TstSpecWrite::roundTripEveryKey()
{
    const SweepSpec s = everyKeySpec();
    QVERIFY2(!hasErrors(validateSpec(s)), qPrintable(spectest::dump(validateSpec(s))));
    compareSpecs(reload(s), s);
    // Writing is stable: a second round gives the same text.
    QCOMPARE(saveSpecYaml(reload(s)), saveSpecYaml(s));
}

void TstSpecWrite::roundTripMinimal()
{
    const SweepSpec s = *loadSpecText(spectest::kMinimal).spec;
    compareSpecs(reload(s), s);
}

void TstSpecWrite::roundTripExample()
{
    const SpecLoadResult r = loadSpecFile(sbtest::sourcePath(QStringLiteral("resources/example-sweep.yaml")));
    QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
    compareSpecs(reload(*r.spec), *r.spec);
}

void TstSpecWrite::hookPresetWrittenAsTrue()
{
    SweepSpec s = everyKeySpec();
    const QByteArray yaml = saveSpecYaml(s);
    QVERIFY2(yaml.contains("    reset_kv_cache: true\n"), yaml.constData());
    QVERIFY2(yaml.contains("path: /flush_cache?timeout=30"), yaml.constData());
    QVERIFY2(yaml.contains("enabled: false"), yaml.constData());
    s.servers[0].profiler = ProfilerHookSpec();
    s.servers[0].profiler.enabled = true;
    s.servers[1].reset = ResetHookSpec();
    const QByteArray again = saveSpecYaml(s);
    QVERIFY2(again.contains("    server_profiler: true\n"), again.constData());
    QVERIFY2(again.contains("    reset_kv_cache: false\n"), again.constData());
    const SweepSpec back = reload(s);
    QVERIFY(back.servers[0].profiler.enabled);
    QVERIFY(back.servers[0].profiler.startPath.isEmpty());
}

void TstSpecWrite::stripSecrets()
{
    const SweepSpec s = everyKeySpec();
    const QByteArray kept = saveSpecYaml(s, SecretPolicy::Keep);
    QVERIFY(kept.contains("sk-secret-value"));
    const QByteArray stripped = saveSpecYaml(s, SecretPolicy::Strip);
    QVERIFY2(!stripped.contains("sk-secret-value"), stripped.constData());
    QVERIFY(!stripped.contains("api_key:"));
    QVERIFY(!stripped.contains("Bearer tok")); // credential-carrying headers go too
    QVERIFY(kept.contains("dcgm-secret"));
    QVERIFY2(!stripped.contains("dcgm-secret"), stripped.constData()); // a GPU exporter's too
    QVERIFY(stripped.contains("https://gpu-node-2:9400/dcgm/metrics"));
    QVERIFY(stripped.contains("api_key_env: SGLANG_KEY"));
    QVERIFY(stripped.contains("X-Team: infra"));
    const SweepSpec back = reload(s, SecretPolicy::Strip);
    QVERIFY(back.servers[0].apiKey.isEmpty());
    QCOMPARE(back.servers[0].headers.size(), 3);
    QCOMPARE(back.servers[1].apiKeyEnv, QStringLiteral("SGLANG_KEY"));
}

void TstSpecWrite::awkwardStrings()
{
    // Strings that YAML would otherwise read as null, booleans or numbers, or that need quoting.
    SweepSpec s = *loadSpecText(spectest::kMinimal).spec;
    s.name = QStringLiteral("null");
    s.description = QStringLiteral("- starts: like a list # and a comment");
    s.servers[0].name = QStringLiteral("123");
    s.servers[0].model = QStringLiteral("on");
    s.servers[0].headers = {{"X-A", ""}, {"X-B", "~"}, {"X-C", "1e3"}, {"X-D", "'quoted'"}, {"X-E", "ünïcødé: ✓"}};
    compareSpecs(reload(s), s);
}

QTEST_GUILESS_MAIN(TstSpecWrite)
#include "tst_spec_write.moc"
