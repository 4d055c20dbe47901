// Fuzzes the cluster job renderers (core/cluster/ClusterJobs.h) with hostile names, paths and
// options, past the spec's validation: the renderers must be safe on their own. Oracles:
// - every value quoted for YAML or for the shell reads back to itself (yaml-cpp for YAML);
// - the Kubernetes manifests parse into exactly their documents (ConfigMap + Job, one Job),
//   with the image, the claim and the spec text read back exactly;
// - no manifest holds a line break other than \n (CR, U+0085, U+2028, U+2029 end lines for
//   kubectl's YAML parser and not for others; a script may hold them inside single quotes);
// - each rendered shell script has as many lines outside quotes and comments as the same job
//   rendered from plain values: no value adds a command line.
// Parts (FuzzSupport.h splitParts): sweep name, two server names, image, volume claim, wait,
// spec text, spec path, sweepbench path, results folder, partition, job name.
#include "FuzzSupport.h"
#include "cluster/ClusterJobs.h"
#include "cluster/JobQuoting.h"
#include <algorithm>
#include <yaml-cpp/yaml.h>

namespace {
using namespace sb;

SweepSpec specWith(const QString &name, const QString &server0, const QString &server1)
{
    SweepSpec spec;
    spec.name = name;
    for (const QString &n : {server0, server1}) {
        ServerSpec s;
        s.name = n;
        s.model = n;
        s.urls = {QStringLiteral("http://10.0.0.%1:8000").arg(spec.servers.size() + 1)};
        spec.servers.append(s);
    }
    spec.concurrency = {1, 2};
    return spec;
}

bool onlyNewlineBreaks(const QByteArray &content)
{
    const QString text = QString::fromUtf8(content);
    return !text.contains(QLatin1Char('\r')) && !text.contains(QChar(0x85)) && !text.contains(QChar(0x2028)) && !text.contains(QChar(0x2029));
}

// Lines of shell: newlines outside quotes and comments. A small lexer for what the templates
// hold (quotes, backslash escapes, comments at a word's start); applied to the plain and the
// fuzzed rendering alike, so where it simplifies the shell both agree.
int shellLines(const QByteArray &script)
{
    enum { Plain, Single, Double, Comment } state = Plain;
    int lines = 0;
    char previous = '\n';
    for (qsizetype i = 0; i < script.size(); ++i) {
        const char c = script.at(i);
        switch (state) {
        case Plain:
            if (c == '\'')
                state = Single;
            else if (c == '"')
                state = Double;
            else if (c == '\\')
                ++i;
            else if (c == '#' && (previous == '\n' || previous == ' ' || previous == '\t'))
                state = Comment;
            else if (c == '\n')
                ++lines;
            break;
        case Single:
            if (c == '\'')
                state = Plain;
            break;
        case Double:
            if (c == '\\')
                ++i;
            else if (c == '"')
                state = Plain;
            break;
        case Comment:
            if (c == '\n') {
                ++lines;
                state = Plain;
            }
            break;
        }
        previous = c;
    }
    return state == Plain ? lines : -1;
}

std::string scalar(const YAML::Node &n) { return n.as<std::string>(); }

void checkQuoting(const QByteArray &part)
{
    const QString value = QString::fromUtf8(part);
    const std::vector<YAML::Node> docs = YAML::LoadAll(("k: " + yamlQuoted(value) + "\n").toStdString());
    if (docs.size() != 1 || scalar(docs[0]["k"]) != value.toStdString())
        sbfuzz::broken("a YAML-quoted value does not read back to itself");
    if (commentText(value).contains('\n') || !onlyNewlineBreaks(commentText(value)) || !onlyNewlineBreaks(yamlQuoted(value)))
        sbfuzz::broken("a comment or YAML scalar holds a line break");
    const QByteArray text = "data:\n  t: " + yamlText(part, 2) + "\n---\nk: 1\n";
    const std::vector<YAML::Node> block = YAML::LoadAll(text.toStdString());
    if (block.size() != 2 || (part.isValidUtf8() && scalar(block[0]["data"]["t"]) != part.toStdString()))
        sbfuzz::broken("a text in a ConfigMap does not read back to itself");
    if (shellLines("x=" + shellQuoted(value) + "\n") != 1)
        sbfuzz::broken("a shell-quoted value leaves its quotes");
}

void checkKubernetes(const SweepSpec &spec, const ClusterJobOptions &o)
{
    QString error;
    const QList<RenderedFile> files = renderKubernetesJobs(spec, o, &error);
    if (files.isEmpty())
        return; // refused: an empty option, or a spec that is not UTF-8
    if (!onlyNewlineBreaks(files[0].content) || !onlyNewlineBreaks(files[1].content))
        sbfuzz::broken("a manifest holds a line break other than \\n");
    const std::vector<YAML::Node> shards = YAML::LoadAll(files[0].content.toStdString());
    if (shards.size() != 2 || scalar(shards[0]["kind"]) != "ConfigMap" || scalar(shards[1]["kind"]) != "Job")
        sbfuzz::broken("shards-job.yaml is not one ConfigMap and one Job");
    if (scalar(shards[0]["data"]["sweep.yaml"]) != o.specText.toStdString())
        sbfuzz::broken("the ConfigMap's spec is not the spec");
    const YAML::Node pod = shards[1]["spec"]["template"]["spec"];
    if (pod["containers"].size() != 1 || scalar(pod["containers"][0]["image"]) != o.image.toStdString()
        || scalar(pod["volumes"][0]["persistentVolumeClaim"]["claimName"]) != o.volumeClaim.toStdString())
        sbfuzz::broken("the shard Job's image or claim is not the option's");
    const std::vector<YAML::Node> merge = YAML::LoadAll(files[1].content.toStdString());
    if (merge.size() != 1 || scalar(merge[0]["kind"]) != "Job" || scalar(merge[0]["spec"]["template"]["spec"]["containers"][0]["image"]) != o.image.toStdString())
        sbfuzz::broken("merge-job.yaml is not one Job with the option's image");
    ClusterJobOptions plain = o;
    plain.image = plain.volumeClaim = plain.waitTimeout = QStringLiteral("x");
    plain.specText = "x: 1\n";
    const QList<RenderedFile> reference = renderKubernetesJobs(specWith(QStringLiteral("n"), QStringLiteral("a"), QStringLiteral("b")), plain, &error);
    if (reference.size() != 3 || shellLines(files[2].content) != shellLines(reference[2].content))
        sbfuzz::broken("a value added a line to apply.sh");
}

void checkSlurm(const SweepSpec &spec, const ClusterJobOptions &o)
{
    QString error;
    const QList<RenderedFile> files = renderSlurmJobs(spec, o, &error);
    if (files.isEmpty())
        return; // refused: a value an #SBATCH line cannot carry, a relative path, a NUL
    ClusterJobOptions plain = o;
    plain.specPath = plain.outDir = QStringLiteral("/x");
    plain.sweepbench = QStringLiteral("x");
    plain.partition = plain.account = plain.timeLimit = QString();
    const QList<RenderedFile> reference = renderSlurmJobs(specWith(QStringLiteral("n"), QStringLiteral("a"), QStringLiteral("b")), plain, &error);
    if (reference.size() != files.size())
        sbfuzz::broken("the plain Slurm job does not render");
    // Partition, account and time each add one #SBATCH line (a comment to the shell) when set.
    for (qsizetype i = 0; i < files.size(); ++i) {
        const int extra = files[i].name == QLatin1String("submit.sh")
                              ? 0
                              : std::max(0, int(!o.partition.isEmpty()) + int(!o.account.isEmpty()) + int(!o.timeLimit.isEmpty()) - 1);
        if (shellLines(files[i].content) != shellLines(reference[i].content) + extra)
            sbfuzz::broken("a value added a line to a Slurm script");
    }
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QList<QByteArray> parts = sbfuzz::splitParts(data, size, 12);
    try {
        for (const QByteArray &part : parts)
            checkQuoting(part);
        const auto text = [&](int i) { return QString::fromUtf8(parts[i]); };
        const SweepSpec spec = specWith(text(0), text(1), text(2));
        ClusterJobOptions o;
        o.shards = 1 + (parts[0].size() % 3);
        o.image = text(3);
        o.volumeClaim = text(4);
        o.waitTimeout = text(5);
        o.specText = parts[6];
        o.jobName = text(11);
        checkKubernetes(spec, o);
        o.specPath = QLatin1Char('/') + text(7);
        o.sweepbench = text(8);
        o.outDir = QLatin1Char('/') + text(9);
        o.partition = text(10);
        checkSlurm(spec, o);
    } catch (const YAML::Exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        sbfuzz::broken("a rendered manifest does not parse");
    }
    return 0;
}
