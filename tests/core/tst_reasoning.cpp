// Reasoning output: thinking deltas (reasoning_content / reasoning) are tokens but not answer
// tokens. TTFT is the first token of either kind, TTFO (time to first output token) the first
// answer token; reasoning tokens come from usage.completion_tokens_details when the server says,
// else they are counted. Checked on the chunk scanner, on streams over a real loopback socket
// (a scripted peer with known pauses, and the mock's reasoning personality), on records.jsonl
// and on the cell's metrics.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "TestSupport.h"
#include "commands/MockServerCli.h"
#include "tst_mock_client.h"
#include "engine/CellMetrics.h"
#include "load/ChunkScanner.h"
#include "load/LoadGenerator.h"
#include "load/RecordLine.h"
#include "load/RequestFactory.h"
#include "metrics/MetricCatalogue.h"
#include "mock/MockServer.h"
#include "spec/SpecIO.h"
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <cmath>
#include <csignal>

using namespace sb;
using hostile::Conn;

namespace {

struct Phase {
    PhaseOutcome out;
    QList<QJsonObject> lines; // records.jsonl
};

Phase runAgainst(const QString &url, int requests, bool streaming = true, int maxTokens = 8)
{
    ServerSpec spec;
    spec.name = QStringLiteral("s");
    spec.model = QStringLiteral("m");
    spec.urls = {url};
    WorkloadSpec w;
    w.streaming = streaming;
    w.inputTokens = 16;
    w.outputTokens = maxTokens;
    const ServerTarget target = resolveTarget(url, spec.endpoint);
    const RequestFactory factory(spec, target, w, "t");
    QTemporaryDir dir;
    PhaseConfig cfg;
    cfg.targets = {PhaseTarget{target, &factory}};
    cfg.concurrency = 1;
    cfg.requests = requests;
    cfg.timeoutS = 20;
    cfg.streaming = streaming;
    cfg.recordsPath = dir.filePath(QStringLiteral("records.jsonl"));
    LoadGenerator load(1);
    Phase p;
    p.out = load.runPhase(cfg);
    QFile f(cfg.recordsPath);
    if (f.open(QIODevice::ReadOnly))
        for (const QByteArray &line : f.readAll().split('\n'))
            if (!line.isEmpty())
                p.lines.append(QJsonDocument::fromJson(line).object());
    return p;
}

const QByteArray kSseHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";

QByteArray sseEvent(const QByteArray &json)
{
    return "data: " + json + "\n\n";
}
QByteArray thinking(int i)
{
    return sseEvent("{\"choices\":[{\"delta\":{\"content\":null,\"reasoning_content\":\"r" + QByteArray::number(i) + " \"}}]}");
}
QByteArray answer(int i)
{
    return sseEvent("{\"choices\":[{\"delta\":{\"content\":\"a" + QByteArray::number(i) + " \",\"reasoning_content\":null}}]}");
}

// One request per connection: `parts` written one after another, `pauseMs` between them.
hostile::Server::Handler scripted(QList<QByteArray> parts, int pauseMs)
{
    return [parts, pauseMs](Conn &c) {
        if (c.readRequest().isEmpty())
            return;
        for (int i = 0; i < parts.size(); ++i) {
            if (i > 0)
                QThread::msleep(ulong(pauseMs));
            if (!c.write(parts[i]))
                return;
        }
    };
}

ChunkInfo scan(const char *json)
{
    return scanChunk(std::string_view(json));
}

RequestRecord record(int ticket, std::int64_t firstToken, std::int64_t firstOutput, int reasoning)
{
    RequestRecord r;
    r.ticket = ticket;
    r.sendNs = 1'000'000'000;
    r.firstTokenNs = r.sendNs + firstToken * 1'000'000;
    r.firstOutputNs = firstOutput < 0 ? -1 : r.sendNs + firstOutput * 1'000'000;
    r.lastTokenNs = r.endNs = r.sendNs + 500'000'000;
    r.status = 200;
    r.outputTokens = 10;
    r.reasoningTokens = reasoning;
    return r;
}

} // namespace

class TestReasoning : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void scannerTellsThinkingFromAnswer()
    {
        const ChunkInfo rc = scan(R"({"choices":[{"delta":{"reasoning_content":"hmm"}}]})");
        QVERIFY(rc.hasReasoning);
        QVERIFY(!rc.hasContent);
        const ChunkInfo r = scan(R"({"choices":[{"delta":{"reasoning":"hmm"}}]})"); // newer vLLM, OpenRouter
        QVERIFY(r.hasReasoning);
        QVERIFY(!r.hasContent);
        // vLLM sends the other field as null; an empty string is no token either
        QVERIFY(!scan(R"({"choices":[{"delta":{"content":"a","reasoning_content":null}}]})").hasReasoning);
        QVERIFY(!scan(R"({"choices":[{"delta":{"reasoning_content":""}}]})").hasReasoning);
        QVERIFY(!scan(R"({"choices":[{"delta":{"reasoning":null,"content":""}}]})").hasReasoning);
        // The key written inside a string (escaped quotes) is text, not a key
        const ChunkInfo inString = scan("{\"choices\":[{\"delta\":{\"content\":\"say \\\"reasoning_content\\\": \\\"x\\\" and \\\"reasoning\\\":\\\"y\\\"\"}}]}");
        QVERIFY(inString.hasContent);
        QVERIFY(!inString.hasReasoning);
        // The chunk where thinking turns into the answer may carry both
        const ChunkInfo both = scan(R"({"choices":[{"delta":{"reasoning_content":"end.","content":"Yes"}}]})");
        QVERIFY(both.hasReasoning);
        QVERIFY(both.hasContent);
        // usage names the thinking tokens
        const ChunkInfo u = scan(R"({"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":40,"completion_tokens_details":{"reasoning_tokens":31}}})");
        QVERIFY(u.hasUsage);
        QCOMPARE(u.completionTokens, 40);
        QCOMPARE(u.reasoningTokens, 31);
        QVERIFY(!u.badUsage);
        QCOMPARE(scan(R"({"choices":[],"usage":{"completion_tokens":4}})").reasoningTokens, -1);
        QVERIFY(scan(R"({"choices":[],"usage":{"completion_tokens":4,"completion_tokens_details":{"reasoning_tokens":-3}}})").badUsage);
    }

    // Over a real socket: three thinking chunks, a known pause, then the answer. TTFT is the
    // first thinking chunk, TTFO the first answer chunk, at least the pause later; ITL runs over
    // both kinds; the thinking is counted when usage does not name it.
    void streamTimesThinkingApartFromTheAnswer()
    {
        const int pauseMs = 150;
        hostile::Server server(scripted({kSseHead + sseEvent(R"({"choices":[{"delta":{"role":"assistant","content":""}}]})") + thinking(0) + thinking(1)
                                             + thinking(2),
                                         answer(0) + answer(1) + sseEvent(R"({"choices":[],"usage":{"prompt_tokens":16,"completion_tokens":5}})")
                                             + "data: [DONE]\n\n"},
                                        pauseMs));
        const Phase p = runAgainst(QString::fromLatin1(server.url()), 1);
        QCOMPARE(p.out.records.size(), std::size_t(1));
        const RequestRecord &r = p.out.records[0];
        QVERIFY2(r.ok(), errorKindName(r.error));
        QVERIFY(r.firstTokenNs > 0 && r.firstOutputNs > r.firstTokenNs);
        QVERIFY2(r.ttfoMs() - r.ttftMs() >= pauseMs - 1, qPrintable(QString::number(r.ttfoMs() - r.ttftMs())));
        QVERIFY(r.ttftMs() < pauseMs); // the thinking came at once
        QCOMPARE(r.outputTokens, 5);
        QCOMPARE(r.reasoningTokens, 3);
        QVERIFY(!r.usageReasoning);
        QVERIFY(std::abs(r.itlMs() - (r.latencyMs() - r.ttftMs()) / 4) < 1e-6);
        const QJsonObject line = p.lines.value(0);
        QCOMPARE(line.value(QStringLiteral("reasoning_tokens")).toInt(), 3);
        QCOMPARE(line.value(QStringLiteral("reasoning_token_source")).toString(), QStringLiteral("counted"));
        QVERIFY(std::abs(line.value(QStringLiteral("ttfo_ms")).toDouble() - r.ttfoMs()) < 0.001);
        QVERIFY(std::abs(line.value(QStringLiteral("ttft_ms")).toDouble() - r.ttftMs()) < 0.001);
    }

    void usageNamesTheThinkingTokens()
    {
        hostile::Server server(scripted({kSseHead + thinking(0) + answer(0)
                                         + sseEvent(R"({"choices":[],"usage":{"prompt_tokens":16,"completion_tokens":40,"completion_tokens_details":{"reasoning_tokens":31}}})")
                                         + "data: [DONE]\n\n"},
                                        0));
        const Phase p = runAgainst(QString::fromLatin1(server.url()), 1, true, 64);
        const RequestRecord &r = p.out.records.at(0);
        QVERIFY2(r.ok(), errorKindName(r.error));
        QCOMPARE(r.reasoningTokens, 31);
        QVERIFY(r.usageReasoning);
        QCOMPARE(r.outputTokens, 40);
        QCOMPARE(p.lines.value(0).value(QStringLiteral("reasoning_token_source")).toString(), QStringLiteral("usage"));
    }

    // An answer that spent all its tokens thinking is a completed answer (its server decoded,
    // its times are real), with a TTFT and no TTFO; with or without usage. Only a stream with
    // no token of either kind is empty.
    void thinkingOnlyIsAnAnswer_data()
    {
        QTest::addColumn<QByteArray>("usage");
        QTest::newRow("usage") << sseEvent(R"({"choices":[],"usage":{"prompt_tokens":16,"completion_tokens":3,"completion_tokens_details":{"reasoning_tokens":3}}})");
        QTest::newRow("no usage") << QByteArray();
    }
    void thinkingOnlyIsAnAnswer()
    {
        QFETCH(QByteArray, usage);
        hostile::Server server(scripted({kSseHead + thinking(0) + thinking(1) + thinking(2) + usage + "data: [DONE]\n\n"}, 0));
        const Phase p = runAgainst(QString::fromLatin1(server.url()), 1);
        const RequestRecord &r = p.out.records.at(0);
        QVERIFY2(r.ok(), errorKindName(r.error));
        QCOMPARE(r.reasoningTokens, 3);
        QCOMPARE(r.outputTokens, 3);
        QVERIFY(!std::isnan(r.ttftMs()));
        QVERIFY(std::isnan(r.ttfoMs()));
        QVERIFY(p.lines.value(0).value(QStringLiteral("ttfo_ms")).isNull());
        QVERIFY(p.lines.value(0).value(QStringLiteral("ttft_ms")).isDouble());
    }

    // A server that thinks for ever is still stopped by the event limit of max_tokens.
    void endlessThinkingEndsAsTooManyChunks()
    {
        std::atomic<qint64> sent{0};
        hostile::Server server([&](Conn &c) {
            if (c.readRequest().isEmpty() || !c.write(kSseHead))
                return;
            const QByteArray chunks = thinking(7).repeated(1024);
            while (sent < 200LL * 1024 * 1024 && c.write(chunks))
                sent += chunks.size();
        });
        const Phase p = runAgainst(QString::fromLatin1(server.url()), 1, true, 4);
        QCOMPARE(int(p.out.records.at(0).error), int(ErrorKind::TooManyChunks));
        QVERIFY2(sent < 150LL * 1024 * 1024, "the client kept reading");
    }

    void nonStreamingAnswerCarriesItsThinking()
    {
        const QByteArray withUsage = R"({"choices":[{"message":{"content":"yes","reasoning_content":"let me see"}}],)"
                                     R"("usage":{"prompt_tokens":16,"completion_tokens":12,"completion_tokens_details":{"reasoning_tokens":9}}})";
        hostile::Server a([&](Conn &c) {
            while (!c.readRequest().isEmpty() && c.write(hostile::jsonResponse(200, withUsage))) {
            }
        });
        Phase p = runAgainst(QString::fromLatin1(a.url()), 1, false);
        QVERIFY2(p.out.records.at(0).ok(), errorKindName(p.out.records.at(0).error));
        QCOMPARE(p.out.records.at(0).reasoningTokens, 9);
        QVERIFY(p.out.records.at(0).usageReasoning);
        // all thinking, content empty, no usage: still an answer, its words counted
        const QByteArray thinkingOnly = R"({"choices":[{"message":{"content":"","reasoning":"one two three"}}]})";
        hostile::Server b([&](Conn &c) {
            while (!c.readRequest().isEmpty() && c.write(hostile::jsonResponse(200, thinkingOnly))) {
            }
        });
        p = runAgainst(QString::fromLatin1(b.url()), 1, false);
        QVERIFY2(p.out.records.at(0).ok(), errorKindName(p.out.records.at(0).error));
        QCOMPARE(p.out.records.at(0).reasoningTokens, 3);
        QCOMPARE(p.out.records.at(0).outputTokens, 3);
        QVERIFY(!p.out.records.at(0).usageReasoning);
    }

    // The mock's reasoning personality over a real loopback socket: N thinking deltas, then the
    // answer; usage names N; TTFO is N decode steps after TTFT.
    void mockReasoningPersonality()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.reasoningTokens = 5;
        cfg.stepBaseMs = 10;
        cfg.stepPerSeqMs = 0;
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        const Phase p = runAgainst(mock->url().toString(), 3, true, 8);
        QCOMPARE(p.out.records.size(), std::size_t(3));
        for (const RequestRecord &r : p.out.records) {
            QVERIFY2(r.ok(), errorKindName(r.error));
            QCOMPARE(r.reasoningTokens, 5);
            QVERIFY(r.usageReasoning);
            QCOMPARE(r.outputTokens, 8);
            const double gap = r.ttfoMs() - r.ttftMs(); // five 10 ms steps, the first answer token on the fifth after
            QVERIFY2(gap >= 5 * 10 * 0.9 && gap < 5 * 10 * 3, qPrintable(QString::number(gap)));
        }
        // More thinking than max_tokens allows: the whole answer is thinking, and it is ok.
        MockConfig deep = cfg;
        deep.reasoningTokens = 100;
        auto deepMock = MockServer::start(deep, &error);
        QVERIFY2(deepMock, qPrintable(error));
        const Phase d = runAgainst(deepMock->url().toString(), 2, true, 6);
        for (const RequestRecord &r : d.out.records) {
            QVERIFY2(r.ok(), errorKindName(r.error));
            QCOMPARE(r.reasoningTokens, 6);
            QCOMPARE(r.outputTokens, 6);
            QVERIFY(std::isnan(r.ttfoMs()));
        }
        // Not streamed: message.reasoning_content and usage's count.
        const Phase n = runAgainst(mock->url().toString(), 1, false, 8);
        QVERIFY2(n.out.records.at(0).ok(), errorKindName(n.out.records.at(0).error));
        QCOMPARE(n.out.records.at(0).reasoningTokens, 5);
        QCOMPARE(n.out.records.at(0).outputTokens, 8);
    }

    // A spec's embedded mock plays a reasoning model as `mock-server --reasoning-tokens` does:
    // `mock: {personality: vllm, reasoning_tokens: N}`, written back as read, and a cell run
    // against it times TTFO after TTFT and records the thinking tokens.
    void specMockPlaysAReasoningModel()
    {
        const QByteArray yaml = R"(servers:
  - name: thinker
    mock: {personality: vllm, reasoning_tokens: 6}
workload: {input_tokens: 16, output_tokens: 10, requests_per_cell: 4, calibrate_prompts: false}
sweep: {concurrency: [1]}
)";
        const SpecLoadResult r = loadSpecText(yaml);
        QVERIFY2(r.spec && r.diagnostics.isEmpty(), r.diagnostics.isEmpty() ? "" : qPrintable(r.diagnostics.first().message));
        const ServerSpec &server = r.spec->servers.at(0);
        QCOMPARE(server.mock, QStringLiteral("vllm"));
        QVERIFY(server.flavor == Flavor::Vllm);
        QCOMPARE(server.mockReasoningTokens, 6);
        const SpecLoadResult again = loadSpecText(saveSpecYaml(*r.spec));
        QVERIFY(again.spec && again.diagnostics.isEmpty());
        QCOMPARE(again.spec->servers.at(0).mockReasoningTokens, 6);
        QCOMPARE(again.spec->servers.at(0).mock, QStringLiteral("vllm"));

        QTemporaryDir dir;
        const sbtest::RunResult run = sbtest::runSweep(*r.spec, dir.path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.failure));
        const CellResult &cell = run.results.cells.at(0);
        QCOMPARE(cell.completed, 4);
        QVERIFY2(cell.metrics.contains(tag::ttfo), "the cell stored TTFO");
        QVERIFY2(cell.metrics.value(tag::ttfo).p50 > cell.metrics.value(tag::ttft).p50,
                 qPrintable(QStringLiteral("TTFO %1 ms, TTFT %2 ms").arg(cell.metrics.value(tag::ttfo).p50).arg(cell.metrics.value(tag::ttft).p50)));
        QCOMPARE(cell.metrics.value(tag::reasoningTokens).avg, 6.0);
        for (const QJsonObject &line : sbtest::readJsonLines(dir.filePath(cell.recordsPath)))
            QCOMPARE(line.value(QStringLiteral("reasoning_tokens")).toInt(), 6);
    }

    void specMockOptionsAreCheckedWhereTheyStand_data()
    {
        QTest::addColumn<QByteArray>("mock");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("text");
        QTest::newRow("negative") << QByteArray("{personality: vllm, reasoning_tokens: -1}") << QStringLiteral("servers[0].mock.reasoning_tokens")
                                  << QStringLiteral("from 0 to 1000000");
        QTest::newRow("too many") << QByteArray("{personality: sglang, reasoning_tokens: 2000000}") << QStringLiteral("servers[0].mock.reasoning_tokens")
                                  << QStringLiteral("from 0 to 1000000");
        QTest::newRow("no personality") << QByteArray("{reasoning_tokens: 3}") << QStringLiteral("servers[0].mock")
                                        << QStringLiteral("naming its personality");
        QTest::newRow("unknown key") << QByteArray("{personality: vllm, reasoning: 3}") << QStringLiteral("servers[0].mock.reasoning") << QString();
    }
    void specMockOptionsAreCheckedWhereTheyStand()
    {
        QFETCH(QByteArray, mock);
        QFETCH(QString, key);
        QFETCH(QString, text);
        const SpecLoadResult r = loadSpecText("servers:\n  - name: a\n    mock: " + mock + "\nsweep: {concurrency: [1]}\n");
        bool found = false;
        QStringList all;
        for (const SpecDiagnostic &d : r.diagnostics) {
            all.append(d.keyPath + QStringLiteral(": ") + d.message);
            found = found || (d.keyPath == key && d.message.contains(text) && d.line == 3);
        }
        QVERIFY2(found, qPrintable(all.join(QLatin1Char('\n'))));
    }

    // `sweepbench mock-server --reasoning-tokens N` plays a reasoning model; --image-tokens is read too.
    void mockServerCommandTakesTheOptions()
    {
        const quint16 port = sbtest::freePort();
        QVERIFY(port);
        QByteArray body;
        QTimer::singleShot(100, [&] {
            mocktest::Client c(port);
            body = c.call("POST", "/v1/chat/completions",
                          R"({"model":"m","max_tokens":4,"stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]})")
                       .body;
            ::raise(SIGTERM);
        });
        const int rc = sb::runMockServerCommand({QStringLiteral("sweepbench mock-server"), "--port", QString::number(port), "--reasoning-tokens", "3",
                                                 "--image-tokens", "64"});
        QCOMPARE(rc, 0);
        QCOMPARE(body.count("\"reasoning_content\":\""), 3);
        QCOMPARE(body.count("\"delta\":{\"content\":\""), 1);
        QVERIFY2(body.contains("\"completion_tokens_details\":{\"reasoning_tokens\":3}"), body.constData());
        const QString prog = QStringLiteral("sweepbench mock-server");
        QCOMPARE(sb::runMockServerCommand({prog, "--reasoning-tokens", "-1"}), 2);
        QCOMPARE(sb::runMockServerCommand({prog, "--image-tokens", "x"}), 2);
    }

    void recordLineFields()
    {
        RequestRecord r = record(0, 40, 90, 12);
        r.usageReasoning = true;
        QByteArray line;
        RecordLineInput in;
        in.record = &r;
        in.phaseStartNs = 0;
        in.requestId = "x";
        appendRecordLine(line, in);
        QJsonObject o = QJsonDocument::fromJson(line).object();
        QCOMPARE(o.value(QStringLiteral("ttft_ms")).toDouble(), 40.0);
        QCOMPARE(o.value(QStringLiteral("ttfo_ms")).toDouble(), 90.0);
        QCOMPARE(o.value(QStringLiteral("reasoning_tokens")).toInt(), 12);
        QCOMPARE(o.value(QStringLiteral("reasoning_token_source")).toString(), QStringLiteral("usage"));
        // an answer without thinking keeps its old shape (no reasoning fields), TTFO = TTFT
        RequestRecord plain = record(1, 40, 40, -1);
        line.clear();
        in.record = &plain;
        appendRecordLine(line, in);
        o = QJsonDocument::fromJson(line).object();
        QVERIFY(!o.contains(QStringLiteral("reasoning_tokens")));
        QCOMPARE(o.value(QStringLiteral("ttfo_ms")).toDouble(), 40.0);
    }

    // TTFO and reasoning-token stats come through the catalogue, only for cells whose answers
    // reasoned; an all-thinking answer is in TTFT and reasoning tokens, not in TTFO.
    void cellMetricsThroughTheCatalogue()
    {
        QVERIFY(findMetric(tag::ttfo));
        QVERIFY(findMetric(tag::reasoningTokens));
        QCOMPARE(findMetric(tag::ttfo)->better, Better::Lower);
        std::vector<RequestRecord> records{record(0, 10, 60, 20), record(1, 20, 120, 40), record(2, 30, -1, 10)};
        CellMetricsInput in;
        in.records = &records;
        const CellMetricsOutput out = computeCellMetrics(in);
        QCOMPARE(out.completed, 3);
        QCOMPARE(out.metrics.value(tag::ttft).count, 3);
        QCOMPARE(out.metrics.value(tag::ttfo).count, 2);
        QCOMPARE(out.metrics.value(tag::ttfo).avg, 90.0);
        QCOMPARE(out.metrics.value(tag::reasoningTokens).avg, 70.0 / 3);
        QCOMPARE(out.metrics.value(tag::reasoningTokens).max, 40.0);
        std::vector<RequestRecord> plain{record(0, 10, 10, -1)};
        in.records = &plain;
        const CellMetricsOutput none = computeCellMetrics(in);
        QVERIFY(!none.metrics.contains(tag::ttfo));
        QVERIFY(!none.metrics.contains(tag::reasoningTokens));
    }
};

QTEST_GUILESS_MAIN(TestReasoning)
#include "tst_reasoning.moc"
