// Loading valid specs: defaults, every key, the hook forms and the shipped example.
#include "TestSupport.h"
#include "hooks/HookPresets.h"
#include "tst_spec_helpers.h"
#include <QJsonArray>
#include <QTest>

using namespace sb;

class TstSpecLoad : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }
    void defaults();
    void everyKey();
    void mockDefaults();
    void durationInsteadOfRequests();
    void hookForms();
    void hookQueryKept();
    void hookDisabledMapKeepsSettings();
    void startBodyTypes();
    void exampleLoads();
    void validatorInMemory();
    void suggestions();
};

static SweepSpec load(const QByteArray &yaml)
{
    const SpecLoadResult r = loadSpecText(yaml, QStringLiteral("t.yaml"));
    if (!r.ok())
        qFatal("unexpected diagnostics:\n%s", qPrintable(spectest::dump(r.diagnostics)));
    return *r.spec;
}

void TstSpecLoad::defaults()
{
    const SweepSpec s = load(spectest::kMinimal);
    QCOMPARE(s.servers.size(), 1);
    const ServerSpec &a = s.servers[0];
    QCOMPARE(a.name, QStringLiteral("a"));
    QCOMPARE(a.urls, QStringList{QStringLiteral("http://localhost:8000")});
    SPEC_COMPARE_ENUM(a.endpoint, Endpoint::Chat);
    SPEC_COMPARE_ENUM(a.flavor, Flavor::Openai);
    QVERIFY(!a.reset.enabled);
    QVERIFY(!a.profiler.enabled);
    QVERIFY(a.headers.isEmpty());
    const WorkloadSpec &w = s.workload;
    QCOMPARE(w.streaming, true);
    QCOMPARE(w.inputTokens, 128);
    QCOMPARE(w.outputTokens, 128);
    QCOMPARE(w.ignoreEos, true);
    QCOMPARE(w.requestsPerCell, 100); // neither requests_per_cell nor duration_s
    QCOMPARE(w.durationS, 0.0);
    QCOMPARE(w.warmupRequests, 0);
    QCOMPARE(w.requestTimeoutS, 600.0);
    SPEC_COMPARE_ENUM(w.prompts, PromptMode::Unique);
    QVERIFY(!w.slo.any());
    QCOMPARE(s.concurrency, QList<int>({1, 2}));
    SPEC_COMPARE_ENUM(s.onHookFailure, HookFailurePolicy::SkipCell);

    // An empty workload mapping also gets the requests default.
    const SweepSpec e = load(QByteArray(spectest::kMinimal) + "workload: {}\n");
    QCOMPARE(e.workload.requestsPerCell, 100);
}

void TstSpecLoad::everyKey()
{
    const SweepSpec s = load(R"(name: full
description: every key
servers:
  - name: vllm-a
    url: https://10.0.0.5:8443/prefix
    model: meta-llama/Llama-3.1-8B-Instruct
    endpoint: completions
    flavor: vllm
    api_key_env: OPENAI_API_KEY
    headers: {X-Team: infra, X-Num: 5}
    reset_kv_cache: {path: '/reset_prefix_cache?reset_running_requests=true', timeout_seconds: 10, max_retry_seconds: 20, placement: both}
    server_profiler: {start_path: /start, stop_path: /stop, timeout_seconds: 5, stop_timeout_seconds: 900, trace_dir: /tmp/traces}
workload:
  streaming: false
  input_tokens: 512
  output_tokens: 64
  ignore_eos: false
  requests_per_cell: 32
  warmup_requests: 4
  request_timeout_s: 120.5
  prompts: shared_prefix
  shared_prefix_tokens: 256
  slo: {time_to_first_token: 200, inter_token_latency: 20, request_latency: 5000}
sweep:
  concurrency: [1, 8, 64]
  on_hook_failure: continue
)");
    QCOMPARE(s.name, QStringLiteral("full"));
    QCOMPARE(s.description, QStringLiteral("every key"));
    const ServerSpec &a = s.servers[0];
    QCOMPARE(a.urls, QStringList{QStringLiteral("https://10.0.0.5:8443/prefix")});
    QCOMPARE(a.model, QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
    SPEC_COMPARE_ENUM(a.endpoint, Endpoint::Completions);
    SPEC_COMPARE_ENUM(a.flavor, Flavor::Vllm);
    QCOMPARE(a.apiKeyEnv, QStringLiteral("OPENAI_API_KEY"));
    QCOMPARE(a.headers, (QList<QPair<QString, QString>>{{"X-Team", "infra"}, {"X-Num", "5"}}));
    QVERIFY(a.reset.enabled);
    QCOMPARE(a.reset.path, QStringLiteral("/reset_prefix_cache?reset_running_requests=true"));
    QCOMPARE(a.reset.timeoutS, 10.0);
    QCOMPARE(a.reset.maxRetryS, 20.0);
    SPEC_COMPARE_ENUM(a.reset.placement, ResetPlacement::Both);
    QVERIFY(a.profiler.enabled);
    QCOMPARE(a.profiler.startPath, QStringLiteral("/start"));
    QCOMPARE(a.profiler.stopPath, QStringLiteral("/stop"));
    QCOMPARE(a.profiler.timeoutS, 5.0);
    QCOMPARE(a.profiler.stopTimeoutS, 900.0);
    QCOMPARE(a.profiler.traceDir, QStringLiteral("/tmp/traces"));
    QVERIFY(!a.profiler.startBody);
    const WorkloadSpec &w = s.workload;
    QCOMPARE(w.streaming, false);
    QCOMPARE(w.inputTokens, 512);
    QCOMPARE(w.outputTokens, 64);
    QCOMPARE(w.ignoreEos, false);
    QCOMPARE(w.requestsPerCell, 32);
    QCOMPARE(w.warmupRequests, 4);
    QCOMPARE(w.requestTimeoutS, 120.5);
    SPEC_COMPARE_ENUM(w.prompts, PromptMode::SharedPrefix);
    QCOMPARE(w.sharedPrefixTokens, 256);
    QCOMPARE(*w.slo.ttftMs, 200.0);
    QCOMPARE(*w.slo.itlMs, 20.0);
    QCOMPARE(*w.slo.latencyMs, 5000.0);
    QCOMPARE(s.concurrency, QList<int>({1, 8, 64}));
    SPEC_COMPARE_ENUM(s.onHookFailure, HookFailurePolicy::Continue);
}

void TstSpecLoad::mockDefaults()
{
    const SweepSpec s = load("servers:\n  - name: m\n    mock: sglang\n  - name: n\n    mock: trtllm\n    flavor: openai\n"
                             "    model: x\nsweep:\n  concurrency: [1]\n");
    QCOMPARE(s.servers[0].mock, QStringLiteral("sglang"));
    QCOMPARE(s.servers[0].model, QStringLiteral("demo-model"));
    SPEC_COMPARE_ENUM(s.servers[0].flavor, Flavor::Sglang); // the mock's personality
    QVERIFY(s.servers[0].urls.isEmpty());
    SPEC_COMPARE_ENUM(s.servers[1].flavor, Flavor::Openai); // explicit flavor wins
    QCOMPARE(s.servers[1].model, QStringLiteral("x"));
}

void TstSpecLoad::durationInsteadOfRequests()
{
    const SweepSpec s = load(QByteArray(spectest::kMinimal) + "workload:\n  duration_s: 30\n");
    QCOMPARE(s.workload.durationS, 30.0);
    QCOMPARE(s.workload.requestsPerCell, 0);
}

void TstSpecLoad::hookForms()
{
    const QByteArray head = "servers:\n  - name: a\n    url: http://h:1\n    model: m\n    flavor: sglang\n";
    const QByteArray tail = "sweep:\n  concurrency: [1]\n";
    {
        const ServerSpec s = load(head + "    reset_kv_cache: false\n    server_profiler: false\n" + tail).servers[0];
        QVERIFY(!s.reset.enabled);
        QVERIFY(!s.profiler.enabled);
    }
    {
        // `true` = flavor preset: paths stay empty in the struct; presets resolve at run time.
        const ServerSpec s = load(head + "    reset_kv_cache: true\n    server_profiler: true\n" + tail).servers[0];
        QVERIFY(s.reset.enabled);
        QVERIFY(s.reset.path.isEmpty());
        QCOMPARE(s.reset.timeoutS, 30.0);
        QCOMPARE(s.reset.maxRetryS, 60.0);
        SPEC_COMPARE_ENUM(s.reset.placement, ResetPlacement::BeforeWarmup);
        QVERIFY(s.profiler.enabled);
        QVERIFY(s.profiler.startPath.isEmpty());
        QVERIFY(s.profiler.stopPath.isEmpty());
        QCOMPARE(s.profiler.timeoutS, 30.0);
        QCOMPARE(s.profiler.stopTimeoutS, 600.0);
        QCOMPARE(effectiveResetPath(s), QStringLiteral("/flush_cache?timeout=15"));
    }
    {
        // The mapping form enables the hook; unspecified settings keep their defaults.
        const ServerSpec s = load(head + "    reset_kv_cache: {placement: after_warmup}\n    server_profiler: {}\n" + tail).servers[0];
        QVERIFY(s.reset.enabled);
        QVERIFY(s.reset.path.isEmpty());
        SPEC_COMPARE_ENUM(s.reset.placement, ResetPlacement::AfterWarmup);
        QVERIFY(s.profiler.enabled);
        QVERIFY(!s.profiler.startBody);
    }
    {
        // YAML 1.1 spellings of booleans are read as yaml-cpp reads them.
        const ServerSpec s = load(head + "    reset_kv_cache: yes\n    server_profiler: Off\n" + tail).servers[0];
        QVERIFY(s.reset.enabled);
        QVERIFY(!s.profiler.enabled);
    }
}

void TstSpecLoad::hookQueryKept()
{
    const ServerSpec s = load("servers:\n  - name: a\n    url: http://h:1\n    model: m\n    flavor: sglang\n"
                              "    reset_kv_cache:\n      path: /flush_cache?timeout=30\n"
                              "sweep:\n  concurrency: [1]\n")
                             .servers[0];
    QCOMPARE(s.reset.path, QStringLiteral("/flush_cache?timeout=30"));
    QCOMPARE(effectiveResetPath(s), QStringLiteral("/flush_cache?timeout=30"));
}

void TstSpecLoad::hookDisabledMapKeepsSettings()
{
    const ServerSpec s = load("servers:\n  - name: a\n    url: http://h:1\n    model: m\n"
                              "    reset_kv_cache: {enabled: false, path: 'bad path'}\n"
                              "sweep:\n  concurrency: [1]\n")
                             .servers[0];
    QVERIFY(!s.reset.enabled);
    QCOMPARE(s.reset.path, QStringLiteral("bad path")); // not checked while disabled
}

void TstSpecLoad::startBodyTypes()
{
    const ServerSpec s = load(R"(servers:
  - name: a
    url: http://h:1
    model: m
    flavor: sglang
    server_profiler:
      trace_dir: /srv/traces
      start_body:
        num_steps: 5
        ratio: 0.5
        with_stack: true
        quoted_number: "5"
        quoted_bool: 'true'
        nothing: ~
        activities: [CPU, GPU]
        nested: {a: {b: [1, {c: x}]}}
sweep:
  concurrency: [1]
)")
                             .servers[0];
    QVERIFY(s.profiler.startBody);
    const QJsonObject b = *s.profiler.startBody;
    QCOMPARE(b.value("num_steps"), QJsonValue(5));
    QCOMPARE(b.value("ratio"), QJsonValue(0.5));
    QCOMPARE(b.value("with_stack"), QJsonValue(true));
    QCOMPARE(b.value("quoted_number"), QJsonValue(QStringLiteral("5")));
    QCOMPARE(b.value("quoted_bool"), QJsonValue(QStringLiteral("true")));
    QVERIFY(b.value("nothing").isNull());
    QCOMPARE(b.value("activities"), QJsonValue(QJsonArray({"CPU", "GPU"})));
    QCOMPARE(b.value("nested").toObject().value("a").toObject().value("b").toArray().at(1).toObject().value("c").toString(),
             QStringLiteral("x"));
    // trace_dir fills output_dir for sglang when start_body has none (HookPresets).
    QCOMPARE(effectiveProfilerStartBody(s)->value("output_dir").toString(), QStringLiteral("/srv/traces"));
}

void TstSpecLoad::exampleLoads()
{
    const SpecLoadResult r = loadSpecFile(sbtest::sourcePath(QStringLiteral("resources/example-sweep.yaml")));
    QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(spectest::dump(r.diagnostics)));
    QVERIFY(r.spec->servers.size() >= 2);
    QVERIFY(r.spec->sourcePath.endsWith(QStringLiteral("example-sweep.yaml")));
}

void TstSpecLoad::validatorInMemory()
{
    // The GUI path: no file, no positions, key paths only.
    SweepSpec spec;
    QList<SpecDiagnostic> d = validateSpec(spec);
    QStringList paths;
    for (const auto &x : d) {
        QCOMPARE(x.line, 0);
        QVERIFY(x.file.isEmpty());
        paths << x.keyPath;
    }
    QVERIFY(paths.contains("servers"));
    QVERIFY(paths.contains("sweep.concurrency"));
    QVERIFY(!paths.contains("workload.requests_per_cell")); // defaults to 100 requests, like the YAML
    QVERIFY(d.first().toString().startsWith(QStringLiteral("<spec>: error: ")));

    ServerSpec s;
    s.name = QStringLiteral("a");
    s.urls = {QStringLiteral("http://h:1")};
    s.model = QStringLiteral("m");
    s.reset.enabled = true;
    s.reset.path = QStringLiteral("flush");
    spec.servers = {s, s};
    spec.concurrency = {1, 2};
    spec.workload.requestsPerCell = 10;
    d = validateSpec(spec);
    paths.clear();
    for (const auto &x : d)
        paths << x.keyPath;
    QCOMPARE(paths, QStringList({"servers[0].reset_kv_cache.path", "servers[1].name", "servers[1].reset_kv_cache.path"}));

    spec.servers[1].name = QStringLiteral("b");
    spec.servers[0].reset.path = spec.servers[1].reset.path = QString();
    QVERIFY2(validateSpec(spec).isEmpty(), qPrintable(spectest::dump(validateSpec(spec))));
}

void TstSpecLoad::suggestions()
{
    // The two tiers of help for an unknown key: a close spelling, else where the key belongs.
    const SpecLoadResult r = loadSpecText("servers:\n  - name: a\n    url: http://h:1\n    model: m\n    input_tokens: 5\n"
                                          "sweep:\n  concurency: [1]\n");
    QCOMPARE(spectest::expectDiag(r, "servers[0].input_tokens", 5, 5, "'input_tokens' belongs under workload"), QString());
    QCOMPARE(spectest::expectDiag(r, "sweep.concurency", 7, 3, "did you mean 'concurrency'?"), QString());
}

QTEST_GUILESS_MAIN(TstSpecLoad)
#include "tst_spec_load.moc"
