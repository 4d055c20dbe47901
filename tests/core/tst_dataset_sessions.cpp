// Datasets read as sessions (workload.sessions with a dataset): a ShareGPT conversation's user
// turns replayed in order with the server's own answers as history, mooncake entries grouped by
// session_id and paced by their `delay`, the records and per-turn rows they make, the errors bad
// input gets; and synthetic images carried through a session's history.
#include "EngineFixture.h"
#include "DatasetSessionFixture.h"
#include "TestSupport.h"
#include "metrics/MetricCatalogue.h"
#include "spec/SpecIO.h"
#include "workload/Dataset.h"
#include "tst_spec_helpers.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <mutex>

using namespace sb;
using namespace dstest;

namespace {

QString textOf(const DatasetEntry &e) { return QJsonDocument::fromJson('[' + e.textJson + ']').array().at(0).toString(); }

// Four conversations: two turns (a third user message nobody answered is not sent), an empty
// one and one with only a reply (both skipped), and one opening with a system message and two
// user messages in a row.
const QByteArray kShareGpt = R"([
  {"id": "a", "conversations": [
    {"from": "human", "value": "first question"},
    {"from": "gpt", "value": "0123456789012345678901234567890123456789"},
    {"from": "human", "value": "second question"},
    {"from": "gpt", "value": "01234567890123456789"},
    {"from": "human", "value": "left unanswered"}]},
  {"id": "empty", "conversations": []},
  {"id": "reply-only", "conversations": [{"from": "gpt", "value": "hello"}]},
  {"id": "c", "conversations": [
    {"from": "system", "value": "be brief"},
    {"from": "human", "value": "part one"},
    {"from": "human", "value": "part two"},
    {"from": "gpt", "value": "012345678901"}]}
]
)";

// Sessions "a" (a string id) and 7 (an integer id) interleaved, and one entry without an id.
// Turn 2 of "a" repeats turn 1's two blocks and waits 150 ms after its answer.
const QByteArray kMooncake = R"({"session_id": "a", "input_length": 32, "output_length": 3, "hash_ids": [1, 2]}
{"session_id": 7, "input_length": 32, "output_length": 2, "hash_ids": [5, 6]}
{"session_id": "a", "input_length": 64, "output_length": 4, "hash_ids": [1, 2, 3, 4], "delay": 150}
{"input_length": 32, "output_length": 2, "hash_ids": [9, 10]}
{"session_id": 7, "input_length": 48, "output_length": 3, "hash_ids": [5, 8, 11]}
)";

SpecDiagnostic firstError(const SpecLoadResult &r)
{
    for (const SpecDiagnostic &d : r.diagnostics)
        if (d.isError())
            return d;
    return {};
}

} // namespace

class TestDatasetSessions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void shareGptConversationsBecomeSessions()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("chat.json"), kShareGpt);
        Dataset d;
        QString error;
        QVERIFY2(load(DatasetFormat::ShareGpt, path, true, &d, &error), qPrintable(error));
        QCOMPARE(int(d.sessions.size()), 2);
        QCOMPARE(d.stats.sessions, 2);
        QCOMPARE(d.stats.skipped, 2); // the empty conversation and the one with only a reply
        QCOMPARE(d.stats.maxTurns, 2);
        QCOMPARE(int(d.sessions[0].turns), 2);
        QCOMPARE(textOf(d.turnEntry(0, 1, false)), QStringLiteral("first question"));
        QCOMPARE(d.turnEntry(0, 1, false).outputChars, 40);
        QCOMPARE(textOf(d.turnEntry(0, 2, false)), QStringLiteral("second question"));
        QCOMPARE(d.turnEntry(0, 2, false).outputChars, 20);
        QCOMPARE(int(d.sessions[1].turns), 1);
        QCOMPARE(textOf(d.turnEntry(1, 1, false)), QStringLiteral("part one\npart two")); // the system message is not a turn
        QCOMPARE(d.turnEntry(1, 1, false).line, 10); // where the conversation starts
        // Sessions wrap around; warmup sessions come from the end.
        QCOMPARE(textOf(d.turnEntry(2, 1, false)), QStringLiteral("first question"));
        QCOMPARE(textOf(d.turnEntry(0, 1, true)), QStringLiteral("part one\npart two"));
        QVERIFY2(d.describe().contains(QLatin1String("in 2 sessions of up to 2 turns")), qPrintable(d.describe()));

        // Without sessions the same file is one request per conversation, as before.
        Dataset single;
        QVERIFY2(load(DatasetFormat::ShareGpt, path, false, &single, &error), qPrintable(error));
        QVERIFY(single.sessions.empty());
        QCOMPARE(int(single.entries.size()), 2);
    }

    void mooncakeEntriesAreGroupedBySessionId()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace.jsonl"), kMooncake);
        Dataset d;
        QString error;
        QVERIFY2(load(DatasetFormat::Mooncake, path, true, &d, &error), qPrintable(error));
        QCOMPARE(int(d.sessions.size()), 3);
        // In order of each session's first line; turns in file order.
        const QList<QList<int>> lines = {{1, 3}, {2, 5}, {4}};
        for (int s = 0; s < 3; ++s) {
            QCOMPARE(int(d.sessions[std::size_t(s)].turns), lines[s].size());
            for (int t = 0; t < lines[s].size(); ++t)
                QCOMPARE(d.turnEntry(s, t + 1, false).line, lines[s][t]);
        }
        QCOMPARE(d.turnEntry(0, 2, false).delayMs, 150);
        QCOMPARE(d.turnEntry(0, 1, false).delayMs, -1);
        // Without sessions: one request per line, in file order, the ids ignored.
        Dataset single;
        QVERIFY2(load(DatasetFormat::Mooncake, path, false, &single, &error), qPrintable(error));
        QVERIFY(single.sessions.empty());
        QCOMPARE(single.entries[1].line, 2);
    }

    void sessionTimestampsAreTheFirstTurns()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("t.jsonl"),
                                       "{\"session_id\": \"x\", \"input_length\": 4, \"output_length\": 1, \"timestamp\": 1000}\n"
                                       "{\"session_id\": \"y\", \"input_length\": 4, \"output_length\": 1, \"timestamp\": 1500}\n"
                                       "{\"session_id\": \"x\", \"input_length\": 8, \"output_length\": 1, \"timestamp\": 1700}\n"
                                       "{\"session_id\": \"z\", \"input_length\": 4, \"output_length\": 1, \"timestamp\": 3000}\n");
        Dataset d;
        QString error;
        QVERIFY2(load(DatasetFormat::Mooncake, path, true, &d, &error), qPrintable(error));
        QCOMPARE(d.timestampsMs(), (std::vector<double>{0, 500, 2000}));
    }

    void badSessionInputIsAnErrorAtItsLine_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("session_id bool") << int(DatasetFormat::Mooncake)
                                         << QByteArray("{\"session_id\": \"a\", \"input_length\": 4, \"output_length\": 1}\n"
                                                       "{\"session_id\": true, \"input_length\": 4, \"output_length\": 1}\n")
                                         << QStringLiteral("chat:2: session_id: expected a non-empty string or an integer");
        QTest::newRow("session_id fraction") << int(DatasetFormat::Mooncake)
                                             << QByteArray("{\"session_id\": 1.5, \"input_length\": 4, \"output_length\": 1}\n")
                                             << QStringLiteral("chat:1: session_id: expected");
        QTest::newRow("session_id object") << int(DatasetFormat::Mooncake)
                                           << QByteArray("\n{\"session_id\": {}, \"input_length\": 4, \"output_length\": 1}\n")
                                           << QStringLiteral("chat:2: session_id: expected");
        QByteArray long_;
        for (int i = 0; i < 1001; ++i)
            long_ += "{\"session_id\": \"a\", \"input_length\": 4, \"output_length\": 1}\n";
        QTest::newRow("1001 turns") << int(DatasetFormat::Mooncake) << long_ << QStringLiteral("chat:1001: session_id a: more than 1000 turns");
        QTest::newRow("delay negative") << int(DatasetFormat::Mooncake)
                                        << QByteArray("{\"session_id\": 1, \"input_length\": 4, \"output_length\": 1, \"delay\": -3}\n")
                                        << QStringLiteral("chat:1: delay: expected milliseconds from 0 to 3600000");
    }
    void badSessionInputIsAnErrorAtItsLine()
    {
        QFETCH(int, format);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("chat"), content);
        Dataset d;
        QString error;
        QVERIFY(!load(DatasetFormat(format), path, true, &d, &error));
        QVERIFY2(error.startsWith(dir.path()) && error.contains(expected), qPrintable(error));
    }

    void specRulesForDatasetSessions_data()
    {
        QTest::addColumn<QByteArray>("workload");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("text");
        QTest::newRow("turns") << QByteArray("  dataset: {format: sharegpt, path: d.json}\n  sessions: {turns: 3}\n")
                               << QStringLiteral("workload.sessions.turns") << QStringLiteral("gives its own turns");
        QTest::newRow("follow-ups") << QByteArray("  dataset: {format: mooncake, path: d.jsonl}\n  sessions: {follow_up_tokens: 8}\n")
                                    << QStringLiteral("workload.sessions.follow_up_tokens") << QStringLiteral("gives each turn's message");
    }
    void specRulesForDatasetSessions()
    {
        QFETCH(QByteArray, workload);
        QFETCH(QString, key);
        QFETCH(QString, text);
        const SpecDiagnostic d = firstError(loadSpecText(QByteArray(spectest::kMinimal) + "workload:\n" + workload));
        QCOMPARE(d.keyPath, key);
        QVERIFY2(d.message.contains(text), qPrintable(d.message));
    }

    void datasetSessionSpecLoadsAndWritesBack()
    {
        const SpecLoadResult r = loadSpecText(QByteArray(spectest::kMinimal) +
                                              "workload:\n  dataset: {format: sharegpt, path: d.json}\n  sessions: {think_time_ms: 20, session_header: X-S}\n");
        QVERIFY2(r.spec && r.diagnostics.isEmpty(), qPrintable(spectest::dump(r.diagnostics)));
        const QByteArray yaml = saveSpecYaml(*r.spec);
        QVERIFY2(!yaml.contains("turns:"), yaml.constData()); // the dataset gives them
        const SpecLoadResult again = loadSpecText(yaml);
        QVERIFY2(again.spec && again.diagnostics.isEmpty(), qPrintable(spectest::dump(again.diagnostics)));
        QCOMPARE(again.spec->workload.sessions->thinkTimeMs, 20);
    }

    // The real engine over loopback: each conversation is one session, its turns in order, each
    // later turn carrying the earlier user messages and the server's OWN answers (not the
    // dataset's), max_tokens from the dataset's reply, and records and by_turn like synthetic
    // sessions'.
    void shareGptSessionsReplayTheConversation()
    {
        ChatServer server;
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("chat.json"), kShareGpt);
        const SweepSpec spec = datasetSessionSpec(QString::fromLatin1(server.server.url()), DatasetFormat::ShareGpt, path, 5);
        const auto r = sbtest::runSweep(spec, dir.filePath(QStringLiteral("out")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.failure));
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.completed, 5);
        {
            std::lock_guard lock(server.mutex);
            QCOMPARE(server.seen.size(), 5);
        }
        // One connection: session 0 (two turns), session 1 (one), session 0 again (two turns).
        const QList<QStringList> expected = {{QStringLiteral("first question")},
                                             {QStringLiteral("first question"), QStringLiteral("r0-0 r0-1 r0-2 r0-3 r0-4 r0-5 r0-6 r0-7 r0-8 r0-9 "),
                                              QStringLiteral("second question")},
                                             {QStringLiteral("part one\npart two")},
                                             {QStringLiteral("first question")},
                                             {QStringLiteral("first question"), QStringLiteral("r3-0 r3-1 r3-2 r3-3 r3-4 r3-5 r3-6 r3-7 r3-8 r3-9 "),
                                              QStringLiteral("second question")}};
        const QList<int> maxTokens = {10, 5, 3, 10, 5}; // the dataset's replies at 4 characters a token
        for (int i = 0; i < 5; ++i) {
            const QJsonArray messages = server.messages(i);
            QCOMPARE(contentsOf(messages), expected[i]);
            if (messages.size() == 3)
                QCOMPARE(messages.at(1).toObject().value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
            std::lock_guard lock(server.mutex);
            QCOMPARE(server.seen[i].body.value(QStringLiteral("max_tokens")).toInt(), maxTokens[i]);
        }
        {
            std::lock_guard lock(server.mutex); // the two turns of a session name the same session
            QCOMPARE(hostile::headerValue(server.seen[0].head, "X-Session-ID"), hostile::headerValue(server.seen[1].head, "X-Session-ID"));
            QVERIFY(hostile::headerValue(server.seen[1].head, "X-Session-ID") != hostile::headerValue(server.seen[2].head, "X-Session-ID"));
        }
        const QList<QJsonObject> records = recordsOf(dir.filePath(QStringLiteral("out")), cell);
        QCOMPARE(records.size(), 5);
        const QList<int> sessions = {0, 0, 1, 2, 2}, turns = {1, 2, 1, 1, 2};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(records[i].value(QStringLiteral("session_id")).toInt(), sessions[i]);
            QCOMPARE(records[i].value(QStringLiteral("turn")).toInt(), turns[i]);
            QCOMPARE(records[i].value(QStringLiteral("requested_output_tokens")).toInt(), maxTokens[i]);
        }
        QVERIFY(records[0].value(QStringLiteral("history_tokens")).isNull());
        QCOMPARE(records[1].value(QStringLiteral("history_tokens")).toInt(),
                 records[0].value(QStringLiteral("input_tokens")).toInt() + records[0].value(QStringLiteral("output_tokens")).toInt());
        QCOMPARE(int(cell.byTurn.size()), 2);
        QCOMPARE(cell.byTurn[0].completed, 3);
        QCOMPARE(cell.byTurn[1].completed, 2);
        QVERIFY(cell.byTurn[1].historyTokensAvg > 0);
        QVERIFY(cell.prefixCache && cell.prefixCache->sessions);
        QVERIFY(cell.prefixCache->idealShare > 0.3);
    }

    // Mooncake sessions: grouped by id and sent in order on one connection, each turn the trace's
    // whole prompt (no spliced history: its blocks repeat the earlier turn's), the `delay` kept
    // after the answer, and history_tokens the blocks the turn repeats.
    void mooncakeSessionsGroupByIdAndKeepTheirDelay()
    {
        ChatServer server;
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace.jsonl"), kMooncake);
        const SweepSpec spec = datasetSessionSpec(QString::fromLatin1(server.server.url()), DatasetFormat::Mooncake, path, 5);
        const auto r = sbtest::runSweep(spec, dir.filePath(QStringLiteral("out")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.failure));
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.completed, 5);
        QStringList prompts;
        for (int i = 0; i < 5; ++i) {
            const QJsonArray messages = server.messages(i);
            QCOMPARE(messages.size(), 1);
            prompts.append(contentOf(messages.at(0).toObject()));
        }
        // Session "a" (hash ids 1 2, then 1 2 3 4), session 7 (5 6, then 5 8 11), the lone entry.
        const QList<QStringList> blocks = {{"#1", "#2"}, {"#1", "#2", "#3", "#4"}, {"#5", "#6"}, {"#5", "#8", "#11"}, {"#9", "#10"}};
        for (int i = 0; i < 5; ++i) {
            QStringList ids;
            static const QRegularExpression blockId(QStringLiteral("#\\d+ ")); // a block opens with its id
            for (auto it = blockId.globalMatch(prompts[i]); it.hasNext();)
                ids.append(it.next().captured().trimmed());
            QVERIFY2(ids == blocks[i], qPrintable(prompts[i]));
        }
        // Turn 2 of "a" starts with turn 1's whole text (its two blocks), so a prefix cache serves them.
        QVERIFY(prompts[1].size() > prompts[0].size() && prompts[1].startsWith(prompts[0]));
        {
            std::lock_guard lock(server.mutex);
            const qint64 gap = server.seen[1].atMs - server.seen[0].atMs;
            QVERIFY2(gap >= 140, qPrintable(QString::number(gap))); // the trace's delay: 150 ms
        }
        const QList<QJsonObject> records = recordsOf(dir.filePath(QStringLiteral("out")), cell);
        QCOMPARE(records.size(), 5);
        const QList<int> sessions = {0, 0, 1, 1, 2}, turns = {1, 2, 1, 2, 1}, history = {-1, 32, -1, 16, -1};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(records[i].value(QStringLiteral("session_id")).toInt(), sessions[i]);
            QCOMPARE(records[i].value(QStringLiteral("turn")).toInt(), turns[i]);
            QCOMPARE(records[i].value(QStringLiteral("history_tokens")).toInt(-1), history[i]);
        }
        QCOMPARE(int(cell.byTurn.size()), 2);
        QCOMPARE(cell.byTurn[0].completed, 3);
        QCOMPARE(cell.byTurn[1].completed, 2);
        QVERIFY(cell.prefixCache && cell.prefixCache->idealShare > 0);
    }

    // An open-loop `arrival: trace` replay: sessions start at their first turn's timestamp (the
    // trace's own rate counts sessions), and a later turn without `delay` goes at its own
    // timestamp at the point's speed, not as soon as the answer it follows is in.
    void mooncakeTraceSessionsKeepTheirTimestamps()
    {
        ChatServer server;
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace.jsonl"),
                                       "{\"session_id\": \"x\", \"timestamp\": 0, \"input_length\": 32, \"output_length\": 2, \"hash_ids\": [1, 2]}\n"
                                       "{\"session_id\": \"y\", \"timestamp\": 200, \"input_length\": 32, \"output_length\": 2, \"hash_ids\": [3, 4]}\n"
                                       "{\"session_id\": \"x\", \"timestamp\": 500, \"input_length\": 48, \"output_length\": 2, \"hash_ids\": [1, 2, 5]}\n");
        SweepSpec spec = datasetSessionSpec(QString::fromLatin1(server.server.url()), DatasetFormat::Mooncake, path, 3);
        spec.concurrency.clear();
        spec.openLoop.rates = {10}; // the sessions' own rate is 1 / 0.2 s: replayed at twice its speed
        spec.openLoop.arrival = Arrival::Trace;
        spec.openLoop.maxConcurrency = 2;
        const auto r = sbtest::runSweep(spec, dir.filePath(QStringLiteral("out")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.failure));
        QCOMPARE(r.results.cells.at(0).completed, 3);
        std::lock_guard lock(server.mutex);
        QCOMPARE(server.seen.size(), 3);
        QStringList order;
        for (const auto &seen : server.seen)
            order.append(contentOf(seen.body.value(QStringLiteral("messages")).toArray().at(0).toObject()).contains(QLatin1String("#5 "))
                             ? QStringLiteral("x2")
                             : contentOf(seen.body.value(QStringLiteral("messages")).toArray().at(0).toObject()).contains(QLatin1String("#3 "))
                             ? QStringLiteral("y1")
                             : QStringLiteral("x1"));
        QCOMPARE(order, (QStringList{QStringLiteral("x1"), QStringLiteral("y1"), QStringLiteral("x2")}));
        const qint64 y = server.seen[1].atMs - server.seen[0].atMs, x2 = server.seen[2].atMs - server.seen[0].atMs;
        QVERIFY2(y >= 80 && y < 300, qPrintable(QString::number(y)));    // 200 ms of trace at twice its speed
        QVERIFY2(x2 >= 230 && x2 < 600, qPrintable(QString::number(x2))); // 500 ms of trace: 250 ms after x began
    }

    // Images with sessions: turn 1's user message carries them, every later turn re-sends them in
    // its history (as a chat client does), and each record counts them.
    void imagesRideInTheSessionHistory()
    {
        ChatServer server;
        QTemporaryDir dir;
        SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(QString::fromLatin1(server.server.url()), QStringLiteral("s"))}, {1}, 3);
        SessionSpec s;
        s.turns = 3;
        spec.workload.sessions = s;
        spec.workload.outputTokens = 2;
        spec.workload.images = ImageSpec{2, 32, 32, ImageFormat::Png};
        const auto r = sbtest::runSweep(spec, dir.filePath(QStringLiteral("out")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.failure));
        const auto imageParts = [](const QJsonObject &m) {
            int n = 0;
            const QJsonValue c = m.value(QStringLiteral("content"));
            for (const QJsonValue &part : c.toArray())
                n += part.toObject().value(QStringLiteral("type")).toString() == QLatin1String("image_url");
            return n;
        };
        const QJsonArray first = server.messages(0), third = server.messages(2);
        QCOMPARE(first.size(), 1);
        QCOMPARE(imageParts(first.at(0).toObject()), 2);
        QCOMPARE(third.size(), 5);
        QCOMPARE(third.at(0).toObject(), first.at(0).toObject()); // the same images, in the history
        QCOMPARE(imageParts(third.at(2).toObject()), 0);            // later messages are text
        QCOMPARE(imageParts(third.at(4).toObject()), 0);
        const QList<QJsonObject> records = recordsOf(dir.filePath(QStringLiteral("out")), r.results.cells.at(0));
        QCOMPARE(records.size(), 3);
        for (const QJsonObject &rec : records) {
            QCOMPARE(rec.value(QStringLiteral("images")).toInt(), 2);
            QCOMPARE(rec.value(QStringLiteral("image_bytes")).toInteger(), records[0].value(QStringLiteral("image_bytes")).toInteger());
        }
    }

    // Against the embedded vLLM mock, which charges every image prefill: each turn re-sends the
    // images, so every turn's prompt counts them, and the cell's metrics name them.
    void mockChargesTheImagesOfEveryTurn()
    {
        ServerSpec m;
        m.name = QStringLiteral("m");
        m.mock = QStringLiteral("vllm");
        m.model = QStringLiteral("demo-model");
        m.flavor = Flavor::Vllm;
        SweepSpec spec = sbtest::smallSpec({m}, {1}, 4);
        SessionSpec s;
        s.turns = 2;
        s.followUpTokens = 8;
        spec.workload.sessions = s;
        spec.workload.outputTokens = 4;
        spec.workload.images = ImageSpec{3, 32, 32, ImageFormat::Png};
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.failure));
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.completed, 4);
        QCOMPARE(cell.metrics.value(tag::imageCount).avg, 3.0);
        const QList<QJsonObject> records = recordsOf(dir.path(), cell);
        QCOMPARE(records.size(), 4);
        for (const QJsonObject &rec : records) {
            QCOMPARE(rec.value(QStringLiteral("images")).toInt(), 3);
            QVERIFY2(rec.value(QStringLiteral("input_tokens")).toInt() > 3 * 256, qPrintable(QJsonDocument(rec).toJson()));
        }
        // Turn 2 holds turn 1's prompt (its images too) and answer, and its own message.
        QVERIFY(records[1].value(QStringLiteral("input_tokens")).toInt() >
                records[0].value(QStringLiteral("input_tokens")).toInt() + records[0].value(QStringLiteral("output_tokens")).toInt());
    }
};

QTEST_GUILESS_MAIN(TestDatasetSessions)
#include "tst_dataset_sessions.moc"
