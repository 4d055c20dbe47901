// SSE parsing, chunk scanning and HTTP response framing: the byte-level parts of the client.
#include "TestSupport.h"
#include "load/ChunkScanner.h"
#include "load/HttpResponseParser.h"
#include "load/SseParser.h"
#include <QTest>
#include <algorithm>
#include <array>
#include <string>
#include <vector>

using namespace sb;

namespace {
std::vector<std::string> feedInPieces(const std::string &stream, std::size_t piece)
{
    SseParser p;
    std::vector<std::string> events;
    for (std::size_t i = 0; i < stream.size(); i += piece)
        p.feed(stream.data() + i, std::min(piece, stream.size() - i), [&](std::string_view d) { events.emplace_back(d); });
    return events;
}

struct CollectSink : HttpResponseParser::Sink {
    int status = 0;
    std::string body;
    void onHeaders(int s) override { status = s; }
    void onBody(const char *p, std::size_t n) override { body.append(p, n); }
};
} // namespace

class TestSse : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void splitAtEveryByte()
    {
        const std::string stream =
            "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
            ": keep-alive\n\n"
            "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\r\n\r\n"
            "event: message\nid: 7\nretry: 10\n"
            "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}\r\r"
            "data: [DONE]\n\n";
        for (std::size_t piece : {1u, 2u, 3u, 7u, 64u, 4096u}) {
            const auto events = feedInPieces(stream, piece);
            QCOMPARE(events.size(), std::size_t(4));
            QCOMPARE(events[1], std::string("{\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}"));
            QCOMPARE(events[3], std::string("[DONE]"));
        }
    }

    void multiLineDataJoinsWithNewline()
    {
        const auto events = feedInPieces("data: a\ndata:b\n\ndata\n\n", 1);
        QCOMPARE(events.size(), std::size_t(2));
        QCOMPARE(events[0], std::string("a\nb"));
        QCOMPARE(events[1], std::string("")); // "data" alone: empty data field
    }

    void crAtReadBoundaryIsOneLineEnd()
    {
        SseParser p;
        std::vector<std::string> events;
        auto sink = [&](std::string_view d) { events.emplace_back(d); };
        const std::string a = "data: x\r", b = "\n\r", c = "\n";
        p.feed(a.data(), a.size(), sink);
        p.feed(b.data(), b.size(), sink);
        QCOMPARE(events.size(), std::size_t(1)); // CRLF + CR...
        p.feed(c.data(), c.size(), sink);
        QCOMPARE(events.size(), std::size_t(1)); // ...LF of the same CRLF: no second event
    }

    // A one-line event that lies whole in the read is handed on from the read's bytes (no copy:
    // this runs for every token); an event still open when the read ends is kept by the parser,
    // since the caller reuses its buffer for the next read.
    void eventDataComesFromTheReadAndSurvivesIt()
    {
        SseParser p;
        std::vector<std::string> events;
        std::vector<bool> inFirstRead;
        std::string read = "data: {\"a\":1}\n\ndata: one\n";
        const auto sink = [&](std::string_view d) {
            events.emplace_back(d);
            inFirstRead.push_back(d.data() >= read.data() && d.data() < read.data() + read.size());
        };
        p.feed(read.data(), read.size(), sink);
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(events[0], std::string("{\"a\":1}"));
        QVERIFY(inFirstRead[0]);
        std::fill(read.begin(), read.end(), 'X'); // the buffer's next use
        const std::string second = "data: two\n";
        p.feed(second.data(), second.size(), sink);
        std::string third = "\ndata: three\n";
        p.feed(third.data(), third.size(), sink);
        QCOMPARE(events.size(), std::size_t(2));
        QCOMPARE(events[1], std::string("one\ntwo"));
        QVERIFY(!inFirstRead[1]);
        std::fill(third.begin(), third.end(), 'Y');
        const std::string fourth = "\n";
        p.feed(fourth.data(), fourth.size(), sink);
        QCOMPARE(events.size(), std::size_t(3));
        QCOMPARE(events[2], std::string("three"));
    }

    void roleOnlyChunkHasNoContent()
    {
        const auto role = scanChunk("{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}");
        QVERIFY(!role.hasContent);
        QVERIFY(!role.malformed);
        QVERIFY(scanChunk("{\"choices\":[{\"delta\":{\"content\" : \"x\"}}]}").hasContent);
        QVERIFY(!scanChunk("{\"choices\":[{\"delta\":{\"content\":null}}]}").hasContent);
        QVERIFY(scanChunk("{\"choices\":[{\"text\":\" world\"}]}").hasContent); // completions
        // "content" inside a string value is not a key
        QVERIFY(!scanChunk("{\"choices\":[{\"delta\":{\"reasoning\":\"say \\\"content\\\": \\\"x\\\"\"}}]}").hasContent);
    }

    void usageChunkWithEmptyChoices()
    {
        const auto u = scanChunk("{\"choices\":[],\"usage\":{\"prompt_tokens\":128,\"total_tokens\":192,\"completion_tokens\":64}}");
        QVERIFY(u.hasUsage);
        QCOMPARE(u.promptTokens, 128);
        QCOMPARE(u.completionTokens, 64);
        QVERIFY(!u.hasContent);
        QVERIFY(!scanChunk("{\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"usage\":null}").hasUsage);
    }

    // (No backslash in a raw string here: moc's tokenizer stops at one, dropping the later slots.)
    // A non-streamed answer is read by the chunk's rules, plus its choices; its timing object is
    // found even beside content (a chunk looks for it only in the usage / content-free events).
    void wholeAnswerByTheChunkRules()
    {
        const std::string_view answer = R"({"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant",)"
                                        "\"content\":\"two \\\"words\\\"\",\"reasoning_content\":\"hmm ok\"}}],\"usage\":{\"prompt_tokens\":3,"
                                        R"("completion_tokens":5,"completion_tokens_details":{"reasoning_tokens":2}},"timings":{"predicted_n":5}})";
        const ChunkInfo a = scanAnswer(answer);
        QVERIFY(!a.malformed && !a.error && !a.noChoices);
        QVERIFY(a.hasContent && a.hasReasoning && a.hasUsage);
        QCOMPARE(jsonStringBody(a.contentFrom), std::string_view("two \\\"words\\\"")); // still escaped
        QCOMPARE(jsonStringBody(a.reasoningFrom), std::string_view("hmm ok"));
        QCOMPARE(a.completionTokens, 5);
        QCOMPARE(a.reasoningTokens, 2);
        QCOMPARE(a.timings, std::string_view(R"({"predicted_n":5})"));
        const std::string_view noUsage = R"({"choices":[{"message":{"content":"x"}}],"timings":{"predicted_n":1}})";
        QCOMPARE(scanAnswer(noUsage).timings, std::string_view(R"({"predicted_n":1})"));
        QVERIFY(scanChunk(noUsage).timings.empty());
        QVERIFY(!scanAnswer(R"({"choices":[{"text":" hi"}]})").noChoices); // completions
        QVERIFY(scanAnswer(R"({"choices":[ ]})").noChoices);
        QVERIFY(scanAnswer(R"({"choices":{}})").noChoices);
        QVERIFY(scanAnswer(R"({"usage":{"completion_tokens":1}})").noChoices);
        QVERIFY(!scanAnswer("[DONE]").done);
        QVERIFY(scanAnswer("[DONE]").malformed);
        QVERIFY(scanAnswer(R"({"object":"error","message":"busy"})").error);
        // only null stands for "not counted"
        QVERIFY(!scanAnswer(R"({"choices":[{"text":"x"}],"usage":{"completion_tokens":null}})").badUsage);
        QVERIFY(scanAnswer(R"({"choices":[{"text":"x"}],"usage":{"completion_tokens":"1"}})").badUsage);
        QVERIFY(scanChunk(R"({"choices":[],"usage":{"completion_tokens":true}})").badUsage);
        QVERIFY(scanChunk(R"({"choices":[],"usage":{"completion_tokens":1.0}})").badUsage);
    }

    void doneErrorAndMalformed()
    {
        QVERIFY(scanChunk(" [DONE] ").done);
        QVERIFY(scanChunk("{\"error\": {\"message\": \"boom\", \"code\": 500}}").error);
        QVERIFY(scanChunk("{\"object\":\"error\",\"message\":\"x\"}").error);
        QVERIFY(scanChunk("{\"choices\":[{\"delta\":").malformed);
        QVERIFY(scanChunk("not json").malformed);
    }

    // Braces at both ends are not JSON: every event is checked whole before a field is believed.
    void eventsMustBeJson_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<bool>("json");
        const auto row = [](const char *name, const QByteArray &data, bool json) { QTest::newRow(name) << data << json; };
        row("braces around words", "{not json}", false);
        row("commas in a broken tail", "{\"choices\":[{\"delta\":{\"content\":\"x\" ,,, }", false);
        row("string never closed", "{\"choices\":[{\"delta\":{\"content\":\"abc}}]}", false);
        row("key never closed", "{\"choi", false);
        row("bad escape", "{\"choices\":[{\"delta\":{\"content\":\"\\x\"}}]}", false);
        row("short unicode escape", "{\"choices\":[{\"delta\":{\"content\":\"\\u12\"}}]}", false);
        row("non-hex unicode escape", "{\"choices\":[{\"delta\":{\"content\":\"\\u12G4\"}}]}", false);
        row("escape at the end", "{\"a\":\"\\", false);
        row("raw newline in a string", "{\"a\":\"x\ny\"}", false); // two data: lines joined inside a string
        row("raw tab in a string", "{\"a\":\"x\ty\"}", false);
        row("invalid UTF-8 byte", "{\"a\":\"\xff\"}", false);
        row("overlong UTF-8", "{\"a\":\"\xc0\xaf\"}", false);
        row("UTF-8 surrogate", "{\"a\":\"\xed\xa0\x80\"}", false);
        row("UTF-8 cut short", "{\"a\":\"\xe2\x82\"}", false);
        row("trailing brace", "{\"choices\":[]}}", false);
        row("two objects", "{\"a\":1} {\"b\":2}", false);
        row("trailing word", "{\"a\":1}x", false);
        row("missing colon", "{\"a\" 1}", false);
        row("missing value", "{\"a\":}", false);
        row("trailing comma", "{\"a\":1,}", false);
        row("array trailing comma", "{\"a\":[1,]}", false);
        row("unquoted key", "{a:1}", false);
        row("single quotes", "{'a':1}", false);
        row("bracket mismatch", "{\"a\":[1}}", false);
        row("leading zero", "{\"a\":01}", false);
        row("bare dot", "{\"a\":1.}", false);
        row("leading dot", "{\"a\":.5}", false);
        row("plus sign", "{\"a\":+1}", false);
        row("lone minus", "{\"a\":-}", false);
        row("empty exponent", "{\"a\":1e}", false);
        row("NaN", "{\"a\":NaN}", false);
        row("short literal", "{\"a\":tru}", false);
        row("capital literal", "{\"a\":True}", false);
        row("array, not object", "[1,2]", false);
        row("string, not object", "\"x\"", false);
        row("empty", "", false);
        row("nested 65 deep", "{\"a\":" + QByteArray(64, '[') + QByteArray(64, ']') + "}", false);
        row("depth bomb", "{\"a\":" + QByteArray(1 << 20, '[') + QByteArray(1 << 20, ']') + "}", false);
        row("depth bomb unclosed", "{\"a\":" + QByteArray(1 << 20, '{') + "}", false);

        row("nested 64 deep", "{\"a\":" + QByteArray(63, '[') + QByteArray(63, ']') + "}", true);
        row("vLLM chunk", "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1733140000,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" the\"},\"logprobs\":null,\"finish_reason\":null}]}", true);
        row("unicode escapes", "{\"choices\":[{\"delta\":{\"content\":\"\\u00e9\\ud83d\\ude00\\u2028 \\\"q\\\" \\\\ \\/ \\b\\f\\n\\r\\t\"}}]}", true);
        row("lone surrogate escape", "{\"choices\":[{\"delta\":{\"content\":\"\\ud800\"}}]}", true);
        row("raw UTF-8", "{\"choices\":[{\"delta\":{\"content\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}}]}", true);
        row("numbers", "{\"a\":-0.5e+10,\"b\":1E-7,\"c\":0,\"d\":123.456e7,\"e\":-0,\"f\":[1,2.5,-3e2]}", true);
        row("literals", "{\"a\":true,\"b\":false,\"c\":null,\"d\":[true,false,null]}", true);
        row("whitespace everywhere", " { \"a\" :\t[ 1 , { } , [ ] ] ,\r\n\"b\" : \"\" } ", true);
        row("empty containers", "{\"choices\":[],\"usage\":{}}", true);
    }
    void eventsMustBeJson()
    {
        QFETCH(QByteArray, data);
        QFETCH(bool, json);
        const ChunkInfo info = scanChunk(std::string_view(data.constData(), std::size_t(data.size())));
        QCOMPARE(info.malformed, !json);
        QCOMPARE(info.json.ok, json);
        if (!json) {
            QVERIFY(info.json.offset <= std::size_t(data.size()));
            QVERIFY(*info.json.expected);
        }
    }

    // The error says where and what: a clear message for a server developer.
    void invalidEventSaysWhereAndWhat()
    {
        JsonCheck c = scanChunk("{not json}").json;
        QCOMPARE(c.offset, std::size_t(1));
        QCOMPARE(QByteArray(c.expected), QByteArray("a '\"' opening a key"));
        c = scanChunk("  {\"a\":[1}}").json; // offsets count from the data as sent
        QCOMPARE(c.offset, std::size_t(9));
        QCOMPARE(QByteArray(c.expected), QByteArray("',' or ']'"));
        c = scanChunk("[1]").json;
        QCOMPARE(QByteArray(c.expected), QByteArray("a JSON object"));
        QVERIFY(!checkJson("[[[1]]]", nullptr, 2).ok);
        QVERIFY(checkJson("[[[1]]]", nullptr, 3).ok);
        QVERIFY(scanChunk("[DONE]").done);
        QVERIFY(!scanChunk("[DONE]").malformed);
    }

    // The check's one pass also finds where named members' values start: the first member so
    // named at any depth, never a key-like text inside a string, never a key spelled with escapes.
    void membersFoundInThePass()
    {
        static constexpr std::string_view names[] = {"content", "usage", "missing"};
        std::array<std::size_t, 3> at{};
        const JsonMembers members{names, at};
        const std::string_view text = "{\"x\":\"\\\"content\\\":1\",\"a\":{\"content\" : \"first\"},\"content\":\"second\",\"us\\u0061ge\":{},\"usage\":{}}";
        QVERIFY(checkJson(text, &members).ok);
        QCOMPARE(text.substr(at[0], 7), std::string_view("\"first\""));
        QCOMPARE(text.substr(at[1], 2), std::string_view("{}"));
        QCOMPARE(text.substr(at[1] - 8, 7), std::string_view("\"usage\""));
        QCOMPARE(at[2], std::string_view::npos);
    }

    // A connection's events are checked from where they stop repeating the previous one: the
    // verdict, where a bad event stopped being JSON and the members found are exactly those of a
    // check from the start, whatever came before (same prefix then a break, a prefix that differs
    // in one byte, whitespace or the end of the text at the resume point, a cut string).
    void resumedCheckIsTheFullCheck()
    {
        const std::string head = "{\"id\":\"chatcmpl-7\",\"object\":\"chat.completion.chunk\",\"created\":1733140000,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":";
        const std::vector<std::string> events = {
            head + "\" the\"},\"logprobs\":null,\"finish_reason\":null}]}",
            head + "\" cat\"},\"logprobs\":null,\"finish_reason\":null}]}",
            head + "\" sat\"},\"logprobs\":null,\"finish_reason\":null}]}",
            head + "\" on\"}, \"logprobs\":null,\"finish_reason\":null}]}",
            head + "  \" x\"},\"logprobs\":null,\"finish_reason\":null}]}",    // whitespace where the value began
            head + "\" broken},\"logprobs\":null,\"finish_reason\":null}]}", // a string that never closes
            head + "\" y\"}}]} trailing",                                  // bytes after the value
            head,                                                           // the text ends at the point
            head + "null},\"usage\":{\"prompt_tokens\":3}}]}",              // content null, usage after it
            head + "\" z\",\"error\":{\"m\":1}},\"finish_reason\":null}]}",      // a member found only after the point
            "{\"id\":\"chatcmpl-8\",\"object\":\"chat.completion.chunk\",\"created\":1733140000,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" a\"}}]}",
            head.substr(0, head.size() - 12) + "{\"reasoning_content\":\" hmm\"}}]}",
            head + "\" {\"}}]}",
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":64}}",
            head + "\" end\"},\"finish_reason\":\"length\"}]}",
        };
        JsonResumePoint point;
        int resumed = 0;
        for (int round = 0; round < 2; ++round)
            for (std::size_t k = 0; k < events.size(); ++k) {
                const std::string &e = events[(k * (round + 1)) % events.size()];
                const bool samePrefix = point.offset > 0 && e.size() >= point.offset && e.compare(0, point.offset, point.prefix.data(), point.offset) == 0;
                resumed += samePrefix;
                const ChunkInfo full = scanChunk(e);
                const ChunkInfo fast = scanChunk(e, &point);
                const QByteArray what = QByteArray::fromStdString(e);
                QCOMPARE(fast.malformed, full.malformed);
                QCOMPARE(fast.json.ok, full.json.ok);
                QVERIFY2(fast.json.offset == full.json.offset, what.constData());
                QCOMPARE(QByteArray(fast.json.expected), QByteArray(full.json.expected));
                QCOMPARE(fast.error, full.error);
                QVERIFY2(fast.hasContent == full.hasContent, what.constData());
                QCOMPARE(fast.contentFrom.data(), full.contentFrom.data());
                QCOMPARE(fast.hasReasoning, full.hasReasoning);
                QCOMPARE(fast.hasUsage, full.hasUsage);
                QCOMPARE(fast.promptTokens, full.promptTokens);
            }
        QVERIFY2(resumed >= 8, qPrintable(QString::number(resumed))); // the point was really used
        // The point sits at the first content value, with the members found before it.
        scanChunk(events[0], &point);
        QCOMPARE(point.offset, head.size());
        QCOMPARE(std::string(point.prefix.data(), point.offset), head);
    }

    void chunkedResponseSplitAnywhere()
    {
        const std::string resp = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                                 "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n"
                                 "HTTP/1.1 204 No Content\r\n\r\n";
        for (std::size_t piece : {1u, 5u, 4096u}) {
            HttpResponseParser parser;
            CollectSink sink;
            std::size_t offset = 0, used = 0;
            HttpResponseParser::Result r = HttpResponseParser::Result::NeedMore;
            while (offset < resp.size() && r == HttpResponseParser::Result::NeedMore) {
                const std::size_t n = std::min(piece, resp.size() - offset);
                r = parser.feed(resp.data() + offset, n, sink, &used);
                offset += used;
            }
            QCOMPARE(int(r), int(HttpResponseParser::Result::Complete));
            QCOMPARE(sink.status, 200);
            QCOMPARE(sink.body, std::string("hello world"));
            QVERIFY(parser.isEventStream());
            QVERIFY(parser.keepAlive());
            // The next response on the connection starts exactly where this one ended.
            QCOMPARE(resp.substr(offset, 12), std::string("HTTP/1.1 204"));
        }
    }

    void contentLengthAndClose()
    {
        const std::string resp = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\nConnection: close\r\n\r\noopsEXTRA";
        HttpResponseParser parser;
        CollectSink sink;
        std::size_t used = 0;
        QCOMPARE(int(parser.feed(resp.data(), resp.size(), sink, &used)), int(HttpResponseParser::Result::Complete));
        QCOMPARE(sink.body, std::string("oops"));
        QCOMPARE(sink.status, 500);
        QVERIFY(!parser.keepAlive());
        QCOMPARE(resp.substr(used), std::string("EXTRA"));

        HttpResponseParser untilClose;
        CollectSink s2;
        const std::string r2 = "HTTP/1.0 200 OK\r\n\r\nbody";
        QCOMPARE(int(untilClose.feed(r2.data(), r2.size(), s2, &used)), int(HttpResponseParser::Result::NeedMore));
        QCOMPARE(int(untilClose.finishOnClose(s2)), int(HttpResponseParser::Result::Complete));
        QCOMPARE(s2.body, std::string("body"));
    }

    void garbageIsAnError()
    {
        HttpResponseParser parser;
        CollectSink sink;
        std::size_t used = 0;
        const std::string bad = "SSH-2.0-OpenSSH\r\n\r\n";
        QCOMPARE(int(parser.feed(bad.data(), bad.size(), sink, &used)), int(HttpResponseParser::Result::Error));
        QVERIFY(!parser.error().empty());
    }
};

QTEST_GUILESS_MAIN(TestSse)
#include "tst_sse.moc"
