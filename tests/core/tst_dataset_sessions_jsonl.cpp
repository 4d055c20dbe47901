// A jsonl dataset read as sessions (docs/spec-reference.md "Sessions from a dataset"): entries
// sharing a session_id are one session's turns, each `text` the next user message after the
// earlier turns and the server's own answers; `delay` paces a turn; an entry carrying a
// `messages` conversation of its own is an error at its line.
#include "DatasetSessionFixture.h"
#include "spec/SpecIO.h"
#include "tst_spec_helpers.h"
#include <QTest>

using namespace sb;
using namespace dstest;

namespace {
// Session "a" (a string id) and 7 (an integer id) interleaved, and one entry without an id.
// Turn 2 of "a" asks for 3 tokens and waits 150 ms after turn 1's answer.
// (Not a raw string: moc's tokenizer takes the escaped quote inside one for its end.)
const QByteArray kJsonl = "{\"session_id\": \"a\", \"text\": \"plan the trip\", \"output_tokens\": 2}\n"
                          "{\"session_id\": 7, \"text\": \"hello\"}\n"
                          "{\"session_id\": \"a\", \"text\": \"now \\\"book\\\" it\", \"output_tokens\": 3, \"delay\": 150}\n"
                          "{\"text\": \"a lone question\", \"output_tokens\": 1}\n"
                          "{\"session_id\": 7, \"text\": \"and again\"}\n";
} // namespace

class TestDatasetSessionsJsonl : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void entriesAreGroupedBySessionId()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("chat.jsonl"), kJsonl);
        Dataset d;
        QString error;
        QVERIFY2(load(DatasetFormat::Jsonl, path, true, &d, &error), qPrintable(error));
        QCOMPARE(int(d.sessions.size()), 3);
        const QList<QList<int>> lines = {{1, 3}, {2, 5}, {4}}; // in order of each session's first line
        for (int s = 0; s < 3; ++s) {
            QCOMPARE(int(d.sessions[std::size_t(s)].turns), lines[s].size());
            for (int t = 0; t < lines[s].size(); ++t)
                QCOMPARE(d.turnEntry(s, t + 1, false).line, lines[s][t]);
        }
        QCOMPARE(d.turnEntry(0, 2, false).delayMs, 150);
        QCOMPARE(d.turnEntry(0, 2, false).outputTokens, 3);
        QCOMPARE(d.stats.sessions, 3);
        QCOMPARE(d.stats.maxTurns, 2);
        // Without sessions: one request per line, the ids ignored.
        Dataset single;
        QVERIFY2(load(DatasetFormat::Jsonl, path, false, &single, &error), qPrintable(error));
        QVERIFY(single.sessions.empty());
        QCOMPARE(int(single.entries.size()), 5);
    }

    void badSessionEntriesAreErrorsAtTheirLine_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("messages") << QByteArray("{\"session_id\": 1, \"text\": \"hi\"}\n"
                                                "{\"session_id\": 1, \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}\n")
                                  << QStringLiteral("chat.jsonl:2: messages: as a session's turn an entry is one user message");
        QTest::newRow("session_id bool") << QByteArray("{\"session_id\": true, \"text\": \"hi\"}\n")
                                         << QStringLiteral("chat.jsonl:1: session_id: expected a non-empty string or an integer");
        QTest::newRow("delay") << QByteArray("\n{\"session_id\": \"x\", \"text\": \"hi\", \"delay\": \"soon\"}\n")
                               << QStringLiteral("chat.jsonl:2: delay: expected milliseconds");
    }
    void badSessionEntriesAreErrorsAtTheirLine()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("chat.jsonl"), content);
        Dataset d;
        QString error;
        QVERIFY(!load(DatasetFormat::Jsonl, path, true, &d, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        // A `messages` entry is a request of its own without sessions.
        if (content.contains("messages"))
            QVERIFY2(load(DatasetFormat::Jsonl, path, false, &d, &error), qPrintable(error));
    }

    void specAcceptsJsonlSessions()
    {
        const SpecLoadResult r = loadSpecText(QByteArray(spectest::kMinimal) +
                                              "workload:\n  dataset: {format: jsonl, path: d.jsonl}\n  sessions: {think_time_ms: 5}\n");
        QVERIFY2(r.spec && r.diagnostics.isEmpty(), qPrintable(spectest::dump(r.diagnostics)));
    }

    // The real engine over loopback: each session's turns in order on one connection, each later
    // turn carrying the earlier user messages and the server's OWN answers, max_tokens from the
    // entry, the `delay` kept after the answer, and records like synthetic sessions'.
    void sessionsReplayOverLoopback()
    {
        ChatServer server;
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("chat.jsonl"), kJsonl);
        SweepSpec spec = datasetSessionSpec(QString::fromLatin1(server.server.url()), DatasetFormat::Jsonl, path, 5);
        spec.workload.outputTokens = 4; // the turns that give no output_tokens
        const auto r = sbtest::runSweep(spec, dir.filePath(QStringLiteral("out")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.failure));
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.completed, 5);
        const QList<QStringList> expected = {{QStringLiteral("plan the trip")},
                                             {QStringLiteral("plan the trip"), QStringLiteral("r0-0 r0-1 "), QStringLiteral("now \"book\" it")},
                                             {QStringLiteral("hello")},
                                             {QStringLiteral("hello"), QStringLiteral("r2-0 r2-1 r2-2 r2-3 "), QStringLiteral("and again")},
                                             {QStringLiteral("a lone question")}};
        const QList<int> maxTokens = {2, 3, 4, 4, 1};
        for (int i = 0; i < 5; ++i) {
            const QJsonArray messages = server.messages(i);
            QCOMPARE(contentsOf(messages), expected[i]);
            if (messages.size() == 3)
                QCOMPARE(messages.at(1).toObject().value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
            std::lock_guard lock(server.mutex);
            QCOMPARE(server.seen[i].body.value(QStringLiteral("max_tokens")).toInt(), maxTokens[i]);
        }
        {
            std::lock_guard lock(server.mutex);
            const qint64 gap = server.seen[1].atMs - server.seen[0].atMs;
            QVERIFY2(gap >= 140, qPrintable(QString::number(gap))); // the entry's delay: 150 ms
            QCOMPARE(hostile::headerValue(server.seen[0].head, "X-Session-ID"), hostile::headerValue(server.seen[1].head, "X-Session-ID"));
            QVERIFY(hostile::headerValue(server.seen[1].head, "X-Session-ID") != hostile::headerValue(server.seen[2].head, "X-Session-ID"));
        }
        const QList<QJsonObject> records = recordsOf(dir.filePath(QStringLiteral("out")), cell);
        QCOMPARE(records.size(), 5);
        const QList<int> sessions = {0, 0, 1, 1, 2}, turns = {1, 2, 1, 2, 1};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(records[i].value(QStringLiteral("session_id")).toInt(), sessions[i]);
            QCOMPARE(records[i].value(QStringLiteral("turn")).toInt(), turns[i]);
        }
        QCOMPARE(records[1].value(QStringLiteral("history_tokens")).toInt(),
                 records[0].value(QStringLiteral("input_tokens")).toInt() + records[0].value(QStringLiteral("output_tokens")).toInt());
        QCOMPARE(int(cell.byTurn.size()), 2);
        QCOMPARE(cell.byTurn[1].completed, 2);
    }
};

QTEST_GUILESS_MAIN(TestDatasetSessionsJsonl)
#include "tst_dataset_sessions_jsonl.moc"
