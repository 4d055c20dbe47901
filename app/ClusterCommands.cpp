// sweepbench merge / sweepbench cluster: sharded sweeps on cluster schedulers (docs/CLUSTER.md).
#include "CliCommon.h"
#include "Commands.h"
#include "cluster/ClusterJobs.h"
#include "engine/ShardPlan.h"
#include "report/DisplayText.h"
#include "results/ShardMerge.h"
#include "spec/SpecIO.h"
#include <QDir>
#include <QFileInfo>
#include <QProcess>

namespace sb {

namespace {
int usage(const QString &command, const QString &message)
{
    err() << "sweepbench " << command << ": " << message << '\n';
    return usageError(command);
}
} // namespace

int runMergeCommand(const QStringList &args)
{
    if (!args.isEmpty() && isUsageOption(args.first()))
        return runHelpCommand({QStringLiteral("merge")});
    QString outDir;
    QStringList folders;
    for (int i = 0; i < args.size(); ++i) {
        if ((args[i] == QLatin1String("-o") || args[i] == QLatin1String("--out")) && i + 1 < args.size())
            outDir = args[++i];
        else if (args[i].startsWith(QLatin1Char('-')))
            return usage(QStringLiteral("merge"), QStringLiteral("unknown option ") + args[i]);
        else
            folders.append(args[i]);
    }
    if (outDir.isEmpty() || folders.isEmpty())
        return usage(QStringLiteral("merge"), QStringLiteral("expected -o OUT SHARD_DIR..."));
    MergedShards merged;
    QString error;
    // Refusals of what the shards hold exit 2 (bad input); only a failed write exits 3.
    if (!mergeShardFolders(folders, false, &merged, &error) || !checkMergedFiles(merged, &error)) {
        err() << "sweepbench merge: " << displaySafe(error, DisplayLines::Single) << '\n';
        return 2;
    }
    if (!writeMergedShards(merged, outDir, &error)) {
        err() << "sweepbench merge: " << error << '\n';
        return 3;
    }
    int completed = 0;
    for (const CellResult &c : std::as_const(merged.results.cells))
        completed += c.status == CellStatus::Completed ? 1 : 0;
    out() << "merged " << folders.size() << " shards: " << completed << " of " << merged.results.cells.size()
          << " cells completed; results written to " << QDir(outDir).absolutePath() << '\n';
    return completed == merged.results.cells.size() ? 0 : 1;
}

int runClusterCommand(const QStringList &args)
{
    if (args.isEmpty() || isUsageOption(args.first()))
        return args.isEmpty() ? usage(QStringLiteral("cluster"), QStringLiteral("expected 'cluster slurm|k8s SPEC --shards N'"))
                              : runHelpCommand({QStringLiteral("cluster")});
    const QString kind = args.first();
    if (kind != QLatin1String("slurm") && kind != QLatin1String("k8s"))
        return usage(QStringLiteral("cluster"), QStringLiteral("unknown scheduler '%1' (slurm or k8s)").arg(kind));
    ClusterJobOptions o;
    QString specArg, jobsDir;
    bool submit = false;
    const auto value = [&](int &i) { return i + 1 < args.size() ? args[++i] : QString(); };
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        bool ok = true;
        if (a == QLatin1String("--shards"))
            o.shards = value(i).toInt(&ok);
        else if (a == QLatin1String("--out") || a == QLatin1String("-o"))
            o.outDir = value(i);
        else if (a == QLatin1String("--jobs-dir"))
            jobsDir = value(i);
        else if (a == QLatin1String("--partition"))
            o.partition = value(i);
        else if (a == QLatin1String("--account"))
            o.account = value(i);
        else if (a == QLatin1String("--time"))
            o.timeLimit = value(i);
        else if (a == QLatin1String("--cpus"))
            o.cpusPerShard = value(i).toInt(&ok);
        else if (a == QLatin1String("--sweepbench"))
            o.sweepbench = value(i);
        else if (a == QLatin1String("--image"))
            o.image = value(i);
        else if (a == QLatin1String("--volume-claim"))
            o.volumeClaim = value(i);
        else if (a == QLatin1String("--job-name"))
            o.jobName = value(i);
        else if (a == QLatin1String("--submit") && kind == QLatin1String("slurm"))
            submit = true;
        else if (a.startsWith(QLatin1Char('-')))
            return usage(QStringLiteral("cluster"), QStringLiteral("unknown option ") + a);
        else if (specArg.isEmpty())
            specArg = a;
        else
            return usage(QStringLiteral("cluster"), QStringLiteral("unexpected argument ") + a);
        if (!ok || o.cpusPerShard < 1)
            return usage(QStringLiteral("cluster"), a + QStringLiteral(" needs a positive number"));
    }
    if (specArg.isEmpty())
        return usage(QStringLiteral("cluster"), QStringLiteral("missing SPEC"));
    // Kubernetes carries the spec in a ConfigMap: the very bytes that were validated, read once.
    const auto spec = loadSpecReporting(specArg, &o.specText);
    if (!spec)
        return 2;
    o.specPath = QFileInfo(specArg).absoluteFilePath();
    if (kind == QLatin1String("slurm")) {
        if (o.outDir.isEmpty())
            return usage(QStringLiteral("cluster"), QStringLiteral("slurm needs --out DIR (a folder every node sees)"));
        o.outDir = QDir(o.outDir).absolutePath();
    }
    QString error;
    const QList<RenderedFile> files = kind == QLatin1String("slurm") ? renderSlurmJobs(*spec, o, &error) : renderKubernetesJobs(*spec, o, &error);
    if (files.isEmpty()) { // the error may quote a name or a path as given
        err() << "sweepbench cluster: " << displaySafe(error, DisplayLines::Single) << '\n';
        return 2;
    }
    if (jobsDir.isEmpty())
        jobsDir = kind == QLatin1String("slurm") ? QDir(o.outDir).filePath(QStringLiteral("slurm")) : QStringLiteral("k8s-") + clusterJobName(spec->name);
    if (!writeRenderedFiles(files, jobsDir, &error)) {
        err() << "sweepbench cluster: " << error << '\n';
        return 3;
    }
    for (const QString &line : describePlan(*spec, planShards(*spec, o.shards)))
        out() << displaySafe(line, DisplayLines::Single) << '\n';
    for (const RenderedFile &f : files)
        out() << "wrote " << QDir(jobsDir).filePath(f.name) << '\n';
    out().flush();
    if (!submit)
        return 0;
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedChannels);
    p.start(QStringLiteral("bash"), {QDir(jobsDir).filePath(QStringLiteral("submit.sh"))});
    if (!p.waitForStarted() || !p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        err() << "sweepbench cluster: submitting with sbatch failed (" << (p.error() == QProcess::FailedToStart ? QStringLiteral("bash not found") : QStringLiteral("exit %1").arg(p.exitCode()))
              << "); the job files are in " << jobsDir << '\n';
        return 1;
    }
    return 0;
}

} // namespace sb
