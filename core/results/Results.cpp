#include "results/Results.h"
#include "io/ReadLimits.h"
#include "results/PointSummary.h"
#include <QJsonArray>
#include <algorithm>
#include <cmath>
#include <limits>

namespace sb {

namespace {
// The one table of stat names (count is kept apart: it is an integer).
struct StatField {
    Stat stat;
    const char *name;
    double MetricStats::*member;
    int percentile; // 0: not a percentile
};
const StatField kStatFields[] = {
    {Stat::Avg, "avg", &MetricStats::avg, 0}, {Stat::Min, "min", &MetricStats::min, 0},
    {Stat::Max, "max", &MetricStats::max, 0}, {Stat::Std, "std", &MetricStats::std, 0},
    {Stat::P1, "p1", &MetricStats::p1, 1},    {Stat::P5, "p5", &MetricStats::p5, 5},
    {Stat::P10, "p10", &MetricStats::p10, 10}, {Stat::P25, "p25", &MetricStats::p25, 25},
    {Stat::P50, "p50", &MetricStats::p50, 50}, {Stat::P75, "p75", &MetricStats::p75, 75},
    {Stat::P90, "p90", &MetricStats::p90, 90}, {Stat::P95, "p95", &MetricStats::p95, 95},
    {Stat::P99, "p99", &MetricStats::p99, 99},
};
constexpr const char *kCountName = "count";

QString isoUtc(const QDateTime &t) { return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString(); }
QDateTime fromIso(const QJsonValue &v) { return QDateTime::fromString(v.toString(), Qt::ISODateWithMs); }

template <typename T>
QJsonObject mapToJson(const QMap<QString, T> &m)
{
    QJsonObject o;
    for (auto it = m.cbegin(); it != m.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}
} // namespace

QString tokenSourceName(TokenSource s)
{
    switch (s) {
    case TokenSource::None: return QString();
    case TokenSource::Usage: return QStringLiteral("usage");
    case TokenSource::Counted: return QStringLiteral("counted");
    case TokenSource::Mixed: return QStringLiteral("mixed");
    }
    return QString();
}

TokenSource tokenSourceFromString(QStringView s)
{
    for (TokenSource t : {TokenSource::Usage, TokenSource::Counted, TokenSource::Mixed})
        if (s == tokenSourceName(t))
            return t;
    return TokenSource::None;
}

QString statName(Stat s)
{
    if (s == Stat::Count)
        return QLatin1String(kCountName);
    for (const auto &f : kStatFields)
        if (f.stat == s)
            return QLatin1String(f.name);
    return QString();
}

std::optional<Stat> statFromName(QStringView name)
{
    if (name == QLatin1String(kCountName))
        return Stat::Count;
    for (const auto &f : kStatFields)
        if (name == QLatin1String(f.name))
            return f.stat;
    return std::nullopt;
}

std::optional<Stat> percentileStat(int percentile)
{
    for (const auto &f : kStatFields)
        if (f.percentile > 0 && f.percentile == percentile)
            return f.stat;
    return std::nullopt;
}

double MetricStats::value(Stat stat) const
{
    if (stat == Stat::Count)
        return double(count);
    for (const auto &f : kStatFields)
        if (f.stat == stat)
            return (onlyAvg && stat != Stat::Avg) ? std::numeric_limits<double>::quiet_NaN() : this->*f.member;
    return std::numeric_limits<double>::quiet_NaN();
}

void MetricStats::set(Stat stat, double v)
{
    if (stat == Stat::Count) {
        count = qint64(std::llround(v));
        return;
    }
    for (const auto &f : kStatFields)
        if (f.stat == stat)
            this->*f.member = v;
}

QJsonObject toJson(const MetricStats &s)
{
    QJsonObject o{{QStringLiteral("unit"), s.unit}};
    if (s.onlyAvg) {
        o.insert(statName(Stat::Avg), s.avg);
        return o;
    }
    for (const auto &f : kStatFields)
        o.insert(QLatin1String(f.name), s.*f.member);
    o.insert(QLatin1String(kCountName), s.count);
    return o;
}

MetricStats metricStatsFromJson(const QJsonObject &o)
{
    MetricStats s;
    s.unit = o.value(QStringLiteral("unit")).toString();
    s.onlyAvg = !o.contains(statName(Stat::P50));
    for (const auto &f : kStatFields)
        s.*f.member = o.value(QLatin1String(f.name)).toDouble(std::numeric_limits<double>::quiet_NaN());
    s.count = o.value(QLatin1String(kCountName)).toInteger();
    return s;
}

QJsonObject toJson(const HookOutcome &h)
{
    QJsonObject o{{QStringLiteral("hook"), hookKindName(h.hook)},         {QStringLiteral("origin"), h.origin},
                  {QStringLiteral("method"), h.method},     {QStringLiteral("path"), h.path},
                  {QStringLiteral("status"), h.status},     {QStringLiteral("ok"), h.ok},
                  {QStringLiteral("attempts"), h.attempts}, {QStringLiteral("latency_ms"), h.latencyMs},
                  {QStringLiteral("verdict"), h.verdict ? hookVerdictName(*h.verdict) : QString()},   {QStringLiteral("message"), h.message},
                  {QStringLiteral("at"), isoUtc(h.at)}};
    if (h.placement != HookPlacement::None)
        o.insert(QStringLiteral("placement"), hookPlacementName(h.placement));
    if (h.cacheProof != CacheProof::None)
        o.insert(QStringLiteral("cache_proof"), cacheProofName(h.cacheProof));
    if (h.metricsVerdict != MetricsVerdict::None)
        o.insert(QStringLiteral("metrics_verdict"), metricsVerdictName(h.metricsVerdict));
    if (h.metricsCachedTokens >= 0)
        o.insert(QStringLiteral("metrics_cached_tokens"), h.metricsCachedTokens);
    return o;
}

std::optional<HookOutcome> hookOutcomeFromJson(const QJsonObject &o)
{
    const std::optional<HookKind> kind = hookKindFromString(o.value(QStringLiteral("hook")).toString());
    if (!kind)
        return std::nullopt;
    HookOutcome h;
    h.hook = *kind;
    h.origin = o.value(QStringLiteral("origin")).toString();
    h.method = o.value(QStringLiteral("method")).toString();
    h.path = o.value(QStringLiteral("path")).toString();
    h.status = o.value(QStringLiteral("status")).toInt();
    h.ok = o.value(QStringLiteral("ok")).toBool();
    h.attempts = o.value(QStringLiteral("attempts")).toInt();
    h.latencyMs = o.value(QStringLiteral("latency_ms")).toDouble();
    h.verdict = hookVerdictFromString(o.value(QStringLiteral("verdict")).toString()); // unknown: judged by `ok`
    h.message = o.value(QStringLiteral("message")).toString();
    h.placement = hookPlacementFromString(o.value(QStringLiteral("placement")).toString());
    h.cacheProof = cacheProofFromString(o.value(QStringLiteral("cache_proof")).toString());
    h.metricsVerdict = metricsVerdictFromString(o.value(QStringLiteral("metrics_verdict")).toString());
    h.metricsCachedTokens = qint64(o.value(QStringLiteral("metrics_cached_tokens")).toDouble(-1));
    h.at = fromIso(o.value(QStringLiteral("at")));
    return h;
}

QJsonObject toJson(const CellResult &c)
{
    QJsonObject requests{{QStringLiteral("completed"), c.completed},
                         {QStringLiteral("failed"), c.failed},
                         {QStringLiteral("reconnects"), c.reconnects},
                         {QStringLiteral("resent"), c.resent},
                         {QStringLiteral("unsolicited_responses"), c.unsolicited},
                         {QStringLiteral("errors"), mapToJson(c.errors)},
                         {QStringLiteral("error_samples"), mapToJson(c.errorSamples)}};
    QJsonObject metrics;
    for (auto it = c.metrics.cbegin(); it != c.metrics.cend(); ++it)
        metrics.insert(it.key(), toJson(it.value()));
    QJsonArray hooks;
    for (const auto &h : c.hooks)
        hooks.append(toJson(h));
    QJsonObject cell{
        {QStringLiteral("index"), c.index},
        {QStringLiteral("server"), c.server},
        {QStringLiteral("origin"), c.origin},
        {QStringLiteral("concurrency"), c.concurrency},
        {QStringLiteral("status"), cellStatusName(c.status)},
        {QStringLiteral("reason"), c.reason},
        {QStringLiteral("error_rate"), c.errorRate},
        {QStringLiteral("requests"), requests},
        {QStringLiteral("max_in_flight"), c.maxInFlight},
        {QStringLiteral("mean_in_flight"), c.meanInFlight},
        {QStringLiteral("steady_mean_in_flight"), c.steadyMeanInFlight},
        {QStringLiteral("duration_s"), c.durationS},
        {QStringLiteral("token_source"), tokenSourceName(c.tokenSource)},
        {QStringLiteral("client_cpu_max"), c.clientCpuMax},
        {QStringLiteral("client_wait_max"), c.clientWaitMax},
        {QStringLiteral("metrics"), metrics},
        {QStringLiteral("hooks"), hooks},
        {QStringLiteral("traces"), QJsonArray::fromStringList(c.traces)},
        {QStringLiteral("warnings"), QJsonArray::fromStringList(c.warnings)},
        {QStringLiteral("records"), c.recordsPath},
        {QStringLiteral("started_at"), isoUtc(c.startedAt)},
        {QStringLiteral("finished_at"), isoUtc(c.finishedAt)},
    };
    cell.insert(QStringLiteral("request_rate"), c.openLoop ? QJsonValue(c.openLoop->targetRate) : QJsonValue(QJsonValue::Null));
    cell.insert(QStringLiteral("repeat"), c.repeat);
    if (c.sloSearch)
        cell.insert(QStringLiteral("slo_search"), true);
    if (c.hostStealMs >= 0)
        cell.insert(QStringLiteral("host_steal_ms"), c.hostStealMs);
    if (const auto &w = c.profilerWindow) {
        QJsonObject window{{QStringLiteral("stop_s"), w->stopS},
                           {QStringLiteral("settle_s"), w->settleS},
                           {QStringLiteral("settled"), w->settled},
                           {QStringLiteral("traces_complete"), w->tracesComplete}};
        if (!w->why.isEmpty())
            window.insert(QStringLiteral("why"), w->why);
        cell.insert(QStringLiteral("profiler_window"), window);
    }
    if (c.traceSummary)
        cell.insert(QStringLiteral("trace_summary"), toJson(*c.traceSummary));
    if (!c.timeSlices.empty())
        cell.insert(QStringLiteral("time_slices"), timeSlicesJson(c.timeSlices));
    if (!c.byTurn.empty())
        cell.insert(QStringLiteral("by_turn"), turnStatsJson(c.byTurn));
    if (c.prefixCache)
        cell.insert(QStringLiteral("prefix_cache"), toJson(*c.prefixCache));
    if (c.openLoop)
        cell.insert(QStringLiteral("open_loop"), toJson(*c.openLoop));
    if (!c.serverMetrics.isEmpty())
        cell.insert(QStringLiteral("server_metrics"), serverMetricsJson(c.serverMetrics));
    if (!c.serverMetricsInfo.isEmpty())
        cell.insert(QStringLiteral("server_scrape"), toJson(c.serverMetricsInfo));
    if (!c.serverInfo.isEmpty())
        cell.insert(QStringLiteral("server_info"), toJson(c.serverInfo));
    if (c.gpuTelemetry)
        cell.insert(QStringLiteral("gpu_telemetry"), toJson(*c.gpuTelemetry));
    if (c.cost)
        cell.insert(QStringLiteral("cost"), toJson(*c.cost));
    return cell;
}

CellResult cellResultFromJson(const QJsonObject &o)
{
    CellResult c;
    c.index = o.value(QStringLiteral("index")).toInt();
    c.server = o.value(QStringLiteral("server")).toString();
    c.origin = o.value(QStringLiteral("origin")).toString();
    c.concurrency = o.value(QStringLiteral("concurrency")).toInt();
    c.repeat = std::max(0, o.value(QStringLiteral("repeat")).toInt());
    c.sloSearch = o.value(QStringLiteral("slo_search")).toBool();
    c.timeSlices = timeSlicesFromJson(o.value(QStringLiteral("time_slices")).toArray());
    c.byTurn = turnStatsFromJson(o.value(QStringLiteral("by_turn")).toArray());
    c.prefixCache = prefixCacheFromJson(o.value(QStringLiteral("prefix_cache")));
    if (const QJsonValue rate = o.value(QStringLiteral("request_rate")); rate.isDouble()) {
        c.openLoop = openLoopResultFromJson(o.value(QStringLiteral("open_loop")).toObject());
        c.openLoop->targetRate = rate.toDouble();
    }
    // An unknown status (a newer writer's) is shown as failed rather than as measured data.
    const QString status = o.value(QStringLiteral("status")).toString();
    c.status = status.isEmpty() ? CellStatus::Pending : cellStatusFromString(status).value_or(CellStatus::Failed);
    c.reason = o.value(QStringLiteral("reason")).toString();
    const QJsonObject req = o.value(QStringLiteral("requests")).toObject();
    c.completed = req.value(QStringLiteral("completed")).toInt();
    c.failed = req.value(QStringLiteral("failed")).toInt();
    c.reconnects = req.value(QStringLiteral("reconnects")).toInt();
    c.resent = req.value(QStringLiteral("resent")).toInt();
    c.unsolicited = req.value(QStringLiteral("unsolicited_responses")).toInt();
    c.errorRate = o.contains(QStringLiteral("error_rate")) ? o.value(QStringLiteral("error_rate")).toDouble()
                  : c.completed + c.failed > 0             ? double(c.failed) / (c.completed + c.failed)
                                                           : 0;
    const QJsonObject errors = req.value(QStringLiteral("errors")).toObject();
    for (auto it = errors.begin(); it != errors.end(); ++it)
        c.errors.insert(it.key(), it.value().toInt());
    const QJsonObject samples = req.value(QStringLiteral("error_samples")).toObject();
    for (auto it = samples.begin(); it != samples.end(); ++it)
        c.errorSamples.insert(it.key(), it.value().toString());
    c.maxInFlight = o.value(QStringLiteral("max_in_flight")).toInt();
    c.meanInFlight = o.value(QStringLiteral("mean_in_flight")).toDouble();
    c.steadyMeanInFlight = o.value(QStringLiteral("steady_mean_in_flight")).toDouble(-1);
    c.durationS = o.value(QStringLiteral("duration_s")).toDouble();
    c.tokenSource = tokenSourceFromString(o.value(QStringLiteral("token_source")).toString());
    c.clientCpuMax = o.value(QStringLiteral("client_cpu_max")).toDouble();
    c.clientWaitMax = o.value(QStringLiteral("client_wait_max")).toDouble();
    c.hostStealMs = o.value(QStringLiteral("host_steal_ms")).toDouble(-1);
    if (const QJsonValue wv = o.value(QStringLiteral("profiler_window")); wv.isObject()) {
        const QJsonObject w = wv.toObject();
        ProfilerWindowResult r;
        r.stopS = w.value(QStringLiteral("stop_s")).toDouble();
        r.settleS = w.value(QStringLiteral("settle_s")).toDouble();
        r.settled = w.value(QStringLiteral("settled")).toBool();
        r.tracesComplete = w.value(QStringLiteral("traces_complete")).toBool();
        r.why = w.value(QStringLiteral("why")).toString();
        c.profilerWindow = r;
    }
    const QJsonObject metrics = o.value(QStringLiteral("metrics")).toObject();
    for (auto it = metrics.begin(); it != metrics.end(); ++it)
        c.metrics.insert(it.key(), metricStatsFromJson(it.value().toObject()));
    for (const auto &h : o.value(QStringLiteral("hooks")).toArray())
        if (const auto hook = hookOutcomeFromJson(h.toObject()))
            c.hooks.append(*hook);
        else // a newer build's hook: said, not silently dropped
            c.warnings.append(QStringLiteral("a hook call of unknown kind \"%1\" is not shown")
                                  .arg(h.toObject().value(QStringLiteral("hook")).toString().left(64)));
    for (const auto &t : o.value(QStringLiteral("traces")).toArray())
        c.traces.append(t.toString());
    for (const auto &w : o.value(QStringLiteral("warnings")).toArray())
        c.warnings.append(w.toString());
    c.recordsPath = o.value(QStringLiteral("records")).toString();
    c.startedAt = fromIso(o.value(QStringLiteral("started_at")));
    c.finishedAt = fromIso(o.value(QStringLiteral("finished_at")));
    c.serverMetrics = serverMetricsFromJson(o.value(QStringLiteral("server_metrics")).toObject());
    c.serverMetricsInfo = serverScrapeInfoFromJson(o.value(QStringLiteral("server_scrape")).toObject());
    c.traceSummary = traceSummaryFromJson(o.value(QStringLiteral("trace_summary")));
    c.serverInfo = serverInfoFromJson(o.value(QStringLiteral("server_info")).toObject());
    c.gpuTelemetry = gpuTelemetryFromJson(o.value(QStringLiteral("gpu_telemetry")));
    c.cost = cellCostFromJson(o.value(QStringLiteral("cost")));
    return c;
}

QJsonObject toJson(const SweepResults &r)
{
    QJsonArray cells;
    for (const auto &c : r.cells)
        cells.append(toJson(c));
    QJsonObject o{
        {QStringLiteral("schema"), r.schema},
        {QStringLiteral("tool"), QJsonObject{{QStringLiteral("name"), r.toolName}, {QStringLiteral("version"), r.toolVersion}}},
        {QStringLiteral("source_tool"), r.sourceTool},
        {QStringLiteral("sweep"), r.sweepName},
        {QStringLiteral("started_at"), isoUtc(r.startedAt)},
        {QStringLiteral("finished_at"), isoUtc(r.finishedAt)},
        {QStringLiteral("host"), toJson(r.host)},
        {QStringLiteral("cells"), cells},
    };
    if (!r.sourceCommand.isEmpty()) // imports: what the other tool was asked to do
        o.insert(QStringLiteral("source_command"), r.sourceCommand);
    if (!r.specFingerprint.isEmpty())
        o.insert(QStringLiteral("spec_fingerprint"), toJson(r.specFingerprint));
    // Derived from the cells (readers recompute it): mean and 95 % CI per point over its repeats.
    if (r.sloSearch)
        o.insert(QStringLiteral("slo_search"), toJson(*r.sloSearch));
    if (const QList<PointSummary> points = summarizePoints(r); hasRepeats(points))
        o.insert(QStringLiteral("points"), pointsJson(points));
    if (r.shard.sharded())
        o.insert(QStringLiteral("shard"), QJsonObject{{QStringLiteral("index"), r.shard.index}, {QStringLiteral("count"), r.shard.count}});
    if (!r.mergedFrom.isEmpty()) {
        QJsonArray merged;
        for (const MergedShard &m : r.mergedFrom)
            merged.append(toJson(m));
        o.insert(QStringLiteral("merged_from"), merged);
    }
    return o;
}

bool sweepResultsFromJson(const QJsonObject &o, SweepResults *out, QString *error)
{
    const QString schema = o.value(QStringLiteral("schema")).toString();
    if (!schema.startsWith(QLatin1String("sweepbench-results/"))) {
        if (error)
            *error = QStringLiteral("not a SweepBench results document (schema \"%1\")").arg(schema);
        return false;
    }
    if (schema != QLatin1String(kResultsSchema)) {
        if (error)
            *error = QStringLiteral("unsupported results schema \"%1\" (this build reads %2)").arg(schema, QLatin1String(kResultsSchema));
        return false;
    }
    SweepResults r;
    r.schema = schema;
    const QJsonObject tool = o.value(QStringLiteral("tool")).toObject();
    r.toolName = tool.value(QStringLiteral("name")).toString();
    r.toolVersion = tool.value(QStringLiteral("version")).toString();
    r.sourceTool = o.value(QStringLiteral("source_tool")).toString(QStringLiteral("sweepbench"));
    r.sourceCommand = o.value(QStringLiteral("source_command")).toString().left(4096);
    r.sweepName = o.value(QStringLiteral("sweep")).toString();
    r.startedAt = fromIso(o.value(QStringLiteral("started_at")));
    r.finishedAt = fromIso(o.value(QStringLiteral("finished_at")));
    r.host = hostInfoFromJson(o.value(QStringLiteral("host")).toObject());
    r.specFingerprint = specFingerprintFromJson(o.value(QStringLiteral("spec_fingerprint")).toObject());
    if (const QJsonValue slo = o.value(QStringLiteral("slo_search")); slo.isObject())
        r.sloSearch = sloSearchResultFromJson(slo.toObject());
    if (o.contains(QStringLiteral("shard"))) {
        const QJsonObject shard = o.value(QStringLiteral("shard")).toObject();
        const int index = shard.value(QStringLiteral("index")).toInt(-1), count = shard.value(QStringLiteral("count")).toInt(0);
        if (count < 1 || count > kMaxShards || index < 0 || index >= count) {
            if (error)
                *error = QStringLiteral("\"shard\" must be {index, count} with 0 <= index < count <= %1").arg(kMaxShards);
            return false;
        }
        r.shard = ShardId{index, count};
    }
    for (const QJsonValue &m : o.value(QStringLiteral("merged_from")).toArray())
        r.mergedFrom.append(mergedShardFromJson(m.toObject()));
    const QJsonArray cells = o.value(QStringLiteral("cells")).toArray();
    if (cells.size() > kMaxResultsCells) {
        if (error)
            *error = QStringLiteral("%1 cells (the limit is %2)").arg(cells.size()).arg(kMaxResultsCells);
        return false;
    }
    r.cells.reserve(cells.size());
    for (const auto &c : cells)
        r.cells.append(cellResultFromJson(c.toObject()));
    *out = r;
    return true;
}

QStringList SweepResults::serverNames() const
{
    QStringList names;
    for (const auto &c : cells)
        if (!names.contains(c.server))
            names.append(c.server);
    return names;
}

} // namespace sb
