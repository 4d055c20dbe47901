#include "engine/ShardPlan.h"
#include "engine/SweepTimeEstimate.h"
#include "spec/LaunchVariants.h"
#include <QUrl>
#include <algorithm>
#include <numeric>

namespace sb {

namespace {
// Union-find over servers: any shared origin joins two servers into one unit.
QList<int> unitOfServer(const SweepSpec &spec)
{
    QList<int> parent(spec.servers.size());
    std::iota(parent.begin(), parent.end(), 0);
    const auto find = [&](int x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    };
    QHash<QString, int> firstWithOrigin;
    for (int i = 0; i < spec.servers.size(); ++i) {
        if (!spec.servers[i].mock.isEmpty())
            continue; // an embedded mock is started per server entry: nothing shared
        for (const QString &url : spec.servers[i].urls) {
            const QString origin = originOf(url);
            const auto it = firstWithOrigin.constFind(origin);
            if (it == firstWithOrigin.cend())
                firstWithOrigin.insert(origin, i);
            else
                parent[find(i)] = find(*it); // joins the lower index's unit
        }
    }
    for (int i = 0; i < parent.size(); ++i)
        parent[i] = find(i);
    return parent;
}
} // namespace

QList<int> ShardPlan::serversOf(int shard) const
{
    QList<int> out;
    for (int i = 0; i < shardOfServer.size(); ++i)
        if (shardOfServer[i] == shard)
            out.append(i);
    return out;
}

// Both take the spec as given or as run: its launch variants are servers of their own.
ShardPlan planShards(const SweepSpec &given, int count)
{
    const SweepSpec spec = withLaunchVariantsExpanded(given);
    ShardPlan plan;
    plan.count = std::max(1, count);
    plan.shardOfServer = QList<int>(spec.servers.size(), 0);
    plan.estimatedSeconds = QList<double>(plan.count, 0.0);
    const QList<int> unitRoot = unitOfServer(spec);
    struct Unit {
        int root;
        double seconds = 0;
        QList<int> servers;
    };
    QList<Unit> units;
    for (int i = 0; i < spec.servers.size(); ++i) {
        auto it = std::find_if(units.begin(), units.end(), [&](const Unit &u) { return u.root == unitRoot[i]; });
        if (it == units.end()) {
            units.append(Unit{unitRoot[i], 0, {}});
            it = units.end() - 1;
        }
        it->servers.append(i);
        it->seconds += estimateServerSeconds(spec, spec.servers[i]);
    }
    // Longest first; equal estimates keep spec order, so the plan is the same on every machine.
    std::stable_sort(units.begin(), units.end(), [](const Unit &a, const Unit &b) { return a.seconds > b.seconds; });
    for (const Unit &u : units) {
        const int shard = int(std::min_element(plan.estimatedSeconds.begin(), plan.estimatedSeconds.end()) - plan.estimatedSeconds.begin());
        plan.estimatedSeconds[shard] += u.seconds;
        QStringList origins;
        for (int s : u.servers) {
            plan.shardOfServer[s] = shard;
            for (const QString &url : spec.servers[s].urls)
                if (!origins.contains(originOf(url)))
                    origins.append(originOf(url));
        }
        plan.unitOrigins.append(origins);
    }
    return plan;
}

QStringList describePlan(const SweepSpec &given, const ShardPlan &plan)
{
    const SweepSpec spec = withLaunchVariantsExpanded(given);
    QStringList lines;
    for (int k = 0; k < plan.count; ++k) {
        QStringList names;
        for (int s : plan.serversOf(k))
            names.append(spec.servers[s].name);
        lines.append(QStringLiteral("shard %1/%2: %3 (about %4 s)")
                         .arg(k).arg(plan.count)
                         .arg(names.isEmpty() ? QStringLiteral("no servers: more shards than independent servers") : names.join(QStringLiteral(", ")))
                         .arg(qRound(plan.estimatedSeconds[k])));
    }
    return lines;
}

} // namespace sb
