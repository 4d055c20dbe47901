// The mock server's OpenAI API and introspection routes: formats, statuses, keep-alive.
#include "TestSupport.h"
#include "mock/MockServer.h"
#include "tst_mock_client.h"
#include <QJsonArray>
#include <QTest>
#ifdef Q_OS_UNIX
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

using namespace mocktest;

class TestMockApi : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<sb::MockServer> m_server;

    std::unique_ptr<sb::MockServer> fast(sb::Flavor f = sb::Flavor::Vllm)
    {
        sb::MockConfig cfg = sb::mockDefaults(f);
        cfg.stepBaseMs = 1;
        QString error;
        auto s = sb::MockServer::start(cfg, &error);
        if (!s)
            qFatal("mock did not start: %s", qPrintable(error));
        return s;
    }

private Q_SLOTS:
    void init()
    {
        sbtest::failOnQtWarnings();
        m_server = fast();
    }
    void cleanup() { m_server.reset(); }

    void healthModelsAndUnknownRoutes()
    {
        Client c(m_server->port());
        QCOMPARE(m_server->url().toString(), QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()));
        QCOMPARE(c.call("GET", "/health").status, 200);
        const Response models = c.call("GET", "/v1/models");
        QCOMPARE(models.status, 200);
        QCOMPARE(models.json().value("object").toString(), QStringLiteral("list"));
        QCOMPARE(models.json().value("data").toArray().at(0).toObject().value("id").toString(), QStringLiteral("demo-model"));
        const Response missing = c.call("GET", "/nope");
        QCOMPARE(missing.status, 404);
        QCOMPARE(missing.json().value("detail").toString(), QStringLiteral("Not Found"));
        QCOMPARE(c.call("GET", "/v1/chat/completions").status, 405);
        QCOMPARE(c.call("POST", "/health").status, 405);
    }

    void chatStreamFormat()
    {
        Client c(m_server->port());
        const Response r = c.call("POST", "/v1/chat/completions", chatBody(QStringLiteral("one two three four five"), 5, true),
                                  {{"x-request-id", "req-A"}});
        QCOMPARE(r.status, 200);
        QVERIFY(r.chunked); // like uvicorn
        QVERIFY(r.header("content-type").startsWith("text/event-stream"));
        const QList<QByteArray> data = r.sseData();
        QCOMPARE(data.size(), 1 + 5 + 1 + 1); // role, 5 tokens, usage, [DONE]
        const QJsonObject role = QJsonDocument::fromJson(data[0]).object();
        QCOMPARE(role.value("object").toString(), QStringLiteral("chat.completion.chunk"));
        const QJsonObject delta0 = role.value("choices").toArray().at(0).toObject().value("delta").toObject();
        QCOMPARE(delta0.value("role").toString(), QStringLiteral("assistant"));
        QCOMPARE(delta0.value("content").toString(), QString());
        QString text;
        for (int i = 1; i <= 5; ++i) {
            const QJsonObject ch = QJsonDocument::fromJson(data[i]).object().value("choices").toArray().at(0).toObject();
            QVERIFY(!ch.value("delta").toObject().value("content").toString().isEmpty());
            text += ch.value("delta").toObject().value("content").toString();
            QCOMPARE(ch.value("finish_reason").isNull(), i < 5);
        }
        QCOMPARE(QJsonDocument::fromJson(data[5]).object().value("choices").toArray().at(0).toObject()
                     .value("finish_reason").toString(), QStringLiteral("length"));
        const QJsonObject usage = QJsonDocument::fromJson(data[6]).object();
        QVERIFY(usage.value("choices").toArray().isEmpty());
        QCOMPARE(usage.value("usage").toObject().value("prompt_tokens").toInt(), 5);
        QCOMPARE(usage.value("usage").toObject().value("completion_tokens").toInt(), 5);
        QCOMPARE(usage.value("usage").toObject().value("total_tokens").toInt(), 10);
        QCOMPARE(data[7], QByteArray("[DONE]"));
        QCOMPARE(r.contentEvents, 5);

        // Deterministic: the same prompt gives the same answer, on the same keep-alive socket.
        const Response again = c.call("POST", "/v1/chat/completions", chatBody(QStringLiteral("one two three four five"), 5, true, false));
        QCOMPARE(again.sseData().size(), 1 + 5 + 1); // no usage chunk without include_usage
        QString text2;
        for (int i = 1; i <= 5; ++i)
            text2 += QJsonDocument::fromJson(again.sseData()[i]).object().value("choices").toArray().at(0).toObject()
                         .value("delta").toObject().value("content").toString();
        QCOMPARE(text2, text);

        // The server's own first-token write time, keyed by X-Request-Id.
        QTRY_COMPARE(m_server->timings().size(), 2);
        const sb::MockTiming t = m_server->timings().first();
        QCOMPARE(t.requestId, QByteArray("req-A"));
        QVERIFY(t.arrivalNs >= r.sentNs);
        QVERIFY(t.firstTokenWriteNs > t.arrivalNs);
        QVERIFY(t.firstTokenWriteNs <= r.firstContentNs);
        QVERIFY(t.endNs >= t.firstTokenWriteNs);
        const Response timings = c.call("GET", "/mock/timings?request_id=req-A");
        QVERIFY(timings.json().value("arrival_ns").toString().contains(QLatin1String("kernel receive stamp")));
        const QJsonArray arr = timings.json().value("timings").toArray();
        QCOMPARE(arr.size(), 1);
        QCOMPARE(arr[0].toObject().value("first_token_write_ns").toInteger(), t.firstTokenWriteNs);
        QCOMPARE(arr[0].toObject().value("arrival_ns").toInteger(), t.arrivalNs);
        QCOMPARE(arr[0].toObject().value("read_ns").toInteger(), t.readNs);
        QCOMPARE(arr[0].toObject().value("kernel_arrival").toBool(), t.kernelArrival);
        QVERIFY(t.arrivalNs <= t.readNs);
    }

    // arrivalNs is when the kernel received the request, not when the mock's event loop got
    // round to reading it: a request sent while the loop is blocked is stamped at its send.
    void arrivalIsTheKernelsReceiveTime()
    {
#ifndef Q_OS_LINUX
        QSKIP("kernel receive timestamps are read on Linux only; elsewhere arrivalNs is readNs");
#else
        constexpr qint64 kBlockNs = 500'000'000;
        sb::MockConfig cfg = sb::mockDefaults(sb::Flavor::Vllm);
        cfg.stepBaseMs = 1;
        cfg.loopBlockMs = int(kBlockNs / 1'000'000); // the loop blocks on every completion it reads
        QString error;
        auto server = sb::MockServer::start(cfg, &error);
        QVERIFY2(server, qPrintable(error));
        // The first socket asking for stamps switches the kernel's stamping on from a work
        // queue: give it a moment (init()'s mock asked already; this is for a slow box).
        QTest::qWait(100);
        // Two keep-alive connections, accepted and idle.
        Client a(server->port()), b(server->port());
        QCOMPARE(a.call("GET", "/health").status, 200);
        QCOMPARE(b.call("GET", "/health").status, 200);

        // Back to back, one on each connection: the mock reads one, blocks, and only then
        // reads the other, which waited in the kernel all that time.
        struct Sent { QByteArray id; qint64 sendNs = 0, afterNs = 0; };
        Sent sent[2] = {{"blk-A"}, {"blk-B"}};
        Client *clients[2] = {&a, &b};
        for (int i = 0; i < 2; ++i) {
            const QByteArray req = requestBytes("POST", "/v1/chat/completions", chatBody(QStringLiteral("x"), 2, true),
                                                {{"x-request-id", sent[i].id}});
            sent[i].sendNs = sb::MockServer::nowNs();
            QCOMPARE(::send(int(clients[i]->socket().socketDescriptor()), req.constData(), size_t(req.size()), MSG_NOSIGNAL),
                     ssize_t(req.size()));
            sent[i].afterNs = sb::MockServer::nowNs();
        }
        for (Client *c : clients) {
            Response r;
            Reader reader(&r);
            QElapsedTimer t;
            t.start();
            while (!r.complete && t.elapsed() < 10000)
                if (c->socket().bytesAvailable() > 0 || c->socket().waitForReadyRead(1000))
                    reader.feed(c->socket().readAll());
            QVERIFY(r.complete);
            QCOMPARE(r.status, 200);
        }

        QTRY_COMPARE(server->timings().size(), 2);
        sb::MockTiming t[2];
        for (const sb::MockTiming &x : server->timings())
            t[x.requestId == "blk-A" ? 0 : 1] = x;
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(t[i].requestId, sent[i].id);
            QVERIFY2(t[i].kernelArrival, t[i].requestId.constData());
            QVERIFY(t[i].arrivalNs >= sent[i].sendNs);
            QVERIFY(t[i].arrivalNs <= t[i].readNs);
            QVERIFY(t[i].firstTokenWriteNs - t[i].arrivalNs >= kBlockNs); // the block is server time
        }
        // The one read second was read only after the block; the kernel had it long before.
        const sb::MockTiming &first = t[0].readNs <= t[1].readNs ? t[0] : t[1];
        const sb::MockTiming &second = t[0].readNs <= t[1].readNs ? t[1] : t[0];
        const qint64 bothSentNs = sent[1].afterNs - sent[0].sendNs;
        qInfo("both sent within %.3f ms; read second: kernel arrival %.3f ms after its send, read %.3f ms after",
              bothSentNs / 1e6, (second.arrivalNs - sent[&second == &t[0] ? 0 : 1].sendNs) / 1e6,
              (second.readNs - sent[&second == &t[0] ? 0 : 1].sendNs) / 1e6);
        QVERIFY(second.readNs >= first.readNs + kBlockNs);
        QVERIFY2(bothSentNs < kBlockNs / 2, "the test thread stalled between its two sends");
        QVERIFY(second.arrivalNs < first.readNs + kBlockNs);             // arrived during the block
        QVERIFY(second.readNs - second.arrivalNs >= kBlockNs - bothSentNs); // the old stamp's lateness
#endif
    }

    void completionsStreamAndNonStreaming()
    {
        Client c(m_server->port());
        const QByteArray body = R"({"model":"m","prompt":"a b c","max_tokens":3,"stream":true,"stream_options":{"include_usage":true}})";
        const Response r = c.call("POST", "/v1/completions", body);
        QCOMPARE(r.status, 200);
        const QList<QByteArray> data = r.sseData();
        QCOMPARE(data.size(), 3 + 1 + 1); // no role chunk for completions
        const QJsonObject first = QJsonDocument::fromJson(data[0]).object();
        QCOMPARE(first.value("object").toString(), QStringLiteral("text_completion"));
        QCOMPARE(first.value("model").toString(), QStringLiteral("m"));
        QVERIFY(!first.value("choices").toArray().at(0).toObject().value("text").toString().isEmpty());
        QCOMPARE(QJsonDocument::fromJson(data[3]).object().value("usage").toObject().value("prompt_tokens").toInt(), 3);

        const Response plain = c.call("POST", "/v1/completions", R"({"prompt":["x y", "z"],"max_completion_tokens":4})");
        QCOMPARE(plain.status, 200);
        QVERIFY(!plain.chunked);
        const QJsonObject o = plain.json();
        QCOMPARE(o.value("object").toString(), QStringLiteral("text_completion"));
        QCOMPARE(o.value("usage").toObject().value("completion_tokens").toInt(), 4);
        QCOMPARE(o.value("usage").toObject().value("prompt_tokens").toInt(), 3);
        QCOMPARE(o.value("choices").toArray().at(0).toObject().value("text").toString().count(QLatin1Char(' ')), 4);

        const Response chat = c.call("POST", "/v1/chat/completions", chatBody(QStringLiteral("hello there"), 7, false));
        QCOMPARE(chat.status, 200);
        const QJsonObject co = chat.json();
        QCOMPARE(co.value("object").toString(), QStringLiteral("chat.completion"));
        const QJsonObject choice = co.value("choices").toArray().at(0).toObject();
        QCOMPARE(choice.value("message").toObject().value("role").toString(), QStringLiteral("assistant"));
        QCOMPARE(choice.value("finish_reason").toString(), QStringLiteral("length"));
        QCOMPARE(co.value("usage").toObject().value("completion_tokens").toInt(), 7);
        QCOMPARE(co.value("usage").toObject().value("prompt_tokens").toInt(), 2);
    }

    void badRequests()
    {
        Client c(m_server->port());
        Response r = c.call("POST", "/v1/chat/completions", "{not json");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json().value("object").toString(), QStringLiteral("error"));
        QCOMPARE(c.call("POST", "/v1/chat/completions", R"({"model":"m"})").status, 400);
        QCOMPARE(c.call("POST", "/v1/completions", R"({"prompt":"a","max_tokens":0})").status, 400);
        QCOMPARE(c.call("GET", "/health").status, 200); // the connection survived
        QCOMPARE(m_server->stats().inFlight, 0);
    }

    void keepAliveAndPipelining()
    {
        QTcpSocket s;
        s.connectToHost(QStringLiteral("127.0.0.1"), m_server->port());
        QVERIFY(s.waitForConnected(5000));
        // Two requests in one write: the second waits for the first answer, in order.
        s.write(requestBytes("POST", "/v1/chat/completions", chatBody(QStringLiteral("p"), 3, true))
                + requestBytes("GET", "/health", {}));
        Response r1, r2;
        Reader a(&r1), b(&r2);
        QByteArray pending;
        bool firstDone = false;
        QElapsedTimer t;
        t.start();
        while (!r2.complete && t.elapsed() < 10000) {
            if (!s.waitForReadyRead(1000))
                continue;
            pending += s.readAll();
            // Feed byte-exactly: the first response ends at its terminating chunk.
            if (!firstDone) {
                const qsizetype end = pending.indexOf("0\r\n\r\n");
                if (end < 0)
                    continue;
                firstDone = a.feed(pending.left(end + 5));
                pending.remove(0, end + 5);
            }
            if (!pending.isEmpty() && b.feed(pending))
                pending.clear();
        }
        QVERIFY(r1.complete);
        QCOMPARE(r1.status, 200);
        QCOMPARE(r1.contentEvents, 3);
        QVERIFY(r2.complete);
        QCOMPARE(r2.status, 200);
        QCOMPARE(s.state(), QAbstractSocket::ConnectedState);

        // Connection: close is honoured.
        s.write("GET /health HTTP/1.1\r\nconnection: close\r\n\r\n");
        QTRY_COMPARE(s.state(), QAbstractSocket::UnconnectedState);
    }

    // A client that does not read: the kernel buffers fill, the rest waits in the mock and
    // follows in order once the client reads; Connection: close waits for it all to leave.
    void slowReaderGetsEverythingInOrder()
    {
#ifndef Q_OS_UNIX
        QSKIP("raw socket client");
#else
        sb::MockConfig cfg = sb::mockDefaults(sb::Flavor::Vllm);
        cfg.stepBaseMs = 0.002;
        cfg.stepPerSeqMs = 0;
        QString error;
        auto server = sb::MockServer::start(cfg, &error);
        QVERIFY2(server, qPrintable(error));
        constexpr int kTokens = 40000; // ~8 MB of events, twice what the mock's socket buffer takes
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(fd >= 0);
        const int rcvbuf = 64 * 1024; // fixed: no receive-buffer autotuning to swallow it all
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(server->port());
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr), 0);
        const QByteArray req = requestBytes("POST", "/v1/chat/completions", chatBody(QStringLiteral("slow"), kTokens, true),
                                            {{"connection", "close"}});
        QCOMPARE(::send(fd, req.constData(), size_t(req.size()), MSG_NOSIGNAL), ssize_t(req.size()));
        // Not reading until the whole answer is produced: much of it is still in the mock.
        QTRY_VERIFY_WITH_TIMEOUT(server->stats().requests == 1 && server->stats().inFlight == 0, 60000);
        Response r;
        Reader reader(&r);
        timeval tv{10, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        char buf[65536];
        ssize_t n = 0;
        while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0)
            reader.feed(QByteArray(buf, qsizetype(n)));
        const bool closed = n == 0; // the mock closed after the last byte (not a timeout)
        ::close(fd);
        QVERIFY(r.complete);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.contentEvents, kTokens);
        QCOMPARE(r.sseData().last(), QByteArray("[DONE]"));
        QVERIFY(closed);
#endif
    }

    void statsRoutes()
    {
        Client c(m_server->port());
        for (int i = 0; i < 3; ++i)
            QCOMPARE(c.call("POST", "/v1/completions", R"({"prompt":"a b","max_tokens":2})").status, 200);
        QJsonObject s = c.call("GET", "/mock/stats").json();
        QCOMPARE(s.value("requests").toInt(), 3);
        QCOMPARE(s.value("in_flight").toInt(), 0);
        QCOMPARE(s.value("max_in_flight").toInt(), 1);
        QCOMPARE(s.value("flavor").toString(), QStringLiteral("vllm"));
        QVERIFY(s.contains("cache_hit_blocks") && s.contains("cache_miss_blocks") && s.contains("resets_done")
                && s.contains("resets_refused") && s.contains("profile_windows"));
        QCOMPARE(m_server->stats().requests, qint64(3));
        QCOMPARE(c.call("POST", "/mock/stats/reset").status, 200);
        QCOMPARE(c.call("GET", "/mock/stats").json().value("requests").toInt(), 0);
        QVERIFY(m_server->timings().isEmpty());
        QCOMPARE(c.call("GET", "/mock/stats/reset").status, 405);
        m_server->resetStats();
        QCOMPARE(m_server->stats().requests, qint64(0));
    }

    void prefixCacheCountsBlocks()
    {
        Client c(m_server->port());
        const QByteArray body = chatBody(words(64, 1), 2, false); // 64 words = 4 blocks
        QCOMPARE(c.call("POST", "/v1/chat/completions", body).status, 200);
        QCOMPARE(m_server->stats().cacheMissBlocks, qint64(4));
        QCOMPARE(c.call("POST", "/v1/chat/completions", body).status, 200);
        QCOMPARE(m_server->stats().cacheHitBlocks, qint64(4));
    }

    void startFailsOnBusyPort()
    {
        sb::MockConfig cfg;
        cfg.port = m_server->port();
        QString error;
        QVERIFY(!sb::MockServer::start(cfg, &error));
        QVERIFY(error.contains(QString::number(cfg.port)));
    }
};

QTEST_MAIN(TestMockApi)
#include "tst_mock_api.moc"
