// Length distributions: `input_tokens` / `output_tokens` as a number, a
// uniform or clipped normal mapping, or a weighted list; seeded per request so every cell and
// server sends the same lengths in the same order; prompts sized on the server's tokenizer by
// interpolating between calibrated anchor lengths; records and results keep requested beside
// measured.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "TokenizingServer.h"
#include "engine/CalibrationReport.h"
#include "engine/CellValidity.h"
#include "report/ReportHtml.h"
#include "report/ReportText.h"
#include "spec/SpecIO.h"
#include "tst_spec_helpers.h"
#include "workload/WorkloadPlan.h"
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;

namespace {
QByteArray specWithWorkload(const QByteArray &workload)
{
    return QByteArray(spectest::kMinimal) + "workload:\n" + workload;
}

QList<QJsonObject> records(const QString &dir, const CellResult &cell)
{
    return sbtest::readJsonLines(dir + QLatin1Char('/') + cell.recordsPath);
}

LengthDistribution uniform(int lo, int hi)
{
    LengthDistribution d;
    d.kind = LengthKind::Uniform;
    d.min = lo, d.max = hi;
    return d;
}
} // namespace

class TestWorkloadLengths : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void distributionsLoadAndRoundTrip()
    {
        const SpecLoadResult r = loadSpecText(specWithWorkload("  input_tokens: {mean: 256, stddev: 64, min: 64, max: 512}\n"
                                                               "  output_tokens: [{value: 32, weight: 3}, 128]\n"
                                                               "  seed: 7\n"));
        QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
        const WorkloadSpec &w = r.spec->workload;
        QVERIFY(w.inputLengths && w.outputLengths);
        QCOMPARE(int(w.inputLengths->kind), int(LengthKind::Normal));
        QCOMPARE(w.inputLengths->stddev, 64.0);
        QCOMPARE(int(w.outputLengths->kind), int(LengthKind::Choices));
        QCOMPARE(w.outputLengths->choices.size(), 2);
        QCOMPARE(w.outputLengths->choices.at(0).weight, 3.0);
        QCOMPARE(w.outputLengths->choices.at(1).value, 128);
        QCOMPARE(w.seed, 7);
        QCOMPARE(w.outputTokens, 56); // the nominal length is the mean: (3*32 + 128) / 4
        QVERIFY(std::abs(w.inputTokens - 256) <= 3);

        const SpecLoadResult back = loadSpecText(saveSpecYaml(*r.spec));
        QVERIFY2(back.ok(), qPrintable(spectest::dump(back.diagnostics)) + saveSpecYaml(*r.spec));
        const WorkloadSpec &b = back.spec->workload;
        QVERIFY(b.inputLengths && b.outputLengths);
        QCOMPARE(b.inputLengths->describe(), w.inputLengths->describe());
        QCOMPARE(b.outputLengths->describe(), w.outputLengths->describe());
        QCOMPARE(b.seed, w.seed);

        const SpecLoadResult uni = loadSpecText(specWithWorkload("  input_tokens: {min: 100, max: 300}\n"));
        QVERIFY2(uni.ok(), qPrintable(spectest::dump(uni.diagnostics)));
        QCOMPARE(int(uni.spec->workload.inputLengths->kind), int(LengthKind::Uniform));
        QCOMPARE(uni.spec->workload.inputTokens, 200);
    }

    void badDistributionsAreLocatedErrors_data()
    {
        QTest::addColumn<QByteArray>("workload");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("text");
        QTest::newRow("max below min") << QByteArray("  input_tokens: {min: 300, max: 100}\n") << "workload.input_tokens.max" << "max ≥ min";
        QTest::newRow("mean without stddev") << QByteArray("  input_tokens: {mean: 300}\n") << "workload.input_tokens" << "both mean and stddev";
        QTest::newRow("min alone") << QByteArray("  input_tokens: {min: 3}\n") << "workload.input_tokens" << "both min and max";
        QTest::newRow("negative stddev") << QByteArray("  input_tokens: {mean: 300, stddev: -1}\n") << "workload.input_tokens.stddev" << "≥ 0";
        QTest::newRow("empty list") << QByteArray("  output_tokens: []\n") << "workload.output_tokens" << "empty list";
        QTest::newRow("zero weight") << QByteArray("  output_tokens: [{value: 8, weight: 0}]\n") << "workload.output_tokens[0].weight" << "> 0";
        QTest::newRow("word") << QByteArray("  output_tokens: lots\n") << "workload.output_tokens" << "an integer ≥ 1";
        QTest::newRow("flag") << QByteArray("  output_tokens: {a: 1}\n") << "workload.output_tokens" << "both min and max";
        QTest::newRow("huge") << QByteArray("  input_tokens: {min: 1, max: 99999999}\n") << "workload.input_tokens.max" << "from 1 to 1000000";
        QTest::newRow("clipped away") << QByteArray("  input_tokens: {mean: 100, stddev: 1, min: 500, max: 600}\n") << "workload.input_tokens"
                                      << "3 stddev";
        QTest::newRow("dataset and distribution")
            << QByteArray("  input_tokens: {min: 1, max: 9}\n  dataset: {format: jsonl, path: x.jsonl}\n") << "workload.input_tokens"
            << "dataset";
        QTest::newRow("seed") << QByteArray("  seed: -3\n") << "workload.seed" << "≥ 0";
    }
    void badDistributionsAreLocatedErrors()
    {
        QFETCH(QByteArray, workload);
        QFETCH(QString, path);
        QFETCH(QString, text);
        const SpecLoadResult r = loadSpecText(specWithWorkload(workload), QStringLiteral("s.yaml"));
        QVERIFY(!r.ok());
        const bool found = std::any_of(r.diagnostics.cbegin(), r.diagnostics.cend(), [&](const SpecDiagnostic &d) {
            return d.isError() && d.keyPath == path && d.message.contains(text) && d.line >= 6; // pointed into the workload block
        });
        QVERIFY2(found, qPrintable(spectest::dump(r.diagnostics)));
    }

    // Draws are a pure function of (seed, ticket): the same sequence for every cell, server and
    // run; another seed gives another; each kind keeps its shape.
    void samplingIsSeededPerRequest()
    {
        LengthDistribution normal;
        normal.kind = LengthKind::Normal;
        normal.mean = 256, normal.stddev = 64, normal.min = 64, normal.max = 512;
        QList<int> a, b, c;
        for (int t = 0; t < 4000; ++t) {
            a.append(normal.sample(7, kInputStream, t));
            b.append(normal.sample(7, kInputStream, t));
            c.append(normal.sample(8, kInputStream, t));
        }
        QCOMPARE(a, b);
        QVERIFY(a != c);
        double sum = 0, sq = 0;
        for (int v : a) {
            QVERIFY(v >= 64 && v <= 512);
            sum += v, sq += double(v) * v;
        }
        const double mean = sum / a.size(), sd = std::sqrt(sq / a.size() - mean * mean);
        QVERIFY2(std::abs(mean - 256) < 256 * 0.02, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(sd - 64) < 64 * 0.1, qPrintable(QString::number(sd)));
        QVERIFY(std::abs(normal.expectedMean() - mean) < 256 * 0.02);
        // Input and output draws of one request are independent streams.
        QVERIFY(normal.sample(7, kOutputStream, 5) != normal.sample(7, kInputStream, 5) || normal.sample(7, kOutputStream, 6) != normal.sample(7, kInputStream, 6));

        const LengthDistribution u = uniform(10, 13);
        QSet<int> seen;
        for (int t = 0; t < 400; ++t) {
            const int v = u.sample(1, kInputStream, t);
            QVERIFY(v >= 10 && v <= 13);
            seen.insert(v);
        }
        QCOMPARE(seen.size(), 4);

        LengthDistribution h;
        h.kind = LengthKind::Choices;
        h.choices = {{32, 3}, {128, 1}};
        int small = 0;
        for (int t = 0; t < 4000; ++t)
            small += h.sample(3, kOutputStream, t) == 32;
        QVERIFY2(small > 2800 && small < 3200, qPrintable(QString::number(small)));
    }

    // The designer's estimate line: the lengths asked for and where prompts are calibrated.
    void estimateLineNamesLengthsAndCalibration()
    {
        WorkloadSpec w;
        w.inputTokens = 256;
        QCOMPARE(workloadEstimateLine(w), QStringLiteral("input: 256 tokens · output: 128 tokens · prompts calibrated per model at 256 tokens before the first cell"));
        w.inputLengths = uniform(64, 1024);
        w.seed = 9;
        QVERIFY2(workloadEstimateLine(w).startsWith(QStringLiteral("input: uniform in [64, 1024] (mean 544.0 tokens, seed 9)")), qPrintable(workloadEstimateLine(w)));
        QVERIFY(workloadEstimateLine(w).endsWith(QStringLiteral("at 64, 544, 1024 tokens before the first cell")));
        w.calibratePrompts = false;
        QVERIFY(workloadEstimateLine(w).endsWith(QStringLiteral("prompts sent as words (calibrate_prompts: false)")));
    }

    void fillerMapInterpolatesBetweenAnchors()
    {
        const FillerMap m({{256, 700}, {64, 100}, {1024, 3000}});
        QCOMPARE(m.charsFor(64), 100);
        QCOMPARE(m.charsFor(256), 700);
        QCOMPARE(m.charsFor(1024), 3000);
        QCOMPARE(m.charsFor(160), 400);                   // halfway between the first two
        QCOMPARE(m.charsFor(2048), qRound(3000 + 1024 * 2300 / 768.0)); // beyond: the last segment's slope
        QCOMPARE(m.charsFor(1), 0);                        // never negative
        QVERIFY(!FillerMap().calibrated());
        QCOMPARE(FillerMap().charsFor(5), -1);
        WorkloadSpec w;
        w.inputLengths = uniform(64, 1024);
        QCOMPARE(calibrationTargets(w, nullptr), (QList<int>{64, 544, 1024}));
        w.inputLengths->kind = LengthKind::Choices;
        w.inputLengths->choices = {{300, 1}, {100, 2}, {300, 5}};
        QCOMPARE(calibrationTargets(w, nullptr), (QList<int>{100, 300}));
    }

    // The whole path on the real engine: three anchors calibrated once, every request's prompt
    // within a token of its own drawn length on the server's tokenizer, max_tokens drawn per
    // request, the same sequence in every cell, requested and measured side by side.
    void engineSendsTheDistribution()
    {
        sbtest::TokenizingServer s;
        SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(QString::fromLatin1(s.server.url()), QStringLiteral("a"), QStringLiteral("tiny"))}, {1, 3}, 30);
        spec.workload.calibratePrompts = true;
        LengthDistribution in;
        in.kind = LengthKind::Normal;
        in.mean = 200, in.stddev = 60, in.min = 40, in.max = 400;
        spec.workload.inputLengths = in;
        spec.workload.inputTokens = int(std::lround(in.expectedMean()));
        spec.workload.outputLengths = uniform(2, 12);
        spec.workload.seed = 11;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        QList<QList<int>> sequences;
        for (const CellResult &cell : r.results.cells) {
            QCOMPARE(cell.status, CellStatus::Completed);
            for (const QString &wn : cell.warnings)
                QVERIFY2(!wn.contains(QStringLiteral("length")), qPrintable(wn));
            QList<int> byTicket(30, -1);
            double requested = 0, measured = 0;
            QSet<int> distinct;
            for (const QJsonObject &rec : records(dir.path(), cell)) {
                const int want = rec.value(QStringLiteral("requested_input_tokens")).toInt(-1);
                const int got = rec.value(QStringLiteral("input_tokens")).toInt(-1);
                QVERIFY(want >= 40 && want <= 400);
                QVERIFY2(std::abs(got - want) <= 1, qPrintable(QStringLiteral("asked %1, server counted %2").arg(want).arg(got)));
                QCOMPARE(rec.value(QStringLiteral("output_tokens")).toInt(), rec.value(QStringLiteral("requested_output_tokens")).toInt());
                byTicket[rec.value(QStringLiteral("i")).toInt()] = want;
                requested += want, measured += got;
                distinct.insert(want);
            }
            QVERIFY(distinct.size() > 10); // really drawn per request
            sequences.append(byTicket);
            const MetricStats req = cell.metrics.value(QStringLiteral("requested_input_sequence_length"));
            const MetricStats isl = cell.metrics.value(QStringLiteral("input_sequence_length"));
            QCOMPARE(req.count, 30);
            QVERIFY(std::abs(req.avg - requested / 30) < 1e-6);
            QVERIFY(std::abs(isl.avg - measured / 30) < 1e-6);
            QVERIFY(std::abs(isl.avg - req.avg) <= 0.02 * req.avg);
            QVERIFY(cell.metrics.contains(QStringLiteral("requested_output_sequence_length")));
        }
        QCOMPARE(sequences.at(0), sequences.at(1)); // same seed: same lengths in the same order
        // Every anchor is kept for a resumed run and for other servers of the model.
        const QJsonObject saved = QJsonDocument::fromJson(sbtest::readFile(dir.filePath(QStringLiteral("calibration.json")))).object();
        QCOMPARE(saved.size(), 3);
        // The report sets requested beside measured, per cell.
        const QString line = requestedVsMeasured(r.results.cells.at(0));
        QVERIFY2(line.startsWith(QStringLiteral("ISL %1 asked, %2 measured")
                                     .arg(r.results.cells.at(0).metrics.value(QStringLiteral("requested_input_sequence_length")).avg, 0, 'f', 1)
                                     .arg(r.results.cells.at(0).metrics.value(QStringLiteral("input_sequence_length")).avg, 0, 'f', 1)),
                 qPrintable(line));
        QVERIFY(line.contains(QStringLiteral("; OSL ")));
        ReportHtmlInput html;
        html.results = r.results;
        QVERIFY(QString::fromUtf8(reportHtml(html)).contains(line.toHtmlEscaped()));
        const QJsonObject results = QJsonDocument::fromJson(sbtest::readFile(dir.filePath(QStringLiteral("results.json")))).object();
        const QJsonObject m = results.value(QStringLiteral("cells")).toArray().at(0).toObject().value(QStringLiteral("metrics")).toObject();
        QVERIFY(m.value(QStringLiteral("requested_input_sequence_length")).toObject().contains(QStringLiteral("p99")));
    }

    // The embedded mock counts tokens its own way; a uniform distribution lands within 2 % on
    // average there too.
    void theMockAgrees()
    {
        QString error;
        auto mock = MockServer::start(sbtest::timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = sbtest::smallSpec({sbtest::serverFor(QStringLiteral("m"), *mock, Flavor::Vllm)}, {4}, 40);
        spec.workload.calibratePrompts = true;
        spec.workload.inputLengths = uniform(64, 1024);
        spec.workload.inputTokens = 544;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        const CellResult &cell = r.results.cells.at(0);
        const MetricStats isl = cell.metrics.value(QStringLiteral("input_sequence_length"));
        const MetricStats req = cell.metrics.value(QStringLiteral("requested_input_sequence_length"));
        QVERIFY2(std::abs(isl.avg - req.avg) <= 0.02 * req.avg, qPrintable(QStringLiteral("%1 vs %2").arg(isl.avg).arg(req.avg)));
        double worst = 0;
        for (const QJsonObject &rec : records(dir.path(), cell))
            worst = std::max(worst, std::abs(rec.value(QStringLiteral("input_tokens")).toDouble() - rec.value(QStringLiteral("requested_input_tokens")).toDouble()));
        qInfo("mock: requested mean %.1f, measured mean %.1f, worst request off by %.0f tokens", req.avg, isl.avg, worst);
    }
};

QTEST_GUILESS_MAIN(TestWorkloadLengths)
#include "tst_workload_lengths.moc"
