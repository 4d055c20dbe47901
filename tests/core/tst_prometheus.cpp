// The /metrics parser (core/servermetrics/PrometheusText): the text format's corners, the
// bounds a peer cannot pass, and trtllm-serve's JSON iteration stats.
#include "servermetrics/PrometheusText.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include <QTest>
#include <cmath>

using namespace sb;

class TestPrometheus : public QObject
{
    Q_OBJECT

    static const MetricSample *find(const MetricsScrape &s, const QByteArray &key)
    {
        for (const MetricSample &m : s.samples)
            if (seriesKey(m) == key)
                return &m;
        return nullptr;
    }

private slots:
    void vllmAnswer()
    {
        // Shape of a real vLLM 0.32 answer (prometheus_client): counters named *_total in TYPE.
        const QByteArray body =
            "# HELP vllm:num_requests_running Number of requests in model execution batches.\n"
            "# TYPE vllm:num_requests_running gauge\n"
            "vllm:num_requests_running{engine=\"0\",model_name=\"tiny\"} 3.0\n"
            "# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of number of cached tokens.\n"
            "# TYPE vllm:prefix_cache_hits_total counter\n"
            "vllm:prefix_cache_hits_total{engine=\"0\",model_name=\"tiny\"} 1.2e+03\n"
            "# TYPE vllm:time_to_first_token_seconds histogram\n"
            "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"0.001\",model_name=\"tiny\"} 0.0\n"
            "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\"tiny\"} 7.0\n"
            "vllm:time_to_first_token_seconds_count{engine=\"0\",model_name=\"tiny\"} 7.0\n"
            "vllm:time_to_first_token_seconds_sum{engine=\"0\",model_name=\"tiny\"} 0.25\n";
        MetricsScrape s;
        QString error;
        QVERIFY2(parseMetricsAnswer(body, &s, &error), qPrintable(error));
        QCOMPARE(int(s.samples.size()), 6);
        QCOMPARE(s.badLines, 0);
        const MetricSample *running = find(s, "vllm:num_requests_running{engine=\"0\",model_name=\"tiny\"}");
        QVERIFY(running);
        QCOMPARE(running->value, 3.0);
        QCOMPARE(s.typeOf("vllm:num_requests_running"), MetricType::Gauge);
        QCOMPARE(s.typeOf("vllm:prefix_cache_hits_total"), MetricType::Counter);
        QCOMPARE(s.familyOf("vllm:time_to_first_token_seconds_bucket"), QByteArray("vllm:time_to_first_token_seconds"));
        QCOMPARE(s.typeOf("vllm:time_to_first_token_seconds_sum"), MetricType::Histogram);
        QCOMPARE(find(s, "vllm:prefix_cache_hits_total{engine=\"0\",model_name=\"tiny\"}")->value, 1200.0);
        QCOMPARE(s.families.at("vllm:num_requests_running").help, QByteArray("Number of requests in model execution batches."));
    }

    // The run monitor's live series: running and waiting summed over label sets, per family;
    // -1 for what a server does not publish; NaN left out.
    void serverLoadFromScrape()
    {
        MetricsScrape vllm;
        QString error;
        QVERIFY(parsePrometheusText("vllm:num_requests_running{engine=\"0\"} 3\nvllm:num_requests_running{engine=\"1\"} 2\n"
                                    "vllm:num_requests_waiting{engine=\"0\"} 7\nvllm:num_requests_waiting{engine=\"1\"} NaN\n",
                                    &vllm, &error));
        ServerLoad load = serverLoad(vllm);
        QCOMPARE(load.running, 5.0);
        QCOMPARE(load.waiting, 7.0);
        MetricsScrape llama;
        QVERIFY(parsePrometheusText("llamacpp:requests_processing 1\n", &llama, &error));
        load = serverLoad(llama);
        QCOMPARE(load.running, 1.0);
        QCOMPARE(load.waiting, -1.0);
        MetricsScrape sglang;
        QVERIFY(parsePrometheusText("sglang:num_queue_reqs 4\nsglang:num_running_reqs 0\nother 9\n", &sglang, &error));
        load = serverLoad(sglang);
        QCOMPARE(load.running, 0.0);
        QCOMPARE(load.waiting, 4.0);
        MetricsScrape none;
        QVERIFY(parsePrometheusText("other 9\n", &none, &error));
        QCOMPARE(serverLoad(none).running, -1.0);
    }

    // A server with several URLs: each origin is scraped on its own, and the live figure is the
    // sum of every origin's latest scrape (it alternated between the origins before).
    void serverLoadSumsEveryUrl()
    {
        ServerLoadSum sum;
        ServerLoad a{3, -1}, b{5, 2};
        ServerLoad total = sum.add(QStringLiteral("http://a:8000"), a);
        QCOMPARE(total.running, 3.0);
        QCOMPARE(total.waiting, -1.0); // nobody reports a queue yet
        total = sum.add(QStringLiteral("http://b:8000"), b);
        QCOMPARE(total.running, 8.0);
        QCOMPARE(total.waiting, 2.0);
        total = sum.add(QStringLiteral("http://a:8000"), ServerLoad{1, 0}); // a's newer scrape replaces its older one
        QCOMPARE(total.running, 6.0);
        QCOMPARE(total.waiting, 2.0);
    }

    void openMetricsCounterFamily()
    {
        // OpenMetrics names the family without _total; its samples carry the suffix.
        MetricsScrape s;
        QString error;
        QVERIFY(parseMetricsAnswer("# TYPE llamacpp:n_decode counter\nllamacpp:n_decode_total 5\n# EOF\nignored 1\n", &s, &error));
        QCOMPARE(int(s.samples.size()), 1);
        QCOMPARE(s.typeOf("llamacpp:n_decode_total"), MetricType::Counter);
        QCOMPARE(s.familyOf("llamacpp:n_decode_total"), QByteArray("llamacpp:n_decode"));
        // A gauge's _total sample is its own family (untyped), not the gauge.
        QVERIFY(parseMetricsAnswer("# TYPE g gauge\ng 1\ng_total 2\n", &s, &error));
        QCOMPARE(s.typeOf("g_total"), MetricType::Untyped);
    }

    void specialValuesAndTimestamps()
    {
        MetricsScrape s;
        QString error;
        QVERIFY(parseMetricsAnswer("a NaN\nb +Inf\nc -Inf\nd Inf 1700000000000\ne -1.5e-3 -5\nf +7\n", &s, &error));
        QCOMPARE(int(s.samples.size()), 6);
        QVERIFY(std::isnan(s.samples[0].value));
        QVERIFY(std::isinf(s.samples[1].value) && s.samples[1].value > 0);
        QVERIFY(std::isinf(s.samples[2].value) && s.samples[2].value < 0);
        QCOMPARE(s.samples[3].timestampMs.value_or(0), qint64(1700000000000));
        QCOMPARE(s.samples[4].value, -0.0015);
        QCOMPARE(s.samples[4].timestampMs.value_or(0), qint64(-5));
        QCOMPARE(s.samples[5].value, 7.0);
        QVERIFY(!s.samples[0].timestampMs);
        QCOMPARE(formatMetricValue(s.samples[0].value), QByteArray("NaN"));
        QCOMPARE(formatMetricValue(s.samples[1].value), QByteArray("+Inf"));
        QCOMPARE(formatMetricValue(s.samples[2].value), QByteArray("-Inf"));
        QCOMPARE(formatMetricValue(0.1), QByteArray("0.1"));
    }

    void escapedLabelValues()
    {
        MetricsScrape s;
        QString error;
        const QByteArray body = "m{path=\"C:\\\\dir\",q=\"say \\\"hi\\\"\",nl=\"a\\nb\",odd=\"x\\y\", sp = \"}{,=\" ,} 1\n"
                                "# HELP m text with \\\\ and \\n newline\n";
        QVERIFY2(parseMetricsAnswer(body, &s, &error), qPrintable(error));
        QCOMPARE(s.badLines, 0);
        const MetricSample &m = s.samples.front();
        QCOMPARE(m.labels.size(), 5);
        QCOMPARE(m.labels[0].second, QByteArray("C:\\dir"));
        QCOMPARE(m.labels[1].second, QByteArray("say \"hi\""));
        QCOMPARE(m.labels[2].second, QByteArray("a\nb"));
        QCOMPARE(m.labels[3].second, QByteArray("x\\y"));
        QCOMPARE(m.labels[4].second, QByteArray("}{,="));
        QCOMPARE(s.families.at("m").help, QByteArray("text with \\ and \n newline"));
        // The series key re-escapes, and reads back to the same sample.
        MetricSample back;
        QVERIFY(parseSeriesKey(seriesKey(m), &back));
        QCOMPARE(back.labels, m.labels);
        QCOMPARE(back.name, m.name);
    }

    void badLinesAreSkippedAndCounted_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("no value") << QByteArray("x");
        QTest::newRow("bad value") << QByteArray("x 1.2.3");
        QTest::newRow("infinity spelled out") << QByteArray("x infinity");
        QTest::newRow("hex") << QByteArray("x 0x10");
        QTest::newRow("negative nan") << QByteArray("x -nan");
        QTest::newRow("sign only") << QByteArray("x +");
        QTest::newRow("unquoted label") << QByteArray("x{a=b} 1");
        QTest::newRow("unterminated label") << QByteArray("x{a=\"b} 1");
        QTest::newRow("unterminated set") << QByteArray("x{a=\"b\" 1");
        QTest::newRow("duplicate label") << QByteArray("x{a=\"1\",a=\"2\"} 1");
        QTest::newRow("label name with colon") << QByteArray("x{a:b=\"1\"} 1");
        QTest::newRow("bad timestamp") << QByteArray("x 1 12.5");
        QTest::newRow("text after timestamp") << QByteArray("x 1 12 13");
        QTest::newRow("name starts with digit") << QByteArray("1x 1");
        QTest::newRow("unknown type") << QByteArray("# TYPE x countr");
        QTest::newRow("type without name") << QByteArray("# TYPE");
    }
    void badLinesAreSkippedAndCounted()
    {
        QFETCH(QByteArray, line);
        MetricsScrape s;
        QString error;
        QVERIFY(parseMetricsAnswer("good 1\n" + line + "\nalso_good 2\n", &s, &error));
        QCOMPARE(int(s.samples.size()), 2);
        QCOMPARE(s.badLines, 1);
        QVERIFY2(s.firstError.startsWith(QStringLiteral("line 2: ")), qPrintable(s.firstError));
    }

    void notMetricsIsAnError()
    {
        MetricsScrape s;
        QString error;
        QVERIFY(!parseMetricsAnswer("<!doctype html><html><body>Not Found</body></html>\n", &s, &error));
        QVERIFY2(error.contains(QStringLiteral("no valid metric samples")), qPrintable(error));
        QVERIFY(!parseMetricsAnswer("", &s, &error));
        QVERIFY(!parseMetricsAnswer("# HELP only comments\n", &s, &error));
        QVERIFY(!parseMetricsAnswer("[1, 2", &s, &error));
        QVERIFY2(error.contains(QStringLiteral("not valid JSON")), qPrintable(error));
    }

    void boundsHold()
    {
        MetricsLimits limits;
        limits.maxBodyBytes = 1000;
        limits.maxLineBytes = 100;
        limits.maxSeries = 3;
        limits.maxLabels = 2;
        MetricsScrape s;
        QString error;
        QVERIFY(!parsePrometheusText(QByteArray(1001, '\n'), &s, &error, limits));
        QVERIFY2(error.contains(QStringLiteral("larger than")), qPrintable(error));
        QVERIFY(parsePrometheusText("a 1\nlong{l=\"" + QByteArray(200, 'x') + "\"} 1\n", &s, &error, limits));
        QCOMPARE(int(s.samples.size()), 1);
        QVERIFY(s.firstError.contains(QStringLiteral("longer than 100")));
        QVERIFY(parsePrometheusText("a 1\nb 2\nc 3\nd 4\ne 5\n", &s, &error, limits));
        QCOMPARE(int(s.samples.size()), 3);
        QVERIFY(s.truncated);
        QVERIFY(parsePrometheusText("a{x=\"1\",y=\"2\",z=\"3\"} 1\nb 1\n", &s, &error, limits));
        QCOMPARE(int(s.samples.size()), 1);
        QCOMPARE(s.badLines, 1);
    }

    void crlfAndBlanks()
    {
        MetricsScrape s;
        QString error;
        QVERIFY(parseMetricsAnswer("\r\n# TYPE a gauge\r\n  a{b=\"c\"}   4   \r\n\n", &s, &error));
        QCOMPARE(int(s.samples.size()), 1);
        QCOMPARE(s.samples[0].value, 4.0);
        QCOMPARE(s.typeOf("a"), MetricType::Gauge);
    }

    void trtllmIterationStats()
    {
        const QByteArray body = R"([
          {"iter": 10, "numActiveRequests": 2, "gpuMemUsage": 100,
           "kvCacheStats": {"usedNumBlocks": 5, "freeNumBlocks": 95, "cacheHitRate": 0.5},
           "inflightBatchingStats": {"numScheduledRequests": 2, "numContextRequests": 1}, "timestamp": "12:00"},
          {"iter": 11, "numActiveRequests": 4, "gpuMemUsage": 100,
           "kvCacheStats": {"usedNumBlocks": 9, "freeNumBlocks": 91, "cacheHitRate": 0.25},
           "inflightBatchingStats": {"numScheduledRequests": 4, "numContextRequests": 0}}
        ])";
        MetricsScrape s;
        QString error;
        QVERIFY2(parseMetricsAnswer(body, &s, &error), qPrintable(error));
        QVERIFY(s.json);
        QCOMPARE(find(s, "trtllm:iterations")->value, 2.0);
        QCOMPARE(find(s, "trtllm:numActiveRequests")->value, 4.0); // the newest iteration
        QCOMPARE(find(s, "trtllm:kvCacheStats_usedNumBlocks")->value, 9.0);
        QCOMPARE(find(s, "trtllm:inflightBatchingStats_numContextRequests")->value, 0.0);
        QVERIFY(!find(s, "trtllm:timestamp")); // not numeric
        QCOMPARE(s.typeOf("trtllm:kvCacheStats_cacheHitRate"), MetricType::Gauge);
        // Idle: an empty array is a valid answer with zero iterations.
        QVERIFY(parseMetricsAnswer("[]", &s, &error));
        QCOMPARE(find(s, "trtllm:iterations")->value, 0.0);
        QVERIFY(!parseMetricsAnswer("[1, 2]", &s, &error));
        QVERIFY(!parseMetricsAnswer("{\"success\": true}", &s, &error)); // another route's answer
        QVERIFY2(error.contains(QStringLiteral("JSON object")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
