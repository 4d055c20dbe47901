#include "results/TraceSummary.h"
#include <QJsonArray>
#include <algorithm>
#include <iterator>

namespace sb {

namespace {
template <typename E>
struct Named {
    E value;
    const char *name;
};
constexpr Named<StepKind> kStepKinds[] = {
    {StepKind::Prefill, "prefill"}, {StepKind::Decode, "decode"}, {StepKind::Mixed, "mixed"}, {StepKind::Unknown, "unknown"}};
constexpr Named<StepSource> kStepSources[] = {{StepSource::None, "none"},
                                              {StepSource::StepLabels, "step_labels"},
                                              {StepSource::VllmAnnotations, "vllm_annotations"},
                                              {StepSource::ExecuteModel, "execute_model"},
                                              {StepSource::UserAnnotations, "user_annotations"}};
constexpr Named<RankCheck> kRankChecks[] = {{RankCheck::NotApplicable, "not_applicable"},
                                            {RankCheck::Consistent, "consistent"},
                                            {RankCheck::Mismatch, "mismatch"},
                                            {RankCheck::Ambiguous, "ambiguous"}};

template <typename E, std::size_t N>
const char *nameOf(const Named<E> (&table)[N], E v)
{
    for (const auto &n : table)
        if (n.value == v)
            return n.name;
    return table[0].name;
}
template <typename E, std::size_t N>
std::optional<E> valueOf(const Named<E> (&table)[N], const QString &s)
{
    for (const auto &n : table)
        if (s == QLatin1String(n.name))
            return n.value;
    return std::nullopt;
}

QJsonArray opsJson(const QList<OpTime> &ops)
{
    QJsonArray a;
    for (const OpTime &op : ops)
        a.append(QJsonObject{{QStringLiteral("name"), op.name}, {QStringLiteral("ms"), op.ms}, {QStringLiteral("count"), op.count}});
    return a;
}
QList<OpTime> opsFromJson(const QJsonValue &v)
{
    QList<OpTime> ops;
    for (const QJsonValue &e : v.toArray()) {
        if (ops.size() >= kTopOps)
            break;
        const QJsonObject o = e.toObject();
        ops.append(OpTime{o.value(QStringLiteral("name")).toString(), o.value(QStringLiteral("ms")).toDouble(),
                          o.value(QStringLiteral("count")).toInteger()});
    }
    return ops;
}

QJsonObject statsJson(const TraceStats &s)
{
    QJsonObject kinds;
    for (const StepKindStats &k : s.stepKinds) {
        QJsonObject o{{QStringLiteral("count"), k.count}, {QStringLiteral("p50_ms"), k.p50Ms}, {QStringLiteral("p90_ms"), k.p90Ms},
                      {QStringLiteral("p99_ms"), k.p99Ms}, {QStringLiteral("max_ms"), k.maxMs}};
        if (k.batchMean >= 0) {
            o.insert(QStringLiteral("batch_mean"), k.batchMean);
            o.insert(QStringLiteral("batch_max"), k.batchMax);
        }
        if (k.tokensMean >= 0) {
            o.insert(QStringLiteral("tokens_mean"), k.tokensMean);
            o.insert(QStringLiteral("tokens_max"), k.tokensMax);
        }
        kinds.insert(QLatin1String(stepKindName(k.kind)), o);
    }
    QJsonObject o{{QStringLiteral("events"), s.events},
                  {QStringLiteral("span_ms"), s.spanMs},
                  {QStringLiteral("steps"), s.steps},
                  {QStringLiteral("step_kinds"), kinds},
                  {QStringLiteral("top_cpu_ops"), opsJson(s.topCpuOps)}};
    if (s.gpuBusyShare >= 0) {
        o.insert(QStringLiteral("gpu_busy_share"), s.gpuBusyShare);
        o.insert(QStringLiteral("top_kernels"), opsJson(s.topKernels));
    }
    return o;
}

TraceStats statsFromJson(const QJsonObject &o)
{
    TraceStats s;
    s.events = o.value(QStringLiteral("events")).toInteger();
    s.spanMs = o.value(QStringLiteral("span_ms")).toDouble();
    s.steps = o.value(QStringLiteral("steps")).toInteger();
    const QJsonObject kinds = o.value(QStringLiteral("step_kinds")).toObject();
    for (const auto &k : kStepKinds) { // in StepKind order, whatever order the file has
        const QJsonValue v = kinds.value(QLatin1String(k.name));
        if (!v.isObject())
            continue;
        const QJsonObject ko = v.toObject();
        StepKindStats ks;
        ks.kind = k.value;
        ks.count = ko.value(QStringLiteral("count")).toInteger();
        ks.p50Ms = ko.value(QStringLiteral("p50_ms")).toDouble();
        ks.p90Ms = ko.value(QStringLiteral("p90_ms")).toDouble();
        ks.p99Ms = ko.value(QStringLiteral("p99_ms")).toDouble();
        ks.maxMs = ko.value(QStringLiteral("max_ms")).toDouble();
        ks.batchMean = ko.value(QStringLiteral("batch_mean")).toDouble(-1);
        ks.batchMax = ko.value(QStringLiteral("batch_max")).toDouble(-1);
        ks.tokensMean = ko.value(QStringLiteral("tokens_mean")).toDouble(-1);
        ks.tokensMax = ko.value(QStringLiteral("tokens_max")).toDouble(-1);
        s.stepKinds.append(ks);
    }
    s.gpuBusyShare = o.value(QStringLiteral("gpu_busy_share")).toDouble(-1);
    s.topKernels = opsFromJson(o.value(QStringLiteral("top_kernels")));
    s.topCpuOps = opsFromJson(o.value(QStringLiteral("top_cpu_ops")));
    return s;
}
} // namespace

const char *stepKindName(StepKind k) { return nameOf(kStepKinds, k); }
std::optional<StepKind> stepKindFromString(const QString &s) { return valueOf(kStepKinds, s); }
const char *stepSourceName(StepSource s) { return nameOf(kStepSources, s); }
std::optional<StepSource> stepSourceFromString(const QString &s) { return valueOf(kStepSources, s); }
const char *rankCheckName(RankCheck c) { return nameOf(kRankChecks, c); }
std::optional<RankCheck> rankCheckFromString(const QString &s) { return valueOf(kRankChecks, s); }

QJsonObject toJson(const TraceSummary &s)
{
    QJsonArray files;
    for (const TraceFileSummary &f : s.files) {
        QJsonObject o = statsJson(f.stats);
        o.insert(QStringLiteral("path"), f.path);
        o.insert(QStringLiteral("step_source"), QLatin1String(stepSourceName(f.stepSource)));
        if (!f.error.isEmpty())
            o.insert(QStringLiteral("error"), f.error);
        if (f.rank >= 0)
            o.insert(QStringLiteral("rank"), f.rank);
        if (f.worldSize >= 0)
            o.insert(QStringLiteral("world_size"), f.worldSize);
        if (!f.profileId.isEmpty())
            o.insert(QStringLiteral("profile_id"), f.profileId);
        if (!f.version.isEmpty())
            o.insert(QStringLiteral("version"), f.version);
        if (!f.hostName.isEmpty())
            o.insert(QStringLiteral("host_name"), f.hostName);
        files.append(o);
    }
    QJsonObject o{{QStringLiteral("files"), files},
                  {QStringLiteral("merged"), statsJson(s.merged)},
                  {QStringLiteral("rank_check"), QLatin1String(rankCheckName(s.rankCheck))}};
    if (s.filesNotRead > 0)
        o.insert(QStringLiteral("files_not_read"), s.filesNotRead);
    return o;
}

std::optional<TraceSummary> traceSummaryFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject o = v.toObject();
    TraceSummary s;
    for (const QJsonValue &fv : o.value(QStringLiteral("files")).toArray()) {
        const QJsonObject fo = fv.toObject();
        TraceFileSummary f;
        f.stats = statsFromJson(fo);
        f.path = fo.value(QStringLiteral("path")).toString();
        f.stepSource = stepSourceFromString(fo.value(QStringLiteral("step_source")).toString()).value_or(StepSource::None);
        f.error = fo.value(QStringLiteral("error")).toString();
        f.rank = fo.value(QStringLiteral("rank")).toInt(-1);
        f.worldSize = fo.value(QStringLiteral("world_size")).toInt(-1);
        f.profileId = fo.value(QStringLiteral("profile_id")).toString();
        f.version = fo.value(QStringLiteral("version")).toString();
        f.hostName = fo.value(QStringLiteral("host_name")).toString();
        s.files.append(f);
    }
    s.filesNotRead = std::max(0, o.value(QStringLiteral("files_not_read")).toInt());
    s.merged = statsFromJson(o.value(QStringLiteral("merged")).toObject());
    s.rankCheck = rankCheckFromString(o.value(QStringLiteral("rank_check")).toString()).value_or(RankCheck::NotApplicable);
    return s;
}

} // namespace sb
