// The cheaper calibration path and the context limit: a server's /tokenize
// route (vLLM: chat template applied; llama.cpp: text only) drives the search, probes then
// measure what the server really counts and the search corrects for the difference; a server
// answering 400 past its context limit shrinks the bracket instead of failing the calibration.
#include "HostileServer.h"
#include "TestSupport.h"
#include "TokenizingServer.h"
#include "engine/PromptCalibration.h"
#include "mock/MockServer.h"
#include <QTest>

using namespace sb;

namespace {
// Counts as TokenizingServer does (7-token template + one per 3 characters); /tokenize answers
// vLLM's way but, like llama.cpp's, without the template: the probes must find the 7.
// `contextLimit` > 0: a probe past it is a 400, as vLLM answers a prompt over max_model_len.
struct TokenizeServer {
    int contextLimit = 0;
    bool hasTokenize = true;
    std::atomic<int> probes{0}, tokenizes{0};
    hostile::Server server{[this](hostile::Conn &c) {
        while (true) {
            const QByteArray req = c.readRequest();
            if (req.isEmpty())
                return;
            const QJsonObject body = QJsonDocument::fromJson(req.mid(req.indexOf("\r\n\r\n") + 4)).object();
            const int text = int((sbtest::promptOf(body).size() + 2) / 3);
            QByteArray answer;
            if (req.startsWith("POST /tokenize") && !hasTokenize) {
                answer = hostile::jsonResponse(404, "{\"detail\":\"Not Found\"}");
            } else if (req.startsWith("POST /tokenize")) {
                ++tokenizes;
                answer = hostile::jsonResponse(200, "{\"count\":" + QByteArray::number(text) + ",\"max_model_len\":4096,\"tokens\":[]}");
            } else if (contextLimit > 0 && 7 + text > contextLimit) {
                ++probes;
                answer = hostile::jsonResponse(400, "{\"error\":{\"message\":\"This model's maximum context length is " +
                                                        QByteArray::number(contextLimit) + " tokens.\",\"code\":400}}");
            } else {
                ++probes;
                answer = hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"prompt_tokens\":" +
                                                        QByteArray::number(7 + text) + ",\"completion_tokens\":1}}");
            }
            if (!c.write(answer))
                return;
        }
    }};
};

ServerSpec serverAt(const QString &url, Flavor flavor)
{
    ServerSpec s;
    s.name = QStringLiteral("a");
    s.urls = {url};
    s.model = QStringLiteral("tiny");
    s.flavor = flavor;
    return s;
}

PromptCalibration calibrate(const ServerSpec &server, int target)
{
    ControlClient client;
    PromptCalibrator calibrator(client, nullptr);
    WorkloadSpec w;
    w.inputTokens = target;
    return calibrator.calibrate(server, server.urls.first(), w, "cb-0000000000000-c0000");
}
} // namespace

class TestCalibrationPaths : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void tokenizeRouteDrivesTheSearch_data()
    {
        QTest::addColumn<int>("target");
        for (int t : {64, 256, 1024})
            QTest::newRow(qPrintable(QString::number(t))) << t;
    }
    void tokenizeRouteDrivesTheSearch()
    {
        QFETCH(int, target);
        TokenizeServer s;
        const PromptCalibration c = calibrate(serverAt(QString::fromLatin1(s.server.url()), Flavor::Vllm), target);
        QVERIFY2(c.ok(), qPrintable(c.error));
        QVERIFY(c.viaTokenize);
        QCOMPARE(c.measuredTokens, target); // the template's 7 tokens found by the probes
        QCOMPARE(c.probes, s.probes.load());
        QVERIFY(s.tokenizes > 0);
        // Probes only: what the same server costs without the route.
        sbtest::TokenizingServer plain;
        const PromptCalibration p = calibrate(serverAt(QString::fromLatin1(plain.server.url()), Flavor::Vllm), target);
        QVERIFY(p.ok() && !p.viaTokenize);
        QCOMPARE(p.fillerChars, c.fillerChars); // the same answer
        qInfo("target %d: %d probes + %d /tokenize calls instead of %d probes", target, c.probes, c.tokenizeCalls, p.probes);
        QVERIFY(c.probes < p.probes);
    }

    // The embedded llama.cpp mock has {"content"} /tokenize without the template, as the real one.
    void llamacppMockTokenize()
    {
        QString error;
        auto mock = MockServer::start(mockDefaults(Flavor::Llamacpp), &error);
        QVERIFY2(mock, qPrintable(error));
        const PromptCalibration c = calibrate(serverAt(mock->url().toString(), Flavor::Llamacpp), 300);
        QVERIFY2(c.ok(), qPrintable(c.error));
        QVERIFY(c.viaTokenize);
        QVERIFY2(std::abs(c.measuredTokens - 300) <= 1, qPrintable(QString::number(c.measuredTokens)));
    }

    // A 400 past the context limit (vLLM's answer to a prompt over max_model_len) shrinks the
    // bracket: a target below the limit calibrates, one above fails naming the limit and the
    // server's words, on both paths.
    void contextLimitShrinksTheBracket_data()
    {
        QTest::addColumn<bool>("tokenizeRoute");
        QTest::newRow("probes") << false;
        QTest::newRow("tokenize") << true;
    }
    void contextLimitShrinksTheBracket()
    {
        QFETCH(bool, tokenizeRoute);
        TokenizeServer s;
        s.contextLimit = 520;
        s.hasTokenize = tokenizeRoute;
        const ServerSpec server = serverAt(QString::fromLatin1(s.server.url()), Flavor::Vllm);
        const PromptCalibration ok = calibrate(server, 500);
        QVERIFY2(ok.ok(), qPrintable(ok.error));
        QCOMPARE(ok.measuredTokens, 500);
        QCOMPARE(ok.viaTokenize, tokenizeRoute);
        const PromptCalibration over = calibrate(server, 800);
        QVERIFY(!over.ok());
        QVERIFY2(over.error.contains(QStringLiteral("refuses prompts past")) && over.error.contains(QStringLiteral("maximum context length")),
                 qPrintable(over.error));
    }
};

QTEST_GUILESS_MAIN(TestCalibrationPaths)
#include "tst_calibration_paths.moc"
