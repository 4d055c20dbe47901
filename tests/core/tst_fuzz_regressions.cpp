// Inputs the libFuzzer targets of tests/fuzz found, replayed through the same public APIs in the
// normal suite (whose ASan + UBSan run in packaging/test.sh catches undefined behaviour the
// optimised build runs through). Each input is also in tests/fuzz/corpus/<target>/.
#include "TestSupport.h"
#include "load/ChunkScanner.h"
#include "load/HttpResponseParser.h"
#include "spec/SpecIO.h"
#include <QFile>
#include <QTest>
#include <climits>
#include <string>

using namespace sb;

namespace {
struct NullSink : HttpResponseParser::Sink {
    void onHeaders(int) override {}
    void onBody(const char *, std::size_t) override {}
};
} // namespace

class TestFuzzRegressions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // fuzz_http_response: a Content-Length of more digits than 64 bits hold overflowed a signed
    // integer while being parsed (corpus/fuzz_http_response/content-length-overflow).
    void contentLengthTooLargeIsAnError()
    {
        const std::string resp = "HTTP/1.1 200 OK\r\nContent-Length: 77777777777777777777777777777\r\n\r\nbody";
        HttpResponseParser parser;
        NullSink sink;
        std::size_t used = 0;
        QCOMPARE(int(parser.feed(resp.data(), resp.size(), sink, &used)), int(HttpResponseParser::Result::Error));
        QVERIFY(!parser.error().empty());
    }

    // fuzz_sse_chunk: a usage token count of 20 digits overflowed while being parsed
    // (corpus/fuzz_sse_chunk/usage-overflow). Whatever the count becomes, it is not a wrapped one.
    void usageTokensTooLargeDoNotWrap()
    {
        const ChunkInfo info = scanChunk(R"({"choices":[],"usage":{"prompt_tokens":99999999999999999999,"completion_tokens":18446744073709551617}})");
        QVERIFY(info.promptTokens == -1 || (info.promptTokens >= 0 && info.promptTokens <= INT_MAX));
        QVERIFY(info.completionTokens == -1 || (info.completionTokens >= 0 && info.completionTokens <= INT_MAX));
    }

    // fuzz_spec: yaml-cpp 0.7's LoadAll looped forever, allocating, on a stray ','; the fuzzer's
    // 412-byte input took 8 GB in 20 s. Now a syntax error at once.
    void fuzzedSpecWithStrayCommaIsASyntaxError()
    {
        QFile f(sbtest::sourcePath(QStringLiteral("tests/fuzz/corpus/fuzz_spec/stray-comma-fuzzed.yaml")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const SpecLoadResult r = loadSpecText(f.readAll(), QStringLiteral("fuzzed.yaml"));
        QVERIFY(!r.ok());
        QCOMPARE(r.diagnostics.size(), 1);
        QVERIFY2(r.diagnostics.first().message.startsWith(QStringLiteral("YAML syntax error")), qPrintable(r.diagnostics.first().toString()));
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
