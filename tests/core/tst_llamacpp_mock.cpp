// The embedded mock's llamacpp personality, route by route, as docs/spec-reference.md describes
// llama-server: slots (list, erase, 501 without --slot-save-path, a busy slot's erase waiting),
// per-slot prefix caches, /props, /tokenize, /apply-template, usage with cached tokens and
// timings, the context limit, and the connection closed after every stream.
#include "TestSupport.h"
#include "commands/MockServerCli.h"
#include "tst_mock_client.h"
#include <QTest>
#include <csignal>

using namespace mocktest;

namespace {
std::unique_ptr<sb::MockServer> startLlama(const std::function<void(sb::MockConfig &)> &tweak = {})
{
    sb::MockConfig cfg = sb::mockDefaults(sb::Flavor::Llamacpp);
    cfg.stepBaseMs = 1;
    if (tweak)
        tweak(cfg);
    QString error;
    auto s = sb::MockServer::start(cfg, &error);
    if (!s)
        qFatal("mock did not start: %s", qPrintable(error));
    return s;
}

QByteArray completionBody(const QString &prompt, int maxTokens, bool stream)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("model"), QStringLiteral("demo-model")},
                                     {QStringLiteral("prompt"), prompt},
                                     {QStringLiteral("max_tokens"), maxTokens},
                                     {QStringLiteral("stream"), stream}})
        .toJson(QJsonDocument::Compact);
}

// The JSON payloads of an SSE body, [DONE] left out.
QList<QJsonObject> events(const Response &r)
{
    QList<QJsonObject> out;
    for (const QByteArray &d : r.sseData())
        if (d.trimmed() != "[DONE]")
            out << QJsonDocument::fromJson(d).object();
    return out;
}

int cachedTokens(const QJsonObject &answer)
{
    return answer.value("usage").toObject().value("prompt_tokens_details").toObject().value("cached_tokens").toInt(-1);
}

// Reads from `s` until the peer closes or `ms` pass; returns everything read.
QByteArray readUntilClosed(QTcpSocket &s, int ms)
{
    QByteArray all;
    QElapsedTimer t;
    t.start();
    while (s.state() == QAbstractSocket::ConnectedState && t.elapsed() < ms) {
        s.waitForReadyRead(int(std::max<qint64>(1, ms - t.elapsed())));
        all += s.readAll();
    }
    return all + s.readAll();
}
} // namespace

class TestLlamacppMock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void slotsPropsTokenizeTemplate()
    {
        auto mock = startLlama();
        Client c(mock->port());
        const Response listed = c.call("GET", "/slots");
        QCOMPARE(listed.status, 200);
        const QJsonArray list = QJsonDocument::fromJson(listed.body).array();
        QCOMPARE(list.size(), 8); // --parallel 8, llama-server's default here
        for (int i = 0; i < list.size(); ++i) {
            QCOMPARE(list[i].toObject().value("id").toInt(-1), i);
            QCOMPARE(list[i].toObject().value("is_processing").toBool(true), false);
        }
        const QJsonObject props = c.call("GET", "/props").json();
        QCOMPARE(props.value("total_slots").toInt(), 8);
        QCOMPARE(props.value("default_generation_settings").toObject().value("n_ctx").toInt(), 4096);
        QVERIFY(props.value("chat_template").toString().contains("<|im_start|>"));

        const Response tok = c.call("POST", "/tokenize", R"({"content":"one two three"})");
        QCOMPARE(tok.status, 200);
        QCOMPARE(tok.json().value("tokens").toArray().size(), 3);
        QCOMPARE(c.call("POST", "/tokenize", R"({"text":"x"})").status, 400);

        const Response tmpl = c.call("POST", "/apply-template", R"({"messages":[{"role":"user","content":"Hello there"}]})");
        QCOMPARE(tmpl.status, 200);
        const QString prompt = tmpl.json().value("prompt").toString();
        QCOMPARE(prompt, QStringLiteral("<|im_start|>user\nHello there<|im_end|>\n<|im_start|>assistant\n"));
        // The chat prompt llama-server counts is the templated one: usage agrees with /tokenize.
        const int templated = c.call("POST", "/tokenize", QJsonDocument(QJsonObject{{"content", prompt}}).toJson())
                                  .json().value("tokens").toArray().size();
        const Response chat = c.call("POST", "/v1/chat/completions", chatBody(QStringLiteral("Hello there"), 2, false));
        QCOMPARE(chat.status, 200);
        QCOMPARE(chat.json().value("usage").toObject().value("prompt_tokens").toInt(), templated);
        QCOMPARE(c.call("POST", "/apply-template", R"({"messages":"no"})").status, 400);
        // No vLLM/SGLang control routes, no profiler.
        QCOMPARE(c.call("POST", "/reset_prefix_cache").status, 404);
        QCOMPARE(c.call("POST", "/start_profile").status, 404);
    }

    void usageTimingsAndIds()
    {
        auto mock = startLlama();
        Client c(mock->port());
        const QString prompt = words(40, 1);
        // Non-streaming completion: usage with cached tokens, a timings object, a chatcmpl- id.
        const QJsonObject first = c.call("POST", "/v1/completions", completionBody(prompt, 3, false)).json();
        QVERIFY(first.value("id").toString().startsWith("chatcmpl-"));
        QCOMPARE(cachedTokens(first), 0);
        const QJsonObject t = first.value("timings").toObject();
        for (const char *k : {"prompt_n", "prompt_ms", "cache_n", "predicted_n", "predicted_ms", "predicted_per_second"})
            QVERIFY2(t.contains(QLatin1String(k)), k);
        QCOMPARE(t.value("prompt_n").toInt(), 40);
        QCOMPARE(t.value("predicted_n").toInt(), 3);
        // The same prompt again goes to the slot that holds it: all but the last token cached.
        const QJsonObject again = c.call("POST", "/v1/completions", completionBody(prompt, 3, false)).json();
        QCOMPARE(cachedTokens(again), 39);
        QCOMPARE(again.value("timings").toObject().value("cache_n").toInt(), 39);
        QCOMPARE(again.value("timings").toObject().value("prompt_n").toInt(), 1);

        // Streaming completions: usage and timings on the final chunk, without being asked.
        Client s1(mock->port());
        const Response cs = s1.call("POST", "/v1/completions", completionBody(words(20, 2), 4, true));
        QVERIFY(cs.complete);
        const QList<QJsonObject> ev = events(cs);
        QVERIFY(ev.size() >= 2);
        QVERIFY(ev.first().value("id").toString().startsWith("chatcmpl-"));
        QCOMPARE(ev.last().value("usage").toObject().value("completion_tokens").toInt(), 4);
        QVERIFY(ev.last().contains("timings"));
        QCOMPARE(ev.last().value("choices").toArray()[0].toObject().value("finish_reason").toString(), QStringLiteral("length"));

        // Streaming chat: usage only with stream_options.include_usage; timings on the last chunk.
        Client s2(mock->port());
        const QList<QJsonObject> withUsage = events(s2.call("POST", "/v1/chat/completions", chatBody(words(20, 3), 4, true, true)));
        QCOMPARE(withUsage.last().value("choices").toArray().size(), 0);
        QCOMPARE(withUsage.last().value("usage").toObject().value("completion_tokens").toInt(), 4);
        QVERIFY(withUsage.last().contains("timings"));
        Client s3(mock->port());
        const QList<QJsonObject> noUsage = events(s3.call("POST", "/v1/chat/completions", chatBody(words(20, 4), 4, true, false)));
        for (const QJsonObject &e : noUsage)
            QVERIFY(!e.contains("usage"));
        QVERIFY(noUsage.last().contains("timings"));
        QCOMPARE(noUsage.last().value("choices").toArray()[0].toObject().value("finish_reason").toString(), QStringLiteral("length"));
    }

    void promptLongerThanASlotIsA400()
    {
        auto mock = startLlama([](sb::MockConfig &c) { c.slotContext = 64; });
        Client c(mock->port());
        const Response r = c.call("POST", "/v1/completions", completionBody(words(64, 5), 2, true));
        QCOMPARE(r.status, 400);
        const QJsonObject err = r.json().value("error").toObject();
        QCOMPARE(err.value("type").toString(), QStringLiteral("exceed_context_size_error"));
        QCOMPARE(err.value("n_prompt_tokens").toInt(), 64);
        QCOMPARE(err.value("n_ctx").toInt(), 64);
        QCOMPARE(c.call("POST", "/v1/completions", completionBody(words(63, 5), 2, false)).status, 200);
    }

    void closesAfterEveryStreamDespiteKeepAlive()
    {
        auto mock = startLlama();
        QTcpSocket s;
        s.connectToHost(QStringLiteral("127.0.0.1"), mock->port());
        QVERIFY(s.waitForConnected(5000));
        s.write(requestBytes("POST", "/v1/chat/completions", chatBody(QStringLiteral("stream then close"), 4, true)));
        const QByteArray all = readUntilClosed(s, 20000);
        QCOMPARE(s.state(), QAbstractSocket::UnconnectedState); // the server closed it
        const QByteArray head = all.left(all.indexOf("\r\n\r\n")).toLower();
        QVERIFY2(head.contains("keep-alive: timeout=5, max=100"), head.constData());
        QVERIFY(!head.contains("connection: close")); // it promised keep-alive...
        QVERIFY(all.contains("data: [DONE]"));
        QVERIFY(all.endsWith("0\r\n\r\n"));          // ...and closed after a complete stream

        // A non-streamed answer keeps the connection: two requests on one socket.
        Client c(mock->port());
        QCOMPARE(c.call("POST", "/v1/completions", completionBody(QStringLiteral("a b c"), 2, false)).status, 200);
        QCOMPARE(c.socket().state(), QAbstractSocket::ConnectedState);
        QCOMPARE(c.call("GET", "/slots").status, 200);
    }

    void eraseClearsOnlyThatSlot()
    {
        auto mock = startLlama();
        Client c(mock->port());
        const QString a = words(30, 10), b = words(30, 11);
        // As on llama-server, a fresh server takes its least recently used slot, the last of equals.
        c.call("POST", "/v1/completions", completionBody(a, 2, false)); // slot 7
        c.call("POST", "/v1/completions", completionBody(b, 2, false)); // slot 6
        const QJsonArray list = QJsonDocument::fromJson(c.call("GET", "/slots").body).array();
        QVERIFY(!list[0].toObject().contains("n_prompt_tokens")); // never used
        QCOMPARE(list[7].toObject().value("n_prompt_tokens").toInt(), 31); // 30 prompt + 2 generated - 1
        const Response erased = c.call("POST", "/slots/7?action=erase");
        QCOMPARE(erased.status, 200);
        QCOMPARE(erased.json().value("id_slot").toInt(-1), 7);
        QCOMPARE(erased.json().value("n_erased").toInt(), 31);
        QCOMPARE(c.call("POST", "/slots/7?action=erase").json().value("n_erased").toInt(-1), 0);
        QCOMPARE(cachedTokens(c.call("POST", "/v1/completions", completionBody(a, 2, false)).json()), 0);  // gone
        QCOMPARE(cachedTokens(c.call("POST", "/v1/completions", completionBody(b, 2, false)).json()), 29); // kept
        QCOMPARE(c.call("POST", "/slots/8?action=erase").status, 400);     // no such slot
        QCOMPARE(c.call("POST", "/slots/0?action=bogus").status, 400);
        QCOMPARE(c.call("GET", "/slots/0?action=erase").status, 404);
    }

    void eraseNeedsSlotSavePath()
    {
        auto mock = startLlama([](sb::MockConfig &c) { c.slotSavePath = false; });
        Client c(mock->port());
        const Response r = c.call("POST", "/slots/0?action=erase");
        QCOMPARE(r.status, 501);
        QCOMPARE(r.json().value("error").toObject().value("type").toString(), QStringLiteral("not_supported_error"));
        QVERIFY(r.json().value("error").toObject().value("message").toString().contains("--slot-save-path"));
        QCOMPARE(c.call("GET", "/slots").status, 200); // listing needs no --slot-save-path
    }

    void hostCacheKeepsErasedPrefixes()
    {
        // --cache-ram > 0: an erased prompt comes back from the host-RAM cache.
        auto mock = startLlama([](sb::MockConfig &c) { c.cacheRamMiB = 8192; });
        Client c(mock->port());
        const QString a = words(30, 20);
        c.call("POST", "/v1/completions", completionBody(a, 2, false));
        for (int i = 0; i < 8; ++i)
            QCOMPARE(c.call("POST", QByteArray("/slots/") + QByteArray::number(i) + "?action=erase").status, 200);
        QCOMPARE(cachedTokens(c.call("POST", "/v1/completions", completionBody(a, 2, false)).json()), 29);
    }

    void ninthRequestWaitsForASlotAndBusyEraseWaits()
    {
        auto mock = startLlama([](sb::MockConfig &c) {
            c.maxBatch = 2; // --parallel 2
            c.stepBaseMs = 5;
        });
        // Three long streams: two hold the slots, the third waits.
        std::vector<std::unique_ptr<QTcpSocket>> streams;
        for (int i = 0; i < 3; ++i) {
            auto s = std::make_unique<QTcpSocket>();
            s->connectToHost(QStringLiteral("127.0.0.1"), mock->port());
            QVERIFY(s->waitForConnected(5000));
            s->write(requestBytes("POST", "/v1/completions", completionBody(words(8, 30 + i), 200, true)));
            s->flush();
            streams.push_back(std::move(s));
        }
        QTRY_COMPARE_WITH_TIMEOUT(mock->stats().inFlight, 3, 10000);
        Client c(mock->port());
        // A request that arrived during a step is admitted at the next one: wait for that.
        auto running = [&] { return c.call("GET", "/mock/stats").json().value("running").toInt(); };
        QTRY_COMPARE_WITH_TIMEOUT(running(), 2, 10000);
        const QJsonObject stats = c.call("GET", "/mock/stats").json();
        QCOMPARE(stats.value("running").toInt(), 2); // never more than the slots
        QCOMPARE(stats.value("waiting").toInt(), 1);
        const QJsonArray list = QJsonDocument::fromJson(c.call("GET", "/slots").body).array();
        QCOMPARE(list.size(), 2);
        QVERIFY(list[0].toObject().value("is_processing").toBool());
        // Erasing a busy slot (slot 0 holds the second stream) answers only once no request holds
        // it: after the stream on it ended (and after the waiting one, if that took it next).
        const Response erased = c.call("POST", "/slots/0?action=erase", {}, {}, 60000);
        QCOMPARE(erased.status, 200);
        QCOMPARE(erased.json().value("id_slot").toInt(-1), 0);
        qint64 answeredNs = 0;
        for (const auto &e : mock->controlEvents())
            if (e.target == "/slots/0?action=erase")
                answeredNs = e.answeredNs;
        QVERIFY(answeredNs > 0);
        int endedBefore = 0;
        for (const auto &t : mock->timings())
            endedBefore += t.endNs > 0 && t.endNs <= answeredNs ? 1 : 0;
        QVERIFY2(endedBefore >= 1, "the erase answered before any request on its slot ended");
        for (auto &s : streams)
            readUntilClosed(*s, 30000);
    }

    void mockServerCommandServesLlamacpp()
    {
        const quint16 port = sbtest::freePort();
        QVERIFY(port);
        int slotCount = -1, eraseStatus = -1;
        QTimer::singleShot(100, [&] {
            Client c(port);
            slotCount = QJsonDocument::fromJson(c.call("GET", "/slots").body).array().size();
            eraseStatus = c.call("POST", "/slots/0?action=erase").status;
            ::raise(SIGTERM);
        });
        const int rc = sb::runMockServerCommand({QStringLiteral("sweepbench mock-server"), "--flavor", "llamacpp", "--port",
                                                 QString::number(port), "--parallel", "3", "--no-slot-save-path"});
        QCOMPARE(rc, 0);
        QCOMPARE(slotCount, 3);
        QCOMPARE(eraseStatus, 501);
        const QString help = sb::mockServerHelpText();
        for (const char *flag : {"llamacpp", "--parallel", "--slot-context", "--cache-ram", "--no-slot-save-path"})
            QVERIFY2(help.contains(QLatin1String(flag)), flag);
    }
};

QTEST_MAIN(TestLlamacppMock)
#include "tst_llamacpp_mock.moc"
