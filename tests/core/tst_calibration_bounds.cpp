// Calibration is bounded whatever the server or the results folder says: counts that are no
// token counts (0, -0.0, negative, fractions), counts that never grow, and a closest length far
// from the target fail the calibration by name, with no probe past maxFillerChars; a failed
// calibration falls back to words; a calibration.json with nonsense in it is refused with the
// file, the key and what was wrong, and a resume calibrates again instead of using it.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "TestSupport.h"
#include "TokenizingServer.h"
#include "engine/PromptCalibration.h"
#include "load/RequestFactory.h"
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>

using namespace sb;

namespace {
// JSON framing, model, digits and tag around the filler: far less than this.
constexpr qsizetype kBodyOverhead = 1024;

// A server whose counts the test chooses, keeping the largest request body it was sent. `count`
// gives prompt_tokens (a JSON literal) for a prompt of that many characters; `tokenizeCount`
// gives /tokenize's count (null: no such route, 404).
struct CountingPeer {
    std::function<QByteArray(qsizetype chars)> count;
    std::function<QByteArray(qsizetype chars)> tokenizeCount;
    std::atomic<qsizetype> largestBody{0};
    std::atomic<int> calls{0};
    std::mutex mutex;
    QList<qsizetype> measuredBodies; // streaming (measured) requests' body sizes
    hostile::Server server{[this](hostile::Conn &c) {
        while (true) {
            const QByteArray req = c.readRequest();
            if (req.isEmpty())
                return;
            const QByteArray raw = req.mid(req.indexOf("\r\n\r\n") + 4);
            for (qsizetype seen = largestBody; raw.size() > seen && !largestBody.compare_exchange_weak(seen, raw.size());) {
            }
            ++calls;
            const QJsonObject body = QJsonDocument::fromJson(raw).object();
            const qsizetype chars = sbtest::promptOf(body).size() + body.value(QStringLiteral("content")).toString().size();
            QByteArray answer;
            if (req.startsWith("GET ")) {
                answer = hostile::jsonResponse(404, "{}");
            } else if (req.startsWith("POST /tokenize")) {
                answer = tokenizeCount ? hostile::jsonResponse(200, "{\"count\":" + tokenizeCount(chars) + ",\"tokens\":[]}")
                                       : hostile::jsonResponse(404, "{\"detail\":\"Not Found\"}");
            } else if (body.value(QStringLiteral("stream")).toBool()) {
                {
                    std::lock_guard lock(mutex);
                    measuredBodies.append(raw.size());
                }
                answer = hostile::sseResponse(hostile::sseBody(4));
            } else {
                answer = hostile::jsonResponse(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"prompt_tokens\":" + count(chars) +
                                                        ",\"completion_tokens\":1}}");
            }
            if (!c.write(answer))
                return;
        }
    }};
    QString url() const { return QString::fromLatin1(server.url()); }
    qsizetype largestMeasured()
    {
        std::lock_guard lock(mutex);
        return measuredBodies.isEmpty() ? -1 : *std::max_element(measuredBodies.cbegin(), measuredBodies.cend());
    }
};

// The test TokenizingServer's count: a 7-token template and one token per 3 characters.
QByteArray sane(qsizetype chars)
{
    return QByteArray::number(7 + (chars + 2) / 3);
}

PromptCalibration calibrateOn(const QString &url, int target)
{
    ControlClient client;
    PromptCalibrator calibrator(client, nullptr);
    WorkloadSpec w;
    w.inputTokens = target;
    ServerSpec server = sbtest::serverAt(url, QStringLiteral("a"), QStringLiteral("tiny"));
    server.flavor = Flavor::Vllm;
    return calibrator.calibrate(server, url, w, "cb-0000000000000-c0000");
}

bool anyContains(const QStringList &lines, const QStringList &parts)
{
    return std::any_of(lines.cbegin(), lines.cend(), [&](const QString &l) {
        return std::all_of(parts.cbegin(), parts.cend(), [&](const QString &p) { return l.contains(p); });
    });
}

SweepSpec calibratingSpec(const QString &url, int inputTokens, const QList<int> &concurrency)
{
    SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(url, QStringLiteral("a"), QStringLiteral("tiny"))}, concurrency, 4);
    spec.workload.calibratePrompts = true;
    spec.workload.inputTokens = inputTokens;
    spec.workload.outputTokens = 4;
    spec.servers[0].metrics.enabled = false; // every request the peer sees is a probe or a measured one
    return spec;
}

bool writeText(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}
} // namespace

class TestCalibrationBounds : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // A server whose /tokenize and usage both say nonsense: the calibration fails at once by
    // name, and no request it sent had a filler past the cap (the doubling grew without end).
    void nonsenseCountsFailNamed_data()
    {
        QTest::addColumn<QByteArray>("count");
        QTest::addColumn<int>("target");
        QTest::addColumn<QString>("failure");
        for (int target : {8, 256}) {
            const QByteArray t = QByteArray::number(target);
            QTest::newRow(("zero " + t).constData()) << QByteArray("0") << target << QStringLiteral("nonsense_count");
            QTest::newRow(("minus zero " + t).constData()) << QByteArray("-0.0") << target << QStringLiteral("nonsense_count");
            QTest::newRow(("negative " + t).constData()) << QByteArray("-5") << target << QStringLiteral("nonsense_count");
            QTest::newRow(("fraction " + t).constData()) << QByteArray("2.5") << target << QStringLiteral("nonsense_count");
            QTest::newRow(("string " + t).constData()) << QByteArray("\"9\"") << target << QStringLiteral("nonsense_count");
            QTest::newRow(("always one " + t).constData()) << QByteArray("1") << target << QStringLiteral("count_not_growing");
        }
    }
    void nonsenseCountsFailNamed()
    {
        QFETCH(QByteArray, count);
        QFETCH(int, target);
        QFETCH(QString, failure);
        CountingPeer peer;
        peer.count = [count](qsizetype) { return count; };
        peer.tokenizeCount = peer.count;
        const PromptCalibration c = calibrateOn(peer.url(), target);
        QVERIFY(!c.ok());
        QCOMPARE(calibrationFailureName(c.failure), failure);
        QVERIFY2(c.failureText().startsWith(failure + QStringLiteral(": ")), qPrintable(c.failureText()));
        QVERIFY2(peer.largestBody < maxFillerChars(target) + kBodyOverhead, qPrintable(QString::number(peer.largestBody.load())));
        QVERIFY2(peer.calls <= 40, qPrintable(QString::number(peer.calls.load()))); // a few measures, not a budget's worth
    }

    // /tokenize alone talks nonsense: its search fails within the cap and the probes, which are
    // sane, calibrate.
    void nonsenseTokenizeLeavesItToProbes_data()
    {
        QTest::addColumn<QByteArray>("count");
        QTest::newRow("zero") << QByteArray("0");
        QTest::newRow("minus zero") << QByteArray("-0.0");
        QTest::newRow("negative") << QByteArray("-1");
        QTest::newRow("always one") << QByteArray("1");
    }
    void nonsenseTokenizeLeavesItToProbes()
    {
        QFETCH(QByteArray, count);
        CountingPeer peer;
        peer.count = sane;
        peer.tokenizeCount = [count](qsizetype) { return count; };
        const PromptCalibration c = calibrateOn(peer.url(), 64);
        QVERIFY2(c.ok(), qPrintable(c.failureText()));
        QVERIFY(!c.viaTokenize);
        QCOMPARE(c.measuredTokens, 64);
        QVERIFY2(peer.largestBody < maxFillerChars(64) + kBodyOverhead, qPrintable(QString::number(peer.largestBody.load())));
    }

    // Counts that grow, but far too slowly (a token per 100 characters, past the cap's 32): the
    // search stops at the cap and fails by name.
    void tooSlowCountsStopAtTheCap()
    {
        CountingPeer peer;
        peer.count = [](qsizetype chars) { return QByteArray::number(1 + chars / 100); };
        const PromptCalibration c = calibrateOn(peer.url(), 50);
        QVERIFY(!c.ok());
        QCOMPARE(calibrationFailureName(c.failure), QStringLiteral("filler_cap"));
        QVERIFY2(peer.largestBody < maxFillerChars(50) + kBodyOverhead, qPrintable(QString::number(peer.largestBody.load())));
    }

    // Counts that jump 30 tokens every 64 characters: the closest length is 10 tokens off a
    // target of 50 (20 %), which is no calibration.
    void farFromTargetFails()
    {
        CountingPeer peer;
        peer.count = [](qsizetype chars) { return QByteArray::number(10 + (chars / 64) * 30); };
        const PromptCalibration c = calibrateOn(peer.url(), 50);
        QVERIFY(!c.ok());
        QCOMPARE(calibrationFailureName(c.failure), QStringLiteral("far_from_target"));
        QVERIFY2(c.error.contains(QStringLiteral("50 asked for")), qPrintable(c.error));
    }

    // No /tokenize and usage.prompt_tokens always 1 (the filler once grew to 117 MB for 8
    // tokens, saved and sent by every measured request): the run says calibration failed, by
    // name, saves nothing, and sends words.
    void alwaysOneFallsBackToWords()
    {
        CountingPeer peer;
        peer.count = [](qsizetype) { return QByteArray("1"); };
        const SweepSpec spec = calibratingSpec(peer.url(), 8, {2});
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.completed, 4);
        QVERIFY2(anyContains(cell.warnings, {QStringLiteral("not calibrated"), QStringLiteral("count_not_growing")}),
                 qPrintable(cell.warnings.join(QLatin1Char('\n'))));
        QVERIFY2(anyContains(r.log, {QStringLiteral("prompt calibration failed"), QStringLiteral("count_not_growing")}), qPrintable(r.log.join(QLatin1Char('\n'))));
        const QJsonObject saved = QJsonDocument::fromJson(sbtest::readFile(dir.filePath(QStringLiteral("calibration.json")))).object();
        QVERIFY(saved.isEmpty());
        // Eight words and the JSON around them.
        QVERIFY2(peer.largestMeasured() > 0 && peer.largestMeasured() < 512, qPrintable(QString::number(peer.largestMeasured())));
        QVERIFY2(peer.largestBody < maxFillerChars(8) + kBodyOverhead, qPrintable(QString::number(peer.largestBody.load())));
    }

    // The filler is bounded where prompts are built too, whatever a calibration said.
    void buildersCapTheFiller()
    {
        const FillerMap one({{8, 117440512}});
        QCOMPARE(one.charsFor(8), maxFillerChars(8));
        const FillerMap two({{8, 100}, {16, 2000000000}});
        QCOMPARE(two.charsFor(16), maxFillerChars(16));
        QCOMPARE(two.charsFor(1000), maxFillerChars(1000));
        ServerSpec server = sbtest::serverAt(QStringLiteral("http://127.0.0.1:1"), QStringLiteral("a"));
        WorkloadSpec w;
        w.inputTokens = 8;
        const RequestFactory factory(server, resolveTarget(server.urls.first(), server.endpoint), w, "sb-0000000000000-c0000", 117440512);
        QVERIFY2(factory.body(0).size() < maxFillerChars(8) + kBodyOverhead, qPrintable(QString::number(factory.body(0).size())));
    }

    // calibration.json read as input: every entry checked, a bad one refused naming the file,
    // the key and what it holds; the good ones kept.
    void savedEntriesAreChecked_data()
    {
        QTest::addColumn<QByteArray>("entry");
        QTest::addColumn<QString>("message");
        QTest::newRow("filler 2e9") << QByteArray(R"({"target_tokens":64,"filler_chars":2e9,"measured_tokens":64,"probes":8})")
                                    << QStringLiteral("filler_chars is 2000000000, expected a whole number from 0 to 2112");
        QTest::newRow("filler 4e6") << QByteArray(R"({"target_tokens":64,"filler_chars":4000000,"measured_tokens":64,"probes":8})")
                                    << QStringLiteral("filler_chars is 4000000");
        QTest::newRow("filler string") << QByteArray(R"({"target_tokens":64,"filler_chars":"200","measured_tokens":64,"probes":8})")
                                       << QStringLiteral("filler_chars is \"200\"");
        QTest::newRow("filler negative") << QByteArray(R"({"target_tokens":64,"filler_chars":-1,"measured_tokens":64,"probes":8})")
                                         << QStringLiteral("filler_chars is -1");
        QTest::newRow("filler fraction") << QByteArray(R"({"target_tokens":64,"filler_chars":200.5,"measured_tokens":64,"probes":8})")
                                         << QStringLiteral("filler_chars is 200.5");
        QTest::newRow("filler missing") << QByteArray(R"({"target_tokens":64,"measured_tokens":64,"probes":8})")
                                        << QStringLiteral("filler_chars is missing");
        QTest::newRow("target other") << QByteArray(R"({"target_tokens":8,"filler_chars":200,"measured_tokens":8,"probes":8})")
                                      << QStringLiteral("target_tokens is 8, but its key is for 64-token prompts");
        QTest::newRow("target null") << QByteArray(R"({"target_tokens":null,"filler_chars":200,"measured_tokens":64,"probes":8})")
                                     << QStringLiteral("target_tokens is null");
        QTest::newRow("measured far") << QByteArray(R"({"target_tokens":64,"filler_chars":200,"measured_tokens":1,"probes":8})")
                                      << QStringLiteral("measured_tokens 1 is too far from target_tokens 64");
        QTest::newRow("probes bool") << QByteArray(R"({"target_tokens":64,"filler_chars":200,"measured_tokens":64,"probes":true})")
                                     << QStringLiteral("probes is true");
        QTest::newRow("error number") << QByteArray(R"({"target_tokens":64,"filler_chars":200,"measured_tokens":64,"probes":8,"error":5})")
                                      << QStringLiteral("error is 5, expected a string");
        QTest::newRow("not an object") << QByteArray("[64]") << QStringLiteral("is [64], expected an object");
    }
    void savedEntriesAreChecked()
    {
        QFETCH(QByteArray, entry);
        QFETCH(QString, message);
        WorkloadSpec w;
        w.inputTokens = 64;
        const QString key = calibrationKey(sbtest::serverAt(QStringLiteral("http://x"), QStringLiteral("a"), QStringLiteral("tiny")), w);
        w.inputTokens = 32;
        const QString goodKey = calibrationKey(sbtest::serverAt(QStringLiteral("http://x"), QStringLiteral("a"), QStringLiteral("tiny")), w);
        QTemporaryDir dir;
        const QByteArray json = "{\"" + key.toUtf8() + "\":" + entry + ",\"" + goodKey.toUtf8() +
                                "\":{\"target_tokens\":32,\"filler_chars\":90,\"measured_tokens\":32,\"probes\":6}}";
        QVERIFY(writeText(dir.filePath(QStringLiteral("calibration.json")), json));
        const CalibrationStore store(dir.path());
        QVERIFY(!store.find(key));
        QVERIFY(store.find(goodKey));
        QCOMPARE(store.find(goodKey)->fillerChars, 90);
        QCOMPARE(store.problems().size(), 1);
        const QString problem = store.problems().first();
        QVERIFY2(problem.contains(QDir::toNativeSeparators(dir.filePath(QStringLiteral("calibration.json")))) &&
                     problem.contains(QStringLiteral("key \"") + key + QLatin1Char('"')) && problem.contains(message),
                 qPrintable(problem));
        QVERIFY(store.refusal(key).contains(message));
        QVERIFY(store.refusal(goodKey).isEmpty());
    }

    // A file that is not a calibration at all, or too large: refused whole, naming the file.
    void unreadableFileIsRefused_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("{\"a|chat|64|0|unique\": {") << QStringLiteral("is not a JSON object");
        QTest::newRow("array") << QByteArray("[1, 2]") << QStringLiteral("is not a JSON object");
        QTest::newRow("too large") << QByteArray("{\"x\":\"") + QByteArray(2 * 1024 * 1024, 'a') + "\"}" << QStringLiteral("too large");
    }
    void unreadableFileIsRefused()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(writeText(dir.filePath(QStringLiteral("calibration.json")), content));
        CalibrationStore store(dir.path());
        QVERIFY(store.entries().isEmpty());
        QCOMPARE(store.problems().size(), 1);
        QVERIFY2(store.problems().first().contains(QStringLiteral("calibration.json")) && store.problems().first().contains(message),
                 qPrintable(store.problems().first()));
        QVERIFY(!store.refusal(QStringLiteral("any|chat|64|0|unique")).isEmpty());
        // The first new calibration sets the refused file aside, byte for byte, then is saved.
        PromptCalibration c;
        c.target = 64;
        c.fillerChars = 180;
        c.measuredTokens = 64;
        QString error;
        QVERIFY2(store.put(QStringLiteral("any|chat|64|0|unique"), c, &error), qPrintable(error));
        const QStringList aside = QDir(dir.path()).entryList({QStringLiteral("calibration.json.refused-*")});
        QCOMPARE(aside.size(), 1);
        QCOMPARE(sbtest::readFile(dir.filePath(aside.first())), content);
        QCOMPARE(CalibrationStore(dir.path()).find(QStringLiteral("any|chat|64|0|unique"))->fillerChars, 180);
    }

    // A resume over a tampered calibration.json: the run says so (log and the cell's warning),
    // calibrates again and sends prompts of the calibrated size, never the file's.
    void resumeRefusesTamperedCalibration_data()
    {
        QTest::addColumn<QByteArray>("entry");   // replaces the saved entry; empty = `file` replaces the file
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("message");
        QTest::newRow("filler 2e9") << QByteArray(R"({"target_tokens":64,"filler_chars":2e9,"measured_tokens":64,"probes":8})") << QByteArray()
                                    << QStringLiteral("filler_chars is 2000000000");
        QTest::newRow("filler 4e6") << QByteArray(R"({"target_tokens":64,"filler_chars":4000000,"measured_tokens":64,"probes":8})") << QByteArray()
                                    << QStringLiteral("filler_chars is 4000000");
        QTest::newRow("wrong types") << QByteArray(R"({"target_tokens":"64","filler_chars":[1],"measured_tokens":{},"probes":8})") << QByteArray()
                                     << QStringLiteral("target_tokens is \"64\"");
        QTest::newRow("not json") << QByteArray() << QByteArray("{\"tiny|") << QStringLiteral("is not a JSON object");
    }
    void resumeRefusesTamperedCalibration()
    {
        QFETCH(QByteArray, entry);
        QFETCH(QByteArray, file);
        QFETCH(QString, message);
        sbtest::TokenizingServer server;
        SweepSpec spec = calibratingSpec(QString::fromLatin1(server.server.url()), 64, {1});
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("calibration.json"));
        QCOMPARE(sbtest::runSweep(spec, dir.path()).exitCode, 0);
        const QJsonObject saved = QJsonDocument::fromJson(sbtest::readFile(path)).object();
        QCOMPARE(saved.size(), 1);
        const QString key = saved.constBegin().key();
        const int filler = saved.constBegin().value().toObject().value(QStringLiteral("filler_chars")).toInt();
        QVERIFY(filler > 0 && filler < maxFillerChars(64));
        QVERIFY(writeText(path, entry.isEmpty() ? file : "{\"" + key.toUtf8() + "\":" + entry + "}"));

        const int probesBefore = server.probes;
        spec.concurrency = {1, 2};
        const auto r = sbtest::runSweep(spec, dir.path(), true);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(anyContains(r.log, {QStringLiteral("warning: "), QDir::toNativeSeparators(path), message}), qPrintable(r.log.join(QLatin1Char('\n'))));
        if (!entry.isEmpty())
            QVERIFY2(anyContains(r.log, {QStringLiteral("key \"") + key + QLatin1Char('"')}), qPrintable(r.log.join(QLatin1Char('\n'))));
        const CellResult &fresh = r.results.cells.at(1);
        QCOMPARE(fresh.status, CellStatus::Completed);
        QVERIFY2(anyContains(fresh.warnings, {QStringLiteral("saved prompt calibration was refused"), message}), qPrintable(fresh.warnings.join(QLatin1Char('\n'))));
        QVERIFY(server.probes > probesBefore); // calibrated again
        {
            std::lock_guard lock(server.mutex);
            for (const QJsonObject &body : std::as_const(server.bodies))
                QVERIFY2(sbtest::promptOf(body).size() < maxFillerChars(64), qPrintable(QString::number(sbtest::promptOf(body).size())));
        }
        // The new calibration replaced the refused one: the same answer as the first run's.
        const CalibrationStore after(dir.path());
        QVERIFY(after.problems().isEmpty());
        QVERIFY(after.find(key));
        QCOMPARE(after.find(key)->fillerChars, filler);
    }
};

QTEST_GUILESS_MAIN(TestCalibrationBounds)
#include "tst_calibration_bounds.moc"
