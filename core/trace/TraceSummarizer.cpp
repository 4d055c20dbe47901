#include "trace/TraceSummarizer.h"
#include "trace/TraceAccumulator.h"
#include "trace/TraceReader.h"
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

namespace sb {

bool isTraceFileName(const QString &path)
{
    return path.endsWith(QLatin1String(".json")) || path.endsWith(QLatin1String(".json.gz"));
}

TraceNameInfo traceNameInfo(const QString &path)
{
    static const QRegularExpression trtllm(QStringLiteral("^trtllm-trace-(.{1,64})-rank-(\\d{1,5})\\.json(\\.gz)?$"));
    static const QRegularExpression vllm(QStringLiteral("^rank(\\d{1,5})\\..*\\.json(\\.gz)?$"));
    static const QRegularExpression sglang(QStringLiteral("-TP-(\\d{1,5})\\..*json(\\.gz)?$"));
    const QString name = QFileInfo(path).fileName();
    TraceNameInfo info;
    if (const auto m = trtllm.match(name); m.hasMatch()) {
        info.profileId = m.captured(1);
        info.rank = m.captured(2).toInt();
    } else if (const auto v = vllm.match(name); v.hasMatch()) {
        info.rank = v.captured(1).toInt();
    } else if (const auto s = sglang.match(name); s.hasMatch()) {
        info.rank = s.captured(1).toInt();
    }
    return info;
}

int traceRank(const TraceMetadata &meta, const QString &path)
{
    return meta.rank >= 0 ? meta.rank : traceNameInfo(path).rank;
}

RankCheck checkRanks(const QList<TraceFileSummary> &files)
{
    QSet<int> ranks;
    const TraceFileSummary *first = nullptr;
    bool differ = false;
    for (const TraceFileSummary &f : files) {
        if (f.rank < 0)
            continue;
        if (ranks.contains(f.rank))
            return RankCheck::Ambiguous;
        ranks.insert(f.rank);
        if (!first) {
            first = &f;
            continue;
        }
        differ = differ || f.stats.steps != first->stats.steps || f.profileId != first->profileId;
    }
    if (ranks.size() < 2)
        return RankCheck::NotApplicable;
    return differ ? RankCheck::Mismatch : RankCheck::Consistent;
}

TraceSummary summarizeTraces(const QStringList &paths, const TraceLimits &limits, const std::atomic<bool> *cancel)
{
    TraceSummary summary;
    TraceTotals merged(limits);
    for (const QString &path : paths) {
        if (!isTraceFileName(path))
            continue;
        if (summary.files.size() >= limits.maxFiles) {
            ++summary.filesNotRead;
            continue;
        }
        TraceAccumulator acc(limits);
        const TraceReadResult read = readTraceFile(path, acc, limits, cancel);
        acc.finish();
        TraceFileSummary f;
        f.path = path;
        f.error = read.error;
        f.stepSource = acc.stepSource();
        f.stats = acc.totals().stats();
        const TraceNameInfo named = traceNameInfo(path);
        f.rank = traceRank(read.meta, path);
        f.worldSize = read.meta.worldSize;
        f.profileId = named.profileId;
        f.version = read.meta.version;
        f.hostName = read.meta.hostName;
        summary.files.append(f);
        merged.add(acc.totals());
    }
    summary.merged = merged.stats();
    summary.rankCheck = checkRanks(summary.files);
    return summary;
}

} // namespace sb
