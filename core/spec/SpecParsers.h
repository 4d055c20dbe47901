#pragma once
// Internal to the spec loader: the per-section parsers and the key tables they share.
#include "spec/SweepSpec.h"
#include "spec/YamlReader.h"

namespace sb::specparse {

// Known keys per section. Also used for "'concurrency' belongs under sweep" hints.
extern const QStringList kRootKeys, kServerKeys, kLaunchKeys, kLaunchReadyKeys, kLaunchStopKeys, kLaunchVariantKeys, kResetKeys, kProfilerKeys, kMetricsKeys, kTelemetryKeys, kCostKeys, kWorkloadKeys, kMockKeys, kSessionKeys, kSloKeys, kSweepKeys;

// Hint for a key that is unknown where it was written but known in another section.
QString placeHint(const QString &key);

// Reads an enum by name; reports "expected one of a, b; got 'x'" with a did-you-mean.
template <typename E>
void readEnum(const yaml::MapReader &m, const QString &key, E &out, std::optional<E> (*parse)(const QString &),
              const QStringList &allowed);
void reportBadEnum(yaml::Context &ctx, const YAML::Node &node, const QString &path, const QStringList &allowed);

template <typename E>
void readEnum(const yaml::MapReader &m, const QString &key, E &out, std::optional<E> (*parse)(const QString &),
              const QStringList &allowed)
{
    const YAML::Node *n = m.find(key);
    if (!n)
        return;
    if (n->IsScalar() && !yaml::isNullScalar(*n)) {
        if (const std::optional<E> v = parse(yaml::scalarText(*n))) {
            out = *v;
            return;
        }
    }
    reportBadEnum(m.context(), *n, m.path(key), allowed);
}

// `input_tokens` / `output_tokens`: a number (into `fixed`) or a distribution (spec/WorkloadShapes.h;
// `fixed` then holds its mean, rounded). SpecWorkloadParser.cpp.
void readLengths(const yaml::MapReader &m, const QString &key, int &fixed, std::optional<LengthDistribution> &dist);
// `seed` and `dataset` of the workload section.
void readWorkloadSource(const yaml::MapReader &m, WorkloadSpec &w);
// `sessions` and `shared_prefix_count` of the workload section.
void readWorkloadSessions(const yaml::MapReader &m, WorkloadSpec &w);

ServerSpec parseServer(yaml::Context &ctx, const YAML::Node &node, const QString &path);
void parseResetHook(yaml::Context &ctx, const YAML::Node &node, const QString &path, ResetHookSpec &out);
void parseProfilerHook(yaml::Context &ctx, const YAML::Node &node, const QString &path, ProfilerHookSpec &out);
void parseMetrics(yaml::Context &ctx, const YAML::Node &node, const QString &path, MetricsSpec &out);
// `headers: {Name: value}` of a server or a telemetry entry.
void parseHeaders(yaml::Context &ctx, const YAML::Node &node, const QString &path, QList<QPair<QString, QString>> &out);
// `telemetry: [{url, headers}]` and `cost: {gpu_hour, gpus}`, top level or per server. SpecTelemetryParser.cpp.
void parseTelemetry(yaml::Context &ctx, const YAML::Node &node, const QString &path, QList<TelemetrySpec> &out);
void parseCost(yaml::Context &ctx, const YAML::Node &node, const QString &path, CostSpec &out);
void parseLaunch(yaml::Context &ctx, const YAML::Node &node, const QString &path, LaunchSpec &out); // SpecLaunchParser.cpp

} // namespace sb::specparse
