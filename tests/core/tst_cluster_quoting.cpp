// Job files with hostile values (cluster/JobQuoting.h): names, paths and options that try to end
// their quoting, start a command or add a YAML document. The renderers are called directly, past
// the spec's validation, since they must be safe on their own. The Slurm and apply scripts are
// run by bash in a scratch folder with sbatch, kubectl and sweepbench replaced by stubs that
// record their arguments; the manifests are parsed back with yaml-cpp.
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "cluster/ClusterJobs.h"
#include "cluster/JobQuoting.h"
#include "spec/SpecIO.h"
#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <yaml-cpp/yaml.h>

using namespace sb;

namespace {
// A server name that is a shell command on its next line, and one that is a whole YAML document.
const QString kShellName = QStringLiteral("a\ntouch pwned\n");
const QString kYamlName = QStringLiteral("x\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: evil\nspec:\n  containers:\n"
                                         "    - name: e\n      image: attacker/evil\n");

QStringList hostileValues()
{
    return {kShellName,
            kYamlName,
            QStringLiteral("b'; touch pwned; echo '"),
            QStringLiteral("$(touch pwned)`touch pwned`${IFS}\"$HOME\" \\ * ~ ! #"),
            QStringLiteral("c\r---\rkind: Pod\r"),
            QStringLiteral("d\u2028---\u2028kind: Pod"),
            QStringLiteral("e\u0085kind: Pod\u2029f"),
            QStringLiteral("\u202Eevil\u2066 @SPEC_TEXT@ @PLAN@ @OUT_SH@"),
            QStringLiteral("tab\there: {x: [1]}, \"q\": 'v'")};
}

SweepSpec hostileSpec()
{
    SweepSpec spec;
    spec.name = kYamlName;
    int i = 0;
    for (const QString &name : hostileValues()) {
        ServerSpec s;
        s.name = name;
        s.model = name;
        s.urls = {QStringLiteral("http://10.0.0.%1:8000").arg(++i)}; // one origin each: one server a shard
        spec.servers.append(s);
    }
    spec.concurrency = {1};
    return spec;
}

bool writeExecutable(const QString &path, const QByteArray &text)
{
    return sbtest::writeFile(path, text) && QFile::setPermissions(path, QFile::permissions(path) | QFile::ExeOwner);
}

// Every file named pwned* under `dir`: what an injected `touch pwned` leaves behind.
QStringList markers(const QString &dir)
{
    QStringList found;
    QDirIterator it(dir, {QStringLiteral("pwned*")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        found << it.next();
    return found;
}

// Rendered text holds no line break but \n: CR, U+0085, U+2028 and U+2029 end lines for some
// YAML parsers (kubectl's among them) and not for others.
bool onlyNewlineBreaks(const QByteArray &content)
{
    const QString text = QString::fromUtf8(content);
    return !text.contains(QLatin1Char('\r')) && !text.contains(QChar(0x85)) && !text.contains(QChar(0x2028)) && !text.contains(QChar(0x2029));
}

QString str(const YAML::Node &n) { return QString::fromStdString(n.as<std::string>()); }
} // namespace

class TestClusterQuoting : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_bin; // the stubs, first on PATH

    struct Run {
        int code = -1;
        QByteArray out, err;
    };
    // Runs bash on `script` in `cwd` with the stubs first on PATH; -1 when it had to be killed.
    Run bash(const QStringList &args, const QString &cwd, const QMap<QString, QString> &extraEnv = {})
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), m_bin + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
        env.insert(QStringLiteral("STUB_LOG"), m_dir.filePath(QStringLiteral("calls")));
        for (auto it = extraEnv.cbegin(); it != extraEnv.cend(); ++it)
            env.insert(it.key(), it.value());
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(cwd);
        p.start(QStringLiteral("bash"), args);
        if (!p.waitForFinished(30000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
    }
    // Each call a stub received: program name, then its arguments, NUL-separated, one per line.
    QList<QStringList> calls()
    {
        QList<QStringList> out;
        for (const QByteArray &record : sbtest::readFile(m_dir.filePath(QStringLiteral("calls"))).split('\x1e')) {
            if (record.isEmpty())
                continue;
            QStringList call;
            for (const QByteArray &arg : record.split('\0'))
                call << QString::fromUtf8(arg);
            call.removeLast(); // after the last NUL
            out << call;
        }
        QFile::remove(m_dir.filePath(QStringLiteral("calls")));
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_bin = m_dir.filePath(QStringLiteral("bin"));
        // Records "name\0arg1\0arg2\0...\x1e"; sbatch answers a job id as --parsable does.
        const QByteArray stub = "#!/bin/bash\n{ printf '%s\\0' \"$(basename \"$0\")\" \"$@\"; printf '\\036'; } >> \"$STUB_LOG\"\n"
                                "[ \"$(basename \"$0\")\" != sbatch ] || echo 4242\n";
        for (const char *name : {"sbatch", "srun", "kubectl", "sweepbench"})
            QVERIFY(writeExecutable(m_bin + QLatin1Char('/') + QLatin1String(name), stub));
    }
    void init() { sbtest::failOnQtWarnings(); }

    void shellQuotingRoundTripsThroughBashAndSh_data()
    {
        QTest::addColumn<QString>("value");
        const QStringList values = hostileValues();
        for (int i = 0; i < values.size(); ++i)
            QTest::addRow("hostile %d", i) << values[i];
        QTest::newRow("empty") << QString();
        QTest::newRow("only quotes") << QStringLiteral("''''\"");
    }
    void shellQuotingRoundTripsThroughBashAndSh()
    {
        QFETCH(QString, value);
        QTemporaryDir sandbox;
        for (const QString &shell : {QStringLiteral("bash"), QStringLiteral("sh")}) {
            QProcess p;
            p.setWorkingDirectory(sandbox.path());
            p.start(shell, {QStringLiteral("-c"), QString::fromUtf8("printf %s " + shellQuoted(value))});
            QVERIFY(p.waitForFinished(10000));
            QCOMPARE(p.exitCode(), 0);
            QCOMPARE(p.readAllStandardOutput(), value.toUtf8());
        }
        QVERIFY2(markers(sandbox.path()).isEmpty(), qPrintable(markers(sandbox.path()).join(' ')));
    }

    void yamlQuotingRoundTripsOnOneLine_data() { shellQuotingRoundTripsThroughBashAndSh_data(); }
    void yamlQuotingRoundTripsOnOneLine()
    {
        QFETCH(QString, value);
        const QByteArray quoted = yamlQuoted(value);
        QVERIFY2(!quoted.contains('\n') && onlyNewlineBreaks(quoted), quoted.constData());
        const std::vector<YAML::Node> docs = YAML::LoadAll(("k: " + quoted + "\n").toStdString());
        QCOMPARE(int(docs.size()), 1);
        QCOMPARE(str(docs[0]["k"]), value);
        const QByteArray comment = commentText(value);
        QVERIFY2(!comment.contains('\n') && onlyNewlineBreaks(comment), comment.constData());
    }

    void specTextRoundTripsInAConfigMap_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("one trailing newline") << QByteArray("name: x\nservers:\n  - name: a\n");
        QTest::newRow("none") << QByteArray("name: x");
        QTest::newRow("several") << QByteArray("a: 1\n\n\n");
        QTest::newRow("indented first line") << QByteArray("   a: 1\n b\n");
        QTest::newRow("blank and space-only lines") << QByteArray("a\n\n   \nb\n");
        QTest::newRow("document markers") << QByteArray("---\na: 1\n...\n---\n");
        QTest::newRow("CR") << QByteArray("a: 1\r---\rkind: Pod\r\n");
        QTest::newRow("U+2028") << QString(QStringLiteral("d: \"x\u2028---\u2028kind: Pod\"\n")).toUtf8();
        QTest::newRow("U+0085") << QString(QStringLiteral("d: x\u0085kind: Pod\n")).toUtf8();
        QTest::newRow("tab") << QByteArray("a:\t1\n\tb\n");
        QTest::newRow("only newlines") << QByteArray("\n\n");
        QTest::newRow("empty") << QByteArray();
    }
    void specTextRoundTripsInAConfigMap()
    {
        QFETCH(QByteArray, text);
        const QByteArray doc = "data:\n  sweep.yaml: " + yamlText(text, 2) + "\n---\nkind: Job\n";
        QVERIFY2(onlyNewlineBreaks(doc), doc.constData());
        const std::vector<YAML::Node> docs = YAML::LoadAll(doc.toStdString());
        QCOMPARE(int(docs.size()), 2);
        QCOMPARE(QByteArray::fromStdString(docs[0]["data"]["sweep.yaml"].as<std::string>()), text);
    }

    // The finding: a server name's second line ran as a command when the job ran.
    void slurmScriptsRunWithHostileValuesAsData()
    {
        QTemporaryDir sandbox;
        const QString root = sandbox.path();
        // A spec path and a binary path that try every way out of a shell word; they exist, so
        // what the scripts hand the binary can be compared with them.
        const QString specDir = root + QStringLiteral("/it's $(touch pwned) `touch pwned` \"q\"\ntouch pwned; x");
        const QString specPath = specDir + QStringLiteral("/sweep.yaml");
        QVERIFY(QDir().mkpath(specDir));
        const QString binary = specDir + QStringLiteral("/sweep bench");
        QVERIFY(writeExecutable(binary, sbtest::readFile(m_bin + QStringLiteral("/sweepbench"))));
        const QString out = root + QStringLiteral("/out");
        QVERIFY(QDir().mkpath(out + QStringLiteral("/shard-0")) && QDir().mkpath(out + QStringLiteral("/shard-1")));

        ClusterJobOptions o;
        o.specPath = specPath;
        o.outDir = out;
        o.sweepbench = binary;
        o.shards = 2;
        o.partition = QStringLiteral("gpu");
        QString error;
        const QList<RenderedFile> files = renderSlurmJobs(hostileSpec(), o, &error);
        QVERIFY2(files.size() == 3, qPrintable(error));
        const QString jobs = root + QStringLiteral("/jobs");
        QVERIFY2(writeRenderedFiles(files, jobs, &error), qPrintable(error));
        for (const RenderedFile &f : files) {
            const Run parsed = bash({QStringLiteral("-n"), jobs + QLatin1Char('/') + f.name}, root);
            QVERIFY2(parsed.code == 0, qPrintable(f.name + QLatin1Char(' ') + QString::fromUtf8(parsed.err)));
            // Every placeholder filled: an '@' is left only where a name is quoted, in a comment.
            for (const QByteArray &line : f.content.split('\n'))
                QVERIFY2(!line.contains('@') || line.startsWith('#'), line.constData());
        }
        // Each plan line is one comment line, its server names escaped.
        QVERIFY(files[0].content.contains("#   shard 0/2: a\\x0atouch pwned\\x0a"));

        calls();
        const QMap<QString, QString> task{{QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("1")},
                                          {QStringLiteral("SLURM_ARRAY_TASK_COUNT"), QStringLiteral("2")}};
        Run r = bash({jobs + QStringLiteral("/shard.sbatch")}, root, task);
        QVERIFY2(r.code == 0, r.err.constData());
        QList<QStringList> c = calls();
        QCOMPARE(c.size(), 1);
        QCOMPARE(c[0], (QStringList{QStringLiteral("sweep bench"), QStringLiteral("run"), specPath, QStringLiteral("--shard"),
                                    QStringLiteral("1/2"), QStringLiteral("--out"), out + QStringLiteral("/shard-1"), QStringLiteral("--resume")}));
        r = bash({jobs + QStringLiteral("/merge.sbatch")}, root);
        QVERIFY2(r.code == 0, r.err.constData());
        c = calls();
        QCOMPARE(c.size(), 1);
        QCOMPARE(c[0], (QStringList{QStringLiteral("sweep bench"), QStringLiteral("merge"), QStringLiteral("-o"), out + QStringLiteral("/merged"),
                                    out + QStringLiteral("/shard-0"), out + QStringLiteral("/shard-1")}));
        r = bash({jobs + QStringLiteral("/submit.sh")}, root);
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("-> " + out.toUtf8() + "/merged"), r.out.constData());
        QCOMPARE(calls().size(), 2); // the array, then the merge
        QVERIFY2(markers(root).isEmpty() && markers(jobs).isEmpty(), qPrintable(markers(root).join(' ')));
    }

    // #SBATCH lines are parsed by sbatch, not the shell: a value there must be a plain word.
    void slurmRefusesWhatAnSbatchLineCannotCarry_data()
    {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("partition");
        QTest::newRow("command in the folder") << QStringLiteral("/shared/$(touch pwned)") << QString();
        QTest::newRow("newline in the folder") << QStringLiteral("/shared/a\n#SBATCH --uid=0") << QString();
        QTest::newRow("space in the folder") << QStringLiteral("/shared/out dir") << QString();
        QTest::newRow("pattern in the folder") << QStringLiteral("/shared/%j") << QString();
        QTest::newRow("quote in the partition") << QStringLiteral("/shared/out") << QStringLiteral("gpu\" --wrap=\"touch pwned");
        QTest::newRow("newline in the partition") << QStringLiteral("/shared/out") << QStringLiteral("gpu\ntouch pwned");
        // A pattern's $ also matches before a final newline: the check must end at the value's end.
        QTest::newRow("trailing newline in the partition") << QStringLiteral("/shared/out") << QStringLiteral("gpu\n");
        QTest::newRow("trailing newline in the folder") << QStringLiteral("/shared/out\n") << QString();
    }
    void slurmRefusesWhatAnSbatchLineCannotCarry()
    {
        QFETCH(QString, out);
        QFETCH(QString, partition);
        ClusterJobOptions o;
        o.specPath = QStringLiteral("/shared/sweep.yaml");
        o.outDir = out;
        o.partition = partition;
        QString error;
        QVERIFY(renderSlurmJobs(hostileSpec(), o, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("cannot be written on an #SBATCH line")), qPrintable(error));
    }

    // The finding's Kubernetes half: a name with YAML lines added a Pod to shards-job.yaml.
    void kubernetesManifestsKeepHostileValuesInTheirScalars_data()
    {
        QTest::addColumn<QString>("value");
        const QStringList values = hostileValues();
        for (int i = 0; i < values.size(); ++i)
            QTest::addRow("hostile %d", i) << values[i];
    }
    void kubernetesManifestsKeepHostileValuesInTheirScalars()
    {
        QFETCH(QString, value);
        SweepSpec spec = hostileSpec();
        spec.servers.first().name = value;
        spec.description = value;
        ClusterJobOptions o;
        o.shards = 3;
        o.image = value;
        o.volumeClaim = value + QStringLiteral("-claim");
        o.waitTimeout = value + QStringLiteral("-wait");
        o.jobName = value;
        o.specText = saveSpecYaml(spec); // the spec itself holds the value in its names too
        QString error;
        const QList<RenderedFile> files = renderKubernetesJobs(spec, o, &error);
        QVERIFY2(files.size() == 3, qPrintable(error));
        for (const RenderedFile &f : files) // apply.sh may hold them inside its single quotes, as data
            QVERIFY2(f.name.endsWith(QLatin1String(".sh")) || onlyNewlineBreaks(f.content), qPrintable(f.name));

        const std::vector<YAML::Node> docs = YAML::LoadAll(files[0].content.toStdString());
        QCOMPARE(int(docs.size()), 2);
        QCOMPARE(str(docs[0]["kind"]), QStringLiteral("ConfigMap"));
        QCOMPARE(str(docs[1]["kind"]), QStringLiteral("Job"));
        const QString job = clusterJobName(value);
        QCOMPARE(str(docs[0]["metadata"]["name"]), job + QStringLiteral("-spec"));
        QCOMPARE(QByteArray::fromStdString(docs[0]["data"]["sweep.yaml"].as<std::string>()), o.specText);
        // The ConfigMap's spec reads back with every hostile name as written (and refused).
        const SpecLoadResult back = loadSpecText(o.specText, QStringLiteral("sweep.yaml"));
        QVERIFY(back.draft);
        QCOMPARE(back.draft->servers.first().name, value);
        QCOMPARE(back.draft->name, kYamlName);
        const YAML::Node pod = docs[1]["spec"]["template"]["spec"];
        QCOMPARE(str(docs[1]["metadata"]["name"]), job + QStringLiteral("-shards"));
        QCOMPARE(int(pod["containers"].size()), 1);
        QCOMPARE(str(pod["containers"][0]["image"]), value);
        QCOMPARE(str(pod["containers"][0]["env"][0]["value"]), QStringLiteral("/results/") + job);
        QCOMPARE(str(pod["volumes"][0]["persistentVolumeClaim"]["claimName"]), value + QStringLiteral("-claim"));
        QCOMPARE(str(pod["volumes"][1]["configMap"]["name"]), job + QStringLiteral("-spec"));

        const std::vector<YAML::Node> merge = YAML::LoadAll(files[1].content.toStdString());
        QCOMPARE(int(merge.size()), 1);
        QCOMPARE(str(merge[0]["kind"]), QStringLiteral("Job"));
        QCOMPARE(str(merge[0]["spec"]["template"]["spec"]["containers"][0]["image"]), value);

        // apply.sh hands kubectl the values as single arguments and runs nothing else.
        QTemporaryDir sandbox;
        QVERIFY2(writeRenderedFiles(files, sandbox.path(), &error), qPrintable(error));
        const QString apply = sandbox.filePath(QStringLiteral("apply.sh"));
        QCOMPARE(bash({QStringLiteral("-n"), apply}, sandbox.path()).code, 0);
        calls();
        const Run r = bash({apply}, sandbox.path());
        QVERIFY2(r.code == 0, r.err.constData());
        const QList<QStringList> kubectl = calls();
        QCOMPARE(kubectl.size(), 4);
        QCOMPARE(kubectl[1], (QStringList{QStringLiteral("kubectl"), QStringLiteral("wait"), QStringLiteral("--for=condition=complete"),
                                         QStringLiteral("job/") + job + QStringLiteral("-shards"), QStringLiteral("--timeout=") + value + QStringLiteral("-wait")}));
        QVERIFY(r.out.contains((value + QStringLiteral("-claim")).toUtf8()));
        QVERIFY2(markers(sandbox.path()).isEmpty(), qPrintable(markers(sandbox.path()).join(' ')));
    }

    void kubernetesRefusesASpecThatIsNotText()
    {
        ClusterJobOptions o;
        o.specText = "name: \xff\xfe\n";
        QString error;
        QVERIFY(renderKubernetesJobs(hostileSpec(), o, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("UTF-8")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestClusterQuoting)
#include "tst_cluster_quoting.moc"
