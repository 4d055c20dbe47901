#include "cluster/ClusterJobs.h"
#include "engine/ShardPlan.h"
#include "io/DurableWrite.h"
#include <QDir>
#include <QFile>
#include <QRegularExpression>

namespace sb {

namespace {
QByteArray templateText(const QString &name)
{
    QFile f(QStringLiteral(":/cluster/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray fill(QByteArray text, const QList<std::pair<const char *, QByteArray>> &values)
{
    for (const auto &[key, value] : values)
        text.replace(QByteArray("@") + key + "@", value);
    return text;
}

// Paths and names land inside double-quoted shell words and YAML scalars: anything that could
// end the quoting or expand is refused rather than escaped.
bool plainWord(const QString &s)
{
    static const QRegularExpression ok(QStringLiteral("^[A-Za-z0-9_./:@%+,=-]+$"));
    return ok.match(s).hasMatch();
}

bool checkCommon(const ClusterJobOptions &o, QString *error)
{
    if (o.shards < 1 || o.shards > kMaxShards) {
        *error = QStringLiteral("--shards must be 1..%1, got %2").arg(kMaxShards).arg(o.shards);
        return false;
    }
    return true;
}

QByteArray sbatchOptions(const ClusterJobOptions &o)
{
    QByteArray lines;
    if (!o.partition.isEmpty())
        lines += "#SBATCH --partition=" + o.partition.toUtf8() + '\n';
    if (!o.account.isEmpty())
        lines += "#SBATCH --account=" + o.account.toUtf8() + '\n';
    if (!o.timeLimit.isEmpty())
        lines += "#SBATCH --time=" + o.timeLimit.toUtf8() + '\n';
    return lines.isEmpty() ? QByteArray("# (partition, account, time: the cluster's defaults)") : lines.chopped(1);
}

QByteArray planComment(const SweepSpec &spec, int shards)
{
    QByteArray text = "# Shard plan (every shard computes the same one from the spec):\n";
    for (const QString &line : describePlan(spec, planShards(spec, shards)))
        text += "#   " + line.toUtf8() + '\n';
    return text;
}
} // namespace

QString clusterJobName(const QString &sweepName)
{
    QString name = sweepName.toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    name = name.left(40);
    while (name.startsWith(QLatin1Char('-')))
        name.remove(0, 1);
    while (name.endsWith(QLatin1Char('-')))
        name.chop(1);
    return name.isEmpty() ? QStringLiteral("sweep") : name;
}

QList<RenderedFile> renderSlurmJobs(const SweepSpec &spec, const ClusterJobOptions &o, QString *error)
{
    if (!checkCommon(o, error))
        return {};
    for (const auto &[what, value] : {std::pair{"the spec path", o.specPath}, {"the results folder", o.outDir}, {"the sweepbench binary", o.sweepbench},
                                      {"--partition", o.partition}, {"--account", o.account}, {"--time", o.timeLimit}}) {
        if (!value.isEmpty() && !plainWord(value)) {
            *error = QStringLiteral("%1 \"%2\" has characters the job script cannot quote safely (allowed: letters, digits, _ . / : @ %% + , = -)")
                         .arg(QLatin1String(what), value);
            return {};
        }
    }
    if (!QDir::isAbsolutePath(o.specPath) || !QDir::isAbsolutePath(o.outDir)) {
        *error = QStringLiteral("the spec and the results folder must be absolute paths on storage every node sees");
        return {};
    }
    const QString job = o.jobName.isEmpty() ? clusterJobName(spec.name) : clusterJobName(o.jobName);
    const QList<std::pair<const char *, QByteArray>> values{
        {"JOB", job.toUtf8()}, {"SHARDS", QByteArray::number(o.shards)}, {"LAST_SHARD", QByteArray::number(o.shards - 1)},
        {"OUT", o.outDir.toUtf8()}, {"SPEC", o.specPath.toUtf8()}, {"SWEEPBENCH", o.sweepbench.toUtf8()},
        {"CPUS", QByteArray::number(o.cpusPerShard)}, {"SBATCH_OPTIONS", sbatchOptions(o)}};
    QByteArray shard = fill(templateText(QStringLiteral("slurm/shard.sbatch.in")), values);
    shard.replace("set -uo pipefail\n", planComment(spec, o.shards) + "set -uo pipefail\n");
    return {{QStringLiteral("shard.sbatch"), shard, true},
            {QStringLiteral("merge.sbatch"), fill(templateText(QStringLiteral("slurm/merge.sbatch.in")), values), true},
            {QStringLiteral("submit.sh"), fill(templateText(QStringLiteral("slurm/submit.sh.in")), values), true}};
}

QList<RenderedFile> renderKubernetesJobs(const SweepSpec &spec, const ClusterJobOptions &o, QString *error)
{
    if (!checkCommon(o, error))
        return {};
    for (const auto &[what, value] : {std::pair{"--image", o.image}, {"--volume-claim", o.volumeClaim}, {"--wait", o.waitTimeout}}) {
        if (value.isEmpty() || !plainWord(value)) {
            *error = QStringLiteral("%1 \"%2\" is empty or has characters a manifest cannot hold unquoted").arg(QLatin1String(what), value);
            return {};
        }
    }
    for (const ServerSpec &s : spec.servers) {
        if (!s.apiKey.isEmpty()) {
            *error = QStringLiteral("server %1 has an inline api_key: a ConfigMap is no place for it. Use api_key_env with a Kubernetes Secret").arg(s.name);
            return {};
        }
    }
    QByteArray indented;
    for (const QByteArray &line : o.specText.split('\n'))
        indented += "    " + line + '\n';
    const QString job = o.jobName.isEmpty() ? clusterJobName(spec.name) : clusterJobName(o.jobName);
    const QList<std::pair<const char *, QByteArray>> values{
        {"JOB", job.toUtf8()}, {"SHARDS", QByteArray::number(o.shards)}, {"IMAGE", o.image.toUtf8()}, {"PVC", o.volumeClaim.toUtf8()},
        {"CPUS", QByteArray::number(o.cpusPerShard)}, {"WAIT", o.waitTimeout.toUtf8()}, {"SPEC_TEXT", indented.chopped(1)}};
    return {{QStringLiteral("shards-job.yaml"), planComment(spec, o.shards) + fill(templateText(QStringLiteral("k8s/shards-job.yaml.in")), values), false},
            {QStringLiteral("merge-job.yaml"), fill(templateText(QStringLiteral("k8s/merge-job.yaml.in")), values), false},
            {QStringLiteral("apply.sh"), fill(templateText(QStringLiteral("k8s/apply.sh.in")), values), true}};
}

bool writeRenderedFiles(const QList<RenderedFile> &files, const QString &dir, QString *error)
{
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("cannot create %1").arg(QDir::toNativeSeparators(dir));
        return false;
    }
    for (const RenderedFile &f : files) {
        const QString path = QDir(dir).filePath(f.name);
        if (!writeFileAtomically(path, f.content, error))
            return false;
        if (f.executable && !QFile::setPermissions(path, QFile::permissions(path) | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther)) {
            *error = QStringLiteral("cannot make %1 executable").arg(QDir::toNativeSeparators(path));
            return false;
        }
    }
    return true;
}

} // namespace sb
