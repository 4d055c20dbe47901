// Import of other benchmark tools' output, each from a real run of the tool against the embedded
// mock (tests/fixtures/make_peer_fixtures.py; versions in tests/fixtures/README.md): the numbers
// match the tool's own summary, fields the catalogue has no entry for are listed, hostile files
// are refused with the file and the key, and `sweepbench diff` reads every format.
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "import/SglangImport.h"
#include "report/RegressionGate.h"
#include "report/ResultsLoader.h"
#include "metrics/MetricCatalogue.h"
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace sb;

namespace {
QString fixture(const QString &rel) { return sbtest::sourcePath(QStringLiteral("tests/fixtures/") + rel); }

QJsonObject readObject(const QString &path) { return QJsonDocument::fromJson(sbtest::readFile(path)).object(); }

// A value at a dotted path ("benchmarks.1.metrics.request_totals.errored"); numbers index arrays.
QJsonValue at(QJsonValue v, const QString &path)
{
    for (const QString &part : path.split(QLatin1Char('.'))) {
        bool isIndex = false;
        const int i = part.toInt(&isIndex);
        v = isIndex && v.isArray() ? v.toArray().at(i) : v.toObject().value(part);
    }
    return v;
}

double num(const QJsonObject &doc, const QString &path) { return at(doc, path).toDouble(std::nan("")); }

// Within rounding: the importer only scales (s -> ms), so a relative 1e-9 is plenty.
bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

#define QNEAR(a, b) QVERIFY2(near((a), (b)), qPrintable(QStringLiteral("%1 != %2").arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))

// `doc` with the value at `path` replaced.
QJsonObject withValue(QJsonObject doc, const QStringList &path, const QJsonValue &v)
{
    if (path.size() == 1) {
        doc.insert(path.first(), v);
        return doc;
    }
    const QJsonValue child = doc.value(path.first());
    if (child.isArray()) {
        QJsonArray a = child.toArray();
        const int i = path.at(1).toInt();
        a[i] = path.size() == 2 ? v : QJsonValue(withValue(a.at(i).toObject(), path.mid(2), v));
        doc.insert(path.first(), a);
    } else {
        doc.insert(path.first(), withValue(child.toObject(), path.mid(1), v));
    }
    return doc;
}

// "Mean TTFT (ms):    9.56" lines of a printed summary table, by label.
QMap<QString, double> consoleTable(const QString &path)
{
    QMap<QString, double> out;
    for (const QByteArray &line : sbtest::readFile(path).split('\n')) {
        const qsizetype colon = line.lastIndexOf(':');
        bool ok = false;
        const double v = line.mid(colon + 1).trimmed().toDouble(&ok);
        if (colon > 0 && ok)
            out.insert(QString::fromUtf8(line.left(colon).trimmed()), v);
    }
    return out;
}

QString unmappedWarning(const CellResult &c)
{
    for (const QString &w : c.warnings)
        if (w.contains(QStringLiteral("fields not mapped")))
            return w;
    return {};
}
} // namespace

class TestImportPeers : public QObject {
    Q_OBJECT
    const QString guidellmFile = fixture(QStringLiteral("guidellm-0.8.1/benchmarks.json"));
    const QString inferencePerfDir = fixture(QStringLiteral("inference-perf-0.7.0"));
    const QString genaiBenchDir = fixture(QStringLiteral("genai-bench-0.0.5"));
    const QString sglangFile = fixture(QStringLiteral("sglang-0.5.23/bench_serving.jsonl"));

    // Writes `text` to `name` in `dir` and loads the file (or the folder); the error when it fails.
    static QString loadError(const QTemporaryDir &dir, const QString &name, const QByteArray &text, bool folder = false)
    {
        const QString path = dir.filePath(name);
        if (!sbtest::writeFile(path, text))
            return QStringLiteral("could not write");
        QString error;
        return loadResults(folder ? dir.path() : path, &error) ? QString() : error;
    }

private slots:
    void init() { sbtest::failOnQtWarnings(); }

    // GuideLLM 0.8.1, `--profile kind=concurrent --override profile.streams 1,2`, 12 requests a
    // point against a mock failing 10 % of requests: every figure is the report's own.
    void guidellmReport()
    {
        const QJsonObject doc = readObject(guidellmFile);
        QString error;
        const auto loaded = loadResults(guidellmFile, &error);
        QVERIFY2(loaded, qPrintable(error));
        const SweepResults &r = loaded->results;
        QCOMPARE(r.sourceTool, QStringLiteral("guidellm"));
        QCOMPARE(r.toolVersion, QStringLiteral("0.8.1"));
        QCOMPARE(r.cells.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const CellResult &c = r.cells[i];
            const QString b = QStringLiteral("benchmarks.%1.").arg(i);
            const QString m = b + QStringLiteral("metrics.");
            QCOMPARE(c.concurrency, i + 1);
            QCOMPARE(c.server, QStringLiteral("tiny-llama")); // the model path's last part
            QCOMPARE(c.completed, int(num(doc, m + QStringLiteral("request_totals.successful"))));
            QCOMPARE(c.failed, int(num(doc, m + QStringLiteral("request_totals.errored"))));
            QNEAR(c.durationS, num(doc, b + QStringLiteral("duration")));
            const MetricStats ttft = c.metrics.value(tag::ttft);
            QNEAR(ttft.avg, num(doc, m + QStringLiteral("time_to_first_token_ms.successful.mean")));
            QNEAR(ttft.p50, num(doc, m + QStringLiteral("time_to_first_token_ms.successful.median")));
            QNEAR(ttft.p90, num(doc, m + QStringLiteral("time_to_first_token_ms.successful.percentiles.p90")));
            QNEAR(ttft.p99, num(doc, m + QStringLiteral("time_to_first_token_ms.successful.percentiles.p99")));
            QCOMPARE(ttft.unit, unit::ms);
            QNEAR(c.metrics.value(tag::itl).avg, num(doc, m + QStringLiteral("inter_token_latency_ms.successful.mean")));
            QNEAR(c.metrics.value(tag::itl).p95, num(doc, m + QStringLiteral("inter_token_latency_ms.successful.percentiles.p95")));
            QCOMPARE(c.metrics.value(tag::itl).count, qint64(c.completed)); // requests, not GuideLLM's token-weighted samples
            // request_latency is in seconds in GuideLLM's report, ms here.
            QNEAR(c.metrics.value(tag::latency).avg, 1000 * num(doc, m + QStringLiteral("request_latency.successful.mean")));
            QNEAR(c.metrics.value(tag::latency).p99, 1000 * num(doc, m + QStringLiteral("request_latency.successful.percentiles.p99")));
            QNEAR(c.metrics.value(tag::requestThroughput).avg, num(doc, m + QStringLiteral("requests_per_second.successful.mean")));
            QNEAR(c.metrics.value(tag::outputThroughput).avg, num(doc, m + QStringLiteral("output_tokens_per_second.successful.mean")));
            QNEAR(c.metrics.value(tag::osl).avg, num(doc, m + QStringLiteral("output_token_count.successful.mean")));
            QNEAR(c.metrics.value(tag::isl).p50, num(doc, m + QStringLiteral("prompt_token_count.successful.median")));
            QNEAR(cellValue(c, tag::ttft, Stat::P99), ttft.p99);
            // TPOT counts the first token: not our ITL, kept under its own name and listed.
            QNEAR(c.metrics.value(QStringLiteral("time_per_output_token_ms")).avg,
                  num(doc, m + QStringLiteral("time_per_output_token_ms.successful.mean")));
            const QString unmapped = unmappedWarning(c);
            QVERIFY2(unmapped.startsWith(QStringLiteral("guidellm fields not mapped: ")), qPrintable(unmapped));
            for (const char *field : {"time_per_output_token_ms", "time_to_first_output_token_ms", "text", "total_token_count"})
                QVERIFY2(unmapped.contains(QLatin1String(field)), field);
            QVERIFY(!unmapped.contains(QStringLiteral("request_latency,")));
        }
        // The mock failed some requests of the second point; the error sample is GuideLLM's.
        QVERIFY(r.cells[1].failed > 0);
        QCOMPARE(r.cells[1].errors.value(QStringLiteral("error")), r.cells[1].failed);
        QVERIFY(r.cells[1].errorSamples.value(QStringLiteral("error")).contains(QStringLiteral("500")));
    }

    // `summary` names the fields it did not map, after the table.
    void summaryListsUnmappedFields()
    {
        for (const QString &path : {guidellmFile, inferencePerfDir, genaiBenchDir, sglangFile}) {
            const sbtest::CliRun run = sbtest::runSweepbench({QStringLiteral("summary"), path});
            QVERIFY2(run.code == 0, qPrintable(run.err));
            QVERIFY2(run.out.contains(QStringLiteral("\nnotes:\n")), qPrintable(run.out));
            QVERIFY2(run.out.contains(QStringLiteral(" fields not mapped: ")), qPrintable(run.out));
        }
        const sbtest::CliRun run = sbtest::runSweepbench({QStringLiteral("summary"), guidellmFile});
        QVERIFY2(run.out.contains(QStringLiteral("source tool: guidellm 0.8.1")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("time_per_output_token_ms")), qPrintable(run.out));
    }

    void guidellmFolder()
    {
        QString error;
        const auto loaded = loadResults(fixture(QStringLiteral("guidellm-0.8.1")), &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.sourceTool, QStringLiteral("guidellm"));
        QCOMPARE(loaded->results.cells.size(), 2);
    }

    void guidellmHostile_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("mean a string") << QStringList{"benchmarks", "0", "metrics", "time_to_first_token_ms", "successful", "mean"}
                                       << QJsonValue(QStringLiteral("fast")) << "benchmarks[0].metrics.time_to_first_token_ms.successful.mean: expected a number, found a string";
        QTest::newRow("metrics an array") << QStringList{"benchmarks", "1", "metrics"} << QJsonValue(QJsonArray{1, 2})
                                          << "benchmarks[1].metrics: expected an object, found an array";
        QTest::newRow("totals missing") << QStringList{"benchmarks", "0", "metrics", "request_totals"} << QJsonValue()
                                        << "benchmarks[0].metrics.request_totals: expected an object, found null";
        QTest::newRow("latency missing") << QStringList{"benchmarks", "1", "metrics", "request_latency", "successful"} << QJsonValue(true)
                                         << "benchmarks[1].metrics.request_latency.successful: expected an object, found a boolean";
        QTest::newRow("no benchmarks") << QStringList{"benchmarks"} << QJsonValue(QJsonArray{})
                                       << "0 benchmarks (expected 1 to";
    }

    void guidellmHostile()
    {
        QFETCH(QStringList, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QJsonObject doc = withValue(readObject(guidellmFile), path, value);
        const QString error = loadError(dir, QStringLiteral("benchmarks.json"), QJsonDocument(doc).toJson(QJsonDocument::Compact));
        QVERIFY2(error.contains(QStringLiteral("benchmarks.json: ")), qPrintable(error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    // A report with thousands of unknown distributions: a bounded number is kept, the warning
    // names 40 and counts the rest.
    void guidellmManyUnknownFields()
    {
        QJsonObject doc = readObject(guidellmFile);
        const QJsonObject dist = at(doc, QStringLiteral("benchmarks.0.metrics.time_per_output_token_ms")).toObject();
        QJsonObject metrics = at(doc, QStringLiteral("benchmarks.0.metrics")).toObject();
        for (int i = 0; i < 3000; ++i)
            metrics.insert(QStringLiteral("extra_%1").arg(i, 4, 10, QLatin1Char('0')), dist);
        doc = withValue(doc, {QStringLiteral("benchmarks"), QStringLiteral("0"), QStringLiteral("metrics")}, metrics);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("benchmarks.json"));
        QVERIFY(sbtest::writeFile(path, QJsonDocument(doc).toJson(QJsonDocument::Compact)));
        QString error;
        const auto loaded = loadResults(path, &error);
        QVERIFY2(loaded, qPrintable(error));
        const CellResult &c = loaded->results.cells.first();
        QVERIFY2(c.metrics.size() <= 200, qPrintable(QString::number(c.metrics.size())));
        const QString unmapped = unmappedWarning(c);
        QVERIFY2(unmapped.endsWith(QStringLiteral(" and %1 more").arg(3000 + 16 - 40)), qPrintable(unmapped.right(40)));
    }

    void guidellmTruncated()
    {
        QTemporaryDir dir;
        const QByteArray text = sbtest::readFile(guidellmFile);
        const QString error = loadError(dir, QStringLiteral("benchmarks.json"), text.left(text.size() / 2));
        QVERIFY2(error.contains(QStringLiteral("benchmarks.json")), qPrintable(error));
    }

    // inference-perf 0.7.0, two concurrent stages (1, 2) of 12 requests: seconds in its reports,
    // ms here; its own per-stage summary gives every figure.
    void inferencePerfFolder()
    {
        QString error;
        const auto loaded = loadResults(inferencePerfDir, &error);
        QVERIFY2(loaded, qPrintable(error));
        const SweepResults &r = loaded->results;
        QCOMPARE(r.sourceTool, QStringLiteral("inference-perf"));
        QCOMPARE(r.cells.size(), 2);
        int failedSeen = 0;
        for (int i = 0; i < 2; ++i) {
            const CellResult &c = r.cells[i];
            const QJsonObject doc = readObject(inferencePerfDir + QStringLiteral("/stage_%1_lifecycle_metrics.json").arg(i));
            QCOMPARE(c.concurrency, i + 1);
            QCOMPARE(c.server, QStringLiteral("mock-model")); // server.model_name of its config.yaml
            QCOMPARE(c.completed, int(num(doc, QStringLiteral("successes.count"))));
            QCOMPARE(c.failed, int(num(doc, QStringLiteral("failures.count"))));
            QNEAR(c.durationS, num(doc, QStringLiteral("benchmark_time_seconds")));
            const QString l = QStringLiteral("successes.latency.");
            QNEAR(c.metrics.value(tag::ttft).avg, 1000 * num(doc, l + QStringLiteral("time_to_first_token.mean")));
            QNEAR(c.metrics.value(tag::ttft).p50, 1000 * num(doc, l + QStringLiteral("time_to_first_token.median")));
            QNEAR(c.metrics.value(tag::ttft).p99, 1000 * num(doc, l + QStringLiteral("time_to_first_token.p99")));
            QNEAR(c.metrics.value(tag::itl).avg, 1000 * num(doc, l + QStringLiteral("time_per_output_token.mean")));
            QNEAR(c.metrics.value(tag::itl).p90, 1000 * num(doc, l + QStringLiteral("time_per_output_token.p90")));
            QNEAR(c.metrics.value(tag::latency).max, 1000 * num(doc, l + QStringLiteral("request_latency.max")));
            QNEAR(c.metrics.value(tag::requestThroughput).avg, num(doc, QStringLiteral("successes.throughput.requests_per_sec")));
            QNEAR(c.metrics.value(tag::outputThroughput).avg, num(doc, QStringLiteral("successes.throughput.output_tokens_per_sec")));
            QNEAR(c.metrics.value(tag::osl).avg, num(doc, QStringLiteral("successes.output_tokens.mean")));
            QNEAR(c.metrics.value(tag::isl).p50, num(doc, QStringLiteral("successes.prompt_tokens.median")));
            QVERIFY(std::isnan(c.metrics.value(tag::ttft).p1) == std::isnan(num(doc, l + QStringLiteral("time_to_first_token.p1"))));
            // Its inter_token_latency pools per-token gaps: not ours, listed, never our ITL.
            const QString unmapped = unmappedWarning(c);
            QVERIFY2(unmapped.startsWith(QStringLiteral("inference-perf fields not mapped: ")), qPrintable(unmapped));
            for (const char *field : {"latency.inter_token_latency", "normalized_time_per_output_token", "throughput.input_tokens_per_sec", "output_len"})
                QVERIFY2(unmapped.contains(QLatin1String(field)), field);
            if (c.failed > 0) {
                ++failedSeen;
                QCOMPARE(c.errors.value(QStringLiteral("http_500")), c.failed);
                QVERIFY(c.errorSamples.value(QStringLiteral("http_500")).contains(QStringLiteral("injected")));
            }
        }
        QVERIFY(failedSeen > 0);
    }

    void inferencePerfHostile_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("mean a string") << QStringList{"successes", "latency", "time_to_first_token", "mean"} << QJsonValue(QStringLiteral("x"))
                                       << "successes.latency.time_to_first_token.mean: expected a number, found a string";
        QTest::newRow("successes an array") << QStringList{"successes"} << QJsonValue(QJsonArray{}) << "successes: expected an object, found an array";
        QTest::newRow("count missing") << QStringList{"failures", "count"} << QJsonValue() << "failures.count: expected a number, found null";
    }

    void inferencePerfHostile()
    {
        QFETCH(QStringList, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        for (const QString &name : {QStringLiteral("stage_1_lifecycle_metrics.json"), QStringLiteral("config.yaml")})
            QVERIFY(QFile::copy(inferencePerfDir + QLatin1Char('/') + name, dir.filePath(name)));
        const QJsonObject doc = withValue(readObject(inferencePerfDir + QStringLiteral("/stage_0_lifecycle_metrics.json")), path, value);
        const QString error = loadError(dir, QStringLiteral("stage_0_lifecycle_metrics.json"), QJsonDocument(doc).toJson(), true);
        QVERIFY2(error.contains(QStringLiteral("stage_0_lifecycle_metrics.json: ") + expected), qPrintable(error));
    }

    void inferencePerfTruncated()
    {
        QTemporaryDir dir;
        const QByteArray text = sbtest::readFile(inferencePerfDir + QStringLiteral("/stage_0_lifecycle_metrics.json"));
        const QString error = loadError(dir, QStringLiteral("stage_0_lifecycle_metrics.json"), text.left(text.size() / 2), true);
        QVERIFY2(error.contains(QStringLiteral("stage_0_lifecycle_metrics.json")), qPrintable(error));
    }

    // genai-bench 0.0.5, --num-concurrency 1 and 2, D(32,12): its aggregated_metrics, seconds
    // scaled to ms.
    void genaiBenchFolder()
    {
        QString error;
        const auto loaded = loadResults(genaiBenchDir, &error);
        QVERIFY2(loaded, qPrintable(error));
        const SweepResults &r = loaded->results;
        QCOMPARE(r.sourceTool, QStringLiteral("genai-bench"));
        QCOMPARE(r.toolVersion, QStringLiteral("0.0.5"));
        QCOMPARE(r.cells.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const CellResult &c = r.cells[i];
            const QJsonObject doc = readObject(genaiBenchDir + QStringLiteral("/D32_12_text-to-text_num_concurrency_%1_time_1s.json").arg(i + 1));
            const QString a = QStringLiteral("aggregated_metrics.");
            QCOMPARE(c.concurrency, i + 1);
            QCOMPARE(c.server, QStringLiteral("mock-model"));
            QCOMPARE(c.completed, int(num(doc, a + QStringLiteral("num_completed_requests"))));
            QCOMPARE(c.failed, int(num(doc, a + QStringLiteral("num_error_requests"))));
            QCOMPARE(c.completed + c.failed, int(num(doc, a + QStringLiteral("num_requests"))));
            QVERIFY(c.failed > 0);
            QCOMPARE(c.errors.value(QStringLiteral("http_500")), int(num(doc, a + QStringLiteral("error_codes_frequency.500"))));
            QVERIFY(c.errorSamples.value(QStringLiteral("http_500")).contains(QStringLiteral("injected")));
            QNEAR(c.durationS, num(doc, a + QStringLiteral("run_duration")));
            const QString s = a + QStringLiteral("stats.");
            QNEAR(c.metrics.value(tag::ttft).avg, 1000 * num(doc, s + QStringLiteral("ttft.mean")));
            QNEAR(c.metrics.value(tag::ttft).p99, 1000 * num(doc, s + QStringLiteral("ttft.p99")));
            QNEAR(c.metrics.value(tag::ttft).std, 1000 * num(doc, s + QStringLiteral("ttft.stddev")));
            QNEAR(c.metrics.value(tag::itl).avg, 1000 * num(doc, s + QStringLiteral("tpot.mean")));
            QNEAR(c.metrics.value(tag::latency).p90, 1000 * num(doc, s + QStringLiteral("e2e_latency.p90")));
            QNEAR(c.metrics.value(tag::osl).avg, num(doc, s + QStringLiteral("num_output_tokens.mean")));
            QNEAR(c.metrics.value(tag::requestThroughput).avg, num(doc, a + QStringLiteral("requests_per_second")));
            QNEAR(c.metrics.value(tag::outputThroughput).avg, num(doc, a + QStringLiteral("mean_output_throughput_tokens_per_s")));
            const QString unmapped = unmappedWarning(c);
            QVERIFY2(unmapped.startsWith(QStringLiteral("genai-bench fields not mapped: ")), qPrintable(unmapped));
            for (const char *field : {"stats.output_latency", "stats.output_inference_speed", "mean_input_throughput_tokens_per_s", "error_rate"})
                QVERIFY2(unmapped.contains(QLatin1String(field)), field);
            QVERIFY2(!unmapped.contains(QStringLiteral("audio_throughput")), qPrintable(unmapped)); // null: nothing measured
        }
    }

    void genaiBenchHostile_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("stats a number") << QStringList{"aggregated_metrics", "stats", "ttft"} << QJsonValue(5)
                                        << "aggregated_metrics.stats.ttft: expected an object, found a number";
        QTest::newRow("count a string") << QStringList{"aggregated_metrics", "num_completed_requests"} << QJsonValue(QStringLiteral("40"))
                                        << "aggregated_metrics.num_completed_requests: expected a number, found a string";
        QTest::newRow("time unit") << QStringList{"_time_unit"} << QJsonValue(QStringLiteral("h")) << "_time_unit: expected \"s\" or \"ms\", found \"h\"";
    }

    void genaiBenchHostile()
    {
        QFETCH(QStringList, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(QFile::copy(genaiBenchDir + QStringLiteral("/experiment_metadata.json"), dir.filePath(QStringLiteral("experiment_metadata.json"))));
        const QString name = QStringLiteral("D32_12_text-to-text_num_concurrency_1_time_1s.json");
        const QJsonObject doc = withValue(readObject(genaiBenchDir + QLatin1Char('/') + name), path, value);
        const QString error = loadError(dir, name, QJsonDocument(doc).toJson(), true);
        QVERIFY2(error.contains(name + QStringLiteral(": ") + expected), qPrintable(error));
    }

    void genaiBenchTruncated()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(genaiBenchDir + QStringLiteral("/experiment_metadata.json"), dir.filePath(QStringLiteral("experiment_metadata.json"))));
        const QString name = QStringLiteral("D32_12_text-to-text_num_concurrency_2_time_1s.json");
        const QByteArray text = sbtest::readFile(genaiBenchDir + QLatin1Char('/') + name);
        const QString error = loadError(dir, name, text.left(text.size() / 2), true);
        QVERIFY2(error.contains(name), qPrintable(error));
    }

    // sglang 0.5.23 bench_serving, --max-concurrency 1 then 2 into one JSONL: each figure within
    // the rounding of the table bench_serving printed (console-c<N>.txt, as the tool wrote it).
    void sglangJsonl()
    {
        QString error;
        const auto loaded = loadResults(sglangFile, &error);
        QVERIFY2(loaded, qPrintable(error));
        const SweepResults &r = loaded->results;
        QCOMPARE(r.sourceTool, QStringLiteral("sglang-bench"));
        QCOMPARE(r.cells.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const CellResult &c = r.cells[i];
            const QMap<QString, double> printed = consoleTable(fixture(QStringLiteral("sglang-0.5.23/console-c%1.txt").arg(i + 1)));
            QCOMPARE(c.concurrency, i + 1);
            QCOMPARE(double(c.completed), printed.value(QStringLiteral("Successful requests")));
            const auto close = [&](double ours, const char *label) {
                const double theirs = printed.value(QLatin1String(label), std::nan(""));
                return std::abs(ours - theirs) <= 0.005 + 1e-9; // printed at 2 decimals
            };
            QVERIFY(close(c.durationS, "Benchmark duration (s)"));
            QVERIFY(close(c.metrics.value(tag::ttft).avg, "Mean TTFT (ms)"));
            QVERIFY(close(c.metrics.value(tag::ttft).p50, "Median TTFT (ms)"));
            QVERIFY(close(c.metrics.value(tag::ttft).p99, "P99 TTFT (ms)"));
            QVERIFY(close(c.metrics.value(tag::itl).avg, "Mean TPOT (ms)"));
            QVERIFY(close(c.metrics.value(tag::itl).p90, "P90 TPOT (ms)"));
            QVERIFY(close(c.metrics.value(tag::interChunk).avg, "Mean ITL (ms)"));
            QVERIFY(close(c.metrics.value(tag::interChunk).p95, "P95 ITL (ms)"));
            QVERIFY(close(c.metrics.value(tag::latency).avg, "Mean E2E Latency (ms)"));
            QVERIFY(close(c.metrics.value(tag::latency).p90, "P90 E2E Latency (ms)"));
            QVERIFY(close(c.metrics.value(tag::requestThroughput).avg, "Request throughput (req/s)"));
            QVERIFY(close(c.metrics.value(tag::outputThroughput).avg, "Output token throughput (tok/s)"));
            QVERIFY(close(c.meanInFlight, "Concurrency"));
            const QString unmapped = unmappedWarning(c);
            QVERIFY2(unmapped.startsWith(QStringLiteral("sglang fields not mapped: ")), qPrintable(unmapped));
            for (const char *field : {"input_throughput", "total_output_tokens_retokenized", "max_output_tokens_per_s"})
                QVERIFY2(unmapped.contains(QLatin1String(field)), field);
        }
    }

    // vLLM 0.32 `vllm bench serve --save-result` from a real run (make_peer_fixtures.py --only
    // vllm): each figure within the rounding of the table vLLM printed (console-c<N>.txt).
    void vllmBenchServeRealRun()
    {
        QString error;
        const auto loaded = loadResults(fixture(QStringLiteral("vllm-0.32.0/sweep")), &error);
        QVERIFY2(loaded, qPrintable(error));
        const SweepResults &r = loaded->results;
        QCOMPARE(r.sourceTool, QStringLiteral("vllm-bench"));
        QCOMPARE(r.cells.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const CellResult &c = r.cells[i];
            const QMap<QString, double> printed = consoleTable(fixture(QStringLiteral("vllm-0.32.0/console-c%1.txt").arg(i + 1)));
            QVERIFY(printed.size() > 20);
            QCOMPARE(c.concurrency, i + 1);
            QCOMPARE(c.server, QStringLiteral("mock-model"));
            QCOMPARE(double(c.completed), printed.value(QStringLiteral("Successful requests")));
            QCOMPARE(double(c.failed), printed.value(QStringLiteral("Failed requests")));
            const auto close = [&](double ours, const char *label) {
                const double theirs = printed.value(QLatin1String(label), std::nan(""));
                const bool ok = std::abs(ours - theirs) <= 0.005 + 1e-9; // printed at 2 decimals
                if (!ok)
                    qWarning("%s: ours %g, vLLM printed %g", label, ours, theirs);
                return ok;
            };
            QVERIFY(close(c.durationS, "Benchmark duration (s)"));
            QVERIFY(close(c.metrics.value(tag::ttft).avg, "Mean TTFT (ms)"));
            QVERIFY(close(c.metrics.value(tag::ttft).p50, "Median TTFT (ms)"));
            QVERIFY(close(c.metrics.value(tag::ttft).p90, "P90 TTFT (ms)"));
            QVERIFY(close(c.metrics.value(tag::ttft).p99, "P99 TTFT (ms)"));
            // vLLM's TPOT is our ITL; its ITL (between chunks) our inter-chunk latency.
            QVERIFY(close(c.metrics.value(tag::itl).avg, "Mean TPOT (ms)"));
            QVERIFY(close(c.metrics.value(tag::itl).p99, "P99 TPOT (ms)"));
            QVERIFY(close(c.metrics.value(tag::interChunk).avg, "Mean ITL (ms)"));
            QVERIFY(close(c.metrics.value(tag::interChunk).p90, "P90 ITL (ms)"));
            QVERIFY(close(c.metrics.value(tag::latency).avg, "Mean E2EL (ms)"));
            QVERIFY(close(c.metrics.value(tag::latency).p99, "P99 E2EL (ms)"));
            QVERIFY(close(c.metrics.value(tag::requestThroughput).avg, "Request throughput (req/s)"));
            QVERIFY(close(c.metrics.value(tag::outputThroughput).avg, "Output token throughput (tok/s)"));
        }
    }

    // A folder holding the JSONL (an unzipped share) opens as the file does.
    void sglangFolder()
    {
        QString error;
        const auto loaded = loadResults(QFileInfo(sglangFile).absolutePath(), &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.sourceTool, QStringLiteral("sglang-bench"));
        QCOMPARE(loaded->results.cells.size(), 2);
    }

    // Python's json.dumps writes Infinity for --request-rate inf; strings are left alone.
    void pythonNonFiniteLiterals()
    {
        QCOMPARE(pythonJsonToJson(QByteArray("{\"a\": Infinity, \"b\": -Infinity, \"c\": NaN, \"d\": \"Infinity \\\" NaN\"}")),
                 QByteArray("{\"a\": null, \"b\": null, \"c\": null, \"d\": \"Infinity \\\" NaN\"}"));
    }

    void sglangHostile_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("expected");
        QTest::newRow("mean a string") << QByteArray("\"mean_ttft_ms\": ") << QByteArray("\"mean_ttft_ms\": \"x\", \"was\": ")
                                       << "bench_serving.jsonl:1: mean_ttft_ms: expected a number, found a string";
        QTest::newRow("completed null") << QByteArray("\"completed\": ") << QByteArray("\"completed\": null, \"was\": ")
                                        << "bench_serving.jsonl:1: completed: expected a number, found null";
    }

    void sglangHostile()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QByteArray text = sbtest::readFile(sglangFile);
        const qsizetype at = text.indexOf(from);
        QVERIFY(at >= 0 && at < text.indexOf('\n'));
        text.replace(at, from.size(), to);
        const QString error = loadError(dir, QStringLiteral("bench_serving.jsonl"), text);
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void sglangTruncated()
    {
        QTemporaryDir dir;
        const QByteArray text = sbtest::readFile(sglangFile);
        const QString error = loadError(dir, QStringLiteral("bench_serving.jsonl"), text.left(text.indexOf('\n') + 200));
        QVERIFY2(error.contains(QStringLiteral("bench_serving.jsonl:2: not a JSON object")), qPrintable(error));
    }

    // `sweepbench diff` opens imports through the same loader: a report against itself passes,
    // with the points compared.
    void diffReadsImports()
    {
        QString error;
        const auto a = loadResults(guidellmFile, &error);
        QVERIFY2(a, qPrintable(error));
        const GateResult same = compareForRegressions(*a, *a, GateOptions());
        QCOMPARE(same.verdict, GateVerdict::Pass);
        QVERIFY(!same.comparisons.isEmpty());
        const sbtest::CliRun run = sbtest::runSweepbench({QStringLiteral("diff"), guidellmFile, guidellmFile});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
    }

    // Across formats: each set has one series, paired by position, and both ran C=1 and C=2.
    // Single runs without records are not testable, so nothing is flagged, but every point is
    // compared.
    void diffAcrossFormats_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("candidate");
        QTest::newRow("guidellm vs inference-perf") << guidellmFile << inferencePerfDir;
        QTest::newRow("inference-perf vs genai-bench") << inferencePerfDir << genaiBenchDir;
        QTest::newRow("sglang vs guidellm") << sglangFile << guidellmFile;
        QTest::newRow("genai-bench vs aiperf") << genaiBenchDir << fixture(QStringLiteral("aiperf-0.13.0/plain"));
    }

    void diffAcrossFormats()
    {
        QFETCH(QString, base);
        QFETCH(QString, candidate);
        QString error;
        const auto a = loadResults(base, &error);
        QVERIFY2(a, qPrintable(error));
        const auto b = loadResults(candidate, &error);
        QVERIFY2(b, qPrintable(error));
        const GateResult result = compareForRegressions(*a, *b, GateOptions());
        QVERIFY2(result.verdict != GateVerdict::CannotCompare, qPrintable(result.reason));
        QVERIFY(!result.comparisons.isEmpty());
        const sbtest::CliRun run = sbtest::runSweepbench({QStringLiteral("diff"), base, candidate});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
    }
};

QTEST_GUILESS_MAIN(TestImportPeers)
#include "tst_import_peers.moc"
