#pragma once
// The parts of results.json that describe the sweep as a whole rather than a cell: the host it
// ran on ("host"), the settings it measured with ("spec_fingerprint", results/SpecFingerprint.h),
// the shard folders a merge put together ("merged_from", results/ShardMerge.h) and the SLO
// search's findings ("slo_search", metrics/SloSearch.h). The JSON mapping is in
// results/ResultsJsonParts.cpp.
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QVariant>
#include <optional>

namespace sb {

// The host a sweep ran on (results/ResultsStore.h hostInfo()); empty for imports.
struct HostInfo {
    QString hostname, os, kernel, cpuArch;
    int cpuCount = 0;
    QString qtVersion;
    bool isEmpty() const;
    bool operator==(const HostInfo &) const = default;
};

// A spec's settings that change measurements, flattened: "input_tokens", "slo.time_to_first_token",
// "reset_kv_cache.timeout_seconds" -> the spec's value (a number, string, bool or list).
using FingerprintSettings = QMap<QString, QVariant>;

struct SpecFingerprint {
    QString sha256;                              // of the canonical workload and servers
    FingerprintSettings workload;
    QMap<QString, FingerprintSettings> servers;  // by server name
    bool isEmpty() const { return sha256.isEmpty() && workload.isEmpty() && servers.isEmpty(); }
    bool operator==(const SpecFingerprint &o) const;
};

// One shard folder `sweepbench merge` put into a merged folder.
struct MergedShard {
    QString shard;   // "K/N" as ShardId::text() writes it
    QString folder;  // the shard folder's name
    QString host;    // the host it ran on, empty when its results did not say
    bool operator==(const MergedShard &) const = default;
};

// Declared here, defined with its names in results/SweepAxis.h (which needs the result types).
enum class SweepAxis;

// The SLO search's finding for one server (metrics/SloSearch.h findSlo).
struct SloFinding {
    QString server;
    SweepAxis axis{};                // {} is SweepAxis::Concurrency
    std::optional<double> sustained; // highest point meeting the SLOs below the first miss
    std::optional<double> firstMiss; // lowest point missing one
    double highestTested = 0;        // not stored
    QString sentence;
};

struct SloSearchResult {
    int percentile = 0;
    double resolution = 0;
    QString slo;                     // "TTFT p99 ≤ 200 ms and ITL p99 ≤ 20 ms"
    QList<SloFinding> findings;      // one per server, in first-appearance order
};

QJsonObject toJson(const HostInfo &h);
HostInfo hostInfoFromJson(const QJsonObject &o);
QJsonObject toJson(const SpecFingerprint &f);
SpecFingerprint specFingerprintFromJson(const QJsonObject &o);
QJsonObject toJson(const MergedShard &m);
MergedShard mergedShardFromJson(const QJsonObject &o);
QJsonObject toJson(const SloSearchResult &s);
// Entries without a server name are skipped.
SloSearchResult sloSearchResultFromJson(const QJsonObject &o);

} // namespace sb
