#include "results/ShardId.h"
#include <QRegularExpression>

namespace sb {

std::optional<ShardId> parseShardId(const QString &text, QString *error)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d{1,5})\\s*/\\s*(\\d{1,5})\\s*$"));
    const auto m = re.match(text);
    const int k = m.hasMatch() ? m.captured(1).toInt() : -1;
    const int n = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (!m.hasMatch() || n < 1 || n > kMaxShards || k >= n) {
        if (error)
            *error = QStringLiteral("--shard expects K/N with 0 <= K < N <= %1 (K counts from 0, like SLURM_ARRAY_TASK_ID), got '%2'")
                         .arg(kMaxShards).arg(text);
        return std::nullopt;
    }
    return ShardId{k, n};
}

} // namespace sb
