// Open-loop rate points with the real engine over real loopback sockets against the
// embedded mock: every request is sent by the seeded schedule (scheduled_ns in records.jsonl is
// exactly ArrivalSchedule's offset; no send is early), the max_concurrency cap holds
// at the server and makes a client queue that is recorded apart and never reaches TTFT, and
// results.json carries request_rate and the open-loop figures. The statistics of the schedule
// itself are tst_arrival_schedule's.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "load/ArrivalSchedule.h"
#include "results/ResultsStore.h"
#include "results/SweepAxis.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>

using namespace sb;
using namespace sbtest;

namespace {

QList<QJsonObject> recordsOf(const QString &outDir, const CellResult &cell)
{
    QFile f(outDir + QLatin1Char('/') + cell.recordsPath);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QJsonObject> out;
    for (const QByteArray &line : f.readAll().trimmed().split('\n'))
        out.append(QJsonDocument::fromJson(line).object());
    std::sort(out.begin(), out.end(), [](const QJsonObject &a, const QJsonObject &b) { return a.value("i").toInt() < b.value("i").toInt(); });
    return out;
}

struct Gaps {
    double mean = 0, cv = 0;
};
Gaps gapsOf(const QList<QJsonObject> &records, const char *key)
{
    std::vector<double> gaps;
    for (int i = 1; i < records.size(); ++i)
        gaps.push_back((records[i].value(key).toDouble() - records[i - 1].value(key).toDouble()) / 1e9);
    Gaps g;
    if (gaps.empty())
        return g;
    double sum = 0, sum2 = 0;
    for (double x : gaps)
        sum += x, sum2 += x * x;
    g.mean = sum / double(gaps.size());
    g.cv = std::sqrt(std::max(0.0, sum2 / double(gaps.size()) - g.mean * g.mean)) / g.mean;
    return g;
}

// A mock far from saturation at 32 req/s: prefill 0.1 ms a token (timedMock's 1.25 ms a token
// serves only about 20 prompts a second, so 32 req/s would queue at the server by design).
MockConfig lightMock()
{
    MockConfig c = timedMock(Flavor::Vllm);
    c.prefillPerTokenMs = 0.1;
    return c;
}

SweepSpec rateSpec(const MockServer &mock, const QList<double> &rates, Arrival arrival)
{
    SweepSpec spec = smallSpec({serverFor("vllm", mock, Flavor::Vllm)}, {}, 0);
    spec.concurrency.clear();
    spec.openLoop.rates = rates;
    spec.openLoop.arrival = arrival;
    spec.openLoop.seed = 11;
    spec.openLoop.maxConcurrency = 64;
    return spec;
}

} // namespace

class TstOpenLoop : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void poissonPointsSendBySchedule()
    {
        QString error;
        auto mock = MockServer::start(lightMock(), &error);
        QVERIFY2(mock, qPrintable(error));
        const QList<double> rates{2, 8, 32};
        SweepSpec spec = rateSpec(*mock, rates, Arrival::Poisson);
        spec.workload.requestsPerCell = 0;
        spec.workload.durationS = 4; // requests due within 4 s of the phase start
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.results.cells.size(), 3);
        QVERIFY(mock->stats().maxInFlight <= 64);
        for (int k = 0; k < 3; ++k) {
            const CellResult &cell = r.results.cells[k];
            const double rate = rates[k];
            QVERIFY(cell.openLoop);
            QCOMPARE(cell.openLoop->targetRate, rate);
            QCOMPARE(cell.recordsPath, QStringLiteral("cells/00%1-vllm-r%2/records.jsonl").arg(k).arg(rate));
            QCOMPARE(cell.status, CellStatus::Completed);
            ArrivalSchedule schedule(Arrival::Poisson, rate, 1.0, 11);
            int due = 0;
            while (schedule.offsetNs(due) < std::int64_t(4e9))
                ++due;
            const QList<QJsonObject> records = recordsOf(out.path(), cell);
            QCOMPARE(records.size(), due); // exactly the requests due within the duration
            QCOMPARE(cell.completed, due);
            for (const QJsonObject &rec : records) {
                const int i = rec.value("i").toInt();
                // The engine sent what the schedule asked for, no later than a slot allowed.
                QCOMPARE(qint64(rec.value("scheduled_ns").toDouble()), schedule.offsetNs(i));
                QCOMPARE(rec.value("queue_ns").toInt(), 0); // 64 slots: nobody waited
                QVERIFY(rec.value("send_ns").toDouble() >= rec.value("scheduled_ns").toDouble());
            }
            // The gaps the records say were asked for are the process's (tst_arrival_schedule checks
            // the process on long schedules; a few dozen gaps here only have to be plausible), and
            // the cell's figures are those of its records. How close the sends came to the schedule
            // is a timing figure: tests/bench/open_loop_bench.cpp prints it, this suite does not
            // assert it (a busy machine delays any thread).
            const Gaps scheduled = gapsOf(records, "scheduled_ns");
            QVERIFY2(scheduled.mean > 0.5 / rate && scheduled.mean < 2.0 / rate, qPrintable(QString::number(scheduled.mean)));
            double lastSend = 0, firstSend = 0;
            for (const QJsonObject &rec : records) {
                const double send = rec.value("send_ns").toDouble();
                firstSend = firstSend > 0 ? std::min(firstSend, send) : send;
                lastSend = std::max(lastSend, send);
            }
            const double achieved = (records.size() - 1) / ((lastSend - firstSend) / 1e9);
            QVERIFY2(std::abs(cell.openLoop->achievedRate / achieved - 1) < 1e-9, qPrintable(QString::number(achieved)));
            QVERIFY(cell.openLoop->lagP50Ms >= 0 && cell.openLoop->lagP99Ms >= cell.openLoop->lagP50Ms);
            QVERIFY(!cell.openLoop->capHit);
            QCOMPARE(cell.openLoop->queued, 0);
            QCOMPARE(cell.openLoop->arrival, QStringLiteral("poisson"));
        }
        // results.json on disk says the same; the axis is the request rate.
        SweepResults disk;
        QVERIFY(ResultsStore::readResults(out.path(), &disk, &error));
        QVERIFY(axisOf(disk) == SweepAxis::RequestRate);
        QCOMPARE(disk.cells[1].openLoop->targetRate, 8.0);
        QCOMPARE(disk.cells[1].openLoop->maxConcurrency, 64);
        const QJsonObject json = QJsonDocument::fromJson(sbtest::readFile(out.filePath("results.json"))).object();
        const QJsonObject first = json.value("cells").toArray().first().toObject();
        QCOMPARE(first.value("request_rate").toDouble(), 2.0);
        for (const char *k : {"achieved_rate", "schedule_lag_ms", "queue_ms", "cap_hit", "queued_requests"})
            QVERIFY2(first.value("open_loop").toObject().contains(QLatin1String(k)), k);
        // Time slices (1 s) cover the 4 s phase and count every sent request once.
        const QJsonArray slices = first.value("time_slices").toArray();
        QVERIFY2(slices.size() >= 4 && slices.size() <= 6, qPrintable(QString::number(slices.size())));
        int sentInSlices = 0;
        for (const auto &slice : slices)
            sentInSlices += slice.toObject().value("sent").toInt();
        QCOMPARE(sentInSlices, r.results.cells[0].completed);
    }

    void constantRateIsRegular()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = rateSpec(*mock, {8}, Arrival::Constant);
        spec.workload.requestsPerCell = 24;
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> records = recordsOf(out.path(), r.results.cells.first());
        QCOMPARE(records.size(), 24);
        for (const QJsonObject &rec : records)
            QCOMPARE(qint64(rec.value("scheduled_ns").toDouble()), qint64(std::llround(rec.value("i").toInt() * 0.125 * 1e9)));
        const Gaps scheduled = gapsOf(records, "scheduled_ns");
        QVERIFY2(scheduled.cv < 0.05, qPrintable(QStringLiteral("CV %1").arg(scheduled.cv)));
        QVERIFY2(std::abs(scheduled.mean / 0.125 - 1) < 1e-6, qPrintable(QStringLiteral("mean %1 s").arg(scheduled.mean)));
        for (const QJsonObject &rec : records) // sent at or after its time, never before
            QVERIFY(rec.value("send_ns").toDouble() >= rec.value("scheduled_ns").toDouble());
    }

    // rate_mean: exact: the engine hands the schedule the phase's length, so the scheduled
    // offsets of a cell's N requests span exactly (N - 1) / R, and results.json says so; the
    // sampled default keeps the draw's own mean (here off by more than 1 %).
    void exactRateMeanSchedulesTheTargetRate()
    {
        QString error;
        auto mock = MockServer::start(lightMock(), &error);
        QVERIFY2(mock, qPrintable(error));
        for (RateMean mean : {RateMean::Sampled, RateMean::Exact}) {
            SweepSpec spec = rateSpec(*mock, {40}, Arrival::Poisson);
            spec.openLoop.rateMean = mean;
            spec.workload.requestsPerCell = 40;
            QTemporaryDir out;
            const RunResult r = runSweep(spec, out.path());
            QCOMPARE(r.exitCode, 0);
            const QList<QJsonObject> records = recordsOf(out.path(), r.results.cells.first());
            QCOMPARE(records.size(), 40);
            const double spanS = (records.last().value("scheduled_ns").toDouble() - records.first().value("scheduled_ns").toDouble()) / 1e9;
            const double scheduledRate = 39 / spanS;
            if (mean == RateMean::Exact)
                QVERIFY2(std::abs(scheduledRate / 40 - 1) < 1e-6, qPrintable(QString::number(scheduledRate)));
            else
                QVERIFY2(std::abs(scheduledRate / 40 - 1) > 0.01, qPrintable(QString::number(scheduledRate)));
            const QJsonObject json = QJsonDocument::fromJson(sbtest::readFile(out.filePath("results.json"))).object();
            const QJsonObject openLoop = json.value("cells").toArray().first().toObject().value("open_loop").toObject();
            QCOMPARE(openLoop.value("rate_mean").toString(QStringLiteral("sampled")), toString(mean));
            SweepResults disk;
            QVERIFY(ResultsStore::readResults(out.path(), &disk, &error));
            QCOMPARE(disk.cells.first().openLoop->rateMean, toString(mean));
        }
    }

    // arrival: trace replays the dataset's own timestamps, scaled so the point's rate is the
    // trace's mean rate: at twice the trace's rate every gap is halved, bursts and lulls kept;
    // past the last entry the trace starts over one mean gap after its end.
    void traceArrivalsReplayTheDatasetTimestamps()
    {
        const QString trace = qEnvironmentVariable("SWEEPBENCH_SOURCE_DIR") + QStringLiteral("/resources/datasets/mooncake.jsonl");
        const std::vector<double> ts{0, 120, 250, 400, 560, 700, 910, 1100}; // the sample's timestamps, ms
        const double own = 7 / 1.1;                                           // (entries - 1) / span
        QVERIFY(std::abs(ArrivalSchedule::traceRate(ts) - own) < 1e-9);
        QString error;
        auto mock = MockServer::start(lightMock(), &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = rateSpec(*mock, {2 * own}, Arrival::Trace);
        spec.workload.dataset = DatasetSpec{DatasetFormat::Mooncake, trace, 16};
        spec.workload.calibratePrompts = false;
        spec.workload.requestsPerCell = 10;
        spec.workload.outputTokens = 4;
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.exitCode, 0);
        const CellResult &cell = r.results.cells.first();
        QVERIFY(cell.openLoop);
        QCOMPARE(cell.openLoop->arrival, QStringLiteral("trace"));
        QVERIFY2(std::abs(cell.openLoop->traceSpeed - 2) < 1e-9, qPrintable(QString::number(cell.openLoop->traceSpeed)));
        const QList<QJsonObject> records = recordsOf(out.path(), cell);
        QCOMPARE(records.size(), 10);
        const double cycleMs = 1100 / 2.0 + 1000 / (2 * own);
        for (const QJsonObject &rec : records) {
            const int i = rec.value("i").toInt();
            const double expectMs = (i / 8) * cycleMs + ts[std::size_t(i % 8)] / 2;
            QVERIFY2(std::abs(rec.value("scheduled_ns").toDouble() / 1e6 - expectMs) < 1e-3,
                     qPrintable(QStringLiteral("request %1 due at %2 ms, expected %3").arg(i).arg(rec.value("scheduled_ns").toDouble() / 1e6).arg(expectMs)));
            QVERIFY(rec.value("send_ns").toDouble() >= rec.value("scheduled_ns").toDouble());
        }
        QVERIFY(readFile(out.filePath(QStringLiteral("results.json"))).contains("\"trace_speed\""));

        // A trace that cannot pace a replay stops the run before anything is written, naming why.
        QTemporaryDir bad;
        const auto refuse = [&](const QByteArray &lines, const QString &why) {
            QFile f(bad.filePath(QStringLiteral("t.jsonl")));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(lines) == lines.size());
            f.close();
            SweepSpec s = spec;
            s.workload.dataset->path = f.fileName();
            const QString folder = bad.filePath(QStringLiteral("out"));
            const RunResult rr = runSweep(s, folder);
            QCOMPARE(rr.exitCode, exitcode::kCannotStart);
            QVERIFY2(rr.failure.contains(why), qPrintable(rr.failure));
            QVERIFY(!QFile::exists(folder + QStringLiteral("/results.json")));
        };
        refuse("{\"input_length\": 10, \"output_length\": 2, \"hash_ids\": [1]}\n{\"timestamp\": 5, \"input_length\": 10, \"output_length\": 2, \"hash_ids\": [2]}\n",
               QStringLiteral("not every entry has a \"timestamp\""));
        refuse("{\"timestamp\": 50, \"input_length\": 10, \"output_length\": 2, \"hash_ids\": [1]}\n{\"timestamp\": 5, \"input_length\": 10, \"output_length\": 2, \"hash_ids\": [2]}\n",
               QStringLiteral("line 2: timestamp 5 ms comes before the previous entry's 50 ms"));
        refuse("{\"timestamp\": 5, \"input_length\": 10, \"output_length\": 2, \"hash_ids\": [1]}\n{\"timestamp\": 5, \"input_length\": 10, \"output_length\": 2, \"hash_ids\": [2]}\n",
               QStringLiteral("at least 2 entries at different times"));
    }

    // JSONL entries with `timestamp` (ms) replay as a mooncake trace's do; a JSONL file without
    // them is refused for trace arrival, naming why.
    void traceArrivalsReplayJsonlTimestamps()
    {
        QString error;
        auto mock = MockServer::start(lightMock(), &error);
        QVERIFY2(mock, qPrintable(error));
        QTemporaryDir dir;
        const auto run = [&](const QByteArray &lines, const QString &out) {
            QFile f(dir.filePath(QStringLiteral("t.jsonl")));
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(lines) != lines.size() || !f.flush())
                return RunResult{};
            SweepSpec spec = rateSpec(*mock, {10}, Arrival::Trace); // the trace's own rate is 2 / 0.4 s: replayed at twice its speed
            spec.workload.dataset = DatasetSpec{DatasetFormat::Jsonl, f.fileName(), 512};
            spec.workload.calibratePrompts = false;
            spec.workload.requestsPerCell = 3;
            spec.workload.outputTokens = 4;
            return runSweep(spec, dir.filePath(out));
        };
        const RunResult r = run("{\"text\": \"one\", \"timestamp\": 5000}\n{\"text\": \"two\", \"timestamp\": 5100}\n"
                                "{\"text\": \"three\", \"timestamp\": 5400}\n",
                                QStringLiteral("replay"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.failure));
        const QList<QJsonObject> records = recordsOf(dir.filePath(QStringLiteral("replay")), r.results.cells.first());
        QCOMPARE(records.size(), 3);
        const double dueMs[] = {0, 50, 200};
        for (const QJsonObject &rec : records)
            QVERIFY2(std::abs(rec.value("scheduled_ns").toDouble() / 1e6 - dueMs[rec.value("i").toInt()]) < 1e-3,
                     qPrintable(QStringLiteral("request %1 due at %2 ms").arg(rec.value("i").toInt()).arg(rec.value("scheduled_ns").toDouble() / 1e6)));

        const RunResult refused = run("{\"text\": \"one\"}\n{\"text\": \"two\"}\n", QStringLiteral("refused"));
        QCOMPARE(refused.exitCode, exitcode::kCannotStart);
        QVERIFY2(refused.failure.contains(QStringLiteral("not every entry has a \"timestamp\"")), qPrintable(refused.failure));
    }

    void capQueuesOutsideTtft()
    {
        // The mock answers in 50 ms + 7 x 10 ms: two slots serve about 16 requests/s, so 40 req/s
        // must queue in the client, and the server never sees more than two at once.
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = rateSpec(*mock, {40}, Arrival::Constant);
        spec.openLoop.maxConcurrency = 2;
        spec.workload.requestsPerCell = 40;
        QTemporaryDir out;
        const RunResult r = runSweep(spec, out.path());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(mock->stats().maxInFlight, 2);
        const CellResult &cell = r.results.cells.first();
        QCOMPARE(cell.concurrency, 2);
        QVERIFY(cell.openLoop->capHit);
        QVERIFY(cell.openLoop->queued > 20);
        QVERIFY2(cell.warnings.join('\n').contains(QStringLiteral("max_concurrency 2 was reached")), qPrintable(cell.warnings.join('\n')));
        // The queue grows to most of a second; the server's TTFT stays its own 50 ms.
        const QList<QJsonObject> records = recordsOf(out.path(), cell);
        QCOMPARE(records.size(), 40);
        double maxQueueMs = 0;
        for (const QJsonObject &rec : records) {
            maxQueueMs = std::max(maxQueueMs, rec.value("queue_ns").toDouble() / 1e6);
            QVERIFY2(rec.value("ttft_ms").toDouble() < 50 + 100, qPrintable(QString::fromUtf8(QJsonDocument(rec).toJson(QJsonDocument::Compact))));
        }
        QVERIFY2(maxQueueMs > 500, qPrintable(QString::number(maxQueueMs)));
        QCOMPARE(cell.openLoop->queueMaxMs, maxQueueMs);
        QVERIFY(cell.metrics["time_to_first_token"].max < 150);
    }

    void resumeKeepsOnlyCellsWithTheSameArrivals()
    {
        QString error;
        auto mock = MockServer::start(lightMock(), &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = rateSpec(*mock, {16}, Arrival::Poisson);
        spec.workload.requestsPerCell = 8;
        QTemporaryDir out;
        const RunResult first = runSweep(spec, out.path());
        QCOMPARE(first.exitCode, 0);
        const QDateTime measuredAt = first.results.cells.first().startedAt;
        const RunResult same = runSweep(spec, out.path(), /*resume=*/true);
        QCOMPARE(same.results.cells.first().startedAt, measuredAt); // kept
        spec.openLoop.seed = 12; // another schedule: the cell is measured again
        const RunResult other = runSweep(spec, out.path(), /*resume=*/true);
        QCOMPARE(other.exitCode, 0);
        QVERIFY(other.results.cells.first().startedAt != measuredAt);
        QCOMPARE(other.results.cells.first().openLoop->seed, 12);

        // Repeats: run k draws its arrivals with seed + k (and says so).
        spec.repeats = 2;
        QTemporaryDir rep;
        const RunResult runs = runSweep(spec, rep.path());
        QCOMPARE(runs.exitCode, 0);
        QCOMPARE(runs.results.cells[0].openLoop->seed, 12);
        QCOMPARE(runs.results.cells[1].openLoop->seed, 13);
        const QList<QJsonObject> second = recordsOf(rep.path(), runs.results.cells[1]);
        ArrivalSchedule seed13(Arrival::Poisson, 16, 1.0, 13);
        for (const QJsonObject &rec : second)
            QCOMPARE(qint64(rec.value("scheduled_ns").toDouble()), seed13.offsetNs(rec.value("i").toInt()));
    }

    void closedLoopCellsHaveNoRate()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        QTemporaryDir out;
        const RunResult r = runSweep(smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {2}, 4), out.path());
        QCOMPARE(r.exitCode, 0);
        const QJsonObject cell = QJsonDocument::fromJson(sbtest::readFile(out.filePath("results.json"))).object().value("cells").toArray().first().toObject();
        QVERIFY(cell.contains("request_rate") && cell.value("request_rate").isNull());
        QVERIFY(!cell.contains("open_loop"));
        const QList<QJsonObject> records = recordsOf(out.path(), r.results.cells.first());
        QVERIFY(!records.first().contains("scheduled_ns") && !records.first().contains("queue_ns"));
    }
};

QTEST_GUILESS_MAIN(TstOpenLoop)
#include "tst_open_loop.moc"
