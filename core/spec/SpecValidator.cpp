// validateSpec: semantic checks on an in-memory spec. Runs on every GUI edit, so it only walks
// the structs (no I/O, no YAML). Messages name the key path; the loader adds file:line:column.
#include "spec/HookPath.h"
#include "spec/LaunchVariants.h"
#include "spec/KeySuggest.h"
#include "spec/SpecIO.h"
#include "spec/SpecRules.h"
#include <QJsonArray>
#include <QJsonObject>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {

class Checker {
public:
    QList<SpecDiagnostic> diags;

    void error(const QString &path, const QString &msg) { add(SpecDiagnostic::Severity::Error, path, msg); }
    void warning(const QString &path, const QString &msg) { add(SpecDiagnostic::Severity::Warning, path, msg); }

    // "expected a number > 0, got -1"
    void positive(const QString &path, double v)
    {
        if (!(v > 0) || !std::isfinite(v))
            error(path, QStringLiteral("expected %1, got %2").arg(spec::expectPositiveNumber(), QString::number(v)));
    }
    void nonNegative(const QString &path, double v)
    {
        if (!(v >= 0) || !std::isfinite(v))
            error(path, QStringLiteral("expected %1, got %2").arg(spec::expectNonNegativeNumber(), QString::number(v)));
    }
    // Timeouts and durations: > 0 (or ≥ 0) and at most a day (spec::kMaxSeconds).
    void seconds(const QString &path, double v, bool zeroAllowed = false)
    {
        if (zeroAllowed ? !(v >= 0) : !(v > 0))
            return zeroAllowed ? nonNegative(path, v) : positive(path, v);
        if (!std::isfinite(v) || v > spec::kMaxSeconds)
            error(path, QStringLiteral("expected %1, got %2").arg(spec::expectSeconds(), QString::number(v, 'g', 12)));
    }
    void positiveInt(const QString &path, int v)
    {
        if (v < 1)
            error(path, QStringLiteral("expected %1, got %2").arg(spec::expectPositiveInt()).arg(v));
    }
    void hookPath(const QString &path, const QString &value)
    {
        // Empty means "flavor preset" and is always fine.
        if (value.isEmpty())
            return;
        const QString problem = checkHookPath(value);
        if (!problem.isEmpty())
            error(path, problem + QStringLiteral(", got '%1'").arg(value));
    }

private:
    void add(SpecDiagnostic::Severity sev, const QString &path, const QString &msg)
    {
        SpecDiagnostic d;
        d.severity = sev;
        d.keyPath = path;
        d.message = msg;
        diags.append(d);
    }
};

// Levels of arrays/objects (a scalar is 0); stops counting past the bound.
int jsonDepth(const QJsonValue &v, int depth = 0)
{
    if (depth > spec::kMaxJsonDepth || !(v.isArray() || v.isObject()))
        return depth;
    int deepest = depth + 1;
    if (v.isArray())
        for (const QJsonValue &e : v.toArray())
            deepest = std::max(deepest, jsonDepth(e, depth + 1));
    else
        for (const QJsonValue &e : v.toObject())
            deepest = std::max(deepest, jsonDepth(e, depth + 1));
    return deepest;
}

QString at(const QString &base, const char *key) { return base + QLatin1Char('.') + QLatin1String(key); }

// Characters no name may hold. Names reach job scripts and manifests (a line break there starts a
// command or a document), file names, logs, terminals and table cells: controls (C0, DEL, C1 with
// U+0085), line and paragraph separators (line breaks to some YAML parsers) and the bidi
// embeddings, overrides, isolates and marks that make text read other than it is stored.
bool forbiddenInName(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Surrogate:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return true;
    default:
        return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C;
    }
}

// A name (`name`, `servers[i].name`, `servers[i].model`) is refused at its first such character,
// counted from 1 as the user sees them.
void checkNameCharacters(Checker &c, const QString &path, const QString &name)
{
    qsizetype position = 0;
    for (qsizetype i = 0; i < name.size(); ++i) {
        ++position;
        char32_t ch = name.at(i).unicode();
        if (name.at(i).isHighSurrogate() && i + 1 < name.size() && name.at(i + 1).isLowSurrogate()) {
            ch = QChar::surrogateToUcs4(name.at(i), name.at(i + 1));
            ++i;
        }
        if (forbiddenInName(ch)) {
            const QString code = QStringLiteral("%1").arg(uint(ch), 4, 16, QLatin1Char('0')).toUpper();
            c.error(path, QStringLiteral("expected a name without control characters, line breaks or bidirectional controls; "
                                         "got U+%1 at character %2").arg(code).arg(position));
            return;
        }
    }
}

void checkUrl(Checker &c, const QString &path, const QString &url, const QString &what = QStringLiteral("base URL such as http://10.0.0.5:8000"))
{
    // Never echo the URL itself: it may carry user:password.
    // A port QUrl refuses (0, or past 65535) is named as such, not as a malformed URL.
    static const QRegularExpression port(QStringLiteral("^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/@]*@)?(?:\\[[^\\]]*\\]|[^/:]*):(\\d+)(?:[/?#]|$)"));
    if (const auto m = port.match(url); m.hasMatch()) {
        bool ok = false;
        const qlonglong p = m.captured(1).toLongLong(&ok);
        if (!ok || p < 1 || p > 65535) {
            c.error(path, QStringLiteral("expected a TCP port from 1 to 65535 in the URL, got %1").arg(m.captured(1).left(12)));
            return;
        }
    }
    const QUrl u(url, QUrl::StrictMode);
    if (!u.isValid() || u.isRelative()) {
        c.error(path, QStringLiteral("expected an http or https %1").arg(what));
        return;
    }
    if (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https")) {
        c.error(path, QStringLiteral("expected an http or https URL, got scheme '%1'").arg(u.scheme()));
        return;
    }
    if (u.host().isEmpty())
        c.error(path, QStringLiteral("expected a host in the URL (http://HOST:PORT)"));
    else if (u.hasQuery() || u.hasFragment())
        c.error(path, QStringLiteral("expected a base URL without query or fragment; the API path is appended to it"));
}

// Header names and values of a server or a telemetry entry.
void checkHeaderList(Checker &c, const QString &path, const QList<QPair<QString, QString>> &headers)
{
    static const QRegularExpression token(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]+\\z"));
    QSet<QString> seen;
    for (const auto &[name, value] : headers) {
        const QString p = path + QLatin1Char('.') + name;
        if (!token.match(name).hasMatch())
            c.error(p, QStringLiteral("expected an HTTP header name (letters, digits, '-'), got '%1'").arg(name));
        else if (seen.contains(name.toLower()))
            c.error(p, QStringLiteral("duplicate header (header names are case-insensitive)"));
        seen.insert(name.toLower());
        // Do not echo the value: headers often carry credentials.
        if (value.contains(QLatin1Char('\n')) || value.contains(QLatin1Char('\r')))
            c.error(p, QStringLiteral("expected a single-line header value"));
    }
}

void checkHeaders(Checker &c, const QString &path, const ServerSpec &s)
{
    checkHeaderList(c, path, s.headers);
    const bool authorization = std::any_of(s.headers.cbegin(), s.headers.cend(), [](const auto &h) {
        return h.first.compare(QLatin1String("authorization"), Qt::CaseInsensitive) == 0;
    });
    if (authorization && (!s.apiKey.isEmpty() || !s.apiKeyEnv.isEmpty()))
        c.warning(path + QStringLiteral(".Authorization"), QStringLiteral("an Authorization header overrides api_key / api_key_env"));
}

// `telemetry:` (top level or a server's): each exporter's metrics URL once, with its path, no
// credentials in the URL (they would be sent nowhere and shown everywhere; headers carry them).
void checkTelemetry(Checker &c, const QString &path, const QList<TelemetrySpec> &telemetry)
{
    QSet<QString> seen;
    for (qsizetype i = 0; i < telemetry.size(); ++i) {
        const TelemetrySpec &t = telemetry[i];
        const QString item = QStringLiteral("%1[%2]").arg(path).arg(i);
        if (t.nvidiaSmi) {
            // nvidia-smi sees this machine's GPUs: beside an exporter they would likely be counted twice.
            if (telemetry.size() > 1)
                c.error(at(item, "nvidia_smi"), QStringLiteral("expected nvidia_smi alone in the list: it samples this machine's GPUs, "
                                                               "which an exporter beside it would likely count again"));
            if (!t.url.isEmpty() || !t.headers.isEmpty())
                c.error(at(item, t.url.isEmpty() ? "headers" : "url"), QStringLiteral("expected either url (an exporter) or nvidia_smi: true, not both"));
            if (t.intervalMs < spec::kMinNvidiaSmiIntervalMs || t.intervalMs > spec::kMaxNvidiaSmiIntervalMs)
                c.error(at(item, "interval_ms"), QStringLiteral("expected %1, got %2").arg(spec::expectNvidiaSmiInterval()).arg(t.intervalMs));
            if (t.program.contains(QLatin1Char('\n')))
                c.error(at(item, "program"), QStringLiteral("expected a program name or path on one line"));
            continue;
        }
        if (!t.program.isEmpty() || t.intervalMs != TelemetrySpec().intervalMs)
            c.error(at(item, t.program.isEmpty() ? "interval_ms" : "program"), QStringLiteral("only for nvidia_smi: true (an exporter is scraped every 0.5 s)"));
        const QString urlPath = at(item, "url");
        const QUrl u(t.url, QUrl::StrictMode);
        const int before = int(c.diags.size());
        if (!u.userInfo().isEmpty())
            c.error(urlPath, QStringLiteral("expected a URL without user:password (never echoed); send credentials with headers: {Authorization: ...}"));
        else
            checkUrl(c, urlPath, t.url, QStringLiteral("metrics URL such as http://gpu-node:9400/metrics"));
        if (c.diags.size() == before && (u.path().isEmpty() || u.path() == QLatin1String("/")))
            c.error(urlPath, QStringLiteral("expected the exporter's metrics path in the URL, e.g. http://gpu-node:9400/metrics"));
        else if (seen.contains(t.url))
            c.error(urlPath, QStringLiteral("this exporter is already listed; its GPUs' energy would be counted twice"));
        seen.insert(t.url);
        checkHeaderList(c, at(item, "headers"), t.headers);
    }
}

void checkCost(Checker &c, const QString &path, const std::optional<CostSpec> &cost)
{
    if (!cost)
        return;
    if (!(cost->gpuHour > 0 && cost->gpuHour <= spec::kMaxGpuHourPrice))
        c.error(at(path, "gpu_hour"), QStringLiteral("expected %1, got %2").arg(spec::expectGpuHour()).arg(cost->gpuHour));
    if (cost->gpus < 1 || cost->gpus > spec::kMaxCostGpus)
        c.error(at(path, "gpus"), QStringLiteral("expected %1, got %2").arg(spec::expectGpus()).arg(cost->gpus));
}

void checkHooks(Checker &c, const QString &p, const ServerSpec &s)
{
    if (s.reset.enabled) {
        const QString r = at(p, "reset_kv_cache");
        c.hookPath(at(r, "path"), s.reset.path);
        c.seconds(at(r, "timeout_seconds"), s.reset.timeoutS);
        c.seconds(at(r, "max_retry_seconds"), s.reset.maxRetryS, true);
        if (s.flavor == Flavor::Trtllm && !s.reset.restart)
            c.warning(r, QStringLiteral("stock trtllm-serve has no cache-reset route; the call is still attempted and will "
                                        "likely fail with 404 (disable KV block reuse or restart the server between cells instead)"));
    }
    if (s.profiler.enabled) {
        const QString pr = at(p, "server_profiler");
        c.hookPath(at(pr, "start_path"), s.profiler.startPath);
        c.hookPath(at(pr, "stop_path"), s.profiler.stopPath);
        c.seconds(at(pr, "timeout_seconds"), s.profiler.timeoutS);
        c.seconds(at(pr, "stop_timeout_seconds"), s.profiler.stopTimeoutS);
        c.seconds(at(pr, "settle_timeout_seconds"), s.profiler.settleTimeoutS, true);
        if (s.profiler.startBody && jsonDepth(QJsonValue(*s.profiler.startBody)) > spec::kMaxJsonDepth)
            c.error(at(pr, "start_body"), spec::tooDeepJson());
        if (s.flavor == Flavor::Llamacpp)
            c.warning(pr, QStringLiteral("llama-server has no profiler routes; the calls are still attempted and will likely "
                                         "fail with 404 (disable server_profiler for this server)"));
    }
}

void checkMetrics(Checker &c, const QString &p, const ServerSpec &s)
{
    if (!s.metrics.enabled)
        return;
    const QString m = at(p, "metrics");
    c.hookPath(at(m, "path"), s.metrics.path);
    // Faster than 20 a second would make the scrapes themselves load on the server; slower than
    // a minute leaves most cells with only the baseline and the tail scrape.
    if (!(s.metrics.intervalS >= 0.05 && s.metrics.intervalS <= 60))
        c.error(at(m, "interval_s"), QStringLiteral("expected seconds between 0.05 and 60, got %1").arg(QString::number(s.metrics.intervalS, 'g', 12)));
    const double w = s.metrics.windowIntervalS;
    if (!(w == 0 || (w >= 0.05 && w <= 60)))
        c.error(at(m, "window_interval_s"),
                QStringLiteral("expected 0 (no scrapes inside a profiler window) or seconds between 0.05 and 60, got %1").arg(QString::number(w, 'g', 12)));
}

bool isEnvName(const QString &name)
{
    static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*\\z"));
    return envName.match(name).hasMatch();
}

void checkVariantName(Checker &c, const QString &path, const QString &name)
{
    if (name.trimmed().isEmpty())
        c.error(path, QStringLiteral("expected a non-empty variant name (its series is SERVER[NAME])"));
    else if (name.size() > spec::kMaxVariantNameLength)
        c.error(path, QStringLiteral("expected a name of at most %1 characters, got %2").arg(spec::kMaxVariantNameLength).arg(name.size()));
    else if (name.contains(QLatin1Char('[')) || name.contains(QLatin1Char(']')))
        c.error(path, QStringLiteral("expected a name without '[' or ']' (the series name SERVER[NAME] holds it), got '%1'").arg(name));
    else
        checkNameCharacters(c, path, name);
}

// `launch.variants`: names unique and usable in a series name, env names valid, the matrix within
// bounds (its product before anything is expanded).
void checkVariants(Checker &c, const QString &l, const LaunchSpec &launch)
{
    const QString vp = at(l, "variants");
    QSet<QString> seen;
    for (qsizetype i = 0; i < launch.variants.size(); ++i) {
        const LaunchVariant &v = launch.variants[i];
        const QString item = QStringLiteral("%1[%2]").arg(vp).arg(i);
        checkVariantName(c, at(item, "name"), v.name);
        if (seen.contains(v.name))
            c.error(at(item, "name"), QStringLiteral("duplicate variant name '%1'; each variant is its own series").arg(v.name));
        seen.insert(v.name);
        for (const auto &[name, value] : v.env)
            if (!isEnvName(name))
                c.error(at(item, "env") + QLatin1Char('.') + name, QStringLiteral("expected an environment variable name (letters, digits, '_')"));
    }
    if (launch.variants.size() > spec::kMaxLaunchVariants)
        c.error(vp, QStringLiteral("%1 variants; expected at most %2 (each is a full series of cells)").arg(launch.variants.size()).arg(spec::kMaxLaunchVariants));
    if (launch.matrix.isEmpty())
        return;
    if (!launch.variants.isEmpty())
        c.error(vp, QStringLiteral("expected either a list of variants or a matrix, not both"));
    for (const LaunchMatrixAxis &axis : launch.matrix) {
        const QString ap = vp + QLatin1Char('.') + axis.key;
        if (!axis.key.startsWith(QLatin1Char('-')) && !isEnvName(axis.key))
            c.error(ap, QStringLiteral("expected a flag (--name) or an environment variable name, got '%1'").arg(axis.key));
        if (axis.values.isEmpty())
            c.error(ap, QStringLiteral("expected a non-empty list of values"));
        if (QSet<QString>(axis.values.cbegin(), axis.values.cend()).size() != axis.values.size())
            c.error(ap, QStringLiteral("a value is listed twice; each combination must be a different variant"));
    }
    const qint64 n = launchMatrixCombinations(launch);
    if (n > spec::kMaxLaunchVariants) {
        c.error(vp, QStringLiteral("the matrix has more than %1 combinations; expected at most %1 variants (each is a full series of cells)").arg(spec::kMaxLaunchVariants));
        return;
    }
    for (const LaunchVariant &v : launchVariants(launch))
        checkVariantName(c, vp, v.name);
}

void checkLaunch(Checker &c, const QString &p, const ServerSpec &s)
{
    if (s.reset.enabled && s.reset.restart && !s.launch.enabled)
        c.error(at(p, "reset_kv_cache"), QStringLiteral("restart needs launch: SweepBench can only restart a server it started itself "
                                                        "(add a launch mapping, or use true for the cache-reset route)"));
    if (!s.launch.enabled)
        return;
    const QString l = at(p, "launch");
    if (!s.mock.isEmpty())
        c.error(l, QStringLiteral("launch and mock are mutually exclusive: an embedded mock needs no process"));
    if (s.launch.command.isEmpty() || s.launch.command.first().isEmpty())
        c.error(at(l, "command"), QStringLiteral("expected the server's argv as a non-empty list, program first"));
    if (s.launch.port < 0 || s.launch.port > 65535)
        c.error(at(l, "port"), QStringLiteral("expected a TCP port from 1 to 65535 (omit it for a free one), got %1").arg(s.launch.port));
    for (const auto &[name, value] : s.launch.env)
        if (!isEnvName(name))
            c.error(at(l, "env") + QLatin1Char('.') + name, QStringLiteral("expected an environment variable name (letters, digits, '_')"));
    c.hookPath(at(l, "ready.path"), s.launch.readyPath);
    c.seconds(at(l, "ready.timeout_seconds"), s.launch.readyTimeoutS);
    c.seconds(at(l, "stop.grace_seconds"), s.launch.graceS, true);
    if (!launchSignalNames().contains(s.launch.stopSignal))
        c.error(at(l, "stop.signal"), QStringLiteral("expected one of %1, got '%2'").arg(launchSignalNames().join(QStringLiteral(", ")), s.launch.stopSignal));
    if (!(s.launch.logKeepMib > 0 && s.launch.logKeepMib <= spec::kMaxLaunchLogMib))
        c.error(at(l, "log_keep_mib"), QStringLiteral("expected MiB from above 0 to %1, got %2").arg(spec::kMaxLaunchLogMib).arg(s.launch.logKeepMib));
    checkVariants(c, l, s.launch);
}

void checkServer(Checker &c, const QString &p, const ServerSpec &s)
{
    const bool hasUrl = !s.urls.isEmpty();
    const bool hasMock = !s.mock.isEmpty();
    if (hasUrl && hasMock)
        c.error(at(p, "mock"), QStringLiteral("url and mock are mutually exclusive; set exactly one"));
    else if (!hasUrl && !hasMock && !s.launch.enabled)
        c.error(p, QStringLiteral("expected exactly one of url (a server to benchmark), mock (%1) or launch (a server SweepBench starts)")
                       .arg(mockPersonalityNames().join(QStringLiteral(", "))));
    checkLaunch(c, p, s);
    QSet<QString> seenUrls;
    for (qsizetype i = 0; i < s.urls.size(); ++i) {
        const QString path = s.urls.size() == 1 ? at(p, "url") : QStringLiteral("%1.url[%2]").arg(p).arg(i);
        // A launched server's url may name its port as {port} (the port is picked at run time).
        QString url = s.urls[i];
        if (s.launch.enabled)
            url.replace(QStringLiteral("{port}"), QString::number(s.launch.port > 0 ? s.launch.port : 1));
        checkUrl(c, path, url);
        if (seenUrls.contains(s.urls[i]))
            c.error(path, QStringLiteral("this URL is already listed; each URL of a server gets an equal share of the in-flight requests"));
        seenUrls.insert(s.urls[i]);
    }
    const QStringList mocks = mockPersonalityNames();
    if (hasMock && !mocks.contains(s.mock)) {
        QString msg = QStringLiteral("expected one of %1; got '%2'").arg(mocks.join(QStringLiteral(", ")), s.mock);
        if (const QString near = closestMatch(s.mock, mocks); !near.isEmpty())
            msg += QStringLiteral(" (did you mean '%1'?)").arg(near);
        c.error(at(p, "mock"), msg);
    }
    if (s.mockReasoningTokens < 0 || s.mockReasoningTokens > spec::kMaxMockReasoningTokens)
        c.error(at(p, "mock.reasoning_tokens"), QStringLiteral("expected an integer from 0 to %1, got %2").arg(spec::kMaxMockReasoningTokens).arg(s.mockReasoningTokens));
    if (s.model.isEmpty() && !hasMock)
        c.error(at(p, "model"), QStringLiteral("expected the model name the server serves"));
    if (!s.apiKey.isEmpty() && !s.apiKeyEnv.isEmpty())
        c.error(at(p, "api_key_env"), QStringLiteral("api_key and api_key_env are mutually exclusive; set at most one"));
    static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*\\z"));
    if (!s.apiKeyEnv.isEmpty() && !envName.match(s.apiKeyEnv).hasMatch())
        // Not echoed: a common slip is pasting the key itself here.
        c.error(at(p, "api_key_env"), QStringLiteral("expected the name of an environment variable (letters, digits, '_'), "
                                                     "such as OPENAI_API_KEY, not the key itself"));
    checkHeaders(c, at(p, "headers"), s);
    checkHooks(c, p, s);
    checkMetrics(c, p, s);
    if (s.telemetry)
        checkTelemetry(c, at(p, "telemetry"), *s.telemetry);
    checkCost(c, at(p, "cost"), s.cost);
}

void checkWorkload(Checker &c, const WorkloadSpec &w)
{
    c.positiveInt(QStringLiteral("workload.input_tokens"), w.inputTokens);
    c.positiveInt(QStringLiteral("workload.output_tokens"), w.outputTokens);
    if (w.requestsPerCell > 0 && w.durationS > 0)
        c.error(QStringLiteral("workload.duration_s"), QStringLiteral("requests_per_cell and duration_s are mutually exclusive; set exactly one"));
    else if (w.requestsPerCell < 0 || (w.requestsPerCell == 0 && w.durationS == 0))
        c.error(QStringLiteral("workload.requests_per_cell"),
                QStringLiteral("expected %1 (or duration_s > 0 instead), got %2").arg(spec::expectPositiveInt()).arg(w.requestsPerCell));
    if (w.durationS != 0)
        c.seconds(QStringLiteral("workload.duration_s"), w.durationS);
    if (w.warmupRequests < 0)
        c.error(QStringLiteral("workload.warmup_requests"), QStringLiteral("expected %1, got %2").arg(spec::expectNonNegativeInt()).arg(w.warmupRequests));
    c.seconds(QStringLiteral("workload.request_timeout_s"), w.requestTimeoutS);
    if (w.prompts == PromptMode::SharedPrefix) {
        if (w.sharedPrefixTokens < 1 || w.sharedPrefixTokens > w.inputTokens)
            c.error(QStringLiteral("workload.shared_prefix_tokens"),
                    QStringLiteral("expected an integer from 1 to input_tokens (%1) with prompts: shared_prefix, got %2")
                        .arg(w.inputTokens)
                        .arg(w.sharedPrefixTokens));
    } else if (w.sharedPrefixTokens != 0) {
        c.error(QStringLiteral("workload.shared_prefix_tokens"), QStringLiteral("only allowed with prompts: shared_prefix"));
    }
    for (const ShapeProblem &p : workloadShapeProblems(w)) // distributions, seed, dataset
        c.error(p.path, p.message);
    for (const SloLimit &l : kSloLimits)
        if (const std::optional<double> &limit = w.slo.*l.limit)
            c.positive(QStringLiteral("workload.slo.") + QLatin1String(l.key), *limit);
}

void checkConcurrency(Checker &c, const QList<int> &levels)
{
    const QString path = QStringLiteral("sweep.concurrency");
    if (levels.isEmpty()) {
        c.error(path, QStringLiteral("expected a non-empty list of concurrency levels, e.g. [1, 2, 4, 8]"));
        return;
    }
    QHash<int, int> firstIndex;
    for (int i = 0; i < levels.size(); ++i) {
        const QString p = path + QStringLiteral("[%1]").arg(i);
        const int v = levels[i];
        if (v < 1 || v > spec::kMaxConcurrency)
            c.error(p, QStringLiteral("expected %1, got %2").arg(spec::expectConcurrency()).arg(v));
        else if (firstIndex.contains(v))
            c.error(p, QStringLiteral("duplicate concurrency %1 (also at index %2)").arg(v).arg(firstIndex.value(v)));
        else
            firstIndex.insert(v, i);
    }
}

// `sweep.request_rate` and its companions (docs/spec-reference.md); exactly one of the two axes.
void checkSweepAxis(Checker &c, const SweepSpec &spec)
{
    const OpenLoopSpec &o = spec.openLoop;
    if (!o.active()) {
        checkConcurrency(c, spec.concurrency);
        return;
    }
    if (!spec.concurrency.isEmpty())
        c.error(QStringLiteral("sweep.request_rate"), QStringLiteral("a sweep has either concurrency (closed loop) or request_rate (open loop), "
                                                                     "not both; use two sweeps to measure both"));
    QList<double> seen;
    for (int i = 0; i < o.rates.size(); ++i) {
        const QString p = QStringLiteral("sweep.request_rate[%1]").arg(i);
        const double v = o.rates[i];
        if (!(v > 0 && v <= spec::kMaxRequestRate))
            c.error(p, QStringLiteral("expected %1, got %2").arg(spec::expectRequestRate()).arg(v));
        else if (const qsizetype first = seen.indexOf(v); first >= 0)
            c.error(p, QStringLiteral("duplicate request rate %1 (also at index %2)").arg(v).arg(first));
        seen.append(v);
    }
    if (!(o.burstiness >= spec::kMinBurstiness && o.burstiness <= spec::kMaxBurstiness))
        c.error(QStringLiteral("sweep.burstiness"), QStringLiteral("expected %1, got %2").arg(spec::expectBurstiness()).arg(o.burstiness));
    else if (o.arrival != Arrival::Gamma && o.burstiness != 1.0)
        c.error(QStringLiteral("sweep.burstiness"), QStringLiteral("only used with arrival: gamma (poisson is gamma with burstiness 1)"));
    if (o.rateMean == RateMean::Exact && o.arrival != Arrival::Poisson && o.arrival != Arrival::Gamma)
        c.error(QStringLiteral("sweep.rate_mean"), QStringLiteral("only used with arrival: poisson or gamma (%1 arrivals already keep the point's mean rate)")
                                                        .arg(toString(o.arrival)));
    // Whether every entry has a timestamp is known only once the file is read (the engine and
    // `validate` refuse it then); here: there must be a dataset at all.
    if (o.arrival == Arrival::Trace && !spec.workload.dataset)
        c.error(QStringLiteral("sweep.arrival"), QStringLiteral("trace replays the timestamps of workload.dataset (a mooncake trace, "
                                                               "or JSONL entries with \"timestamp\"); set workload.dataset or pick "
                                                               "constant, poisson or gamma"));
    if (o.seed < 0)
        c.error(QStringLiteral("sweep.seed"), QStringLiteral("expected %1, got %2").arg(spec::expectSeed()).arg(o.seed));
    if (o.maxConcurrency < 1 || o.maxConcurrency > spec::kMaxConcurrency)
        c.error(QStringLiteral("sweep.max_concurrency"), QStringLiteral("expected %1, got %2").arg(spec::expectConcurrency()).arg(o.maxConcurrency));
}

} // namespace

QList<SpecDiagnostic> validateSpec(const SweepSpec &spec)
{
    Checker c;
    checkNameCharacters(c, QStringLiteral("name"), spec.name);
    if (spec.servers.isEmpty())
        c.error(QStringLiteral("servers"), QStringLiteral("expected at least one server"));
    QHash<QString, int> names;
    for (int i = 0; i < spec.servers.size(); ++i) {
        const ServerSpec &s = spec.servers[i];
        const QString p = QStringLiteral("servers[%1]").arg(i);
        if (spec.workload.images && s.endpoint == Endpoint::Completions) // images are content parts of a chat message
            c.error(at(p, "endpoint"), QStringLiteral("expected chat with workload.images: the completions endpoint takes no images"));
        checkNameCharacters(c, at(p, "name"), s.name);
        checkNameCharacters(c, at(p, "model"), s.model);
        if (s.name.trimmed().isEmpty())
            c.error(at(p, "name"), QStringLiteral("expected a non-empty, unique server name"));
        else if (names.contains(s.name))
            c.error(at(p, "name"), QStringLiteral("duplicate server name '%1' (also servers[%2])").arg(s.name).arg(names.value(s.name)));
        else
            names.insert(s.name, i);
        // Each variant is a series named SERVER[VARIANT]: it must not take another server's name.
        if (s.launch.enabled)
            for (const LaunchVariant &v : launchVariants(s.launch)) {
                const QString series = variantSeriesName(s.name, v.name);
                if (names.contains(series))
                    c.error(at(p, "launch.variants"), QStringLiteral("the variant series '%1' takes the name of servers[%2]").arg(series).arg(names.value(series)));
                else
                    names.insert(series, i);
            }
        checkServer(c, p, s);
        if (spec.workload.sessions && s.endpoint != Endpoint::Chat) // history is a list of messages
            c.error(at(p, "endpoint"), QStringLiteral("workload.sessions needs endpoint: chat (a session's history is sent as chat messages)"));
        const auto lowest = std::min_element(spec.concurrency.cbegin(), spec.concurrency.cend());
        if (s.urls.size() > 1 && lowest != spec.concurrency.cend() && *lowest < s.urls.size())
            c.warning(at(p, "url"), QStringLiteral("%1 URLs share each point's in-flight requests: at concurrency %2 some of them get "
                                                   "no traffic").arg(s.urls.size()).arg(*lowest));
    }
    checkTelemetry(c, QStringLiteral("telemetry"), spec.telemetry);
    checkCost(c, QStringLiteral("cost"), spec.cost);
    checkWorkload(c, spec.workload);
    checkSweepAxis(c, spec);
    if (const SloSearchSpec &s = spec.sloSearch; s.enabled) {
        const QString p = QStringLiteral("sweep.slo_search");
        if (!spec.workload.slo.any())
            c.error(p, QStringLiteral("needs at least one SLO in workload.slo (time_to_first_token, inter_token_latency or request_latency)"));
        if (std::find(std::begin(spec::kSloPercentiles), std::end(spec::kSloPercentiles), s.percentile) == std::end(spec::kSloPercentiles))
            c.error(p + QStringLiteral(".percentile"), QStringLiteral("expected %1, got %2").arg(spec::expectSloPercentile()).arg(s.percentile));
        if (!(s.resolution > 0) || (!spec.openLoop.active() && s.resolution < 1))
            c.error(p + QStringLiteral(".resolution"), QStringLiteral("expected a number > 0 (≥ 1 for concurrency), got %1").arg(s.resolution));
        if (spec.repeats > 1)
            c.error(p, QStringLiteral("not with repeats > 1 (the search runs each point once)"));
    }
    if (spec.repeats < 1 || spec.repeats > spec::kMaxRepeats)
        c.error(QStringLiteral("sweep.repeats"), QStringLiteral("expected %1, got %2").arg(spec::expectRepeats()).arg(spec.repeats));
    if (!(spec.maxErrorRate >= 0 && spec.maxErrorRate <= 1))
        c.error(QStringLiteral("sweep.max_error_rate"), QStringLiteral("expected %1, got %2").arg(spec::expectFraction()).arg(spec.maxErrorRate));
    return c.diags;
}

} // namespace sb
