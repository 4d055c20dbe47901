// The server's side of every cell (docs/server-metrics.md), against the real engine and
// the mock's /metrics over loopback: per-cell aggregates and series for each personality, resets
// verified by the server's own prefix-cache counter, a missing endpoint warned about once, and the
// aggregation rules on known scrapes.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "HostileServer.h"
#include "engine/CellRunner.h"
#include "engine/CellServerMetrics.h"
#include "hooks/ControlClient.h"
#include "hooks/HookRunner.h"
#include "servermetrics/ServerMetricsAggregate.h"
#include "report/BundleWriter.h"
#include "report/ReportHtml.h"
#include "report/ReportText.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QThread>
#include <cmath>

using namespace sb;

namespace {
QList<QJsonObject> readSeries(const QString &path)
{
    QList<QJsonObject> lines;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return lines;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        if (!line.isEmpty())
            lines.append(QJsonDocument::fromJson(line).object());
    }
    return lines;
}

ScrapePoint point(std::int64_t ns, const QByteArray &text, const QString &origin = QStringLiteral("http://a:1"))
{
    ScrapePoint p;
    p.origin = origin;
    p.steadyNs = ns;
    QString error;
    MetricsScrape all;
    if (!parseMetricsAnswer(text, &all, &error))
        qFatal("bad test scrape: %s", qPrintable(error));
    p.keySamples = all;
    return p;
}
} // namespace

class TestServerMetrics : public QObject
{
    Q_OBJECT

private slots:
    // Every personality's /metrics, scraped through a measured phase: the counters' deltas are
    // exactly what the phase asked for, the series runs from before the first send to after the
    // last answer, and a reset right before the phase is confirmed by the hit counter.
    void mockPersonalities_data()
    {
        QTest::addColumn<Flavor>("flavor");
        QTest::addColumn<QString>("generated");   // counter of generated tokens
        QTest::addColumn<QString>("running");     // running-requests gauge
        QTest::addColumn<bool>("reset");
        QTest::newRow("vllm") << Flavor::Vllm << "vllm:generation_tokens_total" << "vllm:num_requests_running" << true;
        QTest::newRow("sglang") << Flavor::Sglang << "sglang:generation_tokens_total" << "sglang:num_running_reqs" << true;
        QTest::newRow("llamacpp") << Flavor::Llamacpp << "llamacpp:tokens_predicted_total" << "llamacpp:requests_processing" << true;
        QTest::newRow("trtllm") << Flavor::Trtllm << "" << "" << false;
    }
    void mockPersonalities()
    {
        QFETCH(Flavor, flavor);
        QFETCH(QString, generated);
        QFETCH(QString, running);
        QFETCH(bool, reset);
        MockConfig cfg = mockDefaults(flavor);
        cfg.metrics = true; // llamacpp: as llama-server --metrics
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec server = sbtest::serverFor(QStringLiteral("s"), *mock, flavor);
        server.reset.enabled = reset;
        server.metrics.intervalS = 0.05;
        SweepSpec spec = sbtest::smallSpec({server}, {4}, 40);
        spec.workload.inputTokens = 128;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);

        const QString seriesPath = toJson(cell.serverMetricsInfo).value(QStringLiteral("series")).toString();
        QCOMPARE(seriesPath, cell.recordsPath.section(QLatin1Char('/'), 0, -2) + QStringLiteral("/server_metrics.jsonl"));
        const QList<QJsonObject> series = readSeries(dir.filePath(seriesPath));
        QVERIFY(series.size() >= 2); // the baseline and the last tail scrape at least
        QVERIFY2(series.first().value(QStringLiteral("t_ns")).toDouble() < 0, "the baseline is taken before the first send");
        QVERIFY(series.last().value(QStringLiteral("t_ns")).toDouble() > cell.durationS * 1e9); // the tail
        QVERIFY(series.first().contains(QStringLiteral("types")));
        QCOMPARE(series.first().value(QStringLiteral("origin")).toString(), QUrl(mock->url()).adjusted(QUrl::RemovePath).toString());

        if (flavor == Flavor::Trtllm) { // JSON iteration stats: kept in the series, no key set
            QVERIFY(series.last().value(QStringLiteral("samples")).toObject().contains(QStringLiteral("trtllm:numActiveRequests")));
            QVERIFY(cell.serverMetrics.isEmpty());
            return;
        }
        const QJsonObject gen = toJson(cell.serverMetrics.value(generated));
        QCOMPARE(gen.value(QStringLiteral("type")).toString(), QStringLiteral("counter"));
        QCOMPARE(gen.value(QStringLiteral("delta")).toDouble(), 40.0 * spec.workload.outputTokens);
        QVERIFY(gen.value(QStringLiteral("rate")).toDouble() > 0);
        const QJsonObject run = toJson(cell.serverMetrics.value(running));
        QCOMPARE(run.value(QStringLiteral("type")).toString(), QStringLiteral("gauge"));
        QVERIFY(run.value(QStringLiteral("max")).toDouble() <= 4);
        QVERIFY(run.value(QStringLiteral("avg")).toDouble() >= 0);
        if (flavor == Flavor::Vllm) {
            const QJsonObject ttft = toJson(cell.serverMetrics.value(QStringLiteral("vllm:time_to_first_token_seconds")));
            QCOMPARE(ttft.value(QStringLiteral("count")).toDouble(), 40.0);
            QVERIFY(ttft.value(QStringLiteral("p50")).toDouble() > 0);
            QVERIFY(toJson(cell.serverMetricsInfo).value(QStringLiteral("ttft_check")).toObject().contains(QStringLiteral("server_p50_ms")));
            // Prompt tokens: what the records say the server counted.
            qint64 prompt = 0;
            QFile records(dir.filePath(cell.recordsPath));
            QVERIFY(records.open(QIODevice::ReadOnly));
            while (!records.atEnd())
                prompt += QJsonDocument::fromJson(records.readLine()).object().value(QStringLiteral("input_tokens")).toInteger();
            QCOMPARE(toJson(cell.serverMetrics.value(QStringLiteral("vllm:prompt_tokens_total"))).value(QStringLiteral("delta")).toDouble(), double(prompt));
        }
        // Client vs server TTFT: vLLM and SGLang from their histogram, llama.cpp from each
        // request's timings.prompt_ms in the records.
        const QJsonObject check = toJson(cell.serverMetricsInfo).value(QStringLiteral("ttft_check")).toObject();
        QCOMPARE(check.value(QStringLiteral("server_source")).toString(),
                 flavor == Flavor::Llamacpp ? QStringLiteral("records timings.prompt_ms") : running.section(QLatin1Char(':'), 0, 0) + QStringLiteral(":time_to_first_token_seconds"));
        QVERIFY(check.value(QStringLiteral("server_p50_ms")).toDouble() > 0);
        QVERIFY(check.value(QStringLiteral("client_p50_ms")).toDouble() > 0);
        QVERIFY(std::none_of(cell.warnings.cbegin(), cell.warnings.cend(), [](const QString &w) { return w.contains(QStringLiteral("far beyond network time")); }));
        QCOMPARE(cell.hooks.size(), 1);
        QCOMPARE(cell.hooks[0].metricsVerdict, MetricsVerdict::Confirmed);
        QVERIFY(cell.hooks[0].metricsCachedTokens >= 0);
        const QByteArray onDisk = sbtest::readFile(dir.filePath(QStringLiteral("results.json")));
        QVERIFY(onDisk.contains("\"metrics_verdict\": \"confirmed\""));
        QVERIFY(onDisk.contains("\"server_metrics\""));

        // Shown: in the CSV/summary verdicts, the report's hook cell and server section, and the
        // export carries the series.
        QVERIFY(hookVerdicts(cell).contains(QStringLiteral("reset_kv_cache=ok/metrics:confirmed")));
        ReportHtmlInput in;
        in.results = r.results;
        const QByteArray html = reportHtml(in);
        QVERIFY(html.contains("confirmed by metrics ("));
        QVERIFY(html.contains("<h2>Server metrics</h2>"));
        QVERIFY(html.contains("<code>" + generated.toUtf8() + "</code>"));
        BundleReport report;
        const QString zip = dir.filePath(QStringLiteral("export.zip"));
        QVERIFY2(writeBundle(dir.path(), zip, {}, &report, &error), qPrintable(error));
        QVERIFY2(report.files.contains(seriesPath), qPrintable(report.files.join(' ')));
    }

    // Requests held in front of the engine (the mock's first-byte delay: read, then held before
    // the scheduler sees them, as a busy HTTP front end would): the server's own TTFT stays short,
    // the client's does not, and the gap is a validity warning.
    void ttftGapBeyondNetworkTimeWarns()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.firstByteDelayMs = 300;
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec server = sbtest::serverFor(QStringLiteral("s"), *mock, Flavor::Vllm);
        server.metrics.intervalS = 0.1;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(sbtest::smallSpec({server}, {2}, 6), dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        const QJsonObject check = toJson(cell.serverMetricsInfo).value(QStringLiteral("ttft_check")).toObject();
        QVERIFY(check.value(QStringLiteral("client_p50_ms")).toDouble() >= 300);
        QVERIFY(check.value(QStringLiteral("server_p50_ms")).toDouble() < 100);
        QVERIFY2(std::any_of(cell.warnings.cbegin(), cell.warnings.cend(), [](const QString &w) { return w.contains(QStringLiteral("far beyond network time")); }),
                 qPrintable(cell.warnings.join('\n')));
    }

    // A reset that answers ok but leaves the cache (here: a route that only clears the mock's
    // statistics), before prompts an earlier cell already sent: the hit counter shows the reuse.
    // The same repeated prompts after a real reset: confirmed.
    void skippedResetWithRepeatedPromptsIsNotConfirmed()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec server = sbtest::serverFor(QStringLiteral("s"), *mock, Flavor::Vllm);
        server.metrics.intervalS = 0.05;
        SweepSpec spec = sbtest::smallSpec({server}, {4}, 24);
        spec.workload.inputTokens = 128;
        QTemporaryDir dir;
        ResultsStore store(dir.path());
        LoadGenerator load(1);
        ControlClient control;
        std::atomic<bool> cancel{false};
        HookRunner hooks(control, &cancel);
        CellRunner runner(load, hooks, store, cancel);
        CellCallbacks cb;
        cb.phase = [](RunPhase) {};
        cb.hook = [](const HookOutcome &) {};
        cb.live = [](const LiveCounters &, std::int64_t) {};

        const auto runCell = [&](int index, const QString &resetPath, bool resetOn) {
            ServerSpec s = server;
            s.reset.enabled = resetOn;
            s.reset.path = resetPath;
            spec.servers = {s};
            CellContext ctx;
            ctx.spec = &spec;
            ctx.server = &spec.servers[0];
            ctx.baseUrls = s.urls;
            ctx.hooks = hookTargetsFor(spec.servers[0], ctx.baseUrls);
            ctx.promptTag = "sb-repeated-c0000"; // every cell sends the same prompts
            CellResult cell;
            cell.index = index;
            cell.server = s.name;
            cell.concurrency = 4;
            cell.recordsPath = ResultsStore::cellDirName(index, s.name, 4) + QStringLiteral("/records.jsonl");
            runner.run(ctx, cell, cb);
            return cell;
        };
        const CellResult first = runCell(0, QString(), false);
        QCOMPARE(first.status, CellStatus::Completed);
        const CellResult skipped = runCell(1, QStringLiteral("/mock/stats/reset"), true);
        QCOMPARE(skipped.hooks.size(), 1);
        QVERIFY(skipped.hooks[0].ok);
        QCOMPARE(skipped.hooks[0].metricsVerdict, MetricsVerdict::NotConfirmed);
        QVERIFY(skipped.hooks[0].metricsCachedTokens > 24 * 64);
        QVERIFY(skipped.hooks[0].message.contains(QStringLiteral("not confirmed by metrics")));
        QVERIFY(std::any_of(skipped.warnings.cbegin(), skipped.warnings.cend(),
                            [](const QString &w) { return w.contains(QStringLiteral("vllm:prefix_cache_hits_total")); }));
        const CellResult real = runCell(2, QString(), true);
        QCOMPARE(real.hooks.size(), 1);
        QCOMPARE(real.hooks[0].metricsVerdict, MetricsVerdict::Confirmed);
    }

    // llama-server without --metrics answers 501: one warning for the server, in its first cell
    // only, no series, and a reset there cannot be judged by counters.
    void missingEndpointWarnsOncePerServer()
    {
        MockConfig cfg = mockDefaults(Flavor::Llamacpp); // metrics off, as without --metrics
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec server = sbtest::serverFor(QStringLiteral("s"), *mock, Flavor::Llamacpp);
        server.reset.enabled = true;
        SweepSpec spec = sbtest::smallSpec({server}, {1, 2}, 6);
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.results.cells.size(), 2);
        const auto metricsWarnings = [](const CellResult &c) {
            return std::count_if(c.warnings.cbegin(), c.warnings.cend(), [](const QString &w) { return w.startsWith(QStringLiteral("no server metrics")); });
        };
        QCOMPARE(metricsWarnings(r.results.cells[0]), 1);
        QVERIFY(r.results.cells[0].warnings.join(QLatin1Char('\n')).contains(QStringLiteral("HTTP 501")));
        QCOMPARE(metricsWarnings(r.results.cells[1]), 0);
        for (const CellResult &c : r.results.cells) {
            QCOMPARE(c.status, CellStatus::Completed);
            QVERIFY(c.serverMetrics.isEmpty());
            QVERIFY(!QFile::exists(dir.filePath(c.recordsPath.section(QLatin1Char('/'), 0, -2) + QStringLiteral("/server_metrics.jsonl"))));
            QCOMPARE(c.hooks.at(0).metricsVerdict, MetricsVerdict::NoMetrics);
        }
    }

    // A metrics answer echoing the API key in a label value (as sent and upper-cased) and as a
    // series name (where Prometheus turns its '-' into '_'): the series on disk holds none of
    // them, the parsed values stay.
    void seriesNeverHoldsSecrets()
    {
        static const QByteArray kKey = "sk-metrics-secret-1234567890";
        hostile::Server server([](hostile::Conn &c) {
            while (true) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                QByteArray answer;
                if (req.startsWith("GET /metrics")) {
                    const QByteArray auth = hostile::headerValue(req, "Authorization");
                    const QByteArray named = auth.mid(7).replace('-', '_'); // "Bearer "
                    const QByteArray body = "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{seen=\"" + auth
                                            + "\",upper=\"" + auth.toUpper() + "\"} 1\n# TYPE " + named + "_total counter\n" + named
                                            + "_total 3\n";
                    answer = hostile::textResponse(body);
                } else {
                    answer = hostile::sseResponse(hostile::sseBody(4));
                }
                if (!c.write(answer))
                    return;
            }
        });
        ServerSpec s = sbtest::serverAt(QString::fromLatin1(server.url()), QStringLiteral("echo"));
        s.apiKey = QString::fromLatin1(kKey);
        s.metrics.intervalS = 0.05;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(sbtest::smallSpec({s}, {1}, 4), dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QCOMPARE(toJson(cell.serverMetrics.value(QStringLiteral("vllm:num_requests_running"))).value(QStringLiteral("max")).toDouble(), 1.0);
        const QByteArray series = sbtest::readFile(dir.filePath(toJson(cell.serverMetricsInfo).value(QStringLiteral("series")).toString()));
        QVERIFY(series.contains("vllm:num_requests_running"));
        QVERIFY(series.contains("[redacted]"));
        QVERIFY(!series.contains(kKey));
        const QByteArray folded = series.toLower().replace('_', '-');
        QVERIFY2(!folded.contains(kKey.left(10)), series.constData());
    }

    // A server whose running-requests gauge reads 0 at every scrape while the client keeps
    // requests in flight (as vLLM 0.32's CPU build does): the cell says its gauges do not follow
    // the load. The same server telling the truth gets no such warning.
    void gaugesThatIgnoreTheLoadAreNamed_data()
    {
        QTest::addColumn<bool>("truthful");
        QTest::newRow("always 0") << false;
        QTest::newRow("follows the load") << true;
    }
    void gaugesThatIgnoreTheLoadAreNamed()
    {
        QFETCH(bool, truthful);
        std::atomic<int> inFlight{0};
        hostile::Server server([&inFlight, truthful](hostile::Conn &c) {
            while (true) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                QByteArray answer;
                if (req.startsWith("GET /metrics")) {
                    const QByteArray body = "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{engine=\"0\"} "
                                            + QByteArray::number(truthful ? inFlight.load() : 0) + "\n";
                    answer = hostile::textResponse(body);
                } else {
                    ++inFlight;
                    QThread::msleep(60); // long enough that scrapes see requests running
                    --inFlight;
                    answer = hostile::sseResponse(hostile::sseBody(4));
                }
                if (!c.write(answer))
                    return;
            }
        });
        ServerSpec s = sbtest::serverAt(QString::fromLatin1(server.url()), QStringLiteral("cpu-vllm"));
        s.metrics.intervalS = 0.05;
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(sbtest::smallSpec({s}, {2}, 16), dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QVERIFY(cell.meanInFlight > 1);
        const bool warned = std::any_of(cell.warnings.cbegin(), cell.warnings.cend(),
                                        [](const QString &w) { return w.contains(QStringLiteral("do not follow its load")); });
        QVERIFY2(warned == !truthful, qPrintable(cell.warnings.join('\n')));
        QCOMPARE(toJson(cell.serverMetricsInfo).contains(QStringLiteral("gauges_follow_load")), !truthful);
        QCOMPARE(toJson(cell.serverMetrics.value(QStringLiteral("vllm:num_requests_running"))).value(QStringLiteral("max")).toDouble() > 0, truthful);
    }

    void aggregationRules()
    {
        const qint64 s = 1'000'000'000;
        // Baseline before the phase (t=-0.1 s), three scrapes inside a 2 s phase, a tail after it.
        std::vector<ScrapePoint> pts;
        const auto text = [](double running, double hits, double b1, double b2, double inf, double sum) {
            return QByteArray("# TYPE vllm:num_requests_running gauge\n"
                              "vllm:num_requests_running{engine=\"0\"} ") + QByteArray::number(running) + "\n"
                   "vllm:num_requests_running{engine=\"1\"} 1\n"
                   "# TYPE vllm:prefix_cache_hits_total counter\n"
                   "vllm:prefix_cache_hits_total{engine=\"0\"} " + QByteArray::number(hits) + "\n"
                   "# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc{engine=\"0\"} 0.2\nvllm:kv_cache_usage_perc{engine=\"1\"} 0.4\n"
                   "# TYPE vllm:time_to_first_token_seconds histogram\n"
                   "vllm:time_to_first_token_seconds_bucket{le=\"0.1\"} " + QByteArray::number(b1) + "\n"
                   "vllm:time_to_first_token_seconds_bucket{le=\"0.2\"} " + QByteArray::number(b2) + "\n"
                   "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"} " + QByteArray::number(inf) + "\n"
                   "vllm:time_to_first_token_seconds_count " + QByteArray::number(inf) + "\n"
                   "vllm:time_to_first_token_seconds_sum " + QByteArray::number(sum) + "\n"
                   "vllm:unrelated_total 5\n";
        };
        pts.push_back(point(10 * s - s / 10, text(0, 1000, 10, 10, 10, 1)));
        pts.push_back(point(10 * s + s / 2, text(3, 1100, 10, 30, 30, 4)));
        pts.push_back(point(11 * s, text(5, 50, 10, 50, 50, 7)));      // the counter restarted: +50
        pts.push_back(point(11 * s + s / 2, text(1, 80, 10, 110, 110, 16)));
        pts.push_back(point(12 * s + s / 2, text(0, 90, 10, 110, 110, 16))); // the tail: outside the gauge window
        const ServerMetricsSummary sum = aggregateServerMetrics(pts, 10 * s, 2.0);
        QVERIFY(sum.family);
        QCOMPARE(QByteArray(sum.family->server), QByteArray("vllm"));
        QCOMPARE(sum.scrapes, 5);
        const QJsonObject running = toJson(sum.metrics.value(QStringLiteral("vllm:num_requests_running")));
        QCOMPARE(running.value(QStringLiteral("avg")).toDouble(), 4.0);  // (3+1 + 5+1 + 1+1) / 3: engines add up
        QCOMPARE(running.value(QStringLiteral("max")).toDouble(), 6.0);
        QCOMPARE(running.value(QStringLiteral("samples")).toInt(), 3);
        QCOMPARE(toJson(sum.metrics.value(QStringLiteral("vllm:kv_cache_usage_perc"))).value(QStringLiteral("avg")).toDouble(), 0.3); // a fraction averages
        const QJsonObject hits = toJson(sum.metrics.value(QStringLiteral("vllm:prefix_cache_hits_total")));
        QCOMPARE(hits.value(QStringLiteral("delta")).toDouble(), 100.0 + 50 + 30 + 10);
        QCOMPARE(hits.value(QStringLiteral("rate")).toDouble(), 95.0);
        QCOMPARE(*sum.cacheHitDelta, 190.0);
        QVERIFY(!sum.metrics.contains(QStringLiteral("vllm:unrelated_total"))); // only in the series
        // TTFT: 100 new observations, all in (0.1, 0.2]: p50 interpolates to 0.15, p99 to 0.199.
        const QJsonObject ttft = toJson(sum.metrics.value(QStringLiteral("vllm:time_to_first_token_seconds")));
        QCOMPARE(ttft.value(QStringLiteral("count")).toDouble(), 100.0);
        QVERIFY(qAbs(ttft.value(QStringLiteral("p50")).toDouble() - 0.15) < 1e-12);
        QVERIFY(qAbs(ttft.value(QStringLiteral("p99")).toDouble() - 0.199) < 1e-12);
        QVERIFY(qAbs(ttft.value(QStringLiteral("mean")).toDouble() - 0.15) < 1e-12);
        // A quantile in the +Inf bucket is its lower bound; an empty histogram has none.
        QCOMPARE(bucketQuantile({{0.1, 1}, {INFINITY, 10}}, 0.9), 0.1);
        QVERIFY(std::isnan(bucketQuantile({{0.1, 0}, {INFINITY, 0}}, 0.5)));
        // No known family: nothing aggregated.
        QVERIFY(!aggregateServerMetrics({point(0, "foo 1\n")}, 0, 1).family);
    }

    void verdictRule()
    {
        WorkloadSpec w;
        w.inputTokens = 1024;
        double allowance = 0;
        QCOMPARE(CellServerMetrics::judgeReset(std::nullopt, 10, w, &allowance), MetricsVerdict::NoMetrics);
        QCOMPARE(CellServerMetrics::judgeReset(640, 10, w, &allowance), MetricsVerdict::Confirmed);
        QCOMPARE(allowance, 640.0);
        QCOMPARE(CellServerMetrics::judgeReset(641, 10, w, &allowance), MetricsVerdict::NotConfirmed);
        w.prompts = PromptMode::SharedPrefix; // tokens the cell's own requests share are allowed
        w.sharedPrefixTokens = 512;
        QCOMPARE(CellServerMetrics::judgeReset(5000, 10, w, &allowance), MetricsVerdict::Confirmed);
        QCOMPARE(allowance, 5760.0);
    }
};

QTEST_GUILESS_MAIN(TestServerMetrics)
#include "tst_server_metrics.moc"
