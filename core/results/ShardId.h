#pragma once
// Which part of a sharded sweep a results folder holds (engine/ShardPlan.h plans the parts).
#include <QString>
#include <optional>

namespace sb {

// Shard `index` of `count` (0-based, as Slurm's SLURM_ARRAY_TASK_ID and Kubernetes'
// JOB_COMPLETION_INDEX count). count == 1 is an unsharded run.
struct ShardId {
    int index = 0;
    int count = 1;
    bool sharded() const { return count > 1; }
    QString text() const { return QStringLiteral("%1/%2").arg(index).arg(count); }
    bool operator==(const ShardId &o) const { return index == o.index && count == o.count; }
};
inline constexpr int kMaxShards = 1024;

// "K/N" with 0 <= K < N <= kMaxShards; nullopt and *error otherwise.
std::optional<ShardId> parseShardId(const QString &text, QString *error);

} // namespace sb
