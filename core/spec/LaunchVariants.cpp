#include "spec/LaunchVariants.h"
#include "spec/SpecRules.h"

namespace sb {

namespace {
bool isFlag(const QString &key) { return key.startsWith(QLatin1Char('-')); }
QString bareFlag(QString key)
{
    while (key.startsWith(QLatin1Char('-')))
        key.remove(0, 1);
    return key;
}
// `--flag: true` passes --flag, `false` passes --no-flag (argparse's BooleanOptionalAction, which
// vLLM and SGLang use for their switches); any other value passes `--flag VALUE`.
void applyAxisValue(const LaunchMatrixAxis &axis, const QString &value, LaunchVariant &v)
{
    if (!isFlag(axis.key)) {
        v.env.append({axis.key, value});
    } else if (value == QLatin1String("true")) {
        v.args.append(axis.key);
    } else if (value == QLatin1String("false")) {
        const QString dashes = axis.key.left(axis.key.size() - bareFlag(axis.key).size());
        v.args.append(dashes + QStringLiteral("no-") + bareFlag(axis.key));
    } else {
        v.args.append({axis.key, value});
    }
    v.name += (v.name.isEmpty() ? QString() : QStringLiteral(",")) + bareFlag(axis.key) + QLatin1Char('=') + value;
}
} // namespace

qint64 launchMatrixCombinations(const LaunchSpec &launch)
{
    qint64 n = 1;
    for (const LaunchMatrixAxis &axis : launch.matrix)
        n = std::min<qint64>(n * std::max<qint64>(0, axis.values.size()), spec::kMaxLaunchVariants + 1);
    return n;
}

QList<LaunchVariant> launchVariants(const LaunchSpec &launch)
{
    if (launch.matrix.isEmpty())
        return launch.variants;
    const qint64 n = launchMatrixCombinations(launch);
    if (n == 0 || n > spec::kMaxLaunchVariants)
        return {};
    QList<LaunchVariant> out;
    for (qint64 i = 0; i < n; ++i) {
        LaunchVariant v;
        qint64 rest = i, stride = n;
        for (const LaunchMatrixAxis &axis : launch.matrix) {
            stride /= axis.values.size();
            applyAxisValue(axis, axis.values[rest / stride], v);
            rest %= stride;
        }
        out.append(v);
    }
    return out;
}

QString variantSeriesName(const QString &server, const QString &variant)
{
    return QStringLiteral("%1[%2]").arg(server, variant);
}

SweepSpec withLaunchVariantsExpanded(const SweepSpec &spec)
{
    SweepSpec out = spec;
    out.servers.clear();
    for (const ServerSpec &s : spec.servers) {
        const QList<LaunchVariant> variants = s.launch.enabled ? launchVariants(s.launch) : QList<LaunchVariant>();
        if (variants.isEmpty()) {
            out.servers.append(s);
            continue;
        }
        for (const LaunchVariant &v : variants) {
            ServerSpec e = s;
            e.name = variantSeriesName(s.name, v.name);
            e.variantOf = s.name;
            e.variant = v.name;
            e.launch.variants.clear();
            e.launch.matrix.clear();
            e.launch.command += v.args;
            for (const auto &entry : v.env) { // not a structured binding: clang 14 cannot capture one
                const auto same = std::find_if(e.launch.env.begin(), e.launch.env.end(), [&](const auto &p) { return p.first == entry.first; });
                if (same != e.launch.env.end())
                    same->second = entry.second;
                else
                    e.launch.env.append(entry);
            }
            out.servers.append(e);
        }
    }
    return out;
}

} // namespace sb
