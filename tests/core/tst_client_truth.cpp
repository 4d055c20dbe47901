// The benchmark client against servers that misbehave on purpose (tests/core/HostileServer.h):
// keep-alive connections a server closes (llama.cpp's), Connection: close and Keep-Alive max=,
// bytes nobody asked for, answers that are not what was asked (not JSON, empty, error objects,
// impossible token counts, compressed), and sizes a peer controls. A request counts as ok only
// when the server really answered; everything else is a named error, and nothing grows unbounded.
#include "HostileServer.h"
#include "TestSupport.h"
#include "load/LoadGenerator.h"
#include "load/RequestFactory.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>
#include <atomic>
#include <climits>

using namespace sb;
using hostile::Conn;

namespace {

struct Phase {
    PhaseOutcome out;
    QList<QJsonObject> lines; // records.jsonl
    qint64 recordsBytes = 0;  // its size
    int errors(ErrorKind k) const
    {
        return int(std::count_if(out.records.begin(), out.records.end(), [k](const RequestRecord &r) { return r.error == k; }));
    }
    int ok() const { return errors(ErrorKind::None); }
};

Phase runAgainst(const hostile::Server &server, int requests, int concurrency = 1, bool streaming = true, double timeoutS = 20,
                 int maxTokens = 8)
{
    ServerSpec spec;
    spec.name = QStringLiteral("hostile");
    spec.model = QStringLiteral("m");
    spec.urls = {QString::fromLatin1(server.url())};
    WorkloadSpec w;
    w.streaming = streaming;
    w.inputTokens = 16;
    w.outputTokens = maxTokens;
    const ServerTarget target = resolveTarget(spec.urls.first(), spec.endpoint);
    const RequestFactory factory(spec, target, w, "t");
    QTemporaryDir dir;
    PhaseConfig cfg;
    cfg.targets = {PhaseTarget{target, &factory}};
    cfg.concurrency = concurrency;
    cfg.requests = requests;
    cfg.timeoutS = timeoutS;
    cfg.streaming = streaming;
    cfg.recordsPath = dir.filePath(QStringLiteral("records.jsonl"));
    LoadGenerator load(1);
    Phase p;
    p.out = load.runPhase(cfg);
    QFile f(cfg.recordsPath);
    p.recordsBytes = f.size();
    if (f.open(QIODevice::ReadOnly))
        for (const QByteArray &line : f.readAll().split('\n'))
            if (!line.isEmpty())
                p.lines.append(QJsonDocument::fromJson(line).object());
    return p;
}

// Serves every request on a connection with `answer(request)` until the client closes.
hostile::Server::Handler serveAll(std::function<QByteArray(const QByteArray &)> answer)
{
    return [answer](Conn &c) {
        while (true) {
            const QByteArray req = c.readRequest();
            if (req.isEmpty() || !c.write(answer(req)))
                return;
        }
    };
}

qint64 rssBytes()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return f.readAll().split(' ').value(1).toLongLong() * 4096;
}

} // namespace

class TestClientTruth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // llama-server announces keep-alive but closes after every stream: no request may fail for it.
    void closeAfterStreamDespiteKeepAlive()
    {
        hostile::Server server([](Conn &c) {
            if (c.readRequest().isEmpty())
                return;
            c.write(hostile::sseResponse(hostile::sseBody(4), "Keep-Alive: timeout=5, max=100\r\n"));
            c.close();
        });
        const Phase p = runAgainst(server, 24);
        QCOMPARE(p.ok(), 24);
        QCOMPARE(p.out.reconnects, 23); // every request after the first needed a new connection
        QCOMPARE(server.connections(), 24);
    }

    // The close arrives only after the next request went out (the race curl reports as "seems to
    // be dead"): that request is re-sent once on a fresh connection, and its clock starts at the
    // re-send, not at the dead attempt. After two such losses in a row the slot stops reusing.
    void deadReusedConnectionIsResentWithFreshClock()
    {
        hostile::Server server([](Conn &c) {
            bool first = true;
            while (true) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                if (!first) { // a reused connection: take the request, wait, close without a byte
                    QThread::msleep(300);
                    return;
                }
                first = false;
                c.write(hostile::sseResponse(hostile::sseBody(3)));
            }
        });
        const Phase p = runAgainst(server, 6);
        QCOMPARE(p.ok(), 6);
        QCOMPARE(p.out.resent, 2);
        QCOMPARE(server.connections(), 6); // every request after the first on a fresh connection
        int resentLines = 0;
        for (const QJsonObject &line : p.lines) {
            resentLines += line.value(QStringLiteral("resent")).toBool();
            QVERIFY2(line.value(QStringLiteral("ttft_ms")).toDouble() < 250, "TTFT includes the dead attempt");
        }
        QCOMPARE(resentLines, 2);
    }

    // Once any response byte arrived, a request is never sent again: it fails, named.
    void neverResentAfterAResponseByte()
    {
        hostile::Server server([](Conn &c) {
            bool first = true;
            while (true) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                if (!first) {
                    c.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
                    QThread::msleep(50);
                    return;
                }
                first = false;
                c.write(hostile::sseResponse(hostile::sseBody(3)));
            }
        });
        const Phase p = runAgainst(server, 4);
        QCOMPARE(p.out.resent, 0);
        QCOMPARE(p.errors(ErrorKind::Connection), 2); // requests 2 and 4 went out on reused connections
        QCOMPARE(p.ok(), 2);
    }

    // A connection reset before any answer: a named failure dated when it happened (a reset on
    // a connection's first read used to date the request's end 0: a latency of minus the uptime).
    void resetBeforeAnyAnswerIsDatedNow()
    {
        hostile::Server server([](Conn &c) {
            if (!c.readRequest().isEmpty())
                c.reset();
        });
        const Phase p = runAgainst(server, 3);
        QCOMPARE(p.errors(ErrorKind::Connection), 3);
        for (const RequestRecord &r : p.out.records)
            QVERIFY2(r.endNs >= r.sendNs && r.sendNs > 0, qPrintable(QStringLiteral("send %1 end %2").arg(r.sendNs).arg(r.endNs)));
        for (const QJsonObject &line : p.lines)
            QVERIFY(line.value(QStringLiteral("latency_ms")).toDouble() >= 0);
    }

    // Keep-Alive: max=2 — never a third request on one connection (this server fails it).
    void keepAliveMaxHonoured()
    {
        hostile::Server server([](Conn &c) {
            for (int n = 0;; ++n) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                c.write(n < 2 ? hostile::sseResponse(hostile::sseBody(2), "Keep-Alive: timeout=30, max=2\r\n")
                              : hostile::jsonResponse(500, "{\"error\":\"third request on one connection\"}"));
            }
        });
        const Phase p = runAgainst(server, 10);
        QCOMPARE(p.ok(), 10);
        QCOMPARE(server.connections(), 5);
    }

    // Connection: close while leaving the socket open: the client must not reuse it.
    void connectionCloseHonoured()
    {
        hostile::Server server([](Conn &c) {
            for (int n = 0;; ++n) {
                const QByteArray req = c.readRequest(2000);
                if (req.isEmpty())
                    return;
                c.write(n == 0 ? hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"a b\"}}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}",
                                                       "Connection: close\r\n")
                               : hostile::jsonResponse(500, "{\"error\":\"reused after Connection: close\"}"));
            }
        });
        const Phase p = runAgainst(server, 5, 1, false);
        QCOMPARE(p.ok(), 5);
        QCOMPARE(server.connections(), 5);
    }

    // A second answer nobody asked for must not become the next request's answer.
    void unsolicitedAnswerNotCredited()
    {
        std::atomic<int> served{0};
        hostile::Server server([&served](Conn &c) {
            while (true) {
                const QByteArray req = c.readRequest(2000);
                if (req.isEmpty())
                    return;
                const int n = served++;
                QByteArray answer = hostile::sseResponse(hostile::sseBody(2));
                if (n == 0) // a stale duplicate right behind the real answer
                    answer += hostile::sseResponse(hostile::sseBody(50));
                c.write(answer);
            }
        });
        const Phase p = runAgainst(server, 3);
        QCOMPARE(p.ok(), 3);
        QVERIFY(p.out.unsolicited >= 1);
        for (const RequestRecord &r : p.out.records)
            QCOMPARE(r.outputTokens, 2); // never the duplicate's 50
    }

    void answersThatAreNotWhatWasAsked_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<bool>("streaming");
        QTest::addColumn<int>("kind");
        const auto sse = [](const QByteArray &events) { return hostile::sseResponse(events); };
        QTest::newRow("sse data not JSON") << sse("data: hello world\n\ndata: [DONE]\n\n") << true << int(ErrorKind::BadJson);
        // Braces at both ends used to pass for JSON: these were counted ok.
        const QByteArray good = "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n";
        QTest::newRow("sse braces around words") << sse(good + "data: {not json}\n\ndata: [DONE]\n\n") << true << int(ErrorKind::BadJson);
        QTest::newRow("sse broken tail") << sse(good + "data: {\"choices\":[{\"delta\":{\"content\":\"x\" ,,, }\n\ndata: [DONE]\n\n") << true
                                         << int(ErrorKind::BadJson);
        QTest::newRow("sse bad escape") << sse("data: {\"choices\":[{\"delta\":{\"content\":\"\\q\"}}]}\n\ndata: [DONE]\n\n") << true
                                        << int(ErrorKind::BadJson);
        QTest::newRow("sse depth bomb") << sse("data: {\"a\":" + QByteArray(100000, '[') + QByteArray(100000, ']') + "}\n\n" + good + "data: [DONE]\n\n")
                                        << true << int(ErrorKind::BadJson);
        QTest::newRow("only [DONE]") << sse("data: [DONE]\n\n") << true << int(ErrorKind::EmptyStream);
        QTest::newRow("error event mid-stream")
            << sse("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"error\":{\"message\":\"engine died\"}}\n\ndata: [DONE]\n\n")
            << true << int(ErrorKind::ServerErrorBody);
        QTest::newRow("usage 3e9 tokens") << sse(hostile::sseBody(2).replace("\"completion_tokens\":2", "\"completion_tokens\":3000000000")) << true
                                          << int(ErrorKind::BadUsage);
        QTest::newRow("usage negative") << sse(hostile::sseBody(2).replace("\"completion_tokens\":2", "\"completion_tokens\":-5")) << true
                                        << int(ErrorKind::BadUsage);
        QTest::newRow("usage beyond the bytes") << sse(hostile::sseBody(2).replace("\"completion_tokens\":2", "\"completion_tokens\":900000")) << true
                                                << int(ErrorKind::BadUsage);
        QTest::newRow("stream without [DONE]") << sse("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n") << true << int(ErrorKind::Protocol);
        QTest::newRow("gzip") << hostile::sseResponse(hostile::sseBody(2), "Content-Encoding: gzip\r\n") << true << int(ErrorKind::ContentEncoding);
        QTest::newRow("200 error object") << hostile::jsonResponse(200, "{\"object\":\"error\",\"message\":\"busy\"}") << false << int(ErrorKind::ServerErrorBody);
        QTest::newRow("200 nested error") << hostile::jsonResponse(200, "{\"error\":{\"message\":\"oom\"}}") << false << int(ErrorKind::ServerErrorBody);
        QTest::newRow("200 not JSON") << hostile::jsonResponse(200, "<html>gateway</html>") << false << int(ErrorKind::BadJson);
        QTest::newRow("200 usage wraps") << hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"completion_tokens\":3000000000}}")
                                         << false << int(ErrorKind::BadUsage);
        // One rule for usage counts, streamed or not: only null means "not counted".
        QTest::newRow("sse usage as a string") << sse(hostile::sseBody(2).replace("\"completion_tokens\":2", "\"completion_tokens\":\"2\"")) << true
                                               << int(ErrorKind::BadUsage);
        QTest::newRow("200 usage as a string") << hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"completion_tokens\":\"1\"}}")
                                               << false << int(ErrorKind::BadUsage);
        QTest::newRow("200 no choices") << hostile::jsonResponse(200, "{\"id\":\"x\",\"usage\":{\"completion_tokens\":1}}") << false
                                        << int(ErrorKind::Protocol);
        QTest::newRow("200 choices empty") << hostile::jsonResponse(200, "{\"choices\":[ ],\"usage\":{\"completion_tokens\":1}}") << false
                                           << int(ErrorKind::Protocol);
        QTest::newRow("200 choices not an array") << hostile::jsonResponse(200, "{\"choices\":{\"message\":{\"content\":\"x\"}}}") << false
                                                  << int(ErrorKind::Protocol);
        QTest::newRow("200 text after the object") << hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}]} {}") << false
                                                   << int(ErrorKind::BadJson);
        QTest::newRow("200 JSON array") << hostile::jsonResponse(200, "[{\"choices\":[{\"message\":{\"content\":\"x\"}}]}]") << false
                                        << int(ErrorKind::BadJson);
        QTest::newRow("200 empty answer") << hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"\"}}],\"usage\":{\"completion_tokens\":0}}")
                                          << false << int(ErrorKind::EmptyStream);
        QTest::newRow("Content-Length overflow") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n{}") << false
                                                 << int(ErrorKind::Oversize);
        QTest::newRow("redirect not followed") << QByteArray("HTTP/1.1 302 Found\r\nLocation: http://10.0.0.1/\r\nContent-Length: 0\r\n\r\n") << true
                                               << int(ErrorKind::Http);
        QTest::newRow("100-continue flood") << QByteArray("HTTP/1.1 100 Continue\r\n\r\n").repeated(20000) << true << int(ErrorKind::Oversize);
        QTest::newRow("chunk size overflow")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n") << true
            << int(ErrorKind::Oversize);
    }
    void answersThatAreNotWhatWasAsked()
    {
        QFETCH(QByteArray, response);
        QFETCH(bool, streaming);
        QFETCH(int, kind);
        hostile::Server server(serveAll([response](const QByteArray &) { return response; }));
        const Phase p = runAgainst(server, 2, 1, streaming, 5);
        QCOMPARE(p.out.records.size(), std::size_t(2));
        for (const RequestRecord &r : p.out.records)
            QCOMPARE(int(r.error), kind);
        QCOMPARE(p.lines.size(), 2);
        // http errors are keyed by their status (http_302)
        QVERIFY(p.lines[0].value(QStringLiteral("error_kind")).toString().startsWith(QString::fromLatin1(errorKindName(ErrorKind(kind)))));
    }

    // Sizes a server controls are bounded: the request fails named, memory stays flat, and it
    // ends long before the request timeout.
    void endlessAnswersAreBounded_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QByteArray>("filler");
        QTest::addColumn<int>("kind");
        const QByteArray sseHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
        QTest::newRow("line without newline") << sseHead << QByteArray(64 * 1024, 'x') << int(ErrorKind::Oversize);
        QTest::newRow("data lines without blank line") << sseHead + "data: {" << QByteArray("data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n").repeated(1024)
                                                       << int(ErrorKind::Oversize);
        QTest::newRow("endless header") << QByteArray("HTTP/1.1 200 OK\r\n") << QByteArray("X-Pad: yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\r\n").repeated(1024)
                                        << int(ErrorKind::Oversize);
        QTest::newRow("endless 200 body") << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"a\":\"")
                                          << QByteArray(64 * 1024, 'z') << int(ErrorKind::Oversize);
        QTest::newRow("endless error body") << QByteArray("HTTP/1.1 500 Oops\r\nConnection: close\r\n\r\n") << QByteArray(64 * 1024, 'e')
                                            << int(ErrorKind::Http);
    }
    void endlessAnswersAreBounded()
    {
        QFETCH(QByteArray, head);
        QFETCH(QByteArray, filler);
        QFETCH(int, kind);
        std::atomic<qint64> sent{0};
        hostile::Server server([&](Conn &c) {
            if (c.readRequest().isEmpty() || !c.write(head))
                return;
            // Up to 200 MB, or until the client gives up and closes.
            while (sent < 200LL * 1024 * 1024 && c.write(filler))
                sent += filler.size();
        });
        const qint64 before = rssBytes();
        QElapsedTimer t;
        t.start();
        const Phase p = runAgainst(server, 1, 1, true, 60);
        QCOMPARE(p.out.records.size(), std::size_t(1));
        QCOMPARE(int(p.out.records[0].error), kind);
        QVERIFY2(t.elapsed() < 30000, "the bound did not end the request");
        const qint64 grown = rssBytes() - before;
#if defined(__SANITIZE_ADDRESS__)
        const qint64 bound = 512LL * 1024 * 1024; // AddressSanitizer keeps freed blocks in quarantine
#else
        const qint64 bound = 64LL * 1024 * 1024;
#endif
        QVERIFY2(grown < bound, qPrintable(QStringLiteral("RSS grew by %1 MB").arg(grown >> 20)));
        QVERIFY2(sent < 150LL * 1024 * 1024, "the client kept reading");
    }

    // A server that streams valid chunks for ever: the request ends once the stream has gone past
    // what max_tokens allows (streamEventLimit), named, within moments; memory and records.jsonl
    // stay small (it used to grow by 2 GB RSS and 600 MB of records in the 60 s timeout).
    void endlessValidStreamEndsAsTooManyChunks()
    {
        std::atomic<qint64> sent{0};
        hostile::Server server([&](Conn &c) {
            if (c.readRequest().isEmpty() || !c.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"))
                return;
            const QByteArray chunks = QByteArray("data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n").repeated(1024);
            while (sent < 200LL * 1024 * 1024 && c.write(chunks))
                sent += chunks.size();
        });
        const qint64 before = rssBytes();
        QElapsedTimer t;
        t.start();
        const Phase p = runAgainst(server, 1, 1, true, 60, 4);
        QCOMPARE(p.out.records.size(), std::size_t(1));
        QCOMPARE(int(p.out.records[0].error), int(ErrorKind::TooManyChunks));
        QVERIFY2(t.elapsed() < 10000, "the bound did not end the request");
        QVERIFY2(rssBytes() - before < 64LL * 1024 * 1024, qPrintable(QStringLiteral("RSS grew by %1 MB").arg((rssBytes() - before) >> 20)));
        QVERIFY2(p.recordsBytes < 16 * 1024, qPrintable(QStringLiteral("records.jsonl is %1 bytes").arg(p.recordsBytes)));
        QCOMPARE(p.lines.at(0).value(QStringLiteral("error_kind")).toString(), QStringLiteral("too_many_chunks"));
        QVERIFY2(p.lines.at(0).value(QStringLiteral("error")).toString().contains(QStringLiteral("past 68 events for max_tokens 4")),
                 qPrintable(p.lines.at(0).value(QStringLiteral("error")).toString()));
        QVERIFY2(sent < 150LL * 1024 * 1024, "the client kept reading");
    }

    // The margin is real: a server may send a role chunk, empty deltas, a finish chunk and usage
    // besides one chunk per token, and split tokens over chunks; up to streamEventLimit is an answer.
    void eventsUpToTheLimitAreAnAnswer()
    {
        QCOMPARE(streamEventLimit(4), std::int64_t(68));
        QCOMPARE(streamEventLimit(1000), std::int64_t(2000));
        QCOMPARE(streamEventLimit(0), std::int64_t(2) << 20); // no max_tokens: still bounded
        QCOMPARE(streamEventLimit(INT_MAX), 2 * std::int64_t(INT_MAX)); // no overflow
        // max_tokens 8 allows 72 events: a role chunk, 35 token pieces each followed by an empty
        // delta, and [DONE] are 72; a usage chunk more is one too many.
        QCOMPARE(streamEventLimit(8), std::int64_t(72));
        const auto stream = [](bool usage) {
            QByteArray events = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
            for (int i = 0; i < 35; ++i)
                events += "data: {\"choices\":[{\"delta\":{\"content\":\"p\"}}]}\n\ndata: {\"choices\":[{\"delta\":{}}]}\n\n";
            if (usage)
                events += "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":8}}\n\n";
            return hostile::sseResponse(events + "data: [DONE]\n\n");
        };
        hostile::Server atLimit(serveAll([&](const QByteArray &) { return stream(false); }));
        QCOMPARE(runAgainst(atLimit, 2, 1, true, 20, 8).ok(), 2);
        hostile::Server past(serveAll([&](const QByteArray &) { return stream(true); }));
        QCOMPARE(runAgainst(past, 2, 1, true, 20, 8).errors(ErrorKind::TooManyChunks), 2);
    }

    // A long answer keeps its first kMaxRecordGaps gaps in its record and says how many it left
    // out; the cell's histogram still has every gap.
    void recordGapListIsCapped()
    {
        const int tokens = int(kMaxRecordGaps) + 904;
        hostile::Server server(serveAll([&](const QByteArray &) { return hostile::sseResponse(hostile::sseBody(tokens)); }));
        const Phase p = runAgainst(server, 1, 1, true, 20, tokens);
        QCOMPARE(p.ok(), 1);
        QCOMPARE(p.lines.at(0).value(QStringLiteral("inter_chunk_us")).toArray().size(), qsizetype(kMaxRecordGaps));
        QCOMPARE(p.lines.at(0).value(QStringLiteral("inter_chunk_omitted")).toInt(), 903);
        QCOMPARE(p.out.interChunkUs.count(), std::uint64_t(tokens - 1));
    }

    // A server that trickles its answer a byte at a time never holds a slot past the timeout.
    void slowlorisEndsAtTheTimeout()
    {
        hostile::Server server([](Conn &c) {
            if (c.readRequest().isEmpty())
                return;
            const QByteArray answer = hostile::sseResponse(hostile::sseBody(50));
            for (char ch : answer) {
                if (c.stopping() || !c.write(QByteArray(1, ch)))
                    return;
                QThread::msleep(20);
            }
        });
        QElapsedTimer t;
        t.start();
        const Phase p = runAgainst(server, 1, 1, true, 2);
        QCOMPARE(int(p.out.records.at(0).error), int(ErrorKind::Timeout));
        QVERIFY2(t.elapsed() < 10000, "the timeout did not end the request");
    }

    // A Content-Length that promises more than the server sends before closing: not an answer.
    void contentLengthLie()
    {
        hostile::Server server([](Conn &c) {
            if (!c.readRequest().isEmpty())
                c.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"choices\":[]}");
        });
        const Phase p = runAgainst(server, 2, 1, false, 5);
        QCOMPARE(p.errors(ErrorKind::Connection), 2);
        QVERIFY(p.lines.at(0).value(QStringLiteral("error")).toString().contains(QStringLiteral("mid-response")));
    }

    // records.jsonl ties each request to the server: the X-Request-Id sent, the server's cached
    // prompt tokens and its own timing object.
    void requestIdentityAndServerTimings()
    {
        QList<QByteArray> ids;
        std::mutex m;
        hostile::Server server(serveAll([&](const QByteArray &req) {
            {
                std::lock_guard lock(m);
                ids.append(hostile::headerValue(req, "X-Request-Id"));
            }
            QByteArray body = hostile::sseBody(3, ",\"prompt_tokens_details\":{\"cached_tokens\":7}");
            body.replace("data: [DONE]", "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}],\"timings\":{\"prompt_n\":9,\"cache_n\":7,"
                                         "\"prompt_ms\":1.5,\"predicted_n\":3,\"predicted_ms\":2.25}}\n\ndata: [DONE]");
            return hostile::sseResponse(body);
        }));
        const Phase p = runAgainst(server, 3);
        QCOMPARE(p.ok(), 3);
        QCOMPARE(p.lines.size(), 3);
        QCOMPARE(ids.size(), 3);
        for (const QJsonObject &line : p.lines) {
            const QByteArray id = line.value(QStringLiteral("request_id")).toString().toLatin1();
            QVERIFY2(ids.contains(id), id.constData());
            QCOMPARE(line.value(QStringLiteral("cached_tokens")).toInt(), 7);
            const QJsonObject timings = line.value(QStringLiteral("timings")).toObject();
            QCOMPARE(timings.value(QStringLiteral("cache_n")).toInt(), 7);
            QCOMPARE(timings.value(QStringLiteral("predicted_ms")).toDouble(), 2.25);
            QCOMPARE(line.value(QStringLiteral("resent")).toBool(), false);
        }
        QVERIFY(ids.first().startsWith("t-"));
    }

    // We ask for an uncompressed answer, so a compressed one is the server's doing.
    void asksForIdentityEncoding()
    {
        QByteArray seen;
        hostile::Server server(serveAll([&](const QByteArray &req) {
            seen = hostile::headerValue(req, "Accept-Encoding");
            return hostile::sseResponse(hostile::sseBody(1));
        }));
        QCOMPARE(runAgainst(server, 1).ok(), 1);
        QCOMPARE(seen, QByteArray("identity"));
    }
};

QTEST_GUILESS_MAIN(TestClientTruth)
#include "tst_client_truth.moc"
