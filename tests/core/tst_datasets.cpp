// Datasets: `workload.dataset: {format: jsonl|sharegpt|mooncake, path}` reads
// prompts and output lengths from a file, bounded, each malformed line an error naming
// FILE:LINE; the engine replays them in order, a mooncake trace's shared hash_ids become shared
// prompt prefixes of its input_length on the server's tokenizer, and its timestamps are exposed
// for open-loop arrivals.
#include "EngineFixture.h"
#include "GeneratedDatasets.h"
#include "TestSupport.h"
#include "TokenizingServer.h"
#include "workload/Dataset.h"
#include "workload/WorkloadPlan.h"
#include <QDir>
#include <QProcess>
#include <QFile>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QTest>
#include <sys/stat.h>

using namespace sb;

namespace {
QString sample(const char *name)
{
    return qEnvironmentVariable("SWEEPBENCH_SOURCE_DIR") + QStringLiteral("/resources/datasets/") + QLatin1String(name);
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

Dataset load(DatasetFormat format, const QString &path, QString *error)
{
    DatasetSpec spec;
    spec.format = format;
    spec.path = path;
    Dataset d;
    if (!loadDataset(spec, QString(), &d, error))
        return {};
    return d;
}

// Bytes this process has read through read() and its kin so far (Linux), -1 when unknown.
qint64 bytesReadSoFar()
{
    QFile io(QStringLiteral("/proc/self/io"));
    if (!io.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : io.readAll().split('\n'))
        if (line.startsWith("rchar:"))
            return line.mid(6).trimmed().toLongLong();
    return -1;
}

QList<QJsonObject> records(const QString &dir, const CellResult &cell)
{
    return sbtest::readJsonLines(dir + QLatin1Char('/') + cell.recordsPath);
}

SweepSpec datasetSpec(const sbtest::TokenizingServer &s, DatasetFormat format, const QString &path, int requests)
{
    ServerSpec server;
    server.name = QStringLiteral("a");
    server.urls = {QString::fromLatin1(s.server.url())};
    server.model = QStringLiteral("tiny");
    SweepSpec spec = sbtest::smallSpec({server}, {2}, requests);
    spec.workload.dataset = DatasetSpec{format, path, 512};
    return spec;
}
} // namespace

class TestDatasets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void samplesLoad()
    {
        QString error;
        const Dataset jsonl = load(DatasetFormat::Jsonl, sample("prompts.jsonl"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(jsonl.stats.entries, 6);
        QCOMPARE(jsonl.stats.withOutput, 5);
        QVERIFY(!jsonl.entries[2].messagesJson.isEmpty());
        QCOMPARE(jsonl.entries[2].outputTokens, 64);
        QCOMPARE(jsonl.entries[3].outputTokens, -1);

        const Dataset share = load(DatasetFormat::ShareGpt, sample("sharegpt.json"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(share.stats.entries, 3);
        QCOMPARE(share.stats.skipped, 1); // the conversation that starts with the model
        QVERIFY(share.entries[1].textJson.contains("Why does a warm prefix cache"));
        QCOMPARE(share.entries[1].outputChars, int(QStringLiteral("Cached prompt tokens skip prefill, so requests finish sooner than they would on a cold server.").size()));

        const Dataset moon = load(DatasetFormat::Mooncake, sample("mooncake.jsonl"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(moon.stats.entries, 8);
        QCOMPARE(moon.stats.minInput, 300);
        QCOMPARE(moon.stats.maxInput, 2100);
        QVERIFY(moon.stats.uniqueBlocks < moon.stats.blocks);
        const std::vector<double> ts = moon.timestampsMs();
        QCOMPARE(ts.size(), std::size_t(8));
        QCOMPARE(ts[1], 120.0);
        QVERIFY(moon.describe().contains(QStringLiteral("shared")));
    }

    void malformedInputNamesFileAndLine_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("text");
        const int jsonl = int(DatasetFormat::Jsonl), moon = int(DatasetFormat::Mooncake), share = int(DatasetFormat::ShareGpt);
        QTest::newRow("not json") << jsonl << QByteArray("{\"text\": \"a\"}\n\n{\"text\": \"b\"\n") << ":3:" << "not JSON";
        QTest::newRow("no prompt") << jsonl << QByteArray("{\"text\": \"a\"}\n{\"prompt\": \"b\"}\n") << ":2:" << "`text`";
        QTest::newRow("bad messages") << jsonl << QByteArray("{\"messages\": [{\"role\": \"user\"}]}\n") << ":1:" << "messages[0]";
        QTest::newRow("zero output") << jsonl << QByteArray("{\"text\": \"a\", \"output_tokens\": 0}\n") << ":1:" << "output_tokens";
        QTest::newRow("array line") << jsonl << QByteArray("[1, 2]\n") << ":1:" << "JSON object";
        QTest::newRow("empty") << jsonl << QByteArray("\n\n") << "" << "no usable entries";
        QTest::newRow("no input_length") << moon << QByteArray("{\"input_length\": 5, \"output_length\": 1}\n{\"output_length\": 3}\n") << ":2:" << "input_length";
        QTest::newRow("too many blocks") << moon << QByteArray("{\"input_length\": 600, \"output_length\": 1, \"hash_ids\": [1, 2, 3]}\n") << ":1:"
                                         << "hash_ids";
        QTest::newRow("negative id") << moon << QByteArray("{\"input_length\": 600, \"output_length\": 1, \"hash_ids\": [-1]}\n") << ":1:" << "hash_ids[0]";
        QTest::newRow("jsonl timestamp") << jsonl << QByteArray("{\"text\": \"a\", \"timestamp\": 0}\n{\"text\": \"b\", \"timestamp\": -3}\n") << ":2:"
                                         << "timestamp";
        QTest::newRow("bad timestamp") << moon << QByteArray("{\"input_length\": 6, \"output_length\": 1, \"timestamp\": \"soon\"}\n") << ":1:" << "timestamp";
        QTest::newRow("sharegpt syntax") << share << QByteArray("[\n {\"conversations\": []},\n {\"conversations\": [}\n]\n") << ":3:" << "not JSON";
        QTest::newRow("sharegpt entry") << share << QByteArray("[\n {\"conversations\": []},\n\n {\"conversations\": 5}\n]\n") << ":4:"
                                        << "entry 1";
        QTest::newRow("sharegpt turn") << share << QByteArray("[{\"conversations\": [{\"from\": \"human\", \"value\": 3}]}]") << ":1:" << "turn 0";
        QTest::newRow("sharegpt object") << share << QByteArray("{\"conversations\": []}") << ":1:" << "JSON array";
    }
    void malformedInputNamesFileAndLine()
    {
        QFETCH(int, format);
        QFETCH(QByteArray, content);
        QFETCH(QString, where);
        QFETCH(QString, text);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("data.jsonl"), content);
        QString error;
        const Dataset d = load(DatasetFormat(format), path, &error);
        QVERIFY(d.empty());
        QVERIFY2(error.startsWith(path + where) && error.contains(text), qPrintable(error));
    }

    // Sizes the file controls are bounded: a line past 16 MiB is an error at its line, a FIFO or
    // a folder is refused without blocking.
    void boundedReading()
    {
        QTemporaryDir dir;
        QByteArray big = "{\"text\": \"a\"}\n{\"text\": \"";
        big += QByteArray(kMaxDatasetLineBytes + 10, 'x');
        big += "\"}\n{\"text\": \"b\"}\n";
        const QString path = writeFile(dir, QStringLiteral("big.jsonl"), big);
        QString error;
        QVERIFY(load(DatasetFormat::Jsonl, path, &error).empty());
        QVERIFY2(error.startsWith(path + QStringLiteral(":2:")) && error.contains(QStringLiteral("longer than 16 MiB")), qPrintable(error));

        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        for (DatasetFormat f : {DatasetFormat::Jsonl, DatasetFormat::ShareGpt, DatasetFormat::Mooncake}) {
            error.clear();
            QVERIFY(load(f, fifo, &error).empty());
            QVERIFY2(!error.isEmpty(), qPrintable(toString(f)));
        }
        error.clear();
        QVERIFY(load(DatasetFormat::Jsonl, dir.path(), &error).empty());
        QVERIFY(!error.isEmpty());
    }

    // JSONL entries may carry `timestamp` (ms) as mooncake's do, for `arrival: trace`.
    void jsonlTimestampsAreRead()
    {
        QTemporaryDir dir;
        QString error;
        const Dataset d = load(DatasetFormat::Jsonl,
                               writeFile(dir, QStringLiteral("t.jsonl"), "{\"text\": \"a\", \"timestamp\": 1000}\n{\"text\": \"b\", \"timestamp\": 1250.5}\n"),
                               &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(d.stats.timestamps);
        QCOMPARE(d.timestampsMs(), (std::vector<double>{0, 250.5}));
        QVERIFY2(d.describe().contains(QStringLiteral("timestamps over 0.3 s")), qPrintable(d.describe()));
    }

    // A line that never ends is refused once it passes the bound, without reading the rest of the
    // file (a 900 MB file took 16 s to refuse when the reader scanned to its end).
    void aLineWithoutEndIsRefusedAtItsBound()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("endless.jsonl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{\"text\": \"a\"}\n{\"text\": \"") > 0);
            QVERIFY(f.resize(100 * 1024 * 1024)); // sparse: 100 MB of NULs, no newline
        }
        const qint64 before = bytesReadSoFar();
        if (before < 0)
            QSKIP("/proc/self/io is not readable here");
        QString error;
        QVERIFY(load(DatasetFormat::Jsonl, path, &error).empty());
        const qint64 read = bytesReadSoFar() - before;
        QVERIFY2(error.startsWith(path + QStringLiteral(":2:")) && error.contains(QStringLiteral("longer than 16 MiB")), qPrintable(error));
        QVERIFY2(read < kMaxDatasetLineBytes + 4 * 1024 * 1024, qPrintable(QStringLiteral("read %1 bytes").arg(read)));
    }

    // Each entry's line comes from one running count: 100,000 conversations (8 MB) load in about
    // a second where counting from the file's start for each took minutes (past the test
    // function's 5-minute limit), and an error near the end still names its line.
    void manyShareGptConversationsLoadWithTheirLines()
    {
        constexpr int n = 100000;
        QTemporaryDir dir;
        QString error;
        const Dataset d = load(DatasetFormat::ShareGpt, writeFile(dir, QStringLiteral("many.json"), sbtest::shareGptConversations(n)), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(d.stats.entries, n);
        QCOMPARE(d.entries.back().line, sbtest::shareGptEntryLine(n - 1));
        QVERIFY(d.entries.back().textJson.contains("Question 99999:"));

        const int bad = n - 10;
        const QString path = writeFile(dir, QStringLiteral("bad.json"), sbtest::shareGptConversations(n, bad));
        QVERIFY(load(DatasetFormat::ShareGpt, path, &error).empty());
        const QString where = QStringLiteral("%1:%2: entry %3, turn 0").arg(path).arg(sbtest::shareGptEntryLine(bad)).arg(bad);
        QVERIFY2(error.startsWith(where), qPrintable(error));
    }

    // A ShareGPT reply's length is its request's max_tokens: up to the 1,000,000 tokens any
    // requested length may be at 4 characters a token, else an error at its line; a calibration
    // of very few characters a token clamps there too instead of overflowing.
    void shareGptRepliesAreBoundedLikeEveryOutputLength()
    {
        const auto conversation = [](qsizetype replyChars) {
            return "[\n{\"conversations\": [{\"from\": \"human\", \"value\": \"hi\"},\n {\"from\": \"gpt\", \"value\": \""
                   + QByteArray(replyChars, 'x') + "\"}]},\n{\"conversations\": [{\"from\": \"human\", \"value\": \"hi\"}, {\"from\": \"gpt\", \"value\": \""
                   + QByteArray(replyChars + 4, 'x') + "\"}]}\n]\n";
        };
        QTemporaryDir dir;
        QString error;
        const QString path = writeFile(dir, QStringLiteral("long.json"), conversation(qsizetype(kMaxLength) * 4));
        QVERIFY(load(DatasetFormat::ShareGpt, path, &error).empty());
        QVERIFY2(error.startsWith(path + QStringLiteral(":4: entry 1: the reply's 4000004 characters ask for about 1000001 output tokens"))
                     && error.contains(QStringLiteral("more than the 1000000")),
                 qPrintable(error));

        error.clear();
        const Dataset d = load(DatasetFormat::ShareGpt, writeFile(dir, QStringLiteral("ok.json"), conversation(qsizetype(kMaxLength) * 4 - 4)), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(d.stats.entries, 2);
        QCOMPARE(d.entries[1].outputChars, kMaxLength * 4);
        const auto shared = std::make_shared<const Dataset>(d);
        QCOMPARE(WorkloadPlan(WorkloadSpec{}, FillerMap(), shared).at(0, false).outputTokens, kMaxLength - 1);
        // A calibration at 0.001 characters a token: 4 billion tokens, clamped to the bound.
        QCOMPARE(WorkloadPlan(WorkloadSpec{}, FillerMap({{1000, 1}, {2000, 2}}), shared).at(0, false).outputTokens, kMaxLength);
    }

    void relativePathsFollowTheSpecFile()
    {
        DatasetSpec spec;
        spec.path = QStringLiteral("data/p.jsonl");
        QCOMPARE(resolveDatasetPath(spec, QStringLiteral("/srv/sweeps/a.yaml")), QStringLiteral("/srv/sweeps/data/p.jsonl"));
        spec.path = QStringLiteral("/abs/p.jsonl");
        QCOMPARE(resolveDatasetPath(spec, QStringLiteral("/srv/sweeps/a.yaml")), QStringLiteral("/abs/p.jsonl"));
    }

    // The engine sends the file's prompts in order (chat messages as written), max_tokens from
    // the entry or the workload, and records no requested input length for text it did not size.
    void engineReplaysJsonl()
    {
        sbtest::TokenizingServer s;
        SweepSpec spec = datasetSpec(s, DatasetFormat::Jsonl, sample("prompts.jsonl"), 6);
        spec.workload.outputTokens = 20;
        spec.workload.warmupRequests = 2;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        QString error;
        const Dataset d = load(DatasetFormat::Jsonl, sample("prompts.jsonl"), &error);
        QList<QJsonObject> bodies;
        {
            std::lock_guard lock(s.mutex);
            bodies = s.bodies;
        }
        QCOMPARE(bodies.size(), 8);
        // Warmup takes entries from the end: the last two, newest first.
        QVERIFY(sbtest::promptOf(bodies[0]).contains(QStringLiteral("Summarise")) || sbtest::promptOf(bodies[1]).contains(QStringLiteral("Summarise")));
        QSet<QString> measured;
        for (qsizetype i = 2; i < bodies.size(); ++i)
            measured.insert(QString::fromUtf8(QJsonDocument(bodies[i].value(QStringLiteral("messages")).toArray()).toJson(QJsonDocument::Compact)));
        for (const DatasetEntry &e : d.entries) {
            const QByteArray messages = e.messagesJson.isEmpty() ? "[{\"content\":" + e.textJson + ",\"role\":\"user\"}]" : e.messagesJson;
            QVERIFY2(measured.contains(QString::fromUtf8(messages)), messages.constData());
        }
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        for (const QJsonObject &rec : records(dir.path(), cell)) {
            QVERIFY(rec.value(QStringLiteral("requested_input_tokens")).isNull());
            const DatasetEntry &e = d.entries[std::size_t(rec.value(QStringLiteral("i")).toInt())];
            QCOMPARE(rec.value(QStringLiteral("requested_output_tokens")).toInt(), e.outputTokens > 0 ? e.outputTokens : 20);
            QCOMPARE(rec.value(QStringLiteral("output_tokens")).toInt(), rec.value(QStringLiteral("requested_output_tokens")).toInt());
        }
    }

    // The spec names only the dataset's path: the file's sha256 is in the spec fingerprint, so a
    // resume over a changed file is refused (naming it) instead of mixing cells of two datasets.
    void aChangedDatasetFileRefusesAResume()
    {
        sbtest::TokenizingServer s;
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("d.jsonl"), "{\"text\": \"one two three\"}\n{\"text\": \"four five\"}\n");
        const SweepSpec spec = datasetSpec(s, DatasetFormat::Jsonl, path, 2);
        const QString out = dir.filePath(QStringLiteral("out"));
        QCOMPARE(sbtest::runSweep(spec, out).exitCode, 0);
        const QString fp = QString::fromUtf8(QJsonDocument(toJson(sbtest::runSweep(spec, out, true).results.specFingerprint)).toJson());
        QString error;
        const Dataset d = load(DatasetFormat::Jsonl, path, &error);
        QCOMPARE(d.sha256.size(), 64);
        QVERIFY2(fp.contains(d.sha256), qPrintable(fp)); // same file: the resume is accepted and names its hash

        writeFile(dir, QStringLiteral("d.jsonl"), "{\"text\": \"one two three\"}\n{\"text\": \"four five six\"}\n");
        SweepEngine engine(spec, RunOptions{out, true});
        QSignalSpy finished(&engine, &SweepEngine::finished);
        engine.start();
        QVERIFY(sbtest::waitForSignal(finished, 60000));
        QCOMPARE(finished.first().first().toInt(), exitcode::kCannotStart);
        QVERIFY2(engine.failureMessage().contains(QLatin1String("workload.dataset.sha256")), qPrintable(engine.failureMessage()));
    }

    void completionsGetTheMessagesJoined()
    {
        sbtest::TokenizingServer s;
        SweepSpec spec = datasetSpec(s, DatasetFormat::Jsonl, sample("prompts.jsonl"), 6);
        spec.servers[0].endpoint = Endpoint::Completions;
        QTemporaryDir dir;
        QCOMPARE(sbtest::runSweep(spec, dir.path()).exitCode, 0);
        std::lock_guard lock(s.mutex);
        QStringList prompts;
        for (const QJsonObject &b : s.bodies)
            prompts.append(b.value(QStringLiteral("prompt")).toString());
        QVERIFY2(prompts.contains(QStringLiteral("You are a terse assistant.\nList three things that raise time to first token.")),
                 qPrintable(prompts.join(QLatin1Char('|'))));
    }

    // A mooncake trace: each request's prompt is input_length tokens on the server's tokenizer
    // (calibrated), blocks with equal hash_ids are equal text so the trace's prefix sharing is
    // sent as such, and output_length is max_tokens.
    void mooncakeReplaysLengthsAndSharedPrefixes()
    {
        sbtest::TokenizingServer s;
        SweepSpec spec = datasetSpec(s, DatasetFormat::Mooncake, sample("mooncake.jsonl"), 8);
        spec.workload.calibratePrompts = true;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QString error;
        const Dataset d = load(DatasetFormat::Mooncake, sample("mooncake.jsonl"), &error);
        double worst = 0;
        for (const QJsonObject &rec : records(dir.path(), cell)) {
            const DatasetEntry &e = d.entries[std::size_t(rec.value(QStringLiteral("i")).toInt())];
            QCOMPARE(rec.value(QStringLiteral("requested_input_tokens")).toInt(), e.inputTokens);
            QCOMPARE(rec.value(QStringLiteral("requested_output_tokens")).toInt(), e.outputTokens);
            const double off = std::abs(rec.value(QStringLiteral("input_tokens")).toDouble() - e.inputTokens) / e.inputTokens;
            worst = std::max(worst, off);
        }
        qInfo("mooncake: worst request %.2f %% off its input_length", worst * 100);
        QVERIFY2(worst <= 0.02, qPrintable(QString::number(worst)));
        QHash<int, QString> promptByLength; // input_length is unique per entry in the sample
        {
            std::lock_guard lock(s.mutex);
            for (const QJsonObject &b : s.bodies)
                promptByLength.insert(b.value(QStringLiteral("max_tokens")).toInt() * 100000 + int(sbtest::promptOf(b).size()), sbtest::promptOf(b));
        }
        QCOMPARE(promptByLength.size(), 8);
        // Entries 0 [1,2,3] and 1 [1,2,3,4] share three whole blocks; entries 2 [5,6] and 4 [5,8]
        // share one; entries 0 and 2 share nothing after the cell's tag.
        const auto prompt = [&](int entry) {
            const DatasetEntry &e = d.entries[std::size_t(entry)];
            for (auto it = promptByLength.cbegin(); it != promptByLength.cend(); ++it)
                if (it.key() / 100000 == e.outputTokens && it.value().contains(QStringLiteral("#%1 ").arg(e.hashIds.back())))
                    return it.value();
            return QString();
        };
        const auto common = [](const QString &a, const QString &b) {
            qsizetype n = 0;
            while (n < a.size() && n < b.size() && a[n] == b[n])
                ++n;
            return n;
        };
        const QString p0 = prompt(0), p1 = prompt(1), p2 = prompt(2), p4 = prompt(4);
        QVERIFY(!p0.isEmpty() && !p1.isEmpty() && !p2.isEmpty() && !p4.isEmpty());
        const qsizetype tag = p0.indexOf(QLatin1Char('#'));
        QVERIFY(common(p0, p1) >= p0.size() * 0.9);          // all of entry 0's 1200 tokens but a partial block
        QVERIFY(common(p2, p4) > tag + (p2.size() - tag) / 3); // one 512-token block of ~600
        QCOMPARE(common(p0, p2), tag + 1);                    // only the tag and '#'
    }

    // `validate` reports the dataset's statistics, and a bad line with its FILE:LINE (exit 2).
    void validateReportsTheDataset()
    {
        const QString binary = qEnvironmentVariable("SWEEPBENCH_BINARY");
        if (binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QTemporaryDir dir;
        writeFile(dir, QStringLiteral("trace.jsonl"), "{\"input_length\": 5, \"output_length\": 2, \"hash_ids\": [1]}\n");
        const QString spec = writeFile(dir, QStringLiteral("s.yaml"),
                                       "servers: [{name: a, url: 'http://127.0.0.1:9', model: m}]\n"
                                       "workload: {dataset: {format: mooncake, path: trace.jsonl}}\n"
                                       "sweep: {concurrency: [1]}\n");
        QProcess p;
        p.start(binary, {QStringLiteral("validate"), spec});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(p.readAllStandardOutput().contains("mooncake dataset trace.jsonl: 1 requests, input 5-5 tokens"), "no dataset line");

        writeFile(dir, QStringLiteral("trace.jsonl"), "{\"input_length\": 5, \"output_length\": 2}\n{\"input_length\": 5}\n");
        p.start(binary, {QStringLiteral("validate"), spec});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains(QFile::encodeName(dir.filePath(QStringLiteral("trace.jsonl"))) + ":2: output_length"), err.constData());
    }

    // A dataset that cannot be read stops the run before anything is written.
    void badDatasetRefusesTheRun()
    {
        sbtest::TokenizingServer s;
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("bad.jsonl"), "{\"text\": \"a\"}\n{\"text\": 5}\n");
        SweepSpec spec = datasetSpec(s, DatasetFormat::Jsonl, path, 2);
        const QString out = dir.filePath(QStringLiteral("out"));
        const auto r = sbtest::runSweep(spec, out);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(out + QStringLiteral("/results.json")));
        QCOMPARE(s.bodies.size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestDatasets)
#include "tst_datasets.moc"
