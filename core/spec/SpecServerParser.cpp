// Parsing of one `servers:` entry and its control-hook keys (AIPerf-compatible:
// `false | true | {...}`; `true` keeps the paths empty so the flavor preset applies at run time).
#include "spec/KeySuggest.h"
#include "spec/SpecParsers.h"
#include "spec/SpecRules.h"
#include "spec/YamlJson.h"
#include <QJsonObject>

namespace sb::specparse {

using namespace sb::yaml;

const QStringList kRootKeys = {"name", "description", "servers", "workload", "sweep", "telemetry", "cost"};
const QStringList kServerKeys = {"name",    "url",         "mock",    "model",          "endpoint",       "flavor",
                                 "api_key", "api_key_env", "headers", "reset_kv_cache", "server_profiler",
                                 "metrics", "launch", "telemetry", "cost"};
const QStringList kMetricsKeys = {"enabled", "path", "interval_s", "window_interval_s"};
const QStringList kResetKeys = {"enabled", "path", "timeout_seconds", "max_retry_seconds", "placement"};
const QStringList kProfilerKeys = {"enabled",    "start_path", "stop_path", "timeout_seconds", "stop_timeout_seconds",
                                   "start_body", "trace_dir", "settle_timeout_seconds"};
const QStringList kWorkloadKeys = {"streaming",   "input_tokens",      "output_tokens", "ignore_eos",
                                   "requests_per_cell", "duration_s",  "warmup_requests", "request_timeout_s",
                                   "prompts",     "shared_prefix_tokens", "slo",             "calibrate_prompts",
                                   "seed",        "dataset",           "sessions",        "shared_prefix_count",
                                   "images"};
const QStringList kMockKeys = {"personality", "reasoning_tokens"};
const QStringList kSessionKeys = {"turns", "think_time_ms", "follow_up_tokens", "history", "session_header"};
const QStringList kSloKeys = [] {
    QStringList keys;
    for (const SloLimit &l : kSloLimits)
        keys.append(QLatin1String(l.key));
    return keys;
}();
const QStringList kSweepKeys = {"concurrency", "request_rate", "arrival", "burstiness", "rate_mean", "seed", "max_concurrency", "repeats", "slo_search", "on_hook_failure", "max_error_rate"};

QString placeHint(const QString &key)
{
    static const std::pair<const QStringList *, const char *> sections[] = {
        {&kRootKeys, "the top level"},          {&kServerKeys, "each servers entry"},
        {&kWorkloadKeys, "workload"},           {&kSloKeys, "workload.slo"},
        {&kSweepKeys, "sweep"},                 {&kResetKeys, "a server's reset_kv_cache mapping"},
        {&kProfilerKeys, "a server's server_profiler mapping"}, {&kMetricsKeys, "a server's metrics mapping"},
        {&kLaunchKeys, "a server's launch mapping"}, {&kTelemetryKeys, "a telemetry entry"}, {&kCostKeys, "cost"}, {&kLaunchReadyKeys, "launch.ready"}, {&kLaunchStopKeys, "launch.stop"}, {&kLaunchVariantKeys, "a launch variant"}};
    for (const auto &[keys, where] : sections)
        if (keys->contains(key))
            return QStringLiteral("'%1' belongs under %2").arg(key, QLatin1String(where));
    return {};
}

void reportBadEnum(Context &ctx, const YAML::Node &node, const QString &path, const QStringList &allowed)
{
    QString msg = QStringLiteral("expected one of %1; got %2").arg(allowed.join(QStringLiteral(", ")), describe(node));
    if (node.IsScalar()) {
        const QString near = closestMatch(scalarText(node), allowed);
        if (!near.isEmpty())
            msg += QStringLiteral(" (did you mean '%1'?)").arg(near);
    }
    ctx.error(valuePos(ctx, node, path), path, msg);
}

namespace {
const QStringList kEndpoints = {"chat", "completions"};
const QStringList kPlacements = {"before_warmup", "after_warmup", "both"};

void missing(Context &ctx, const QString &parentPath, const QString &key, const QString &what)
{
    // A missing key has no position of its own: point at the mapping that should hold it.
    ctx.error(ctx.locate(parentPath), childPath(parentPath, key), QStringLiteral("missing required key; expected %1").arg(what));
}

// `true`, `false` or a mapping; anything else gets a message that shows the accepted forms.
enum class HookForm { Bool, Map, Invalid };
HookForm hookForm(Context &ctx, const YAML::Node &node, const QString &path, bool &enabled, const QString &mapKeys,
                  const QString &word = QString()) // `word`: one more accepted scalar (reset's `restart`)
{
    if (node.IsMap())
        return HookForm::Map;
    if (parseBool(node, enabled))
        return HookForm::Bool;
    const QString forms = word.isEmpty() ? QStringLiteral("true, false") : QStringLiteral("true, false, %1").arg(word);
    QString msg = QStringLiteral("expected %1 or a mapping {%2}, got %3").arg(forms, mapKeys, describe(node));
    if (node.IsScalar() && scalarText(node).startsWith(QLatin1Char('/')))
        msg += QStringLiteral("; for a custom path write {%1: %2}")
                   .arg(mapKeys.section(QLatin1Char(','), 0, 0), scalarText(node));
    ctx.error(valuePos(ctx, node, path), path, msg);
    return HookForm::Invalid;
}

} // namespace

void parseHeaders(Context &ctx, const YAML::Node &node, const QString &path, QList<QPair<QString, QString>> &out)
{
    if (!node.IsMap()) {
        ctx.error(ctx.locate(path), path, QStringLiteral("expected a mapping of header names to values, got %1").arg(describe(node)));
        return;
    }
    for (const auto &kv : node) {
        const YAML::Node &k = kv.first;
        const QString keyPath = childPath(path, scalarText(k));
        if (!k.IsScalar()) {
            ctx.error(toPos(k.Mark()), path, QStringLiteral("expected a header name, got %1").arg(describe(k)));
            continue;
        }
        ctx.remember(keyPath, toPos(k.Mark()));
        QString value;
        if (readString(ctx, kv.second, keyPath, value))
            out.append({scalarText(k), value});
    }
}
void parseResetHook(Context &ctx, const YAML::Node &node, const QString &path, ResetHookSpec &out)
{
    if (node.IsScalar() && scalarText(node) == QLatin1String("restart")) { // needs launch: (validator)
        out.enabled = out.restart = true;
        return;
    }
    if (hookForm(ctx, node, path, out.enabled, QStringLiteral("path, timeout_seconds, max_retry_seconds, placement"), QStringLiteral("restart")) != HookForm::Map)
        return;
    out.enabled = true; // the mapping form means "on"; `enabled: false` keeps settings but turns it off
    MapReader m(ctx, node, path, kResetKeys, placeHint);
    m.boolean(QStringLiteral("enabled"), out.enabled);
    m.string(QStringLiteral("path"), out.path);
    m.number(QStringLiteral("timeout_seconds"), out.timeoutS, spec::expectPositiveNumber());
    m.number(QStringLiteral("max_retry_seconds"), out.maxRetryS, spec::expectNonNegativeNumber());
    readEnum(m, QStringLiteral("placement"), out.placement, &placementFromString, kPlacements);
}

void parseProfilerHook(Context &ctx, const YAML::Node &node, const QString &path, ProfilerHookSpec &out)
{
    if (hookForm(ctx, node, path, out.enabled, QStringLiteral("start_path, stop_path, timeout_seconds, stop_timeout_seconds, start_body, trace_dir, "
                                                                 "settle_timeout_seconds"))
        != HookForm::Map)
        return;
    out.enabled = true;
    MapReader m(ctx, node, path, kProfilerKeys, placeHint);
    m.boolean(QStringLiteral("enabled"), out.enabled);
    m.string(QStringLiteral("start_path"), out.startPath);
    m.string(QStringLiteral("stop_path"), out.stopPath);
    m.number(QStringLiteral("timeout_seconds"), out.timeoutS, spec::expectPositiveNumber());
    m.number(QStringLiteral("stop_timeout_seconds"), out.stopTimeoutS, spec::expectPositiveNumber());
    m.number(QStringLiteral("settle_timeout_seconds"), out.settleTimeoutS, spec::expectNonNegativeNumber());
    m.string(QStringLiteral("trace_dir"), out.traceDir);
    if (const YAML::Node *body = m.find(QStringLiteral("start_body"))) {
        const QString bodyPath = m.path(QStringLiteral("start_body"));
        if (body->IsMap())
            out.startBody = toJson(ctx, *body, bodyPath).toObject();
        else
            ctx.error(ctx.locate(bodyPath), bodyPath,
                      QStringLiteral("expected a mapping of JSON fields (e.g. {output_dir: /tmp/traces, num_steps: 5}), got %1")
                          .arg(describe(*body)));
    }
}

void parseMetrics(Context &ctx, const YAML::Node &node, const QString &path, MetricsSpec &out)
{
    if (hookForm(ctx, node, path, out.enabled, QStringLiteral("path, interval_s, window_interval_s, enabled")) != HookForm::Map)
        return;
    out.enabled = true;
    MapReader m(ctx, node, path, kMetricsKeys, placeHint);
    m.boolean(QStringLiteral("enabled"), out.enabled);
    m.string(QStringLiteral("path"), out.path);
    m.number(QStringLiteral("interval_s"), out.intervalS, spec::expectPositiveNumber());
    m.number(QStringLiteral("window_interval_s"), out.windowIntervalS, spec::expectNonNegativeNumber());
}

namespace {
// `url: http://a:8000` or `url: [http://a:8000, http://b:8000]` (AIPerf takes --url repeatedly).
bool parseUrls(Context &ctx, const YAML::Node &node, const QString &path, QStringList &out)
{
    if (!node.IsSequence()) {
        QString one;
        if (!readString(ctx, node, path, one))
            return false;
        out = {one};
        return true;
    }
    if (node.size() == 0) {
        ctx.error(ctx.locate(path), path, QStringLiteral("expected at least one URL, got an empty list"));
        return false;
    }
    bool ok = true;
    int i = 0;
    for (const auto &item : node) {
        const QString itemPath = indexPath(path, i++);
        ctx.remember(itemPath, toPos(item.Mark()));
        QString one;
        ok = readString(ctx, item, itemPath, one) && ok;
        out.append(one); // a bad entry keeps its slot so later indices still match the source
    }
    return ok;
}
} // namespace

ServerSpec parseServer(Context &ctx, const YAML::Node &node, const QString &path)
{
    ServerSpec s;
    MapReader m(ctx, node, path, kServerKeys, placeHint);
    m.string(QStringLiteral("name"), s.name);
    // A url or mock that is present but unreadable still counts as given (a placeholder the
    // validator's findings under that key are dropped for), so the type error is not followed
    // by "expected exactly one of url or mock".
    if (const YAML::Node *n = m.find(QStringLiteral("url")); n && !parseUrls(ctx, *n, m.path(QStringLiteral("url")), s.urls))
        s.urls = {QStringLiteral("?")};
    if (const YAML::Node *n = m.find(QStringLiteral("mock")); n && n->IsMap()) { // {personality, reasoning_tokens}
        const QString mockPath = m.path(QStringLiteral("mock"));
        if (!(*n)["personality"]) { // one message for a mapping that names no mock (no unknown-key ones after it)
            ctx.error(valuePos(ctx, *n, mockPath), mockPath,
                      QStringLiteral("expected a mapping {personality: %1, reasoning_tokens} naming its personality")
                          .arg(mockPersonalityNames().join(QStringLiteral(" | "))));
            s.mock = QStringLiteral("?");
        } else {
            MapReader mm(ctx, *n, mockPath, kMockKeys);
            mm.string(QStringLiteral("personality"), s.mock);
            mm.integer(QStringLiteral("reasoning_tokens"), s.mockReasoningTokens, spec::expectNonNegativeInt());
        }
    } else if (n && !readString(ctx, *n, m.path(QStringLiteral("mock")), s.mock))
        s.mock = QStringLiteral("?");
    m.string(QStringLiteral("model"), s.model);
    readEnum(m, QStringLiteral("endpoint"), s.endpoint, &endpointFromString, kEndpoints);
    m.string(QStringLiteral("api_key"), s.apiKey);
    m.string(QStringLiteral("api_key_env"), s.apiKeyEnv);

    // A mock's personality is the natural default flavor (its control routes match it).
    if (const auto mockFlavor = flavorFromString(s.mock))
        s.flavor = *mockFlavor;
    readEnum(m, QStringLiteral("flavor"), s.flavor, &flavorFromString, flavorNames());
    if (!s.mock.isEmpty() && !m.has(QStringLiteral("model")))
        s.model = spec::kMockDefaultModel;

    if (!m.has(QStringLiteral("name")))
        missing(ctx, path, QStringLiteral("name"), QStringLiteral("a unique server name"));
    if (!m.has(QStringLiteral("model")) && !m.has(QStringLiteral("mock")))
        missing(ctx, path, QStringLiteral("model"), QStringLiteral("the model name the server serves"));

    if (const YAML::Node *h = m.find(QStringLiteral("headers")))
        parseHeaders(ctx, *h, m.path(QStringLiteral("headers")), s.headers);
    if (const YAML::Node *r = m.find(QStringLiteral("reset_kv_cache")))
        parseResetHook(ctx, *r, m.path(QStringLiteral("reset_kv_cache")), s.reset);
    if (const YAML::Node *p = m.find(QStringLiteral("server_profiler")))
        parseProfilerHook(ctx, *p, m.path(QStringLiteral("server_profiler")), s.profiler);
    if (const YAML::Node *mt = m.find(QStringLiteral("metrics")))
        parseMetrics(ctx, *mt, m.path(QStringLiteral("metrics")), s.metrics);
    if (const YAML::Node *l = m.find(QStringLiteral("launch")))
        parseLaunch(ctx, *l, m.path(QStringLiteral("launch")), s.launch);
    if (const YAML::Node *t = m.find(QStringLiteral("telemetry"))) {
        s.telemetry.emplace();
        parseTelemetry(ctx, *t, m.path(QStringLiteral("telemetry")), *s.telemetry);
    }
    if (const YAML::Node *c = m.find(QStringLiteral("cost"))) {
        s.cost.emplace();
        parseCost(ctx, *c, m.path(QStringLiteral("cost")), *s.cost);
    }
    return s;
}

} // namespace sb::specparse
