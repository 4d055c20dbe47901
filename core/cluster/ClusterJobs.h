#pragma once
// Job files for running one sweep as shards on a cluster scheduler (docs/CLUSTER.md): a Slurm
// job array plus a dependent merge job, or a Kubernetes Indexed Job plus a merge Job. The
// templates are packaging/slurm/*.in and packaging/k8s/*.in, compiled in as resources, so the
// CLI and the designer render the same files.
#include "spec/SweepSpec.h"
#include <QList>
#include <QString>

namespace sb {

struct ClusterJobOptions {
    QString specPath;       // absolute path of the spec as every node sees it (Slurm)
    QByteArray specText;    // the spec itself (Kubernetes puts it in a ConfigMap)
    QString outDir;         // absolute results folder on storage every node shares (Slurm)
    int shards = 2;
    QString jobName;        // defaults to the sweep's name, made safe for both schedulers
    QString sweepbench = QStringLiteral("sweepbench"); // the binary on the nodes (Slurm)
    int cpusPerShard = 2;
    // Slurm: extra #SBATCH lines from these (empty = the cluster's defaults).
    QString partition, account, timeLimit;
    // Kubernetes
    QString image = QStringLiteral("sweepbench:latest");
    QString volumeClaim = QStringLiteral("sweepbench-results");
    QString waitTimeout = QStringLiteral("24h");
};

struct RenderedFile {
    QString name;       // file name inside the output folder
    QByteArray content;
    bool executable = false;
};

// Refused (empty list and *error) for options a scheduler would reject or misread: shard count
// outside 1..kMaxShards, relative paths, a value an #SBATCH line cannot carry, an empty option, a
// spec that is not UTF-8. Every other value, names and paths included, is written through
// cluster/JobQuoting.h, so none can add a command, a line or a document, whatever it holds.
QList<RenderedFile> renderSlurmJobs(const SweepSpec &spec, const ClusterJobOptions &options, QString *error);
QList<RenderedFile> renderKubernetesJobs(const SweepSpec &spec, const ClusterJobOptions &options, QString *error);
// Lowercase letters, digits and '-', at most 40 characters: valid for Slurm and as a k8s name.
QString clusterJobName(const QString &sweepName);
// Writes each file into `dir` durably (io/DurableWrite.h), 0755 for scripts.
bool writeRenderedFiles(const QList<RenderedFile> &files, const QString &dir, QString *error);

} // namespace sb
