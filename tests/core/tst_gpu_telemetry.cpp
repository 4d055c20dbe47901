// GPU telemetry and cost per token (docs/gpu-telemetry.md): the DCGM summary of a phase's scrapes
// (energy from the counter's delta, else power integrated), the per-token figures the catalogue
// derives, and the whole path against the mock's DCGM-shaped exporter over real loopback sockets
// with the real engine — energy per token equal to the exporter's energy delta over the tokens.
#include "EngineFixture.h"
#include "HostileServer.h"
#include "TestSupport.h"
#include "metrics/MetricCatalogue.h"
#include "mock/MockDcgm.h"
#include "report/ReportHtml.h"
#include "report/ResultsCsv.h"
#include "report/SummaryCommand.h"
#include "results/ResultsStore.h"
#include "servermetrics/GpuTelemetry.h"
#include "spec/SecretSet.h"
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <atomic>
#include <map>

using namespace sb;

namespace {
// One scrape of one exporter: `values[gpu]` for each field named.
ScrapePoint scrape(const QString &origin, std::int64_t ns, const std::map<QByteArray, std::vector<double>> &fields, const QByteArray &model = "NVIDIA H100 80GB HBM3")
{
    ScrapePoint p;
    p.origin = origin;
    p.steadyNs = ns;
    for (const auto &[name, values] : fields)
        for (std::size_t g = 0; g < values.size(); ++g) {
            MetricSample s;
            s.name = name;
            s.labels = {{"gpu", QByteArray::number(qulonglong(g))},
                        {"UUID", origin.toUtf8() + "-GPU-" + QByteArray::number(qulonglong(g))},
                        {"Hostname", "node"},
                        {"modelName", model}};
            s.value = values[g];
            p.keySamples.samples.push_back(s);
        }
    return p;
}

constexpr std::int64_t kS = 1'000'000'000;

// The sum over GPUs of each GPU's last minus first energy counter reading in a series file,
// in joules: what the exporter itself says was used between the first and last scrape.
double seriesEnergyDeltaJ(const QByteArray &series, int *gpus)
{
    std::map<QString, std::pair<double, double>> firstLast;
    for (const QByteArray &line : series.split('\n')) {
        if (line.isEmpty())
            continue;
        const QJsonObject samples = QJsonDocument::fromJson(line).object().value(QStringLiteral("samples")).toObject();
        for (auto it = samples.begin(); it != samples.end(); ++it) {
            if (!it.key().startsWith(QLatin1String(dcgm::kEnergy)))
                continue;
            auto [pos, fresh] = firstLast.try_emplace(it.key(), it.value().toDouble(), it.value().toDouble());
            if (!fresh)
                pos->second.second = it.value().toDouble();
        }
    }
    double j = 0;
    for (const auto &[key, fl] : firstLast)
        j += (fl.second - fl.first) / 1000;
    *gpus = int(firstLast.size());
    return j;
}

double okOutputTokens(const QString &recordsPath)
{
    double tokens = 0;
    for (const QByteArray &line : sbtest::readFile(recordsPath).split('\n')) {
        const QJsonObject r = QJsonDocument::fromJson(line).object();
        if (r.value(QStringLiteral("ok")).toBool())
            tokens += r.value(QStringLiteral("output_tokens")).toDouble();
    }
    return tokens;
}
} // namespace

class TstGpuTelemetry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // Two GPUs on one exporter: energy is the counters' increase (mJ) summed, power and memory
    // add up per scrape, utilisation and SM activity average over the GPUs.
    void counterDeltaSummedOverGpus()
    {
        const QString o = QStringLiteral("http://gpu:9400");
        const std::vector<ScrapePoint> points{
            scrape(o, 0, {{dcgm::kEnergy, {1e9, 2e9}}, {dcgm::kPower, {100, 300}}, {dcgm::kGpuUtil, {0, 50}}, {dcgm::kFbUsed, {1000, 3000}}, {dcgm::kSmActive, {0.2, 0.4}}}),
            scrape(o, 2 * kS, {{dcgm::kEnergy, {1e9 + 400'000, 2e9 + 900'000}}, {dcgm::kPower, {200, 400}}, {dcgm::kGpuUtil, {100, 50}}, {dcgm::kFbUsed, {1000, 5000}}, {dcgm::kSmActive, {0.6, 0.8}}}),
        };
        const GpuTelemetrySummary sum = aggregateGpuTelemetry(points);
        const GpuTelemetryResult &r = sum.result;
        QVERIFY(sum.warnings.isEmpty());
        QCOMPARE(r.gpus, 2);
        QCOMPARE(r.models, QStringList{QStringLiteral("NVIDIA H100 80GB HBM3")});
        QCOMPARE(r.scrapes, 2);
        QCOMPARE(r.windowS, 2.0);
        QCOMPARE(r.energySource, EnergySource::Counter);
        QCOMPARE(r.energyJ, 400.0 + 900.0);
        QCOMPARE(r.powerW.avg, (400.0 + 600.0) / 2);
        QCOMPARE(r.powerW.max, 600.0);
        QCOMPARE(r.memoryUsedMib.max, 6000.0);
        QCOMPARE(r.utilizationPct.avg, (25.0 + 75.0) / 2);
        QCOMPARE(r.utilizationPct.max, 75.0);
        QCOMPARE(r.smActive.avg, (0.3 + 0.7) / 2);
    }

    // A counter that went down restarted (a driver reload): its new reading counts, as with the
    // server metrics' counters.
    void counterRestartCounts()
    {
        const QString o = QStringLiteral("http://gpu:9400");
        const GpuTelemetrySummary sum = aggregateGpuTelemetry({scrape(o, 0, {{dcgm::kEnergy, {5000}}}), scrape(o, kS, {{dcgm::kEnergy, {9000}}}),
                                                              scrape(o, 2 * kS, {{dcgm::kEnergy, {3000}}})});
        QCOMPARE(sum.result.energySource, EnergySource::Counter);
        QCOMPARE(sum.result.energyJ, (4000.0 + 3000.0) / 1000);
    }

    // Without the energy counter (an exporter configured without it), power integrated over the
    // scrapes by trapezoids, summed over GPUs and exporters, and a warning that says so.
    void withoutCounterPowerIsIntegrated()
    {
        const QString a = QStringLiteral("http://gpu-a:9400"), b = QStringLiteral("http://gpu-b:9400");
        const GpuTelemetrySummary sum = aggregateGpuTelemetry({scrape(a, 0, {{dcgm::kPower, {100}}}), scrape(b, kS / 2, {{dcgm::kPower, {50}}}),
                                                              scrape(a, 2 * kS, {{dcgm::kPower, {300}}}), scrape(b, 3 * kS / 2, {{dcgm::kPower, {50}}})});
        QCOMPARE(sum.result.gpus, 2);
        QCOMPARE(sum.result.energySource, EnergySource::PowerIntegral);
        QCOMPARE(sum.result.energyJ, (100.0 + 300.0) / 2 * 2 + 50.0 * 1);
        QCOMPARE(sum.result.powerW.avg, 200.0 + 50.0); // each exporter's average, added
        QCOMPARE(sum.warnings.size(), 1);
        QVERIFY(sum.warnings.first().contains(QLatin1String("power gauge integrated")));
        QVERIFY(sum.warnings.first().contains(QLatin1String(dcgm::kEnergy)));
    }

    // A counter that stood still while its GPU drew power comes from an exporter collecting
    // less often than the phase lasted: its zero is not the GPU's energy.
    void stillCounterFallsBackToPower()
    {
        const QString o = QStringLiteral("http://gpu:9400");
        const GpuTelemetrySummary sum = aggregateGpuTelemetry({scrape(o, 0, {{dcgm::kEnergy, {7e6}}, {dcgm::kPower, {250}}}),
                                                              scrape(o, 4 * kS, {{dcgm::kEnergy, {7e6}}, {dcgm::kPower, {250}}})});
        QCOMPARE(sum.result.energySource, EnergySource::PowerIntegral);
        QCOMPARE(sum.result.energyJ, 1000.0);
        QVERIFY(sum.warnings.value(0).contains(QLatin1String("did not move")));
    }

    // The only readings are of the fields it does not know, or one scrape: no energy, said.
    void noEnergyWithoutTwoReadings()
    {
        const QString o = QStringLiteral("http://gpu:9400");
        const GpuTelemetrySummary sum = aggregateGpuTelemetry({scrape(o, 0, {{dcgm::kPower, {250}}})});
        QCOMPARE(sum.result.energySource, EnergySource::None);
        QVERIFY(std::isnan(sum.result.energyJ));
        QVERIFY(sum.warnings.value(0).startsWith(QLatin1String("no GPU energy")));
        const GpuTelemetrySummary empty = aggregateGpuTelemetry({});
        QCOMPARE(empty.result.gpus, 0);
        QVERIFY(empty.warnings.isEmpty());
    }

    // Energy per token and per request, and cost per million tokens, by hand: a 90 s phase at
    // $2.50 per GPU-hour on 8 GPUs costs 2.5 × 8 × 90 / 3600 = $0.50; 1000 requests of 512 input
    // and 128 output tokens make $0.50 / 512,000 × 1e6 = $0.9765625 per million input tokens and
    // $3.90625 per million output tokens. 6400 J over them: 0.05 J per output token, 6.4 J a request.
    void perTokenFiguresByHand()
    {
        CellResult c;
        c.durationS = 90;
        c.completed = 1000;
        MetricStats isl, osl;
        isl.count = osl.count = 1000;
        isl.avg = 512;
        osl.avg = 128;
        c.metrics.insert(tag::inputLength, isl);
        c.metrics.insert(tag::outputLength, osl);
        for (const QString &key : {tag::costPerMillionInput, tag::costPerMillionOutput, tag::energyPerOutputToken, tag::gpuPower})
            QVERIFY2(std::isnan(cellValue(c, key, Stat::Avg)), qPrintable(key)); // neither cost nor telemetry yet
        c.cost = CellCost{2.5, 8};
        QCOMPARE(cellValue(c, tag::costPerMillionInput, Stat::Avg), 0.9765625);
        QCOMPARE(cellValue(c, tag::costPerMillionOutput, Stat::Avg), 3.90625);
        QVERIFY(std::isnan(cellValue(c, tag::costPerMillionOutput, Stat::P99)));
        GpuTelemetryResult t;
        t.energyJ = 6400;
        t.energySource = EnergySource::Counter;
        t.powerW = {700, 950};
        c.gpuTelemetry = t;
        QCOMPARE(cellValue(c, tag::energyPerOutputToken, Stat::Avg), 0.05);
        QCOMPARE(cellValue(c, tag::energyPerRequest, Stat::Avg), 6.4);
        QCOMPARE(cellValue(c, tag::gpuPower, Stat::Max), 950.0);
        QVERIFY(std::isnan(cellValue(c, tag::gpuUtilization, Stat::Avg))); // no utilisation was scraped
        // Catalogued, so every view lists them; the regression gate knows which way is better.
        QCOMPARE(findMetric(tag::energyPerOutputToken)->better, Better::Lower);
        QVERIFY(findMetric(tag::costPerMillionOutput)->costOnly);
        QVERIFY(findMetric(tag::gpuPower)->telemetryOnly);
        QCOMPARE(metricCsvHeader(*findMetric(tag::costPerMillionOutput), Stat::Avg), QStringLiteral("cost_per_million_output_tokens_usd_Mtok"));
        QCOMPARE(metricCsvHeader(*findMetric(tag::gpuUtilization), Stat::Max), QStringLiteral("gpu_utilization_max_pct"));
    }

    // results.json keeps the telemetry and the cost, and reads them back as they were.
    void resultsRoundTrip()
    {
        CellResult c;
        GpuTelemetryResult t;
        t.series = QStringLiteral("cells/000-a-c1/gpu_telemetry.jsonl");
        t.exporters = {QStringLiteral("http://gpu:9400/metrics")};
        t.scrapes = 7;
        t.failedScrapes = 1;
        t.windowS = 3.25;
        t.gpus = 8;
        t.models = {QStringLiteral("NVIDIA H100 80GB HBM3")};
        t.utilizationPct = {87.5, 100};
        t.smActive = {0.61, 0.75};
        t.memoryUsedMib = {640000, 650000};
        t.powerW = {4000, 5600.5};
        t.energyJ = 13000.125;
        t.energySource = EnergySource::PowerIntegral;
        c.gpuTelemetry = t;
        c.cost = CellCost{2.5, 8};
        const QJsonObject json = toJson(c);
        QCOMPARE(json.value(QStringLiteral("gpu_telemetry")).toObject().value(QStringLiteral("energy_source")).toString(), QStringLiteral("power_integral"));
        const CellResult back = cellResultFromJson(QJsonDocument::fromJson(QJsonDocument(json).toJson()).object());
        QVERIFY(back.gpuTelemetry.has_value());
        QVERIFY(*back.gpuTelemetry == t);
        QVERIFY(back.cost == c.cost);
        // A cell without either writes neither key.
        const QJsonObject plain = toJson(CellResult());
        QVERIFY(!plain.contains(QStringLiteral("gpu_telemetry")) && !plain.contains(QStringLiteral("cost")));
        QVERIFY(!cellResultFromJson(plain).gpuTelemetry && !cellResultFromJson(plain).cost);
    }

    // The whole path: a mock serving requests and, as two GPUs, DCGM-shaped metrics driven by
    // its load; the real engine scrapes them around each measured phase. Energy per output token
    // is the exporter's own energy delta (first to last scrape in the series) over the tokens
    // the records say were produced; cost per million tokens follows the cell's wall time.
    void endToEndAgainstMockExporter()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.dcgmGpus = 2;
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec server = sbtest::serverFor(QStringLiteral("s"), *mock, Flavor::Vllm);
        SweepSpec spec = sbtest::smallSpec({server}, {1, 4}, 24);
        spec.workload.outputTokens = 32;
        spec.telemetry = {TelemetrySpec{mock->url().toString() + QStringLiteral("/dcgm/metrics"), {}}};
        spec.cost = CostSpec{2.5, 8};
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.exitCode, 0);
        for (const CellResult &cell : r.results.cells) {
            QCOMPARE(cell.status, CellStatus::Completed);
            QVERIFY(cell.gpuTelemetry.has_value());
            const GpuTelemetryResult &t = *cell.gpuTelemetry;
            QCOMPARE(t.gpus, 2);
            QCOMPARE(t.models, QStringList{QStringLiteral("NVIDIA H100 80GB HBM3")});
            QCOMPARE(t.energySource, EnergySource::Counter);
            QCOMPARE(t.exporters, QStringList{mock->url().toString() + QStringLiteral("/dcgm/metrics")});
            QCOMPARE(t.series, cell.recordsPath.section(QLatin1Char('/'), 0, -2) + QStringLiteral("/gpu_telemetry.jsonl"));
            QVERIFY(t.scrapes >= 2);
            // Each GPU draws at least its idle power: the window is the phase, a few ms around it.
            QVERIFY(t.powerW.avg >= 2 * MockDcgm::kIdleW);
            QVERIFY(t.energyJ >= 2 * MockDcgm::kIdleW * cell.durationS * 0.9);
            int seriesGpus = 0;
            const double delta = seriesEnergyDeltaJ(sbtest::readFile(dir.filePath(t.series)), &seriesGpus);
            QCOMPARE(seriesGpus, 2);
            // The summary adds each scrape's increase; the exporter's delta is last minus first.
            const auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); };
            QVERIFY2(near(t.energyJ, delta), qPrintable(QStringLiteral("%1 J vs the series' %2 J").arg(t.energyJ).arg(delta)));
            const double tokens = okOutputTokens(dir.filePath(cell.recordsPath));
            QCOMPARE(tokens, 24.0 * 32);
            QVERIFY(near(cellValue(cell, tag::energyPerOutputToken, Stat::Avg), delta / tokens));
            QVERIFY(near(cellValue(cell, tag::energyPerRequest, Stat::Avg), delta / 24));
            QVERIFY(cell.cost == (CellCost{2.5, 8}));
            QCOMPARE(cellValue(cell, tag::costPerMillionOutput, Stat::Avg), 2.5 * 8 * cell.durationS / 3600 / tokens * 1e6);
        }
        // More load, more sequences in the batch: more power.
        QVERIFY(r.results.cells.at(1).gpuTelemetry->powerW.max > r.results.cells.at(0).gpuTelemetry->powerW.max);

        // On disk and back, and shown where result sets are read.
        SweepResults onDisk;
        QVERIFY2(ResultsStore::readResults(dir.path(), &onDisk, &error), qPrintable(error));
        QVERIFY(onDisk.cells.at(0).gpuTelemetry == r.results.cells.at(0).gpuTelemetry);
        const QString summary = formatSummaryTable(onDisk);
        QVERIFY2(summary.contains(QLatin1String("J/tok")) && summary.contains(QLatin1String("$/M out")), qPrintable(summary));
        QVERIFY(resultsCsv(onDisk).contains("energy_per_output_token_J_token"));
    }

    // An exporter without DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION: the cell's energy is its power
    // integrated over the phase, and the cell says so.
    void endToEndPowerIntegral()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.dcgmGpus = 1;
        cfg.dcgmEnergyCounter = false;
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = sbtest::smallSpec({sbtest::serverFor(QStringLiteral("s"), *mock, Flavor::Vllm)}, {2}, 16);
        spec.servers[0].telemetry = QList<TelemetrySpec>{{mock->url().toString() + QStringLiteral("/dcgm/metrics"), {}}};
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QVERIFY(cell.gpuTelemetry.has_value());
        QCOMPARE(cell.gpuTelemetry->energySource, EnergySource::PowerIntegral);
        QVERIFY(cell.gpuTelemetry->energyJ > 0);
        QVERIFY(std::any_of(cell.warnings.cbegin(), cell.warnings.cend(), [](const QString &w) { return w.contains(QLatin1String("power gauge integrated")); }));
        QVERIFY(!cell.cost); // no cost named, none stored
    }

    // An exporter that is not there (the mock without GPUs answers 404): one warning in the
    // first cell, no telemetry, the cells measured as usual; a server's `telemetry: []` turns the
    // top level's off for it.
    void missingExporterWarnsOnce()
    {
        QString error;
        auto mock = MockServer::start(mockDefaults(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec a = sbtest::serverFor(QStringLiteral("a"), *mock, Flavor::Vllm);
        ServerSpec b = sbtest::serverFor(QStringLiteral("b"), *mock, Flavor::Vllm);
        b.telemetry = QList<TelemetrySpec>();
        SweepSpec spec = sbtest::smallSpec({a, b}, {1, 2}, 4);
        spec.telemetry = {TelemetrySpec{mock->url().toString() + QStringLiteral("/dcgm/metrics"), {}}};
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.results.cells.size(), 4);
        int warned = 0;
        for (const CellResult &c : r.results.cells) {
            QCOMPARE(c.status, CellStatus::Completed);
            QVERIFY(!c.gpuTelemetry);
            warned += int(std::count_if(c.warnings.cbegin(), c.warnings.cend(), [](const QString &w) { return w.startsWith(QLatin1String("no GPU telemetry")); }));
        }
        QCOMPARE(warned, 1);
        QVERIFY(r.results.cells.at(0).warnings.join(QLatin1Char('\n')).contains(QLatin1String("HTTP 404")));
    }

    // An exporter behind a token: the header goes with every scrape, and the token is a secret
    // like a server's — nowhere in the series, results.json or the stored sweep.yaml, even when
    // the exporter echoes it in a label.
    void exporterCredentialsAreSecrets()
    {
        static const QByteArray kToken = "dcgm-token-0123456789abcdef";
        std::atomic<int> authorized{0}, refused{0};
        hostile::Server server([&](hostile::Conn &c) {
            while (true) {
                const QByteArray req = c.readRequest();
                if (req.isEmpty())
                    return;
                QByteArray answer;
                if (req.startsWith("GET /dcgm/metrics")) {
                    const QByteArray auth = hostile::headerValue(req, "Authorization");
                    if (auth == "Bearer " + kToken) {
                        ++authorized;
                        answer = hostile::textResponse("# TYPE DCGM_FI_DEV_POWER_USAGE gauge\nDCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-1\",seen=\"" + auth
                                                       + "\"} 300\n");
                    } else {
                        ++refused;
                        answer = "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n";
                    }
                } else {
                    answer = hostile::sseResponse(hostile::sseBody(4));
                }
                if (!c.write(answer))
                    return;
            }
        });
        SweepSpec spec = sbtest::smallSpec({sbtest::serverAt(QString::fromLatin1(server.url()), QStringLiteral("echo"))}, {1}, 4);
        spec.telemetry = {TelemetrySpec{QString::fromLatin1(server.url()) + QStringLiteral("/dcgm/metrics"),
                                        {{QStringLiteral("Authorization"), QStringLiteral("Bearer ") + QString::fromLatin1(kToken)}}}};
        QVERIFY(SecretSet::fromSpec(spec).values().contains(QString::fromLatin1(kToken)));
        QTemporaryDir dir;
        const auto r = sbtest::runSweep(spec, dir.path());
        const CellResult &cell = r.results.cells.at(0);
        QVERIFY(cell.gpuTelemetry.has_value());
        QVERIFY(authorized >= 2);
        QCOMPARE(refused.load(), 0);
        QCOMPARE(cell.gpuTelemetry->powerW.max, 300.0);
        const QByteArray series = sbtest::readFile(dir.filePath(cell.gpuTelemetry->series));
        QVERIFY(series.contains("[redacted]"));
        for (const QString &file : {cell.gpuTelemetry->series, QStringLiteral("results.json"), QStringLiteral("sweep.yaml")}) {
            const QByteArray text = sbtest::readFile(dir.filePath(file));
            QVERIFY2(!text.isEmpty(), qPrintable(file));
            QVERIFY2(!text.contains(kToken), qPrintable(file));
        }
    }
};

QTEST_GUILESS_MAIN(TstGpuTelemetry)
#include "tst_gpu_telemetry.moc"
