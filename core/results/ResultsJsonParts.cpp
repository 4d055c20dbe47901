// results.json's mapping for the parts a cell or the sweep holds beside its plain fields (time
// slices, server metrics, GPU telemetry and cost, host, spec fingerprint, merged shards, SLO search); results/Results.cpp maps the cells and the sweep themselves. The keys
// are spelled here and nowhere else.
#include "results/GpuTelemetryResult.h"
#include "results/ServerMetricsResult.h"
#include "results/SweepAxis.h"
#include "results/SweepFacts.h"
#include "results/TimeSlice.h"
#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

namespace sb {

namespace {
// Not a number (an empty window, no observations) is null in JSON and NaN in the structs.
QJsonValue num(double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null); }
double numFrom(const QJsonValue &v) { return v.toDouble(NAN); }
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
} // namespace

QJsonArray timeSlicesJson(const std::vector<TimeSlice> &slices)
{
    QJsonArray out;
    for (const TimeSlice &s : slices) {
        const auto ms = [](double v) { return v >= 0 ? QJsonValue(v) : QJsonValue(QJsonValue::Null); };
        out.append(QJsonObject{{QStringLiteral("t_s"), s.startS},
                               {QStringLiteral("length_s"), s.lengthS},
                               {QStringLiteral("sent"), s.sent},
                               {QStringLiteral("completed"), s.completed},
                               {QStringLiteral("failed"), s.failed},
                               {QStringLiteral("output_tokens"), qint64(s.outputTokens)},
                               {QStringLiteral("output_token_throughput"), sliceThroughput(s)},
                               {QStringLiteral("mean_in_flight"), s.meanInFlight},
                               {QStringLiteral("ttft_p50_ms"), ms(s.ttftP50Ms)},
                               {QStringLiteral("ttft_p99_ms"), ms(s.ttftP99Ms)}});
    }
    return out;
}

std::vector<TimeSlice> timeSlicesFromJson(const QJsonArray &json)
{
    std::vector<TimeSlice> out;
    out.reserve(std::size_t(json.size()));
    for (const QJsonValue &v : json) {
        const QJsonObject o = v.toObject();
        TimeSlice s;
        s.startS = o.value(QStringLiteral("t_s")).toDouble();
        s.lengthS = o.value(QStringLiteral("length_s")).toDouble();
        s.sent = o.value(QStringLiteral("sent")).toInt();
        s.completed = o.value(QStringLiteral("completed")).toInt();
        s.failed = o.value(QStringLiteral("failed")).toInt();
        s.outputTokens = o.value(QStringLiteral("output_tokens")).toInteger();
        s.meanInFlight = o.value(QStringLiteral("mean_in_flight")).toDouble();
        s.ttftP50Ms = o.value(QStringLiteral("ttft_p50_ms")).toDouble(-1); // null: nothing streamed in the slice
        s.ttftP99Ms = o.value(QStringLiteral("ttft_p99_ms")).toDouble(-1);
        out.push_back(s);
    }
    return out;
}

const char *metricTypeName(MetricType t)
{
    switch (t) {
    case MetricType::Counter: return "counter";
    case MetricType::Gauge: return "gauge";
    case MetricType::Histogram: return "histogram";
    case MetricType::Summary: return "summary";
    case MetricType::Untyped: break;
    }
    return "untyped";
}

bool ServerMetricAggregate::operator==(const ServerMetricAggregate &o) const
{
    return type == o.type && unit == o.unit && label == o.label && same(avg, o.avg) && same(max, o.max) && samples == o.samples
           && same(delta, o.delta) && same(rate, o.rate) && same(count, o.count) && same(mean, o.mean) && same(p50, o.p50)
           && same(p99, o.p99);
}

double ServerMetricAggregate::headline() const
{
    switch (type) {
    case MetricType::Counter: return rate;
    case MetricType::Histogram: return p50;
    default: return avg;
    }
}

const char *ServerMetricAggregate::headlineName() const
{
    switch (type) {
    case MetricType::Counter: return "rate";
    case MetricType::Histogram: return "p50";
    default: return "avg";
    }
}

bool TtftCheck::operator==(const TtftCheck &o) const
{
    return serverSource == o.serverSource && same(clientP50Ms, o.clientP50Ms) && same(clientAvgMs, o.clientAvgMs)
           && same(serverP50Ms, o.serverP50Ms) && same(serverAvgMs, o.serverAvgMs) && same(gapP50Ms, o.gapP50Ms);
}

bool ServerScrapeInfo::operator==(const ServerScrapeInfo &o) const
{
    return series == o.series && path == o.path && same(intervalS, o.intervalS) && scrapes == o.scrapes
           && failedScrapes == o.failedScrapes && windowScrapes == o.windowScrapes && server == o.server
           && gaugesFollowLoad == o.gaugesFollowLoad && ttftCheck == o.ttftCheck;
}

QJsonObject toJson(const ServerMetricAggregate &m)
{
    QJsonObject o{{QStringLiteral("type"), QLatin1String(metricTypeName(m.type))},
                  {QStringLiteral("unit"), m.unit},
                  {QStringLiteral("label"), m.label}};
    switch (m.type) {
    case MetricType::Gauge:
        o.insert(QStringLiteral("avg"), num(m.avg));
        o.insert(QStringLiteral("max"), num(m.max));
        o.insert(QStringLiteral("samples"), m.samples);
        break;
    case MetricType::Counter:
        o.insert(QStringLiteral("delta"), num(m.delta));
        o.insert(QStringLiteral("rate"), num(m.rate));
        break;
    case MetricType::Histogram:
        o.insert(QStringLiteral("count"), num(m.count));
        o.insert(QStringLiteral("mean"), num(m.mean));
        o.insert(QStringLiteral("p50"), num(m.p50));
        o.insert(QStringLiteral("p99"), num(m.p99));
        break;
    case MetricType::Summary:
    case MetricType::Untyped:
        break; // never a key metric
    }
    return o;
}

ServerMetricAggregate serverMetricAggregateFromJson(const QJsonObject &o)
{
    ServerMetricAggregate m;
    const QString type = o.value(QStringLiteral("type")).toString();
    for (MetricType t : {MetricType::Counter, MetricType::Gauge, MetricType::Histogram, MetricType::Summary})
        if (type == QLatin1String(metricTypeName(t)))
            m.type = t;
    m.unit = o.value(QStringLiteral("unit")).toString();
    m.label = o.value(QStringLiteral("label")).toString();
    m.avg = numFrom(o.value(QStringLiteral("avg")));
    m.max = numFrom(o.value(QStringLiteral("max")));
    m.samples = o.value(QStringLiteral("samples")).toInt();
    m.delta = numFrom(o.value(QStringLiteral("delta")));
    m.rate = numFrom(o.value(QStringLiteral("rate")));
    m.count = numFrom(o.value(QStringLiteral("count")));
    m.mean = numFrom(o.value(QStringLiteral("mean")));
    m.p50 = numFrom(o.value(QStringLiteral("p50")));
    m.p99 = numFrom(o.value(QStringLiteral("p99")));
    return m;
}

QJsonObject serverMetricsJson(const ServerMetricAggregates &metrics)
{
    QJsonObject o;
    for (auto it = metrics.cbegin(); it != metrics.cend(); ++it)
        o.insert(it.key(), toJson(it.value()));
    return o;
}

ServerMetricAggregates serverMetricsFromJson(const QJsonObject &o)
{
    ServerMetricAggregates out;
    for (auto it = o.begin(); it != o.end(); ++it)
        out.insert(it.key(), serverMetricAggregateFromJson(it.value().toObject()));
    return out;
}

QJsonObject toJson(const ServerScrapeInfo &s)
{
    QJsonObject o;
    if (!s.series.isEmpty()) {
        o = QJsonObject{{QStringLiteral("series"), s.series},
                        {QStringLiteral("path"), s.path},
                        {QStringLiteral("interval_s"), s.intervalS},
                        {QStringLiteral("scrapes"), s.scrapes},
                        {QStringLiteral("failed_scrapes"), s.failedScrapes},
                        {QStringLiteral("window_scrapes"), s.windowScrapes},
                        {QStringLiteral("server"), s.server}};
    }
    if (!s.gaugesFollowLoad)
        o.insert(QStringLiteral("gauges_follow_load"), false);
    if (const auto &t = s.ttftCheck)
        o.insert(QStringLiteral("ttft_check"), QJsonObject{{QStringLiteral("server_source"), t->serverSource},
                                                           {QStringLiteral("client_p50_ms"), num(t->clientP50Ms)},
                                                           {QStringLiteral("client_avg_ms"), num(t->clientAvgMs)},
                                                           {QStringLiteral("server_p50_ms"), num(t->serverP50Ms)},
                                                           {QStringLiteral("server_avg_ms"), num(t->serverAvgMs)},
                                                           {QStringLiteral("gap_p50_ms"), num(t->gapP50Ms)}});
    return o;
}

ServerScrapeInfo serverScrapeInfoFromJson(const QJsonObject &o)
{
    ServerScrapeInfo s;
    s.series = o.value(QStringLiteral("series")).toString();
    s.path = o.value(QStringLiteral("path")).toString();
    s.intervalS = o.value(QStringLiteral("interval_s")).toDouble();
    s.scrapes = o.value(QStringLiteral("scrapes")).toInt();
    s.failedScrapes = o.value(QStringLiteral("failed_scrapes")).toInt();
    s.windowScrapes = o.value(QStringLiteral("window_scrapes")).toInt();
    s.server = o.value(QStringLiteral("server")).toString();
    s.gaugesFollowLoad = o.value(QStringLiteral("gauges_follow_load")).toBool(true);
    if (const QJsonValue v = o.value(QStringLiteral("ttft_check")); v.isObject()) {
        const QJsonObject c = v.toObject();
        TtftCheck t;
        t.serverSource = c.value(QStringLiteral("server_source")).toString();
        t.clientP50Ms = numFrom(c.value(QStringLiteral("client_p50_ms")));
        t.clientAvgMs = numFrom(c.value(QStringLiteral("client_avg_ms")));
        t.serverP50Ms = numFrom(c.value(QStringLiteral("server_p50_ms")));
        t.serverAvgMs = numFrom(c.value(QStringLiteral("server_avg_ms")));
        t.gapP50Ms = numFrom(c.value(QStringLiteral("gap_p50_ms")));
        s.ttftCheck = t;
    }
    return s;
}

bool HostInfo::isEmpty() const { return *this == HostInfo(); }

QJsonObject toJson(const HostInfo &h)
{
    if (h.isEmpty())
        return {}; // an import: no host was recorded
    return QJsonObject{{QStringLiteral("hostname"), h.hostname},   {QStringLiteral("os"), h.os},
                       {QStringLiteral("kernel"), h.kernel},       {QStringLiteral("cpu_arch"), h.cpuArch},
                       {QStringLiteral("cpu_count"), h.cpuCount},  {QStringLiteral("qt_version"), h.qtVersion}};
}

HostInfo hostInfoFromJson(const QJsonObject &o)
{
    HostInfo h;
    h.hostname = o.value(QStringLiteral("hostname")).toString();
    h.os = o.value(QStringLiteral("os")).toString();
    h.kernel = o.value(QStringLiteral("kernel")).toString();
    h.cpuArch = o.value(QStringLiteral("cpu_arch")).toString();
    h.cpuCount = o.value(QStringLiteral("cpu_count")).toInt();
    h.qtVersion = o.value(QStringLiteral("qt_version")).toString();
    return h;
}

namespace {
const QString kSha = QStringLiteral("sha256");
const QString kWorkload = QStringLiteral("workload");
const QString kServers = QStringLiteral("servers");
QJsonObject settingsJson(const FingerprintSettings &s) { return QJsonObject::fromVariantMap(s); }
FingerprintSettings settingsFrom(const QJsonValue &v) { return v.toObject().toVariantMap(); }
} // namespace

bool SpecFingerprint::operator==(const SpecFingerprint &o) const { return toJson(*this) == toJson(o); }

QJsonObject toJson(const SpecFingerprint &f)
{
    if (f.isEmpty())
        return {};
    QJsonObject servers;
    for (auto it = f.servers.cbegin(); it != f.servers.cend(); ++it)
        servers.insert(it.key(), settingsJson(it.value()));
    return QJsonObject{{kSha, f.sha256}, {kWorkload, settingsJson(f.workload)}, {kServers, servers}};
}

SpecFingerprint specFingerprintFromJson(const QJsonObject &o)
{
    SpecFingerprint f;
    f.sha256 = o.value(kSha).toString();
    f.workload = settingsFrom(o.value(kWorkload));
    const QJsonObject servers = o.value(kServers).toObject();
    for (auto it = servers.begin(); it != servers.end(); ++it)
        f.servers.insert(it.key(), settingsFrom(it.value()));
    return f;
}

QJsonObject toJson(const MergedShard &m)
{
    QJsonObject o{{QStringLiteral("shard"), m.shard}, {QStringLiteral("folder"), m.folder}};
    if (!m.host.isEmpty())
        o.insert(QStringLiteral("host"), m.host);
    return o;
}

MergedShard mergedShardFromJson(const QJsonObject &o)
{
    return MergedShard{o.value(QStringLiteral("shard")).toString(), o.value(QStringLiteral("folder")).toString(),
                       o.value(QStringLiteral("host")).toString()};
}

QJsonObject toJson(const SloSearchResult &s)
{
    QJsonArray servers;
    const auto opt = [](const std::optional<double> &v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); };
    for (const SloFinding &f : s.findings)
        servers.append(QJsonObject{{QStringLiteral("server"), f.server},
                                   {QStringLiteral("axis"), axisKey(f.axis)},
                                   {QStringLiteral("sustained"), opt(f.sustained)},
                                   {QStringLiteral("first_miss"), opt(f.firstMiss)},
                                   {QStringLiteral("sentence"), f.sentence}});
    return QJsonObject{{QStringLiteral("percentile"), s.percentile},
                       {QStringLiteral("resolution"), s.resolution},
                       {QStringLiteral("slo"), s.slo},
                       {QStringLiteral("servers"), servers}};
}

SloSearchResult sloSearchResultFromJson(const QJsonObject &o)
{
    SloSearchResult s;
    s.percentile = o.value(QStringLiteral("percentile")).toInt();
    s.resolution = o.value(QStringLiteral("resolution")).toDouble();
    s.slo = o.value(QStringLiteral("slo")).toString();
    const auto opt = [](const QJsonValue &v) { return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt; };
    for (const QJsonValue &v : o.value(QStringLiteral("servers")).toArray()) {
        const QJsonObject e = v.toObject();
        SloFinding f;
        f.server = e.value(QStringLiteral("server")).toString();
        if (f.server.isEmpty())
            continue;
        f.axis = e.value(QStringLiteral("axis")).toString() == axisKey(SweepAxis::RequestRate) ? SweepAxis::RequestRate : SweepAxis::Concurrency;
        f.sustained = opt(e.value(QStringLiteral("sustained")));
        f.firstMiss = opt(e.value(QStringLiteral("first_miss")));
        f.sentence = e.value(QStringLiteral("sentence")).toString();
        s.findings.append(f);
    }
    return s;
}

QString energySourceName(EnergySource s)
{
    switch (s) {
    case EnergySource::Counter: return QStringLiteral("counter");
    case EnergySource::PowerIntegral: return QStringLiteral("power_integral");
    case EnergySource::None: break;
    }
    return {};
}

EnergySource energySourceFromString(QStringView s)
{
    if (s == QLatin1String("counter"))
        return EnergySource::Counter;
    if (s == QLatin1String("power_integral"))
        return EnergySource::PowerIntegral;
    return EnergySource::None;
}

QString telemetrySourceName(TelemetrySource s)
{
    return s == TelemetrySource::NvidiaSmi ? QStringLiteral("nvidia-smi") : QStringLiteral("dcgm-exporter");
}

TelemetrySource telemetrySourceFromString(QStringView s)
{
    return s == QLatin1String("nvidia-smi") ? TelemetrySource::NvidiaSmi : TelemetrySource::Exporter;
}

bool GaugeSummary::operator==(const GaugeSummary &o) const { return same(avg, o.avg) && same(max, o.max); }

bool GpuTelemetryResult::operator==(const GpuTelemetryResult &o) const
{
    return source == o.source && series == o.series && exporters == o.exporters && scrapes == o.scrapes && failedScrapes == o.failedScrapes
           && same(windowS, o.windowS) && gpus == o.gpus && models == o.models && utilizationPct == o.utilizationPct
           && smActive == o.smActive && memoryUsedMib == o.memoryUsedMib && powerW == o.powerW && same(energyJ, o.energyJ)
           && energySource == o.energySource;
}

namespace {
QJsonObject gaugeJson(const GaugeSummary &g) { return QJsonObject{{QStringLiteral("avg"), num(g.avg)}, {QStringLiteral("max"), num(g.max)}}; }
GaugeSummary gaugeFromJson(const QJsonValue &v)
{
    const QJsonObject o = v.toObject();
    return GaugeSummary{numFrom(o.value(QStringLiteral("avg"))), numFrom(o.value(QStringLiteral("max")))};
}
} // namespace

QJsonObject toJson(const GpuTelemetryResult &t)
{
    QJsonObject o{{QStringLiteral("source"), telemetrySourceName(t.source)},
                  {QStringLiteral("series"), t.series},
                  {QStringLiteral("exporters"), QJsonArray::fromStringList(t.exporters)},
                  {QStringLiteral("scrapes"), t.scrapes},
                  {QStringLiteral("failed_scrapes"), t.failedScrapes},
                  {QStringLiteral("window_s"), num(t.windowS)},
                  {QStringLiteral("gpus"), t.gpus},
                  {QStringLiteral("models"), QJsonArray::fromStringList(t.models)},
                  {QStringLiteral("gpu_util_pct"), gaugeJson(t.utilizationPct)},
                  {QStringLiteral("sm_active"), gaugeJson(t.smActive)},
                  {QStringLiteral("memory_used_mib"), gaugeJson(t.memoryUsedMib)},
                  {QStringLiteral("power_w"), gaugeJson(t.powerW)},
                  {QStringLiteral("energy_j"), num(t.energyJ)}};
    if (t.energySource != EnergySource::None)
        o.insert(QStringLiteral("energy_source"), energySourceName(t.energySource));
    return o;
}

std::optional<GpuTelemetryResult> gpuTelemetryFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject o = v.toObject();
    GpuTelemetryResult t;
    t.source = telemetrySourceFromString(o.value(QStringLiteral("source")).toString());
    t.series = o.value(QStringLiteral("series")).toString();
    for (const QJsonValue &e : o.value(QStringLiteral("exporters")).toArray())
        t.exporters.append(e.toString());
    t.scrapes = o.value(QStringLiteral("scrapes")).toInt();
    t.failedScrapes = o.value(QStringLiteral("failed_scrapes")).toInt();
    t.windowS = numFrom(o.value(QStringLiteral("window_s")));
    t.gpus = o.value(QStringLiteral("gpus")).toInt();
    for (const QJsonValue &m : o.value(QStringLiteral("models")).toArray())
        t.models.append(m.toString());
    t.utilizationPct = gaugeFromJson(o.value(QStringLiteral("gpu_util_pct")));
    t.smActive = gaugeFromJson(o.value(QStringLiteral("sm_active")));
    t.memoryUsedMib = gaugeFromJson(o.value(QStringLiteral("memory_used_mib")));
    t.powerW = gaugeFromJson(o.value(QStringLiteral("power_w")));
    t.energyJ = numFrom(o.value(QStringLiteral("energy_j")));
    t.energySource = energySourceFromString(o.value(QStringLiteral("energy_source")).toString());
    return t;
}

QJsonObject toJson(const CellCost &c)
{
    return QJsonObject{{QStringLiteral("gpu_hour"), c.gpuHour}, {QStringLiteral("gpus"), c.gpus}};
}

std::optional<CellCost> cellCostFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject o = v.toObject();
    return CellCost{o.value(QStringLiteral("gpu_hour")).toDouble(), o.value(QStringLiteral("gpus")).toInt()};
}

} // namespace sb
