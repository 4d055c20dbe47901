// Sharded runs (engine/ShardPlan.h) and putting them back together (results/ShardMerge.h):
// planning rules, the real engine running one shard against embedded mocks, merge refusals,
// the merged folder on disk, and loading a folder of shard folders as one set.
#include "TestSupport.h"
#include "cluster/ClusterJobs.h"
#include "engine/ShardPlan.h"
#include "engine/SweepEngine.h"
#include "report/ResultsLoader.h"
#include "results/ResultsStore.h"
#include "results/ShardMerge.h"
#include <QJsonArray>
#include <QDirIterator>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

using namespace sb;

namespace {
ServerSpec realServer(const QString &name, const QString &url)
{
    ServerSpec s;
    s.name = name;
    s.urls = {url};
    s.model = QStringLiteral("m");
    return s;
}

ServerSpec mockServer(const QString &name, const QString &flavor)
{
    ServerSpec s;
    s.name = name;
    s.mock = flavor;
    s.model = QStringLiteral("demo-model");
    s.flavor = *flavorFromString(flavor);
    return s;
}

SweepSpec mockSweep()
{
    SweepSpec spec;
    spec.name = QStringLiteral("Shard Test");
    spec.servers = {mockServer(QStringLiteral("a"), QStringLiteral("vllm")), mockServer(QStringLiteral("b"), QStringLiteral("sglang")),
                    mockServer(QStringLiteral("c"), QStringLiteral("vllm"))};
    spec.concurrency = {1, 4};
    spec.workload.requestsPerCell = 12;
    spec.workload.inputTokens = 16;
    spec.workload.outputTokens = 4;
    spec.workload.calibratePrompts = false;
    return spec;
}

int runInto(const SweepSpec &spec, const QString &out, ShardId shard = {}, bool resume = false, SweepResults *results = nullptr,
            QString *failure = nullptr)
{
    RunOptions options{out, resume};
    options.shard = shard;
    SweepEngine engine(spec, options);
    QSignalSpy finished(&engine, &SweepEngine::finished);
    engine.start();
    if (!sbtest::waitForSignal(finished, 120000))
        return -1;
    if (results)
        *results = engine.results();
    if (failure)
        *failure = engine.failureMessage();
    return finished.first().first().toInt();
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeJson(const QString &path, const QJsonObject &o)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(QJsonDocument(o).toJson()) > 0;
}

bool writeText(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

QJsonObject readJson(const QString &path) { return QJsonDocument::fromJson(readAll(path)).object(); }

// A copy of a folder tree, so a test can tamper with shards without touching the suite's.
bool copyTree(const QString &from, const QString &to)
{
    if (!QDir().mkpath(to))
        return false;
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(path);
        if (it.fileInfo().isDir() ? !QDir().mkpath(target) : !QFile::copy(path, target))
            return false;
    }
    return true;
}

} // namespace

class TestShards : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_sets; // shard-0 and shard-1 of mockSweep(), run once for the whole suite

    // A copy of the suite's two shards in `dir`, for a test to tamper with: shard-0 and
    // shard-1 (both empty when the copy failed).
    std::pair<QString, QString> copyOfSets(const QTemporaryDir &dir) const
    {
        const QString sets = dir.filePath(QStringLiteral("sets"));
        if (!copyTree(m_sets, sets))
            return {};
        return {sets + QStringLiteral("/shard-0"), sets + QStringLiteral("/shard-1")};
    }

private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void shardIdsParse()
    {
        QString error;
        QCOMPARE(parseShardId(QStringLiteral("0/2"), &error)->count, 2);
        QCOMPARE(parseShardId(QStringLiteral(" 3 / 4 "), &error)->index, 3);
        for (const char *bad : {"2/2", "-1/2", "1/0", "a/b", "1", "1/2/3", "0/100000", ""}) {
            QVERIFY2(!parseShardId(QString::fromLatin1(bad), &error), bad);
            QVERIFY(error.contains(QLatin1String("K/N")));
        }
    }

    void serversSharingAnOriginStayTogether()
    {
        SweepSpec spec;
        spec.concurrency = {1, 2, 4};
        spec.workload.requestsPerCell = 50;
        // x and y are one server (same origin, different paths); z shares y's second origin.
        ServerSpec x = realServer(QStringLiteral("x"), QStringLiteral("http://gpu1:8000/v1"));
        ServerSpec y = realServer(QStringLiteral("y"), QStringLiteral("http://GPU1:8000"));
        y.urls.append(QStringLiteral("http://gpu2:80"));
        ServerSpec z = realServer(QStringLiteral("z"), QStringLiteral("http://gpu2/v1"));
        ServerSpec w = realServer(QStringLiteral("w"), QStringLiteral("https://gpu3"));
        spec.servers = {x, y, z, w};
        for (int n = 1; n <= 4; ++n) {
            const ShardPlan plan = planShards(spec, n);
            QCOMPARE(plan.shardOfServer[0], plan.shardOfServer[1]);
            QCOMPARE(plan.shardOfServer[1], plan.shardOfServer[2]);
            if (n > 1)
                QVERIFY(plan.shardOfServer[3] != plan.shardOfServer[0]);
        }
        QCOMPARE(originOf(QStringLiteral("https://gpu3/v1")), QStringLiteral("https://gpu3:443"));
        // Four shards for two units: two shards are empty, and the plan says so.
        const QStringList lines = describePlan(spec, planShards(spec, 4));
        QCOMPARE(lines.filter(QStringLiteral("no servers")).size(), 2);
    }

    void shardsAreBalancedLongestFirstAndDeterministic()
    {
        SweepSpec spec;
        spec.concurrency = {1};
        spec.workload.outputTokens = 100;
        // Estimated time grows with requests/C: one long server, three short ones.
        ServerSpec big = realServer(QStringLiteral("big"), QStringLiteral("http://h1:1"));
        spec.servers = {realServer(QStringLiteral("s1"), QStringLiteral("http://h2:1")), big,
                        realServer(QStringLiteral("s2"), QStringLiteral("http://h3:1")), realServer(QStringLiteral("s3"), QStringLiteral("http://h4:1"))};
        spec.workload.requestsPerCell = 10;
        SweepSpec longer = spec;
        longer.concurrency = {1, 1, 1}; // every server three times as long: same plan
        const ShardPlan a = planShards(spec, 2), b = planShards(longer, 2);
        QCOMPARE(a.shardOfServer, b.shardOfServer);
        // Equal estimates: spec order decides, alternating between the two shards.
        QCOMPARE(a.shardOfServer, (QList<int>{0, 1, 0, 1}));
        QVERIFY(qAbs(a.estimatedSeconds[0] - a.estimatedSeconds[1]) < 1e-9);
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_sets = m_dir.filePath(QStringLiteral("sets"));
        const SweepSpec spec = mockSweep();
        SweepResults r0, r1;
        QCOMPARE(runInto(spec, m_sets + QStringLiteral("/shard-0"), ShardId{0, 2}, false, &r0), 0);
        QCOMPARE(runInto(spec, m_sets + QStringLiteral("/shard-1"), ShardId{1, 2}, false, &r1), 0);
        const ShardPlan plan = planShards(spec, 2);
        for (int i = 0; i < r0.cells.size(); ++i) {
            const int owner = plan.shardOfServer[i / 2];
            const CellResult &mine = owner == 0 ? r0.cells[i] : r1.cells[i];
            const CellResult &other = owner == 0 ? r1.cells[i] : r0.cells[i];
            QCOMPARE(mine.status, CellStatus::Completed);
            QCOMPARE(other.status, CellStatus::Pending);
            QCOMPARE(other.reason, QStringLiteral("runs in shard %1/2").arg(owner));
        }
        QCOMPARE(r0.shard.text(), QStringLiteral("0/2"));
    }

    void theMergeEqualsAnUnshardedRun()
    {
        SweepResults whole;
        QCOMPARE(runInto(mockSweep(), m_dir.filePath(QStringLiteral("whole")), {}, false, &whole), 0);
        MergedShards merged;
        QString error;
        QVERIFY2(mergeShardFolders({m_sets + QStringLiteral("/shard-1"), m_sets + QStringLiteral("/shard-0")}, false, &merged, &error), qPrintable(error));
        const QString out = m_dir.filePath(QStringLiteral("merged"));
        QVERIFY2(writeMergedShards(merged, out, &error), qPrintable(error));
        SweepResults disk;
        QVERIFY2(ResultsStore::readResults(out, &disk, &error), qPrintable(error));
        QVERIFY(!disk.shard.sharded());
        QCOMPARE(disk.mergedFrom.size(), 2);
        QCOMPARE(disk.cells.size(), whole.cells.size());
        QCOMPARE(disk.specFingerprint, whole.specFingerprint);
        for (int i = 0; i < whole.cells.size(); ++i) {
            const CellResult &m = disk.cells[i], &w = whole.cells[i];
            QCOMPARE(m.server, w.server);
            QCOMPARE(m.concurrency, w.concurrency);
            QCOMPARE(m.status, w.status);
            QCOMPARE(m.completed, w.completed);
            QCOMPARE(m.failed, w.failed);
            QCOMPARE(m.recordsPath, w.recordsPath);
            QVERIFY(QFile::exists(out + QLatin1Char('/') + toJson(m.serverMetricsInfo).value(QStringLiteral("series")).toString())); // copied with the cell
            QCOMPARE(readAll(out + QLatin1Char('/') + m.recordsPath).count('\n'), qsizetype(m.completed + m.failed));
        }
        QVERIFY(QFile::exists(out + QStringLiteral("/sweep.yaml")));
        // A second merge into the same folder is refused: it would replace results.
        QVERIFY(!writeMergedShards(merged, out, &error));
        QVERIFY(error.contains(QLatin1String("already holds results")));
    }

    void mergeRefusesWhatDoesNotFit()
    {
        const QString s0 = m_sets + QStringLiteral("/shard-0"), s1 = m_sets + QStringLiteral("/shard-1");
        MergedShards merged;
        QString error;
        QVERIFY(!mergeShardFolders({s0}, false, &merged, &error));
        QVERIFY2(error.contains(QLatin1String("missing shard(s) 1/2")), qPrintable(error));
        QVERIFY(!mergeShardFolders({s0, s0}, false, &merged, &error));
        QVERIFY2(error.contains(QLatin1String("given twice")), qPrintable(error));
        QVERIFY(!mergeShardFolders({s0, m_dir.filePath(QStringLiteral("whole"))}, false, &merged, &error));
        QVERIFY2(error.contains(QLatin1String("not a shard")), qPrintable(error));

        // A shard of another spec: its fingerprint names the key that differs.
        QTemporaryDir other;
        QVERIFY(QDir().mkpath(other.filePath(QStringLiteral("x"))));
        QJsonObject o = QJsonDocument::fromJson(readAll(s1 + QStringLiteral("/results.json"))).object();
        QJsonObject fp = o.value(QStringLiteral("spec_fingerprint")).toObject();
        QJsonObject workload = fp.value(QStringLiteral("workload")).toObject();
        workload.insert(QStringLiteral("input_tokens"), 999);
        fp.insert(QStringLiteral("workload"), workload);
        fp.insert(QStringLiteral("sha256"), QStringLiteral("0").repeated(64));
        o.insert(QStringLiteral("spec_fingerprint"), fp);
        QVERIFY(writeJson(other.filePath(QStringLiteral("x/results.json")), o));
        QVERIFY(!mergeShardFolders({s0, other.filePath(QStringLiteral("x"))}, false, &merged, &error));
        QVERIFY2(error.contains(QLatin1String("different sweeps")) && error.contains(QLatin1String("workload.input_tokens")), qPrintable(error));

        // A cell both shards claim to have run.
        QJsonObject twice = QJsonDocument::fromJson(readAll(s1 + QStringLiteral("/results.json"))).object();
        const QJsonObject s0Json = QJsonDocument::fromJson(readAll(s0 + QStringLiteral("/results.json"))).object();
        QJsonArray cells = twice.value(QStringLiteral("cells")).toArray();
        const QJsonArray s0Cells = s0Json.value(QStringLiteral("cells")).toArray();
        int claimed = -1;
        for (int i = 0; i < cells.size() && claimed < 0; ++i)
            if (cells[i].toObject().value(QStringLiteral("status")).toString() == QLatin1String("pending")) {
                cells[i] = s0Cells[i];
                claimed = i;
            }
        twice.insert(QStringLiteral("cells"), cells);
        QVERIFY(writeJson(other.filePath(QStringLiteral("x/results.json")), twice));
        QVERIFY(!mergeShardFolders({s0, other.filePath(QStringLiteral("x"))}, false, &merged, &error));
        QVERIFY2(error.contains(QStringLiteral("cell %1").arg(claimed)) && error.contains(QLatin1String("two shards")), qPrintable(error));
    }

    // A shard's files are checked before anything is merged: a records file that is a link, a
    // FIFO or missing, a cell folder linked out of the shard, a link beside the records. The
    // library and `sweepbench merge` refuse, naming the shard's results.json and the file, and
    // write nothing.
    void mergeRefusesCellFilesThatAreNotPlainFiles()
    {
        struct Case {
            const char *name;
            std::function<bool(const QString &cellDir, const QString &outside)> tamper;
            const char *says;
            const char *file; // relative to the cell folder; empty = the folder itself
        };
        const QList<Case> cases{
            {"records are a link",
             [](const QString &cell, const QString &outside) {
                 return QFile::remove(cell + QStringLiteral("/records.jsonl")) && writeText(outside + QStringLiteral("/secret"), "x\n")
                        && QFile::link(outside + QStringLiteral("/secret"), cell + QStringLiteral("/records.jsonl"));
             },
             "symbolic link", "records.jsonl"},
            {"records are a FIFO",
             [](const QString &cell, const QString &) {
                 return QFile::remove(cell + QStringLiteral("/records.jsonl"))
                        && ::mkfifo(QFile::encodeName(cell + QStringLiteral("/records.jsonl")).constData(), 0600) == 0;
             },
             "FIFO", "records.jsonl"},
            {"records are missing", [](const QString &cell, const QString &) { return QFile::remove(cell + QStringLiteral("/records.jsonl")); },
             "does not exist", "records.jsonl"},
            {"the cell folder is a link out",
             [](const QString &cell, const QString &outside) {
                 return QDir().rename(cell, outside + QStringLiteral("/moved")) && QFile::link(outside + QStringLiteral("/moved"), cell);
             },
             "not a folder inside the shard", ""},
            {"a link beside the records",
             [](const QString &cell, const QString &) {
                 return QFile::remove(cell + QStringLiteral("/server_metrics.jsonl")) && QFile::link(QStringLiteral("/etc/passwd"), cell + QStringLiteral("/server_metrics.jsonl"));
             },
             "not a regular file", "server_metrics.jsonl"},
        };
        for (const Case &c : cases) {
            QTemporaryDir dir, outside;
            const auto [s0, s1] = copyOfSets(dir);
            QVERIFY(!s0.isEmpty());
            SweepResults r1;
            QString error;
            QVERIFY(ResultsStore::readResults(s1, &r1, &error));
            int cellIndex = -1;
            for (int i = 0; i < r1.cells.size() && cellIndex < 0; ++i)
                if (r1.cells[i].status == CellStatus::Completed)
                    cellIndex = i;
            QVERIFY(cellIndex >= 0);
            const QString cellDir = s1 + QLatin1Char('/') + QFileInfo(r1.cells[cellIndex].recordsPath).path();
            QVERIFY2(c.tamper(cellDir, outside.path()), c.name);
            const QString file = QDir::toNativeSeparators(c.file[0] ? cellDir + QLatin1Char('/') + QLatin1String(c.file) : cellDir);
            const QString results = QDir::toNativeSeparators(s1 + QStringLiteral("/results.json"));

            MergedShards merged;
            QVERIFY2(mergeShardFolders({s0, s1}, false, &merged, &error), qPrintable(error));
            QVERIFY2(!checkMergedFiles(merged, &error), c.name);
            QVERIFY2(error.contains(QLatin1String(c.says)) && error.contains(file) && error.contains(results)
                         && error.contains(QStringLiteral("cell %1").arg(cellIndex)),
                     qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(c.name), error)));
            const QString out = dir.filePath(QStringLiteral("merged"));
            QVERIFY(!writeMergedShards(merged, out, &error));
            QVERIFY2(error.contains(file), qPrintable(error));
            QVERIFY(!QFile::exists(out + QStringLiteral("/results.json")));

            if (qEnvironmentVariableIsEmpty("SWEEPBENCH_BINARY"))
                continue;
            const sbtest::CliRun cli = sbtest::runSweepbench({QStringLiteral("merge"), QStringLiteral("-o"), out, s0, s1});
            QVERIFY2(cli.code == 2, qPrintable(QStringLiteral("%1: exit %2: %3").arg(QLatin1String(c.name)).arg(cli.code).arg(cli.err)));
            QVERIFY2(cli.err.contains(file) && cli.err.contains(results), qPrintable(cli.err));
            QVERIFY(!cli.out.contains(QLatin1String("merged")));
            QVERIFY(!QFile::exists(out + QStringLiteral("/results.json")));
        }
    }

    // A shard's results.json may hold only the cells its plan gives it: a cell the owning shard
    // never reached (pending there) but another shard claims as completed is refused.
    void mergeRefusesACellClaimedByAnotherShard()
    {
        QTemporaryDir dir;
        const auto [s0, s1] = copyOfSets(dir);
        QVERIFY(!s0.isEmpty());
        QJsonObject j0 = readJson(s0 + QStringLiteral("/results.json")), j1 = readJson(s1 + QStringLiteral("/results.json"));
        QJsonArray c0 = j0.value(QStringLiteral("cells")).toArray(), c1 = j1.value(QStringLiteral("cells")).toArray();
        int claimed = -1;
        for (int i = 0; i < c0.size() && claimed < 0; ++i)
            if (c0[i].toObject().value(QStringLiteral("status")).toString() == QLatin1String("completed"))
                claimed = i;
        QVERIFY(claimed >= 0);
        // Shard 0 stopped before its cell; shard 1 says it ran it (records and all).
        c1[claimed] = c0[claimed];
        QJsonObject notReached = c0[claimed].toObject();
        notReached.insert(QStringLiteral("status"), QStringLiteral("pending"));
        notReached.insert(QStringLiteral("reason"), QString());
        c0[claimed] = notReached;
        j0.insert(QStringLiteral("cells"), c0);
        j1.insert(QStringLiteral("cells"), c1);
        QVERIFY(writeJson(s0 + QStringLiteral("/results.json"), j0) && writeJson(s1 + QStringLiteral("/results.json"), j1));
        const QString cellDir = QFileInfo(c1[claimed].toObject().value(QStringLiteral("records")).toString()).path();
        QVERIFY(copyTree(s0 + QLatin1Char('/') + cellDir, s1 + QLatin1Char('/') + cellDir));

        MergedShards merged;
        QString error;
        QVERIFY(!mergeShardFolders({s0, s1}, false, &merged, &error));
        QVERIFY2(error.contains(QStringLiteral("shard 1/2 claims cell %1").arg(claimed)) && error.contains(QLatin1String("plans it for itself"))
                     && error.contains(QDir::toNativeSeparators(s1 + QStringLiteral("/results.json"))),
                 qPrintable(error));
        if (qEnvironmentVariableIsEmpty("SWEEPBENCH_BINARY"))
            return;
        const QString out = dir.filePath(QStringLiteral("merged"));
        const sbtest::CliRun cli = sbtest::runSweepbench({QStringLiteral("merge"), QStringLiteral("-o"), out, s0, s1});
        QCOMPARE(cli.code, 2);
        QVERIFY2(cli.err.contains(QStringLiteral("shard 1/2 claims cell %1").arg(claimed)), qPrintable(cli.err));
        QVERIFY(!QFile::exists(out + QStringLiteral("/results.json")));
    }

    // The merged folder gets one sweep.yaml: the shards' must agree, by content (formatting
    // and comments do not count), and each must describe what its own results were measured with.
    void mergeComparesTheShardsSpecs()
    {
        QTemporaryDir dir;
        const auto [s0, s1] = copyOfSets(dir);
        QVERIFY(!s0.isEmpty());
        const QString yaml1 = s1 + QStringLiteral("/sweep.yaml");
        const QByteArray original = readAll(yaml1);
        QVERIFY(original.contains("input_tokens: 16"));
        MergedShards merged;
        QString error;

        // Only formatting differs: merged, with shard 0's text.
        QVERIFY(writeText(yaml1, "# the same sweep, written by hand\n\n" + original + "\n"));
        QVERIFY2(mergeShardFolders({s0, s1}, false, &merged, &error), qPrintable(error));
        QCOMPARE(merged.specYaml, readAll(s0 + QStringLiteral("/sweep.yaml")));

        // A measurement setting differs from what the shard's results say.
        QByteArray tokens = original;
        tokens.replace("input_tokens: 16", "input_tokens: 17");
        QVERIFY(writeText(yaml1, tokens));
        QVERIFY(!mergeShardFolders({s0, s1}, false, &merged, &error));
        QVERIFY2(error.contains(QLatin1String("shard 1/2")) && error.contains(QDir::toNativeSeparators(yaml1))
                     && error.contains(QLatin1String("workload.input_tokens: 16 -> 17")),
                 qPrintable(error));
        if (!qEnvironmentVariableIsEmpty("SWEEPBENCH_BINARY")) {
            const QString out = dir.filePath(QStringLiteral("merged"));
            const sbtest::CliRun cli = sbtest::runSweepbench({QStringLiteral("merge"), QStringLiteral("-o"), out, s0, s1});
            QCOMPARE(cli.code, 2);
            QVERIFY2(cli.err.contains(QDir::toNativeSeparators(yaml1)) && cli.err.contains(QLatin1String("input_tokens")), qPrintable(cli.err));
            QVERIFY(!QFile::exists(out + QStringLiteral("/results.json")));
        }

        // A difference outside the fingerprint (the sweep's name) still differs between shards.
        QByteArray renamed = original;
        renamed.replace("Shard Test", "Another Sweep");
        QVERIFY(renamed != original);
        QVERIFY(writeText(yaml1, renamed));
        QVERIFY(!mergeShardFolders({s0, s1}, false, &merged, &error));
        QVERIFY2(error.contains(QDir::toNativeSeparators(yaml1)) && error.contains(QDir::toNativeSeparators(s0 + QStringLiteral("/sweep.yaml")))
                     && error.contains(QLatin1String("differs")),
                 qPrintable(error));

        // Not a spec at all.
        QVERIFY(writeText(yaml1, "servers: [\n"));
        QVERIFY(!mergeShardFolders({s0, s1}, false, &merged, &error));
        QVERIFY2(error.contains(QDir::toNativeSeparators(yaml1)), qPrintable(error));
    }

    void aFolderOfShardsOpensAsOneSet()
    {
        QString error;
        auto loaded = loadResults(m_sets, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.cells.size(), 6);
        for (const CellResult &c : std::as_const(loaded->results.cells)) {
            QCOMPARE(c.status, CellStatus::Completed);
            QVERIFY2(QFile::exists(loaded->folder + QLatin1Char('/') + c.recordsPath), qPrintable(c.recordsPath));
            // The mock's server metrics series, rebased like the records (docs/server-metrics.md).
            const QString series = toJson(c.serverMetricsInfo).value(QStringLiteral("series")).toString();
            QVERIFY2(!series.isEmpty() && QFile::exists(loaded->folder + QLatin1Char('/') + series), qPrintable(series));
        }
        QVERIFY(!loaded->specYaml.isEmpty());

        // Only one shard there yet: the other's cells are pending and say why.
        QTemporaryDir partial;
        QVERIFY(QDir().mkpath(partial.filePath(QStringLiteral("only/shard-0"))));
        QVERIFY(QFile::copy(m_sets + QStringLiteral("/shard-0/results.json"), partial.filePath(QStringLiteral("only/shard-0/results.json"))));
        loaded = loadResults(partial.filePath(QStringLiteral("only")), &error);
        QVERIFY2(loaded, qPrintable(error));
        int pending = 0;
        for (const CellResult &c : std::as_const(loaded->results.cells))
            if (c.status == CellStatus::Pending) {
                ++pending;
                QVERIFY2(c.reason.contains(QLatin1String("shard 1/2 is missing")), qPrintable(c.reason));
            }
        QVERIFY(pending > 0 && pending < 6);
    }

    void resumeKeepsToItsShard()
    {
        QString failure;
        QCOMPARE(runInto(mockSweep(), m_sets + QStringLiteral("/shard-0"), ShardId{1, 2}, true, nullptr, &failure), int(exitcode::kCannotStart));
        QVERIFY2(failure.contains(QLatin1String("holds shard 0/2")), qPrintable(failure));
        // The same shard resumes: every one of its cells is kept, nothing re-run.
        SweepResults again;
        QCOMPARE(runInto(mockSweep(), m_sets + QStringLiteral("/shard-0"), ShardId{0, 2}, true, &again), 0);
        QCOMPARE(again.cells.size(), 6);
    }

    void anSloSearchIsNotSharded()
    {
        SweepSpec spec = mockSweep();
        spec.sloSearch.enabled = true;
        QString failure;
        QTemporaryDir out;
        QCOMPARE(runInto(spec, out.filePath(QStringLiteral("s")), ShardId{0, 2}, false, nullptr, &failure), int(exitcode::kCannotStart));
        QVERIFY2(failure.contains(QLatin1String("slo_search cannot run sharded")), qPrintable(failure));
        QVERIFY(!QFile::exists(out.filePath(QStringLiteral("s/results.json"))));
    }

    void slurmJobsAreRenderedFromTheTemplates()
    {
        ClusterJobOptions o;
        o.specPath = QStringLiteral("/shared/sweep.yaml");
        o.outDir = QStringLiteral("/shared/out");
        o.shards = 3;
        o.partition = QStringLiteral("gpu");
        o.timeLimit = QStringLiteral("02:00:00");
        QString error;
        const auto files = renderSlurmJobs(mockSweep(), o, &error);
        QVERIFY2(files.size() == 3, qPrintable(error));
        const QByteArray shard = files[0].content, merge = files[1].content, submit = files[2].content;
        QVERIFY(shard.contains("#SBATCH --array=0-2\n"));
        QVERIFY(shard.contains("#SBATCH --partition=gpu\n") && shard.contains("#SBATCH --time=02:00:00\n"));
        QVERIFY(shard.contains("\nspec='/shared/sweep.yaml'\nout='/shared/out'\n"));
        QVERIFY(shard.contains("\"$sweepbench\" run \"$spec\" --shard \"$shard\" --out \"$out/shard-${SLURM_ARRAY_TASK_ID}\""));
        QVERIFY(shard.contains("${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT:-3}"));
        QVERIFY(shard.contains("#   shard 0/3:")); // the plan, for whoever reads the job
        for (const auto &f : files)
            QVERIFY2(!f.content.contains(QByteArray("@") + "SHARDS@") && !f.content.contains("@OUT@"), qPrintable(f.name));
        QVERIFY(merge.contains("\nout='/shared/out'\n\"$sweepbench\" merge -o \"$out/merged\" \"$out\"/shard-*"));
        QVERIFY(submit.contains("--dependency=\"afterok:${array}\""));
        QVERIFY(files[2].executable);

        o.outDir = QStringLiteral("/shared/out dir$(reboot)");
        QVERIFY(renderSlurmJobs(mockSweep(), o, &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("cannot be written on an #SBATCH line")));
        o.outDir = QStringLiteral("relative/out");
        QVERIFY(renderSlurmJobs(mockSweep(), o, &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("absolute")));
        o.outDir = QStringLiteral("/shared/out");
        o.shards = 0;
        QVERIFY(renderSlurmJobs(mockSweep(), o, &error).isEmpty());
    }

    void kubernetesManifestsAreValidYamlAndKeepKeysOut()
    {
        ClusterJobOptions o;
        o.shards = 2;
        o.specText = "name: Shard Test\nservers:\n  - name: a\n    mock: vllm\nsweep: {concurrency: [1]}\n";
        QString error;
        const auto files = renderKubernetesJobs(mockSweep(), o, &error);
        QVERIFY2(files.size() == 3, qPrintable(error));
        const std::vector<YAML::Node> docs = YAML::LoadAll(files[0].content.toStdString());
        QCOMPARE(int(docs.size()), 2);
        QCOMPARE(QString::fromStdString(docs[0]["kind"].as<std::string>()), QStringLiteral("ConfigMap"));
        QCOMPARE(QByteArray::fromStdString(docs[0]["data"]["sweep.yaml"].as<std::string>()), o.specText);
        const YAML::Node job = docs[1];
        QCOMPARE(QString::fromStdString(job["spec"]["completionMode"].as<std::string>()), QStringLiteral("Indexed"));
        QCOMPARE(job["spec"]["completions"].as<int>(), 2);
        QVERIFY(QString::fromStdString(job["spec"]["template"]["spec"]["containers"][0]["args"][0].as<std::string>()).contains(
            QLatin1String("--shard \"$JOB_COMPLETION_INDEX/2\"")));
        QCOMPARE(QString::fromStdString(YAML::Load(files[1].content.toStdString())["kind"].as<std::string>()), QStringLiteral("Job"));

        SweepSpec withKey = mockSweep();
        withKey.servers[0].apiKey = QStringLiteral("sk-INLINE");
        QVERIFY(renderKubernetesJobs(withKey, o, &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("api_key_env")));
    }
};

QTEST_GUILESS_MAIN(TestShards)
#include "tst_shards.moc"
