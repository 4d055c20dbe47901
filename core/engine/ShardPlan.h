#pragma once
// Splitting one sweep across cluster jobs (docs/ARCHITECTURE.md §16). Every shard computes the
// same plan from the same spec, so N independent jobs agree on who runs what without talking.
#include "results/ShardId.h"
#include "spec/SweepSpec.h"
#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

// Servers that share an origin (scheme://host:port) are one unit: their hooks reset and profile
// the whole server, so two shards must never run cells on it at the same time. Each embedded
// mock is its own unit. Units are dealt to shards longest-first by estimated time
// (engine/SweepTimeEstimate.h), each to the least-loaded shard; ties go to the lowest index.
struct ShardPlan {
    int count = 1;
    QList<int> shardOfServer;       // per spec.servers index
    QList<double> estimatedSeconds; // per shard
    QList<QStringList> unitOrigins; // per unit, for the plan printout
    QList<int> serversOf(int shard) const;
};
// shardOfServer is indexed by the servers of the spec as run (spec/LaunchVariants.h).
ShardPlan planShards(const SweepSpec &spec, int count);
// One line per shard: servers and estimated time, for `cluster` and `run --shard`.
QStringList describePlan(const SweepSpec &spec, const ShardPlan &plan);

} // namespace sb
