#include "cluster/ClusterJobs.h"
#include "cluster/JobQuoting.h"
#include "engine/ShardPlan.h"
#include "io/DurableWrite.h"
#include "report/DisplayText.h"
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <algorithm>

namespace sb {

namespace {
QByteArray templateText(const QString &name)
{
    QFile f(QStringLiteral(":/cluster/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Each value arrives already written for where its placeholder stands (cluster/JobQuoting.h).
// One pass over the template: a value is never searched for placeholders itself, so a server
// name holding "@SPEC_TEXT@" stays those characters.
QByteArray fill(const QByteArray &text, const QList<std::pair<const char *, QByteArray>> &values)
{
    QByteArray out;
    qsizetype from = 0;
    for (;;) {
        const qsizetype open = text.indexOf('@', from);
        const qsizetype close = open < 0 ? -1 : text.indexOf('@', open + 1);
        if (close < 0)
            break;
        const QByteArrayView key(text.constData() + open + 1, close - open - 1);
        const auto found = std::find_if(values.cbegin(), values.cend(), [&](const auto &v) { return key == QByteArrayView(v.first); });
        out.append(QByteArrayView(text).sliced(from, open - from));
        if (found == values.cend()) {
            out.append('@');
            from = open + 1;
        } else {
            out.append(found->second);
            from = close + 1;
        }
    }
    return out.append(QByteArrayView(text).sliced(from));
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

// Server names are the spec's: each plan line is one comment line whatever they hold.
QByteArray planComment(const SweepSpec &spec, int shards)
{
    QByteArray text = "# Shard plan (every shard computes the same one from the spec):";
    for (const QString &line : describePlan(spec, planShards(spec, shards)))
        text += "\n#   " + commentText(line);
    return text;
}

QString jobNameFor(const SweepSpec &spec, const ClusterJobOptions &o)
{
    return o.jobName.isEmpty() ? clusterJobName(spec.name) : clusterJobName(o.jobName);
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
    for (const auto &[what, value] : {std::pair{"the results folder", o.outDir}, {"--partition", o.partition}, {"--account", o.account},
                                      {"--time", o.timeLimit}}) {
        if (!value.isEmpty() && !isSbatchWord(value)) {
            *error = QStringLiteral("%1 \"%2\" cannot be written on an #SBATCH line; expected letters, digits and _ . / : @ + , = - only")
                         .arg(QLatin1String(what), value);
            return {};
        }
    }
    for (const auto &[what, value] : {std::pair{"the spec path", o.specPath}, {"the sweepbench binary", o.sweepbench}}) {
        if (value.isEmpty() || value.contains(QChar(0))) { // no command line can carry a NUL
            *error = QStringLiteral("%1 is empty or holds a NUL character").arg(QLatin1String(what));
            return {};
        }
    }
    if (!QDir::isAbsolutePath(o.specPath) || !QDir::isAbsolutePath(o.outDir)) {
        *error = QStringLiteral("the spec and the results folder must be absolute paths on storage every node sees");
        return {};
    }
    // #SBATCH values were checked above (the job name is letters, digits and '-'); everything the
    // shell reads is a quoted word, set once at the top of each script.
    const QList<std::pair<const char *, QByteArray>> values{
        {"JOB", jobNameFor(spec, o).toUtf8()}, {"SHARDS", QByteArray::number(o.shards)}, {"LAST_SHARD", QByteArray::number(o.shards - 1)},
        {"OUT", o.outDir.toUtf8()}, {"CPUS", QByteArray::number(o.cpusPerShard)}, {"SBATCH_OPTIONS", sbatchOptions(o)},
        {"PLAN", planComment(spec, o.shards)}, {"OUT_SH", shellQuoted(o.outDir)}, {"SPEC_SH", shellQuoted(o.specPath)},
        {"SWEEPBENCH_SH", shellQuoted(o.sweepbench)}};
    return {{QStringLiteral("shard.sbatch"), fill(templateText(QStringLiteral("slurm/shard.sbatch.in")), values), true},
            {QStringLiteral("merge.sbatch"), fill(templateText(QStringLiteral("slurm/merge.sbatch.in")), values), true},
            {QStringLiteral("submit.sh"), fill(templateText(QStringLiteral("slurm/submit.sh.in")), values), true}};
}

QList<RenderedFile> renderKubernetesJobs(const SweepSpec &spec, const ClusterJobOptions &o, QString *error)
{
    if (!checkCommon(o, error))
        return {};
    for (const auto &[what, value] : {std::pair{"--image", o.image}, {"--volume-claim", o.volumeClaim}, {"--wait", o.waitTimeout}}) {
        if (value.trimmed().isEmpty()) {
            *error = QStringLiteral("%1 must not be empty").arg(QLatin1String(what));
            return {};
        }
    }
    for (const ServerSpec &s : spec.servers) {
        if (!s.apiKey.isEmpty()) {
            *error = QStringLiteral("server %1 has an inline api_key: a ConfigMap is no place for it. Use api_key_env with a Kubernetes Secret")
                         .arg(displaySafe(s.name, DisplayLines::Single));
            return {};
        }
    }
    if (!o.specText.isValidUtf8()) {
        *error = QStringLiteral("the spec is not UTF-8 text, which is all a ConfigMap holds");
        return {};
    }
    const QString job = jobNameFor(spec, o);
    const QString results = QStringLiteral("/results/") + job;
    // Manifests take every value as a quoted scalar; the containers' shell commands read theirs
    // from environment variables, never as command text. apply.sh quotes its own.
    const QList<std::pair<const char *, QByteArray>> values{
        {"SHARDS", QByteArray::number(o.shards)}, {"PLAN", planComment(spec, o.shards)},
        {"SPEC_MAP", yamlQuoted(job + QStringLiteral("-spec"))}, {"SHARDS_JOB", yamlQuoted(job + QStringLiteral("-shards"))},
        {"MERGE_JOB", yamlQuoted(job + QStringLiteral("-merge"))}, {"IMAGE", yamlQuoted(o.image)}, {"PVC", yamlQuoted(o.volumeClaim)},
        {"CPUS", yamlQuoted(QString::number(o.cpusPerShard))}, {"RESULTS", yamlQuoted(results)},
        {"SPEC_TEXT", yamlText(o.specText, 2)},
        {"SHARDS_JOB_SH", shellQuoted(job + QStringLiteral("-shards"))}, {"MERGE_JOB_SH", shellQuoted(job + QStringLiteral("-merge"))},
        {"WAIT_SH", shellQuoted(o.waitTimeout)}, {"MERGED_SH", shellQuoted(results + QStringLiteral("/merged"))},
        {"PVC_SH", shellQuoted(o.volumeClaim)}};
    return {{QStringLiteral("shards-job.yaml"), fill(templateText(QStringLiteral("k8s/shards-job.yaml.in")), values), false},
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
