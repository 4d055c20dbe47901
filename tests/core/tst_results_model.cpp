// results.json's typed model (results/Results.h and the parts it holds): each part goes struct ->
// JSON -> struct unchanged, and a results.json written before the parts were typed loads into
// them and is written back with the same keys and values.
#include "../fixtures/ReportTestData.h"
#include "TestSupport.h"
#include "results/Results.h"
#include "results/SweepAxis.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>

using namespace sb;

namespace {
QJsonObject readFixture()
{
    const QByteArray text = sbtest::readFile(sbtest::sourcePath(QStringLiteral("tests/fixtures/sweepbench-results-1/results.json")));
    return QJsonDocument::fromJson(text).object();
}

ServerMetricAggregate aggregate(MetricType type)
{
    ServerMetricAggregate m;
    m.type = type;
    m.unit = QStringLiteral("tokens");
    m.label = QStringLiteral("generated tokens");
    switch (type) {
    case MetricType::Gauge: m.avg = 1.5, m.max = 3, m.samples = 4; break;
    case MetricType::Counter: m.delta = 96, m.rate = NAN; break; // a zero-length phase has no rate
    case MetricType::Histogram: m.count = 12, m.mean = 0.004, m.p50 = 0.003, m.p99 = NAN; break;
    default: break;
    }
    return m;
}
} // namespace

class TstResultsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void timeSlicesRoundTrip()
    {
        TimeSlice a;
        a.startS = 0, a.lengthS = 1, a.sent = 4, a.completed = 3, a.failed = 1, a.outputTokens = 30, a.meanInFlight = 2.5;
        a.ttftP50Ms = 12.5, a.ttftP99Ms = 20;
        TimeSlice b = a;
        b.startS = 1, b.lengthS = 0.5, b.ttftP50Ms = -1, b.ttftP99Ms = -1; // nothing streamed: null in JSON
        const std::vector<TimeSlice> slices{a, b};
        const QJsonArray json = timeSlicesJson(slices);
        QVERIFY(json[1].toObject().value(QStringLiteral("ttft_p50_ms")).isNull());
        QCOMPARE(json[1].toObject().value(QStringLiteral("output_token_throughput")).toDouble(), 60.0);
        QCOMPARE(timeSlicesFromJson(json), slices);
    }

    void serverMetricAggregateRoundTrip_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QStringList>("keys");
        QTest::newRow("gauge") << int(MetricType::Gauge) << QStringList{"avg", "label", "max", "samples", "type", "unit"};
        QTest::newRow("counter") << int(MetricType::Counter) << QStringList{"delta", "label", "rate", "type", "unit"};
        QTest::newRow("histogram") << int(MetricType::Histogram) << QStringList{"count", "label", "mean", "p50", "p99", "type", "unit"};
    }
    void serverMetricAggregateRoundTrip()
    {
        QFETCH(int, type);
        QFETCH(QStringList, keys);
        const ServerMetricAggregate m = aggregate(MetricType(type));
        const QJsonObject json = toJson(m);
        QCOMPARE(json.keys(), keys); // each type writes its own values and only those
        QCOMPARE(serverMetricAggregateFromJson(json), m);
        ServerMetricAggregates all;
        all.insert(QStringLiteral("vllm:x"), m);
        QCOMPARE(serverMetricsFromJson(serverMetricsJson(all)), all);
    }

    void serverScrapeInfoRoundTrip()
    {
        ServerScrapeInfo s;
        QVERIFY(s.isEmpty());
        QVERIFY(toJson(s).isEmpty());
        s.series = QStringLiteral("cells/000-a-c1/server_metrics.jsonl");
        s.path = QStringLiteral("/metrics");
        s.intervalS = 0.5, s.scrapes = 3, s.failedScrapes = 1, s.windowScrapes = 2;
        s.server = QStringLiteral("vllm");
        QVERIFY(!toJson(s).contains(QStringLiteral("gauges_follow_load"))); // written only when they do not
        s.gaugesFollowLoad = false;
        s.ttftCheck = TtftCheck{QStringLiteral("vllm:time_to_first_token_seconds"), 5, 5.5, 3, NAN, 2};
        const QJsonObject json = toJson(s);
        QVERIFY(json.value(QStringLiteral("ttft_check")).toObject().value(QStringLiteral("server_avg_ms")).isNull());
        QCOMPARE(serverScrapeInfoFromJson(json), s);
        // A TTFT check without a published series (llama.cpp timings, no scrape answered).
        ServerScrapeInfo onlyCheck;
        onlyCheck.ttftCheck = s.ttftCheck;
        QCOMPARE(toJson(onlyCheck).keys(), QStringList{QStringLiteral("ttft_check")});
        QCOMPARE(serverScrapeInfoFromJson(toJson(onlyCheck)), onlyCheck);
    }

    void sweepFactsRoundTrip()
    {
        HostInfo h{QStringLiteral("vm"), QStringLiteral("Debian"), QStringLiteral("6.1"), QStringLiteral("x86_64"), 2, QStringLiteral("6.4.2")};
        QCOMPARE(hostInfoFromJson(toJson(h)), h);
        QVERIFY(toJson(HostInfo()).isEmpty()); // imports record no host

        SpecFingerprint f;
        f.sha256 = QStringLiteral("ab12");
        f.workload.insert(QStringLiteral("input_tokens"), 16);
        f.workload.insert(QStringLiteral("streaming"), true);
        f.workload.insert(QStringLiteral("output_tokens"), QVariantList{64, 128});
        f.servers[QStringLiteral("a")].insert(QStringLiteral("model"), QStringLiteral("m"));
        QCOMPARE(specFingerprintFromJson(toJson(f)), f);
        QVERIFY(toJson(SpecFingerprint()).isEmpty());

        const MergedShard m{QStringLiteral("1/2"), QStringLiteral("s1"), QStringLiteral("node-7")};
        QCOMPARE(mergedShardFromJson(toJson(m)), m);

        SloSearchResult s;
        s.percentile = 99, s.resolution = 1, s.slo = QStringLiteral("TTFT p99 ≤ 200 ms");
        SloFinding a;
        a.server = QStringLiteral("a"), a.sustained = 8, a.firstMiss = 9, a.sentence = QStringLiteral("a sustains 8 concurrent");
        SloFinding b;
        b.server = QStringLiteral("b"), b.axis = SweepAxis::RequestRate, b.sentence = QStringLiteral("b meets no point");
        s.findings = {a, b};
        const SloSearchResult back = sloSearchResultFromJson(toJson(s));
        QCOMPARE(back.percentile, 99);
        QCOMPARE(back.resolution, 1.0);
        QCOMPARE(back.slo, s.slo);
        QCOMPARE(back.findings.size(), 2);
        QCOMPARE(back.findings[0].sustained, a.sustained);
        QCOMPARE(back.findings[0].firstMiss, a.firstMiss);
        QCOMPARE(back.findings[1].axis, SweepAxis::RequestRate);
        QVERIFY(!back.findings[1].sustained && !back.findings[1].firstMiss);
        QCOMPARE(back.findings[1].sentence, b.sentence);
    }

    // The measured phase's figures are one part of the cell and travel with it.
    void cellMetricsOutputRoundTrip()
    {
        CellResult c;
        CellMetricsOutput &m = c;
        m.completed = 10, m.failed = 2, m.durationS = 1.25, m.maxInFlight = 4, m.meanInFlight = 3.5, m.steadyMeanInFlight = 3.9;
        m.tokenSource = TokenSource::Usage;
        m.metrics.insert(QStringLiteral("time_to_first_token"), sbtest::stats(QStringLiteral("ms"), 12));
        const CellResult back = cellResultFromJson(toJson(c));
        QCOMPARE(back.completed, 10);
        QCOMPARE(back.failed, 2);
        QCOMPARE(back.durationS, 1.25);
        QCOMPARE(back.maxInFlight, 4);
        QCOMPARE(back.meanInFlight, 3.5);
        QCOMPARE(back.steadyMeanInFlight, 3.9);
        QCOMPARE(back.tokenSource, m.tokenSource);
        QCOMPARE(back.metrics.value(QStringLiteral("time_to_first_token")).p50, 12.0);
    }

    // A results.json written before these parts were typed (a real run of the embedded mocks:
    // server metrics, a TTFT check, a profiler window, an SLO search, merged shards; one cell
    // edited to hold the nulls a run can write) loads into the structs and is written back with
    // exactly its keys and values.
    void oldResultsLoadAndWriteBackUnchanged()
    {
        const QJsonObject stored = readFixture();
        QVERIFY(!stored.isEmpty());
        SweepResults r;
        QString error;
        QVERIFY2(sweepResultsFromJson(stored, &r, &error), qPrintable(error));
        QCOMPARE(r.cells.size(), 3);
        QCOMPARE(r.host.hostname, QStringLiteral("vm"));
        QCOMPARE(r.host.cpuCount, 2);
        QCOMPARE(r.specFingerprint.sha256.size(), 64);
        QCOMPARE(r.specFingerprint.workload.value(QStringLiteral("input_tokens")).toInt(), 16);
        QCOMPARE(r.mergedFrom.size(), 2);
        QCOMPARE(r.mergedFrom[1].shard, QStringLiteral("1/2"));
        QVERIFY(r.sloSearch);
        QCOMPARE(r.sloSearch->findings.size(), 2);
        QCOMPARE(r.sloSearch->findings[0].sustained, std::optional<double>(4));
        QVERIFY(!r.sloSearch->findings[0].firstMiss);

        const CellResult &a = r.cells[0];
        QCOMPARE(a.timeSlices.size(), std::size_t(1));
        QCOMPARE(a.serverMetricsInfo.series, QStringLiteral("cells/000-a-c1/server_metrics.jsonl"));
        QVERIFY(!a.serverMetricsInfo.gaugesFollowLoad);
        QVERIFY(a.serverMetricsInfo.ttftCheck);
        QCOMPARE(a.serverMetrics.value(QStringLiteral("vllm:generation_tokens_total")).type, MetricType::Counter);
        QCOMPARE(a.serverMetrics.value(QStringLiteral("vllm:generation_tokens_total")).delta, 96.0);
        QCOMPARE(a.serverMetrics.value(QStringLiteral("vllm:time_to_first_token_seconds")).count, 12.0);
        const CellResult &edited = r.cells[2];
        QVERIFY(edited.serverMetricsInfo.series.isEmpty());
        QVERIFY(std::isnan(edited.serverMetricsInfo.ttftCheck->serverP50Ms));
        QVERIFY(std::isnan(edited.serverMetrics.value(QStringLiteral("sglang:time_to_first_token_seconds")).p50));
        QCOMPARE(edited.timeSlices[0].ttftP50Ms, -1.0);

        const QJsonObject written = toJson(r);
        QCOMPARE(written.keys(), stored.keys());
        for (const QString &key : stored.keys())
            if (key != QLatin1String("cells"))
                QVERIFY2(written.value(key) == stored.value(key), qPrintable(key));
        const QJsonArray storedCells = stored.value(QStringLiteral("cells")).toArray();
        const QJsonArray writtenCells = written.value(QStringLiteral("cells")).toArray();
        QCOMPARE(writtenCells.size(), storedCells.size());
        for (int i = 0; i < storedCells.size(); ++i) {
            const QJsonObject s = storedCells[i].toObject(), w = writtenCells[i].toObject();
            QCOMPARE(w.keys(), s.keys());
            for (const QString &key : s.keys())
                QVERIFY2(w.value(key) == s.value(key),
                         qPrintable(QStringLiteral("cell %1 %2:\n%3\nwritten back as\n%4")
                                        .arg(i)
                                        .arg(key, QString::fromUtf8(QJsonDocument(QJsonObject{{key, s.value(key)}}).toJson()),
                                             QString::fromUtf8(QJsonDocument(QJsonObject{{key, w.value(key)}}).toJson()))));
        }
        QCOMPARE(QJsonDocument(written).toJson(QJsonDocument::Compact), QJsonDocument(stored).toJson(QJsonDocument::Compact));
    }
};

QTEST_GUILESS_MAIN(TstResultsModel)
#include "tst_results_model.moc"
