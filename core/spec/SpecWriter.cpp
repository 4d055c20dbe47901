// saveSpecYaml: SweepSpec → YAML that loadSpecText reads back to an equal spec.
// Hooks keep their form: an enabled hook with every setting at its default (paths empty =
// flavor preset) is written as `true`, so a preset stays a preset after a round trip.
#include "spec/SpecIO.h"
#include "spec/SecretSet.h"
#include "spec/SpecRules.h"
#include "spec/YamlJson.h"

namespace sb {

using namespace sb::yaml;

namespace {

void key(YAML::Emitter &out, const char *k) { out << YAML::Key << k << YAML::Value; }
void str(YAML::Emitter &out, const char *k, const QString &v)
{
    key(out, k);
    emitString(out, v);
}
void num(YAML::Emitter &out, const char *k, double v)
{
    key(out, k);
    out << formatNumber(v);
}
void boolean(YAML::Emitter &out, const char *k, bool v)
{
    key(out, k);
    out << (v ? "true" : "false");
}

// `headers` and `launch.env`: name → value, without the values of credential names under Strip.
void credentialMap(YAML::Emitter &out, const char *k, const QList<QPair<QString, QString>> &pairs, SecretPolicy secrets)
{
    QList<QPair<QString, QString>> kept;
    for (const auto &p : pairs)
        if (secrets == SecretPolicy::Keep || !isCredentialHeader(p.first))
            kept.append(p);
    if (kept.isEmpty())
        return;
    key(out, k);
    out << YAML::BeginMap;
    for (const auto &[name, value] : kept) {
        out << YAML::Key;
        emitString(out, name);
        out << YAML::Value;
        emitString(out, value);
    }
    out << YAML::EndMap;
}

void writeReset(YAML::Emitter &out, const ResetHookSpec &r)
{
    key(out, "reset_kv_cache");
    if (r.enabled && r.restart) {
        out << "restart";
        return;
    }
    const bool defaults = r.path.isEmpty() && r.timeoutS == spec::kDefaultHookTimeoutS
                          && r.maxRetryS == spec::kDefaultResetRetryS && r.placement == ResetPlacement::BeforeWarmup;
    if (defaults) {
        out << (r.enabled ? "true" : "false");
        return;
    }
    out << YAML::BeginMap;
    if (!r.enabled) // settings kept but switched off (designer toggle)
        boolean(out, "enabled", false);
    if (!r.path.isEmpty())
        str(out, "path", r.path);
    if (r.timeoutS != spec::kDefaultHookTimeoutS)
        num(out, "timeout_seconds", r.timeoutS);
    if (r.maxRetryS != spec::kDefaultResetRetryS)
        num(out, "max_retry_seconds", r.maxRetryS);
    if (r.placement != ResetPlacement::BeforeWarmup)
        str(out, "placement", toString(r.placement));
    out << YAML::EndMap;
}

// `launch.variants` in the form it was written: the list, or the matrix (values as scalars, so
// true/false and numbers read back as they were).
void writeVariants(YAML::Emitter &out, const LaunchSpec &l, SecretPolicy secrets)
{
    if (!l.matrix.isEmpty()) {
        key(out, "variants");
        out << YAML::BeginMap;
        for (const LaunchMatrixAxis &axis : l.matrix) {
            out << YAML::Key;
            emitString(out, axis.key);
            out << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (const QString &v : axis.values)
                emitString(out, v);
            out << YAML::EndSeq;
        }
        out << YAML::EndMap;
        return;
    }
    if (l.variants.isEmpty())
        return;
    key(out, "variants");
    out << YAML::BeginSeq;
    for (const LaunchVariant &v : l.variants) {
        out << YAML::BeginMap;
        str(out, "name", v.name);
        if (!v.args.isEmpty()) {
            key(out, "args");
            out << YAML::Flow << YAML::BeginSeq;
            for (const QString &arg : v.args)
                emitString(out, arg);
            out << YAML::EndSeq;
        }
        credentialMap(out, "env", v.env, secrets);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

void writeLaunch(YAML::Emitter &out, const LaunchSpec &l, SecretPolicy secrets)
{
    if (!l.enabled)
        return;
    const LaunchSpec d;
    key(out, "launch");
    out << YAML::BeginMap;
    key(out, "command");
    out << YAML::Flow << YAML::BeginSeq;
    for (const QString &arg : l.command)
        emitString(out, arg);
    out << YAML::EndSeq;
    credentialMap(out, "env", l.env, secrets); // HF_TOKEN stays out of OUT/sweep.yaml, like a credential header
    if (l.port != d.port)
        num(out, "port", l.port);
    if (l.readyPath != d.readyPath || l.readyTimeoutS != d.readyTimeoutS) {
        key(out, "ready");
        out << YAML::BeginMap;
        str(out, "path", l.readyPath);
        num(out, "timeout_seconds", l.readyTimeoutS);
        out << YAML::EndMap;
    }
    if (l.stopSignal != d.stopSignal || l.graceS != d.graceS) {
        key(out, "stop");
        out << YAML::BeginMap;
        str(out, "signal", l.stopSignal);
        num(out, "grace_seconds", l.graceS);
        out << YAML::EndMap;
    }
    if (l.logKeepMib != d.logKeepMib)
        num(out, "log_keep_mib", l.logKeepMib);
    writeVariants(out, l, secrets);
    out << YAML::EndMap;
}

void writeProfiler(YAML::Emitter &out, const ProfilerHookSpec &p)
{
    key(out, "server_profiler");
    const bool defaults = p.startPath.isEmpty() && p.stopPath.isEmpty() && p.timeoutS == spec::kDefaultHookTimeoutS
                          && p.stopTimeoutS == spec::kDefaultStopTimeoutS && !p.startBody && p.traceDir.isEmpty()
                          && p.settleTimeoutS == ProfilerHookSpec().settleTimeoutS;
    if (defaults) {
        out << (p.enabled ? "true" : "false");
        return;
    }
    out << YAML::BeginMap;
    if (!p.enabled)
        boolean(out, "enabled", false);
    if (!p.startPath.isEmpty())
        str(out, "start_path", p.startPath);
    if (!p.stopPath.isEmpty())
        str(out, "stop_path", p.stopPath);
    if (p.timeoutS != spec::kDefaultHookTimeoutS)
        num(out, "timeout_seconds", p.timeoutS);
    if (p.stopTimeoutS != spec::kDefaultStopTimeoutS)
        num(out, "stop_timeout_seconds", p.stopTimeoutS);
    if (p.startBody) {
        key(out, "start_body");
        emitJson(out, *p.startBody);
    }
    if (!p.traceDir.isEmpty())
        str(out, "trace_dir", p.traceDir);
    if (p.settleTimeoutS != ProfilerHookSpec().settleTimeoutS)
        num(out, "settle_timeout_seconds", p.settleTimeoutS);
    out << YAML::EndMap;
}

void writeMetrics(YAML::Emitter &out, const MetricsSpec &m)
{
    const MetricsSpec d;
    if (m.path.isEmpty() && m.intervalS == d.intervalS && m.windowIntervalS == d.windowIntervalS) {
        if (!m.enabled) { // on is the default: written only when switched off
            key(out, "metrics");
            out << "false";
        }
        return;
    }
    key(out, "metrics");
    out << YAML::BeginMap;
    if (!m.enabled)
        boolean(out, "enabled", false);
    if (!m.path.isEmpty())
        str(out, "path", m.path);
    if (m.intervalS != d.intervalS)
        num(out, "interval_s", m.intervalS);
    if (m.windowIntervalS != d.windowIntervalS)
        num(out, "window_interval_s", m.windowIntervalS);
    out << YAML::EndMap;
}

// `telemetry: [{url, headers}]` or `[{nvidia_smi: true}]`; credential header values only when secrets are kept.
void writeTelemetry(YAML::Emitter &out, const QList<TelemetrySpec> &telemetry, SecretPolicy secrets)
{
    key(out, "telemetry");
    if (telemetry.isEmpty()) { // a server's own empty list turns the top level's off for it
        out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        return;
    }
    out << YAML::BeginSeq;
    for (const TelemetrySpec &t : telemetry) {
        out << YAML::BeginMap;
        if (t.nvidiaSmi) {
            key(out, "nvidia_smi");
            out << true;
            if (!t.program.isEmpty())
                str(out, "program", t.program);
            if (t.intervalMs != TelemetrySpec().intervalMs) {
                key(out, "interval_ms");
                out << t.intervalMs;
            }
        } else {
            str(out, "url", t.url);
            credentialMap(out, "headers", t.headers, secrets);
        }
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

void writeCost(YAML::Emitter &out, const CostSpec &c)
{
    key(out, "cost");
    out << YAML::Flow << YAML::BeginMap;
    num(out, "gpu_hour", c.gpuHour);
    key(out, "gpus");
    out << c.gpus;
    out << YAML::EndMap;
}

void writeServer(YAML::Emitter &out, const ServerSpec &s, SecretPolicy secrets)
{
    out << YAML::BeginMap;
    str(out, "name", s.name);
    if (s.urls.size() == 1) {
        str(out, "url", s.urls.first());
    } else if (!s.urls.isEmpty()) {
        key(out, "url");
        out << YAML::BeginSeq;
        for (const QString &u : s.urls)
            out << u.toStdString();
        out << YAML::EndSeq;
    }
    if (!s.mock.isEmpty() && s.mockReasoningTokens > 0) {
        key(out, "mock");
        out << YAML::Flow << YAML::BeginMap;
        str(out, "personality", s.mock);
        num(out, "reasoning_tokens", s.mockReasoningTokens);
        out << YAML::EndMap;
    } else if (!s.mock.isEmpty())
        str(out, "mock", s.mock);
    // A mock without a model gets the mock default on load, so always write what we hold.
    if (!s.model.isEmpty() || s.mock.isEmpty())
        str(out, "model", s.model);
    str(out, "endpoint", toString(s.endpoint));
    str(out, "flavor", toString(s.flavor));
    if (!s.apiKey.isEmpty() && secrets == SecretPolicy::Keep)
        str(out, "api_key", s.apiKey);
    if (!s.apiKeyEnv.isEmpty())
        str(out, "api_key_env", s.apiKeyEnv);
    credentialMap(out, "headers", s.headers, secrets);
    writeReset(out, s.reset);
    writeProfiler(out, s.profiler);
    writeMetrics(out, s.metrics);
    writeLaunch(out, s.launch, secrets);
    if (s.telemetry)
        writeTelemetry(out, *s.telemetry, secrets);
    if (s.cost)
        writeCost(out, *s.cost);
    out << YAML::EndMap;
}

// A distribution in the form it was written (spec/WorkloadShapes.h), else the number.
void writeLengths(YAML::Emitter &out, const char *k, int fixed, const std::optional<LengthDistribution> &d)
{
    if (!d) {
        num(out, k, fixed);
        return;
    }
    key(out, k);
    if (d->kind == LengthKind::Choices) {
        out << YAML::Flow << YAML::BeginSeq;
        for (const LengthChoice &c : d->choices) {
            if (c.weight == 1) {
                out << formatNumber(c.value);
                continue;
            }
            out << YAML::BeginMap;
            num(out, "value", c.value);
            num(out, "weight", c.weight);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
        return;
    }
    out << YAML::Flow << YAML::BeginMap;
    if (d->kind == LengthKind::Normal) {
        num(out, "mean", d->mean);
        num(out, "stddev", d->stddev);
    }
    num(out, "min", d->min);
    num(out, "max", d->max);
    out << YAML::EndMap;
}

void writeWorkload(YAML::Emitter &out, const WorkloadSpec &w)
{
    // Every workload key is written: the block is short and says exactly what will run.
    key(out, "workload");
    out << YAML::BeginMap;
    boolean(out, "streaming", w.streaming);
    writeLengths(out, "input_tokens", w.inputTokens, w.inputLengths);
    writeLengths(out, "output_tokens", w.outputTokens, w.outputLengths);
    if (w.seed != 0 || w.inputLengths || w.outputLengths)
        num(out, "seed", double(w.seed));
    if (w.dataset) {
        key(out, "dataset");
        out << YAML::BeginMap;
        str(out, "format", toString(w.dataset->format));
        str(out, "path", w.dataset->path);
        if (w.dataset->blockTokens != 512)
            num(out, "block_tokens", w.dataset->blockTokens);
        out << YAML::EndMap;
    }
    if (w.images) {
        key(out, "images");
        out << YAML::BeginMap;
        num(out, "count", w.images->count);
        num(out, "width", w.images->width);
        num(out, "height", w.images->height);
        str(out, "format", toString(w.images->format));
        out << YAML::EndMap;
    }
    boolean(out, "ignore_eos", w.ignoreEos);
    if (!w.calibratePrompts)
        boolean(out, "calibrate_prompts", false);
    if (w.requestsPerCell != 0 || w.durationS == 0)
        num(out, "requests_per_cell", w.requestsPerCell);
    if (w.durationS != 0)
        num(out, "duration_s", w.durationS);
    num(out, "warmup_requests", w.warmupRequests);
    num(out, "request_timeout_s", w.requestTimeoutS);
    str(out, "prompts", toString(w.prompts));
    if (w.prompts == PromptMode::SharedPrefix || w.sharedPrefixTokens != 0)
        num(out, "shared_prefix_tokens", w.sharedPrefixTokens);
    if (w.sharedPrefixCount != 1)
        num(out, "shared_prefix_count", w.sharedPrefixCount);
    if (w.sessions) {
        key(out, "sessions");
        out << YAML::BeginMap;
        if (!w.dataset || w.sessions->turnsDist || w.sessions->turns != 1) // a dataset gives the turns
            writeLengths(out, "turns", w.sessions->turns, w.sessions->turnsDist);
        writeLengths(out, "think_time_ms", w.sessions->thinkTimeMs, w.sessions->thinkDist);
        if (w.sessions->followUpTokens > 0)
            num(out, "follow_up_tokens", w.sessions->followUpTokens);
        str(out, "history", QStringLiteral("full"));
        if (!w.sessions->header.isEmpty())
            str(out, "session_header", w.sessions->header);
        out << YAML::EndMap;
    }
    if (w.slo.any()) {
        key(out, "slo");
        out << YAML::BeginMap;
        for (const SloLimit &l : kSloLimits)
            if (const std::optional<double> &limit = w.slo.*l.limit)
                num(out, l.key, *limit);
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
}

void writeOpenLoop(YAML::Emitter &out, const OpenLoopSpec &o)
{
    key(out, "request_rate");
    out << YAML::Flow << YAML::BeginSeq;
    for (double r : o.rates)
        out << r;
    out << YAML::EndSeq;
    str(out, "arrival", toString(o.arrival));
    if (o.arrival == Arrival::Gamma)
        num(out, "burstiness", o.burstiness);
    if (o.rateMean != RateMean::Sampled)
        str(out, "rate_mean", toString(o.rateMean));
    key(out, "seed");
    out << o.seed;
    key(out, "max_concurrency");
    out << o.maxConcurrency;
}

} // namespace

QByteArray saveSpecYaml(const SweepSpec &spec, SecretPolicy secrets)
{
    YAML::Emitter out;
    out << YAML::Comment("SweepBench sweep spec (see docs/spec-reference.md)");
    out << YAML::Newline << YAML::BeginMap;
    if (!spec.name.isEmpty())
        str(out, "name", spec.name);
    if (!spec.description.isEmpty())
        str(out, "description", spec.description);
    key(out, "servers");
    out << YAML::BeginSeq;
    for (const ServerSpec &s : spec.servers)
        writeServer(out, s, secrets);
    out << YAML::EndSeq;
    writeWorkload(out, spec.workload);
    key(out, "sweep");
    out << YAML::BeginMap;
    if (spec.openLoop.active()) {
        writeOpenLoop(out, spec.openLoop);
    } else {
        key(out, "concurrency");
        out << YAML::Flow << YAML::BeginSeq;
        for (int c : spec.concurrency)
            out << c;
        out << YAML::EndSeq;
    }
    if (spec.repeats != 1) {
        key(out, "repeats");
        out << spec.repeats;
    }
    if (spec.sloSearch.enabled) {
        key(out, "slo_search");
        out << YAML::Flow << YAML::BeginMap;
        key(out, "percentile");
        out << spec.sloSearch.percentile;
        num(out, "resolution", spec.sloSearch.resolution);
        out << YAML::EndMap;
    }
    str(out, "on_hook_failure", toString(spec.onHookFailure));
    if (spec.maxErrorRate != SweepSpec().maxErrorRate)
        num(out, "max_error_rate", spec.maxErrorRate);
    out << YAML::EndMap;
    if (!spec.telemetry.isEmpty())
        writeTelemetry(out, spec.telemetry, secrets);
    if (spec.cost)
        writeCost(out, *spec.cost);
    out << YAML::EndMap;
    QByteArray text(out.c_str(), qsizetype(out.size()));
    text.append('\n');
    return text;
}

} // namespace sb
