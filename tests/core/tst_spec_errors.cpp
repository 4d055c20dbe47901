// Every error path of the spec loader: each case asserts the key path, the line:column the
// message points at and what it says was expected.
#include "TestSupport.h"
#include "tst_spec_helpers.h"
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using spectest::expectDiag;

class TstSpecErrors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }
    void minimalIsValid();
    void located_data();
    void located();
    void warnings();
    void syntaxErrors_data();
    void syntaxErrors();
    void collectsAllErrorsInSourceOrder();
    void fileNameInMessage();
    void apiKeyNeverEchoed();
    void noFollowUpErrors();
    void draftOnlyWhenEveryValueWasRead();
};

void TstSpecErrors::minimalIsValid()
{
    const SpecLoadResult r = loadSpecText(spectest::kMinimal, QStringLiteral("s.yaml"));
    QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
    QVERIFY(r.diagnostics.isEmpty());
}

void TstSpecErrors::located_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("keyPath");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");

    const QByteArray srv = "servers:\n  - name: a\n    url: http://localhost:8000\n    model: m\n";
    const QByteArray sweep = "sweep:\n  concurrency: [1, 2]\n";
    const auto withServerKey = [&](const char *extra) { return srv + extra + sweep; };
    const auto withWorkload = [&](const char *body) { return srv + "workload:\n" + body + sweep; };

    // Unknown keys: by name, with a suggestion, at the key itself.
    QTest::newRow("did you mean, server") << withServerKey("    reset_kv_cach: true\n") << "servers[0].reset_kv_cach" << 5 << 5
                                          << "unknown key; did you mean 'reset_kv_cache'?";
    QTest::newRow("did you mean, root") << QByteArray(srv + "worklaod: {}\n" + sweep) << "worklaod" << 5 << 1
                                        << "did you mean 'workload'?";
    QTest::newRow("did you mean, transposed") << withServerKey("    flavuor: vllm\n") << "servers[0].flavuor" << 5 << 5
                                              << "did you mean 'flavor'?";
    QTest::newRow("misplaced key") << withWorkload("  concurrency: [1]\n") << "workload.concurrency" << 6 << 3
                                   << "'concurrency' belongs under sweep";
    QTest::newRow("unknown, no match") << withServerKey("    zzz: 1\n") << "servers[0].zzz" << 5 << 5
                                       << "unknown key; expected one of: name, url";
    QTest::newRow("unknown in reset map") << withServerKey("    reset_kv_cache: {timeout_second: 5}\n")
                                          << "servers[0].reset_kv_cache.timeout_second" << 5 << 22
                                          << "did you mean 'timeout_seconds'?";
    QTest::newRow("unknown in profiler map") << withServerKey("    server_profiler:\n      start_pth: /s\n")
                                             << "servers[0].server_profiler.start_pth" << 6 << 7 << "did you mean 'start_path'?";
    QTest::newRow("unknown in slo") << withWorkload("  slo:\n    ttft: 5\n") << "workload.slo.ttft" << 7 << 5
                                    << "unknown key; expected one of: time_to_first_token";
    QTest::newRow("unknown in sweep") << QByteArray(srv + "sweep:\n  concurrency: [1]\n  on_hook_fail: abort\n")
                                      << "sweep.on_hook_fail" << 7 << 3 << "did you mean 'on_hook_failure'?";
    QTest::newRow("duplicate key") << withServerKey("    model: n\n") << "servers[0].model" << 5 << 5
                                   << "duplicate key; first given at line 4";

    // Types.
    QTest::newRow("int type") << withWorkload("  input_tokens: abc\n") << "workload.input_tokens" << 6 << 17
                              << "expected an integer ≥ 1, got 'abc'";
    QTest::newRow("int not float") << withWorkload("  output_tokens: 1.5\n") << "workload.output_tokens" << 6 << 18
                                   << "expected an integer ≥ 1, got '1.5'";
    QTest::newRow("int range") << withWorkload("  input_tokens: -5\n") << "workload.input_tokens" << 6 << 17
                               << "expected an integer ≥ 1, got -5";
    QTest::newRow("bool type") << withWorkload("  streaming: maybe\n") << "workload.streaming" << 6 << 14
                               << "expected true or false, got 'maybe'";
    QTest::newRow("number type") << withWorkload("  request_timeout_s: soon\n") << "workload.request_timeout_s" << 6 << 22
                                 << "expected a number > 0, got 'soon'";
    QTest::newRow("number range") << withWorkload("  request_timeout_s: 0\n") << "workload.request_timeout_s" << 6 << 22
                                  << "expected a number > 0, got 0";
    QTest::newRow("warmup range") << withWorkload("  warmup_requests: -1\n") << "workload.warmup_requests" << 6 << 20
                                  << "expected an integer ≥ 0, got -1";
    QTest::newRow("string got list") << withServerKey("    api_key_env: [A]\n") << "servers[0].api_key_env" << 5 << 18
                                     << "expected a string, got a list";
    QTest::newRow("empty value") << QByteArray("servers:\n  - name: a\n    url: http://h:1\n    model:\n" + sweep)
                                 << "servers[0].model" << 4 << 5 << "expected a string, got an empty value";
    QTest::newRow("section not mapping") << QByteArray(srv + "workload: 5\n" + sweep) << "workload" << 5 << 1
                                         << "expected a mapping, got '5'";

    // Enums list the allowed values.
    QTest::newRow("endpoint enum") << withServerKey("    endpoint: chta\n") << "servers[0].endpoint" << 5 << 15
                                   << "expected one of chat, completions; got 'chta' (did you mean 'chat'?)";
    QTest::newRow("flavor enum") << withServerKey("    flavor: tgi\n") << "servers[0].flavor" << 5 << 13
                                 << "expected one of vllm, sglang, trtllm, llamacpp, openai; got 'tgi'";
    QTest::newRow("placement enum") << withServerKey("    reset_kv_cache: {placement: after}\n")
                                    << "servers[0].reset_kv_cache.placement" << 5 << 33
                                    << "expected one of before_warmup, after_warmup, both; got 'after'";
    QTest::newRow("prompts enum") << withWorkload("  prompts: shared\n") << "workload.prompts" << 6 << 12
                                  << "expected one of unique, shared_prefix";
    QTest::newRow("policy enum") << QByteArray(srv + "sweep:\n  concurrency: [1]\n  on_hook_failure: skip\n")
                                 << "sweep.on_hook_failure" << 7 << 20 << "expected one of skip_cell, abort, continue; got 'skip'";
    QTest::newRow("mock enum") << QByteArray("servers:\n  - name: a\n    mock: vlm\n" + sweep) << "servers[0].mock" << 3 << 11
                               << "expected one of vllm, sglang, trtllm, llamacpp; got 'vlm' (did you mean 'vllm'?)";

    // Missing required keys point at the mapping that should hold them.
    QTest::newRow("missing model") << QByteArray("servers:\n  - name: a\n    url: http://h:1\n" + sweep) << "servers[0].model"
                                   << 2 << 5 << "missing required key; expected the model name";
    QTest::newRow("missing name") << QByteArray("servers:\n  - url: http://h:1\n    model: m\n" + sweep) << "servers[0].name" << 2
                                  << 5 << "missing required key; expected a unique server name";
    QTest::newRow("missing servers") << sweep << "servers" << 1 << 1 << "missing required key; expected a list of servers";
    QTest::newRow("missing sweep") << srv << "sweep" << 1 << 1 << "missing required key";
    QTest::newRow("missing concurrency") << QByteArray(srv + "sweep:\n  on_hook_failure: abort\n") << "sweep.concurrency" << 5 << 1
                                         << "missing required key; expected a list of concurrency levels";
    QTest::newRow("empty servers") << QByteArray("servers: []\n" + sweep) << "servers" << 1 << 1 << "expected at least one server";
    QTest::newRow("server not mapping") << QByteArray("servers:\n  - a\n" + sweep) << "servers[0]" << 2 << 5
                                        << "expected a server mapping";
    QTest::newRow("servers not list") << QByteArray("servers: {name: a}\n" + sweep) << "servers" << 1 << 1
                                      << "expected a list of servers";

    // Duplicates.
    QTest::newRow("duplicate server") << QByteArray(srv + "  - name: a\n    url: http://h:2\n    model: m\n" + sweep)
                                      << "servers[1].name" << 5 << 11 << "duplicate server name 'a' (also servers[0])";
    QTest::newRow("duplicate concurrency") << QByteArray(srv + "sweep:\n  concurrency: [1, 2, 1]\n") << "sweep.concurrency[2]" << 6
                                           << 23 << "duplicate concurrency 1 (also at index 0)";
    QTest::newRow("concurrency zero") << QByteArray(srv + "sweep:\n  concurrency: [0, 2]\n") << "sweep.concurrency[0]" << 6 << 17
                                      << "expected an integer from 1 to 100000, got 0";
    QTest::newRow("concurrency huge") << QByteArray(srv + "sweep:\n  concurrency: [100001]\n") << "sweep.concurrency[0]" << 6 << 17
                                      << "got 100001";
    QTest::newRow("concurrency text") << QByteArray(srv + "sweep:\n  concurrency:\n    - 1\n    - abc\n") << "sweep.concurrency[1]"
                                      << 8 << 7 << "expected an integer from 1 to 100000, got 'abc'";
    QTest::newRow("concurrency scalar") << QByteArray(srv + "sweep:\n  concurrency: 4\n") << "sweep.concurrency" << 6 << 16
                                        << "expected a list of concurrency levels";
    QTest::newRow("concurrency empty") << QByteArray(srv + "sweep:\n  concurrency: []\n") << "sweep.concurrency" << 6 << 3
                                       << "expected a non-empty list";

    // GPU telemetry and cost (docs/gpu-telemetry.md), at the top level and per server.
    const auto withTop = [&](const char *extra) { return srv + sweep + extra; };
    QTest::newRow("cost price negative") << withTop("cost: {gpu_hour: -2.5, gpus: 8}\n") << "cost.gpu_hour" << 7 << 18
                                         << "expected dollars per GPU-hour, a number > 0 and ≤ 10000, got -2.5";
    QTest::newRow("cost gpus zero") << withTop("cost:\n  gpu_hour: 2.5\n  gpus: 0\n") << "cost.gpus" << 9 << 9
                                    << "expected an integer from 1 to 65536 (the GPUs the server occupies), got 0";
    QTest::newRow("cost gpus text") << withServerKey("    cost: {gpu_hour: 2, gpus: many}\n") << "servers[0].cost.gpus" << 5 << 31
                                    << "expected an integer from 1 to 65536 (the GPUs the server occupies), got 'many'";
    QTest::newRow("cost without price") << withTop("cost: {gpus: 8}\n") << "cost.gpu_hour" << 7 << 1 << "missing required key; expected dollars per GPU-hour";
    QTest::newRow("cost scalar") << withTop("cost: 2.5\n") << "cost" << 7 << 7 << "expected a mapping {gpu_hour, gpus}";
    QTest::newRow("cost unknown key") << withTop("cost: {gpu_hours: 2.5}\n") << "cost.gpu_hours" << 7 << 8 << "did you mean 'gpu_hour'?";
    QTest::newRow("telemetry mapping") << withTop("telemetry: {url: 'http://g:9400/metrics'}\n") << "telemetry" << 7 << 12
                                       << "expected a list of GPU exporters";
    QTest::newRow("telemetry without url") << withTop("telemetry:\n  - headers: {X-A: b}\n") << "telemetry[0].url" << 8 << 5
                                           << "missing required key; expected the exporter's metrics URL";
    QTest::newRow("telemetry scheme") << withTop("telemetry:\n  - url: ftp://g:9400/metrics\n") << "telemetry[0].url" << 8 << 10
                                      << "expected an http or https URL, got scheme 'ftp'";
    QTest::newRow("telemetry no path") << withTop("telemetry:\n  - url: http://g:9400\n") << "telemetry[0].url" << 8 << 10
                                       << "expected the exporter's metrics path in the URL";
    QTest::newRow("telemetry credentials") << withTop("telemetry:\n  - url: 'http://u:pw@g:9400/metrics'\n") << "telemetry[0].url" << 8 << 10
                                           << "expected a URL without user:password";
    QTest::newRow("telemetry twice") << withTop("telemetry:\n  - url: http://g:9400/metrics\n  - url: http://g:9400/metrics\n")
                                     << "telemetry[1].url" << 9 << 10 << "this exporter is already listed";
    QTest::newRow("telemetry unknown key") << withTop("telemetry:\n  - url: http://g:9400/metrics\n    interval_s: 1\n")
                                           << "telemetry[0].interval_s" << 9 << 5 << "unknown key; did you mean 'interval_ms'?";
    QTest::newRow("server telemetry header") << withServerKey("    telemetry: [{url: 'http://g:9400/metrics', headers: {'Bad Name': x}}]\n")
                                             << "servers[0].telemetry[0].headers.Bad Name" << 5 << 58 << "expected an HTTP header name";

    // Mutually exclusive keys.
    QTest::newRow("url and mock") << withServerKey("    mock: vllm\n") << "servers[0].mock" << 5 << 11
                                  << "url and mock are mutually exclusive";
    QTest::newRow("neither url nor mock") << QByteArray("servers:\n  - name: a\n    model: m\n" + sweep) << "servers[0]" << 2 << 5
                                          << "expected exactly one of url";
    QTest::newRow("api_key and env") << withServerKey("    api_key: sk-1\n    api_key_env: K\n") << "servers[0].api_key_env" << 6
                                     << 18 << "api_key and api_key_env are mutually exclusive";
    QTest::newRow("requests and duration") << withWorkload("  requests_per_cell: 10\n  duration_s: 5\n") << "workload.duration_s"
                                           << 7 << 15 << "requests_per_cell and duration_s are mutually exclusive";
    QTest::newRow("api_key_env name") << withServerKey("    api_key_env: 1BAD-NAME\n") << "servers[0].api_key_env" << 5 << 18
                                      << "expected the name of an environment variable";

    // URLs.
    QTest::newRow("url scheme") << QByteArray("servers:\n  - name: a\n    url: ftp://h:1\n    model: m\n" + sweep) << "servers[0].url"
                                << 3 << 10 << "expected an http or https URL, got scheme 'ftp'";
    QTest::newRow("url relative") << QByteArray("servers:\n  - name: a\n    url: localhost\n    model: m\n" + sweep)
                                  << "servers[0].url" << 3 << 10 << "expected an http or https base URL";
    QTest::newRow("url port too large") << QByteArray("servers:\n  - name: a\n    url: 'http://u:secret@h:80000/v1'\n    model: m\n" + sweep)
                                        << "servers[0].url" << 3 << 10 << "expected a TCP port from 1 to 65535 in the URL, got 80000";
    QTest::newRow("url port zero") << QByteArray("servers:\n  - name: a\n    url: http://[::1]:0\n    model: m\n" + sweep)
                                   << "servers[0].url" << 3 << 10 << "expected a TCP port from 1 to 65535 in the URL, got 0";
    QTest::newRow("url no host") << QByteArray("servers:\n  - name: a\n    url: 'http://'\n    model: m\n" + sweep) << "servers[0].url"
                                 << 3 << 10 << "expected";
    QTest::newRow("url list entry") << QByteArray("servers:\n  - name: a\n    url: [http://a:1, ftp://b:2]\n    model: m\n" + sweep)
                                    << "servers[0].url[1]" << 3 << 23 << "expected an http or https URL, got scheme 'ftp'";
    QTest::newRow("url list block entry") << QByteArray("servers:\n  - name: a\n    url:\n      - http://a:1\n      - 7: x\n    model: m\n" + sweep)
                                          << "servers[0].url[1]" << 5 << 9 << "expected a string";
    QTest::newRow("url list duplicate") << QByteArray("servers:\n  - name: a\n    url: [http://a:1, http://a:1]\n    model: m\n" + sweep)
                                        << "servers[0].url[1]" << 3 << 23 << "this URL is already listed";
    QTest::newRow("url list empty") << QByteArray("servers:\n  - name: a\n    url: []\n    model: m\n" + sweep)
                                    << "servers[0].url" << 3 << 5 << "expected at least one URL";
    QTest::newRow("url query") << QByteArray("servers:\n  - name: a\n    url: http://h:1/v?x=1\n    model: m\n" + sweep)
                               << "servers[0].url" << 3 << 10 << "without query";

    // Workload cross-key rules and SLOs.
    QTest::newRow("prefix without mode") << withWorkload("  shared_prefix_tokens: 10\n") << "workload.shared_prefix_tokens" << 6
                                         << 25 << "only allowed with prompts: shared_prefix";
    QTest::newRow("prefix too long") << withWorkload("  input_tokens: 64\n  prompts: shared_prefix\n  shared_prefix_tokens: 65\n")
                                     << "workload.shared_prefix_tokens" << 8 << 25 << "expected an integer from 1 to input_tokens (64)";
    QTest::newRow("prefix missing") << withWorkload("  prompts: shared_prefix\n") << "workload.shared_prefix_tokens" << 5 << 1
                                    << "with prompts: shared_prefix, got 0";
    QTest::newRow("slo range") << withWorkload("  slo:\n    request_latency: -3\n") << "workload.slo.request_latency" << 7 << 22
                               << "expected a number > 0, got -3";
    QTest::newRow("slo not mapping") << withWorkload("  slo: 200\n") << "workload.slo" << 6 << 8 << "expected a mapping";
    QTest::newRow("no requests") << withWorkload("  requests_per_cell: 0\n") << "workload.requests_per_cell" << 6 << 22
                                 << "expected an integer ≥ 1 (or duration_s > 0 instead), got 0";

    // Hook syntax and paths.
    QTest::newRow("hook absolute url") << withServerKey("    reset_kv_cache: {path: 'http://h/reset'}\n")
                                       << "servers[0].reset_kv_cache.path" << 5 << 28 << "expected a relative path";
    QTest::newRow("hook no slash") << withServerKey("    server_profiler:\n      stop_path: stop_profile\n")
                                   << "servers[0].server_profiler.stop_path" << 6 << 18 << "expected a path starting with '/'";
    QTest::newRow("hook scalar path") << withServerKey("    reset_kv_cache: /flush_cache\n") << "servers[0].reset_kv_cache" << 5 << 21
                                      << "expected true, false, restart or a mapping {path, timeout_seconds, max_retry_seconds, placement}, "
                                         "got '/flush_cache'; for a custom path write {path: /flush_cache}";
    QTest::newRow("hook timeout") << withServerKey("    reset_kv_cache: {timeout_seconds: 0}\n")
                                  << "servers[0].reset_kv_cache.timeout_seconds" << 5 << 39 << "expected a number > 0, got 0";
    QTest::newRow("hook retry") << withServerKey("    reset_kv_cache: {max_retry_seconds: -1}\n")
                                << "servers[0].reset_kv_cache.max_retry_seconds" << 5 << 41 << "expected a number ≥ 0, got -1";
    QTest::newRow("stop timeout") << withServerKey("    server_profiler: {stop_timeout_seconds: x}\n")
                                  << "servers[0].server_profiler.stop_timeout_seconds" << 5 << 45 << "expected a number > 0, got 'x'";
    QTest::newRow("start_body not mapping") << withServerKey("    server_profiler:\n      start_body: [1]\n")
                                            << "servers[0].server_profiler.start_body" << 6 << 7
                                            << "expected a mapping of JSON fields";
    QTest::newRow("hook empty") << withServerKey("    server_profiler:\n") << "servers[0].server_profiler" << 5 << 5
                                << "expected true, false or a mapping";

    // Headers.
    QTest::newRow("headers not mapping") << withServerKey("    headers: [a]\n") << "servers[0].headers" << 5 << 5
                                         << "expected a mapping of header names to values";
    QTest::newRow("header name") << withServerKey("    headers: {'X Team': a}\n") << "servers[0].headers.X Team" << 5 << 15
                                 << "expected an HTTP header name";
    QTest::newRow("header name, final newline") << withServerKey("    headers: {\"X-Team\\n\": a}\n") << "servers[0].headers.X-Team\n" << 5 << 15
                                                << "expected an HTTP header name";
    QTest::newRow("header value type") << withServerKey("    headers: {X-Team: {a: b}}\n") << "servers[0].headers.X-Team" << 5 << 23
                                       << "expected a string, got a mapping";

    // Names reach job scripts, manifests, logs and terminals: no character in them may break a
    // line (for any parser), act as a control or reorder what is shown. Each is written as a YAML
    // escape, found at the value, and named by its code point and place in the name.
    const std::pair<const char *, const char *> refused[] = {
        {"\\0", "0000"},     {"\\x01", "0001"},   {"\\t", "0009"},     {"\\n", "000A"},     {"\\r", "000D"},
        {"\\x1b", "001B"},   {"\\x7f", "007F"},   {"\\u0085", "0085"},     {"\\x9b", "009B"},   {"\\L", "2028"},
        {"\\P", "2029"},     {"\\u202e", "202E"}, {"\\u202a", "202A"}, {"\\u2066", "2066"}, {"\\u2069", "2069"},
        {"\\u200f", "200F"}, {"\\u061c", "061C"}};
    for (const auto &[escape, code] : refused) {
        const QByteArray name = QByteArray("\"a") + escape + "b\"";
        const QString expected = QStringLiteral("expected a name without control characters, line breaks or bidirectional "
                                                "controls; got U+%1 at character 2").arg(QLatin1String(code));
        QTest::addRow("sweep name U+%s", code) << "name: " + name + "\n" + srv + sweep << "name" << 1 << 7 << expected;
        QTest::addRow("server name U+%s", code) << "servers:\n  - name: " + name + "\n    url: http://localhost:8000\n    model: m\n" + sweep
                                                << "servers[0].name" << 2 << 11 << expected;
        QTest::addRow("model U+%s", code) << "servers:\n  - name: a\n    url: http://localhost:8000\n    model: " + name + "\n" + sweep
                                          << "servers[0].model" << 4 << 12 << expected;
    }
    QTest::newRow("name past the BMP") << QByteArray("name: \"\U0001F600\\u202Eb\"\n" + srv + sweep) << "name" << 1 << 7
                                       << "got U+202E at character 2";
}

void TstSpecErrors::located()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QString, keyPath);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, text);
    const SpecLoadResult r = loadSpecText(yaml, QStringLiteral("spec.yaml"));
    QVERIFY(!r.ok());
    QVERIFY(!r.spec.has_value());
    const QString err = expectDiag(r, keyPath, line, column, text);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    // toString() carries everything a user needs: file:line:column, key path, expectation.
    bool found = false;
    for (const auto &d : r.diagnostics)
        found = found
                || d.toString().startsWith(QStringLiteral("spec.yaml:%1:%2: error: %3: ").arg(line).arg(column).arg(keyPath));
    QVERIFY(found);
}

void TstSpecErrors::warnings()
{
    const QByteArray yaml = "servers:\n  - name: t\n    url: http://h:1\n    model: m\n    flavor: trtllm\n"
                            "    reset_kv_cache: true\nsweep:\n  concurrency: [1]\n";
    const SpecLoadResult r = loadSpecText(yaml, QStringLiteral("w.yaml"));
    QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics))); // a warning does not block the run
    const QString err = expectDiag(r, QStringLiteral("servers[0].reset_kv_cache"), 6, 21,
                                   QStringLiteral("stock trtllm-serve has no cache-reset route"), true);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QVERIFY(r.diagnostics.first().toString().startsWith(QStringLiteral("w.yaml:6:21: warning: servers[0].reset_kv_cache: ")));

    // Two URLs share the in-flight requests: at concurrency 1 one of them would sit idle.
    const SpecLoadResult two = loadSpecText("servers:\n  - name: t\n    url: [http://h:1, http://h:2]\n    model: m\n"
                                            "sweep:\n  concurrency: [1, 4]\n");
    QVERIFY2(two.ok(), qPrintable(spectest::dump(two.diagnostics)));
    const QString twoErr = expectDiag(two, QStringLiteral("servers[0].url"), 3, 5, QStringLiteral("at concurrency 1 some of them get no traffic"), true);
    QVERIFY2(twoErr.isEmpty(), qPrintable(twoErr));

    // vLLM needs no warning (the GUI shows its gate hints); a disabled trtllm reset none either.
    QVERIFY(loadSpecText(QByteArray(yaml).replace("trtllm", "vllm")).diagnostics.isEmpty());
    QVERIFY(loadSpecText(QByteArray(yaml).replace("reset_kv_cache: true", "reset_kv_cache: false")).diagnostics.isEmpty());
}

void TstSpecErrors::syntaxErrors_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");
    QTest::newRow("unclosed flow") << QByteArray("servers: []\nsweep:\n  concurrency: [1, 2\n") << 4 << 1 << "YAML syntax error: ";
    QTest::newRow("bad indentation") << QByteArray("servers:\n  - name: a\n   url: x\n") << 3 << 4 << "YAML syntax error: ";
    QTest::newRow("tab") << QByteArray("sweep:\n\tconcurrency: [1]\n") << 2 << 13 << "YAML syntax error: ";
    QTest::newRow("two values") << QByteArray("name: a: b\n") << 1 << 8 << "YAML syntax error: illegal map value";
    QTest::newRow("unknown alias") << QByteArray("x: &a 1\ny: *b\n") << 2 << 4 << "YAML syntax error: the referenced anchor is not defined";
    QTest::newRow("query in flow map") << QByteArray("servers:\n  - reset_kv_cache: {path: /flush_cache?timeout=30}\n") << 2 << 40
                                       << "YAML syntax error: unknown token; inside {...} quote a path with a query";
    QTest::newRow("empty") << QByteArray("# nothing\n") << 1 << 1 << "the spec is empty";
    QTest::newRow("top-level list") << QByteArray("- a\n- b\n") << 1 << 1 << "expected a mapping with servers, workload and sweep";
    QTest::newRow("two documents") << QByteArray("name: a\n---\nname: b\n") << 3 << 1 << "expected a single YAML document";
    QTest::newRow("three documents") << QByteArray("name: a\n---\nname: b\n---\nname: c\n") << 3 << 1
                                     << "expected a single YAML document, found 3 or more";
    // yaml-cpp 0.7's LoadAll never returned on these, allocating GBs (found by tests/fuzz/fuzz_spec;
    // corpus/fuzz_spec/stray-comma*): they are syntax errors at the comma.
    QTest::newRow("stray comma") << QByteArray(",") << 1 << 1 << "YAML syntax error: unexpected character";
    QTest::newRow("comma before a flow map") << QByteArray(", a:b # c\nd: {e f:g") << 1 << 1 << "YAML syntax error: unexpected character";
}

void TstSpecErrors::syntaxErrors()
{
    QFETCH(QByteArray, yaml);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, text);
    const SpecLoadResult r = loadSpecText(yaml, QStringLiteral("bad.yaml"));
    QVERIFY(!r.ok());
    QCOMPARE(r.diagnostics.size(), 1);
    const QString s = r.diagnostics.first().toString();
    QVERIFY2(s.startsWith(QStringLiteral("bad.yaml:%1:%2: error: %3").arg(line).arg(column).arg(text)), qPrintable(s));
}

void TstSpecErrors::collectsAllErrorsInSourceOrder()
{
    const QByteArray yaml = "servers:\n"
                            "  - name: a\n"
                            "    url: ftp://h\n"          // 3: scheme
                            "    model: m\n"
                            "    endpiont: chat\n"        // 5: unknown key
                            "workload:\n"
                            "  input_tokens: x\n"         // 7: type
                            "  output_tokens: 0\n"        // 8: range
                            "sweep:\n"
                            "  concurrency: [4, 4]\n";    // 10: duplicate
    const SpecLoadResult r = loadSpecText(yaml, QStringLiteral("all.yaml"));
    QStringList paths;
    QList<int> lines;
    for (const auto &d : r.diagnostics) {
        paths << d.keyPath;
        lines << d.line;
    }
    QCOMPARE(paths, QStringList({"servers[0].url", "servers[0].endpiont", "workload.input_tokens", "workload.output_tokens",
                                 "sweep.concurrency[1]"}));
    QCOMPARE(lines, QList<int>({3, 5, 7, 8, 10}));
}

void TstSpecErrors::fileNameInMessage()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("sweep.yaml"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("servers:\n  - name: a\n    url: http://h:1\n    model: m\n    reset_kv_cach: true\nsweep:\n  concurrency: [1]\n");
    f.close();
    const SpecLoadResult r = loadSpecFile(path);
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics.first().toString(),
             path + QStringLiteral(":5:5: error: servers[0].reset_kv_cach: unknown key; did you mean 'reset_kv_cache'?"));

    const SpecLoadResult missing = loadSpecFile(dir.filePath(QStringLiteral("nope.yaml")));
    QVERIFY(!missing.ok());
    QVERIFY(missing.diagnostics.first().toString().contains(QStringLiteral("cannot read the spec")));
}

void TstSpecErrors::apiKeyNeverEchoed()
{
    const QByteArray secret = "sk-TOPSECRET-123";
    const QList<QByteArray> specs = {
        "servers:\n  - name: a\n    url: http://h:1\n    model: m\n    api_key: " + secret + "\n    api_key_env: K\nsweep:\n  concurrency: [1]\n",
        "servers:\n  - name: a\n    url: http://h:1\n    model: m\n    api_key: [" + secret + "]\nsweep:\n  concurrency: [1]\n",
        "servers:\n  - name: a\n    url: http://h:1\n    model: m\n    api_key: {" + secret + ": 1}\nsweep:\n  concurrency: [1]\n",
        "servers:\n  - name: a\n    url: http://h:1\n    model: m\n    headers: {Authorization: [Bearer " + secret + "]}\nsweep:\n  concurrency: [1]\n",
        "servers:\n  - name: a\n    url: http://h:1\n    model: m\n    api_key_env: " + secret + "\nsweep:\n  concurrency: [1]\n",
        "servers:\n  - name: a\n    url: http://u:" + secret + "@h:1/?q\n    model: m\nsweep:\n  concurrency: [1]\n",
    };
    for (const QByteArray &yaml : specs) {
        const SpecLoadResult r = loadSpecText(yaml);
        QVERIFY(!r.ok());
        const QString all = spectest::dump(r.diagnostics);
        QVERIFY2(!all.contains(QString::fromUtf8(secret)), qPrintable(all));
    }
}

void TstSpecErrors::noFollowUpErrors()
{
    // One mistake, one message: a type error is not followed by the semantic checks it implies.
    const QList<QByteArray> specs = {
        "servers:\n  - name: a\n    url: [x]\n    model: m\nsweep:\n  concurrency: [1]\n",
        "servers:\n  - name: a\n    mock: {x: 1}\nsweep:\n  concurrency: [1]\n",
        "servers:\n  - name: a\n    url: http://h:1\n    model: m\nsweep:\n  concurrency: [x, x]\n",
        "servers: 5\nsweep:\n  concurrency: [1]\n",
        "servers:\n  - name: a\n    url: http://h:1\n    model: m\nworkload:\n  input_tokens: many\n"
        "  prompts: shared_prefix\n  shared_prefix_tokens: 4\nsweep:\n  concurrency: [1]\n",
    };
    for (const QByteArray &yaml : specs) {
        const SpecLoadResult r = loadSpecText(yaml);
        QVERIFY2(r.diagnostics.size() == 1 || (yaml.contains("[x, x]") && r.diagnostics.size() == 2),
                 qPrintable(spectest::dump(r.diagnostics)));
    }
}

void TstSpecErrors::draftOnlyWhenEveryValueWasRead()
{
    // Semantic errors only (a zero, a duplicate name): the spec says what the file says, and the
    // designer may open it to fix them.
    const SpecLoadResult semantic = loadSpecText("servers:\n  - name: a\n    url: http://h:1\n    model: m\n"
                                                 "  - name: a\n    url: http://h:2\n    model: m\n"
                                                 "workload:\n  output_tokens: 0\nsweep:\n  concurrency: [1, 4]\n");
    QVERIFY(!semantic.ok());
    QVERIFY(!semantic.spec);
    QVERIFY2(semantic.draft, qPrintable(spectest::dump(semantic.diagnostics)));
    QCOMPARE(semantic.draft->servers.size(), 2);
    QCOMPARE(semantic.draft->workload.outputTokens, 0);
    QCOMPARE(semantic.draft->concurrency, (QList<int>{1, 4}));
    QTemporaryDir dir; // from a file, the draft knows where it came from (relative paths resolve there)
    QFile file(dir.filePath(QStringLiteral("draft.yaml")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("servers:\n  - name: a\n    url: http://h:1\n    model: m\nworkload:\n  output_tokens: 0\nsweep:\n  concurrency: [1]\n");
    file.close();
    const SpecLoadResult fromFile = loadSpecFile(file.fileName());
    QVERIFY(fromFile.draft);
    QCOMPARE(fromFile.draft->sourcePath, file.fileName());
    // A value that could not be read (wrong type, bad YAML): no draft, it would drop the value.
    for (const QByteArray &yaml : {QByteArray("servers:\n  - name: a\n    url: http://h:1\n    model: m\n"
                                              "workload:\n  output_tokens: many\nsweep:\n  concurrency: [1]\n"),
                                   QByteArray("servers: [\n")}) {
        const SpecLoadResult r = loadSpecText(yaml);
        QVERIFY(!r.ok());
        QVERIFY(!r.draft);
    }
    // A valid spec has no draft either: it is the spec.
    const SpecLoadResult fine = loadSpecText(spectest::kMinimal);
    QVERIFY(fine.ok() && !fine.draft);
}

QTEST_GUILESS_MAIN(TstSpecErrors)
#include "tst_spec_errors.moc"
