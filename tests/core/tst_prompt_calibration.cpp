// Prompts as long as asked on the server's own tokenizer: calibration probes find the filler
// length a server counts as input_tokens (template overhead included), servers serving the same
// model share it, a resumed run reuses it, and measured lengths that miss the request warn.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "TestSupport.h"
#include "engine/CellValidity.h"
#include "engine/PromptCalibration.h"
#include "load/RequestFactory.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <mutex>

using namespace sb;

namespace {
// A server with its own "tokenizer": one token per 3 characters of the prompt (rounded up) plus
// a 7-token chat template; usage says so, as a real server's does.
struct TokenizingServer {
    std::atomic<int> probes{0};
    std::atomic<int> measured{0};
    double skew = 1.0; // the measured requests' usage is scaled by this (to test the warnings)
    hostile::Server server{[this](hostile::Conn &c) {
        while (true) {
            const QByteArray req = c.readRequest();
            if (req.isEmpty())
                return;
            // No metrics, model list or version here (the engine asks for them: server_info);
            // such a GET is neither a probe nor a measured request.
            if (req.startsWith("GET ")) {
                if (!c.write(hostile::jsonResponse(404, "{}")))
                    return;
                continue;
            }
            const QJsonObject body = QJsonDocument::fromJson(req.mid(req.indexOf("\r\n\r\n") + 4)).object();
            const QString prompt = body.value(QStringLiteral("messages")).toArray().at(0).toObject().value(QStringLiteral("content")).toString();
            const int tokens = 7 + int((prompt.size() + 2) / 3);
            QByteArray answer;
            if (!body.value(QStringLiteral("stream")).toBool()) {
                ++probes;
                answer = hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"prompt_tokens\":" +
                                                        QByteArray::number(tokens) + ",\"completion_tokens\":1}}");
            } else {
                ++measured;
                QByteArray events = hostile::sseBody(4);
                events.replace("\"prompt_tokens\":16", "\"prompt_tokens\":" + QByteArray::number(int(tokens * skew)));
                answer = hostile::sseResponse(events);
            }
            if (!c.write(answer))
                return;
        }
    }};
};

QList<QJsonObject> records(const QString &dir, const CellResult &cell)
{
    return sbtest::readJsonLines(dir + QLatin1Char('/') + cell.recordsPath);
}
} // namespace

class TestPromptCalibration : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void hitsTheTargetOnTheServersTokenizer_data()
    {
        QTest::addColumn<int>("target");
        for (int t : {64, 256, 1024})
            QTest::newRow(qPrintable(QString::number(t))) << t;
    }
    void hitsTheTargetOnTheServersTokenizer()
    {
        QFETCH(int, target);
        TokenizingServer s;
        ControlClient client;
        PromptCalibrator calibrator(client, nullptr);
        WorkloadSpec w;
        w.inputTokens = target;
        const QString url = QString::fromLatin1(s.server.url());
        const PromptCalibration c = calibrator.calibrate(sbtest::serverAt(url, QStringLiteral("a"), QStringLiteral("tiny")), url, w,
                                                         "cb-0000000000000-c0000");
        QVERIFY2(c.ok(), qPrintable(c.error));
        QCOMPARE(c.measuredTokens, target);
        QVERIFY2(c.probes <= 16, qPrintable(QString::number(c.probes)));
        // The words heuristic would have sent about 6 characters per token: ~2x the tokens here.
        QVERIFY(c.fillerChars < target * 4);
    }

    // A calibration is reused by later cells and runs, whose tags differ (a random run nonce,
    // the cell's number, "cb" for probes, "-w" for warmup): their prompts must differ in digit
    // values alone, which every tokenizer cuts alike. The tag's own letters and digits, sent as
    // they were, tokenized to 15-22 tokens on the real llama-server.
    void promptsDifferByTagInDigitValuesAlone()
    {
        const ServerSpec server = sbtest::serverAt(QStringLiteral("http://127.0.0.1:1"), QStringLiteral("a"), QStringLiteral("tiny"));
        const ServerTarget target = resolveTarget(server.urls.first(), server.endpoint);
        WorkloadSpec w;
        w.inputTokens = 64;
        const auto skeleton = [&](const QByteArray &tag, int ticket) {
            const QString prompt = QJsonDocument::fromJson(RequestFactory(server, target, w, tag, 300).body(ticket))
                                       .object().value(QStringLiteral("messages")).toArray().at(0).toObject().value(QStringLiteral("content")).toString();
            QString shape = prompt;
            for (QChar &c : shape)
                if (c.isDigit())
                    c = QLatin1Char('0');
            return std::pair(prompt, shape);
        };
        const auto [firstPrompt, firstShape] = skeleton("sb-0000000000000-c0000", 0);
        QVERIFY(firstPrompt.size() > 300);
        QSet<QString> prompts{firstPrompt};
        for (int i = 0; i < 40; ++i) {
            const QByteArray nonce = QByteArray::number(QRandomGenerator::global()->generate64(), 36).rightJustified(13, '0');
            const QByteArray tag = (i % 3 == 0 ? "cb-" : "sb-") + nonce + "-c" + QByteArray::number(i).rightJustified(4, '0') + (i % 5 == 0 ? "-w" : "");
            const auto [prompt, shape] = skeleton(tag, i);
            QCOMPARE(shape, firstShape);
            prompts.insert(prompt);
        }
        QCOMPARE(prompts.size(), 41); // and no two of these are the same prompt
    }

    // The engine calibrates once per model, shares it across servers, keeps it in the results
    // folder, and the measured ISL from usage is the requested one.
    void engineUsesOneCalibrationPerModel()
    {
        TokenizingServer a, b;
        SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(QString::fromLatin1(a.server.url()), QStringLiteral("a"), QStringLiteral("tiny")),
                                            sbtest::serverAt(QString::fromLatin1(b.server.url()), QStringLiteral("b"), QStringLiteral("tiny"))},
                                           {1, 2}, 6);
        spec.workload.calibratePrompts = true;
        spec.workload.inputTokens = 200;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(a.probes > 0);
        QCOMPARE(b.probes.load(), 0); // same model: same prompt text, no second calibration
        for (const CellResult &cell : r.results.cells) {
            QCOMPARE(cell.status, CellStatus::Completed);
            const MetricStats isl = cell.metrics.value(QStringLiteral("input_sequence_length"));
            QCOMPARE(isl.min, 200.0);
            QCOMPARE(isl.max, 200.0);
            for (const QString &wn : cell.warnings)
                QVERIFY2(!wn.contains(QStringLiteral("input length")), qPrintable(wn));
            QCOMPARE(records(dir.path(), cell).first().value(QStringLiteral("input_tokens")).toInt(), 200);
        }
        const QJsonObject saved = QJsonDocument::fromJson(sbtest::readFile(dir.filePath(QStringLiteral("calibration.json")))).object();
        QCOMPARE(saved.size(), 1);
        QCOMPARE(saved.constBegin().value().toObject().value(QStringLiteral("measured_tokens")).toInt(), 200);

        // A resumed run with one more point reuses it: no new probes, new cells measured.
        const int probesBefore = a.probes;
        const int measuredBefore = a.measured;
        spec.concurrency = {1, 2, 4};
        const auto resumed = sbtest::runSweep(spec, dir.path(), true);
        QCOMPARE(resumed.exitCode, 0);
        QCOMPARE(a.probes.load(), probesBefore);
        QVERIFY(a.measured > measuredBefore);
    }

    // Without calibration (or when the server's count drifts) the measured ISL says how far off
    // the prompts were; an output short of max_tokens is flagged too.
    void measuredLengthsThatMissWarn()
    {
        TokenizingServer s;
        s.skew = 1.25;
        SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(QString::fromLatin1(s.server.url()), QStringLiteral("a"), QStringLiteral("tiny"))}, {1}, 4);
        spec.workload.calibratePrompts = true;
        spec.workload.inputTokens = 100;
        spec.workload.outputTokens = 64; // the server sends 4
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        const QStringList &w = r.results.cells.at(0).warnings;
        QVERIFY2(std::any_of(w.cbegin(), w.cend(), [](const QString &x) { return x.contains(QStringLiteral("input length")) && x.contains(QStringLiteral("25.0 %")); }),
                 qPrintable(w.join(QLatin1Char('\n'))));
        QVERIFY2(std::any_of(w.cbegin(), w.cend(), [](const QString &x) { return x.contains(QStringLiteral("short of max_tokens 64")); }),
                 qPrintable(w.join(QLatin1Char('\n'))));
    }

    // A server that cannot be probed (no usage): the run goes on with words, and says so.
    void uncalibratableServerWarns()
    {
        hostile::Server server([](hostile::Conn &c) {
            while (true) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                const bool stream = req.contains("\"stream\":true");
                if (!c.write(stream ? hostile::sseResponse(hostile::sseBody(4)) : hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}]}")))
                    return;
            }
        });
        SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(QString::fromLatin1(server.url()), QStringLiteral("a"), QStringLiteral("tiny"))}, {1}, 3);
        spec.workload.calibratePrompts = true;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.completed, 3);
        QVERIFY(std::any_of(cell.warnings.cbegin(), cell.warnings.cend(),
                            [](const QString &x) { return x.contains(QStringLiteral("not calibrated")) && x.contains(QStringLiteral("usage.prompt_tokens")); }));
    }

    // The embedded mock counts words, and calibration agrees with it.
    void theMockAgrees()
    {
        QString error;
        auto mock = MockServer::start(sbtest::timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = sbtest::smallSpec({sbtest::serverFor(QStringLiteral("m"), *mock, Flavor::Vllm)}, {2}, 6);
        spec.workload.calibratePrompts = true;
        spec.workload.inputTokens = 256;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        const MetricStats isl = r.results.cells.at(0).metrics.value(QStringLiteral("input_sequence_length"));
        QVERIFY2(qAbs(isl.avg - 256) <= 1, qPrintable(QString::number(isl.avg)));
    }
};

QTEST_GUILESS_MAIN(TestPromptCalibration)
#include "tst_prompt_calibration.moc"
