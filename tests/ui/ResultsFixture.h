#pragma once
// Synthetic sweep results for GUI and report tests: servers × concurrencies with metrics that are
// simple functions of (server, concurrency), so tests can predict every number, plus hook
// outcomes of every kind, traces and per-request records.
#include "results/Results.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace sbtest {

inline sb::MetricStats latencyStats(double base)
{
    sb::MetricStats s;
    s.unit = QStringLiteral("ms");
    s.count = 100;
    s.avg = base * 1.1;
    s.min = base * 0.5;
    s.max = base * 3;
    s.std = base * 0.2;
    s.p1 = base * 0.55, s.p5 = base * 0.6, s.p10 = base * 0.7, s.p25 = base * 0.85, s.p50 = base;
    s.p75 = base * 1.2, s.p90 = base * 1.5, s.p95 = base * 1.8, s.p99 = base * 2.5;
    return s;
}

inline sb::MetricStats avgOnly(double v, const QString &unit)
{
    sb::MetricStats s;
    s.unit = unit;
    s.avg = v;
    s.onlyAvg = true;
    return s;
}

inline sb::HookOutcome hook(const QString &kind, bool ok, int attempts, int status, const QString &verdict)
{
    sb::HookOutcome h;
    h.hook = *sb::hookKindFromString(kind);
    h.origin = QStringLiteral("http://127.0.0.1:8000");
    h.method = QStringLiteral("POST");
    h.path = kind == QLatin1String("reset_kv_cache") ? QStringLiteral("/reset_prefix_cache")
             : kind == QLatin1String("profiler_start") ? QStringLiteral("/start_profile")
                                                        : QStringLiteral("/stop_profile");
    h.status = status;
    h.ok = ok;
    h.attempts = attempts;
    h.latencyMs = 12.5 * attempts;
    h.verdict = sb::hookVerdictFromString(verdict);
    h.message = ok ? QString() : QStringLiteral("server said no");
    h.at = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);
    return h;
}

// Predictable numbers: TTFT p50 = 10*c + s ms, throughput = 100*c*(s+1) / (1 + c/64) tok/s.
inline double ttftP50(int server, int c) { return 10.0 * c + server; }
inline double throughput(int server, int c) { return 100.0 * c * (server + 1) / (1.0 + c / 64.0); }

inline sb::CellResult makeCell(int index, int server, int concurrency)
{
    sb::CellResult cell;
    cell.index = index;
    cell.server = QStringLiteral("server-%1").arg(QChar(QLatin1Char('a' + server)));
    cell.origin = QStringLiteral("http://127.0.0.1:%1").arg(8000 + server);
    cell.concurrency = concurrency;
    cell.status = sb::CellStatus::Completed;
    cell.completed = 10 * concurrency;
    cell.durationS = 30;
    cell.tokenSource = sb::TokenSource::Usage;
    cell.maxInFlight = concurrency;
    cell.meanInFlight = concurrency * 0.98;
    cell.metrics.insert(QStringLiteral("time_to_first_token"), latencyStats(ttftP50(server, concurrency)));
    cell.metrics.insert(QStringLiteral("inter_token_latency"), latencyStats(5.0 + concurrency * 0.1));
    cell.metrics.insert(QStringLiteral("request_latency"), latencyStats(500.0 + concurrency * 3));
    cell.metrics.insert(QStringLiteral("output_token_throughput"), avgOnly(throughput(server, concurrency), QStringLiteral("tokens/s")));
    cell.metrics.insert(QStringLiteral("request_throughput"), avgOnly(concurrency / 2.0, QStringLiteral("requests/s")));
    cell.recordsPath = QStringLiteral("cells/%1/records.jsonl").arg(index, 3, 10, QLatin1Char('0'));
    return cell;
}

// 3 servers × {1, 4, 16, 64, 256} by default. Hooks: reset ok everywhere (server b needed
// 3 attempts), profiler start ok, profiler stop failed on server c; server a has two traces.
inline sb::SweepResults makeSweepResults(int servers = 3, const QList<int> &concurrencies = {1, 4, 16, 64, 256})
{
    sb::SweepResults r;
    r.sweepName = QStringLiteral("fixture");
    r.toolVersion = QStringLiteral("0.1.0");
    int index = 0;
    for (int s = 0; s < servers; ++s)
        for (int c : concurrencies) {
            sb::CellResult cell = makeCell(index++, s, c);
            cell.hooks << hook(QStringLiteral("reset_kv_cache"), true, s == 1 ? 3 : 1, 200, QStringLiteral("ok"));
            cell.hooks << hook(QStringLiteral("profiler_start"), true, 1, 200, QStringLiteral("ok"));
            if (s == 2)
                cell.hooks << hook(QStringLiteral("profiler_stop"), false, 1, 0, QStringLiteral("timeout"));
            else
                cell.hooks << hook(QStringLiteral("profiler_stop"), true, 1, 200, QStringLiteral("ok"));
            if (s == 0)
                cell.traces << QStringLiteral("/tmp/traces/%1-rank-0.json").arg(index)
                            << QStringLiteral("/tmp/traces/%1-rank-1.json").arg(index);
            r.cells.append(cell);
        }
    return r;
}

// A request-rate sweep: `servers` × `rates` req/s × `repeats` runs, every cell capped at
// max_concurrency 256 (what CellResult::concurrency holds for an open-loop cell). Runs differ by
// ±`noise` (a fraction) so repeats have a confidence interval; server b is 20 % slower on TTFT.
inline sb::SweepResults makeRateSweepResults(int servers = 2, const QList<double> &rates = {2, 8, 16}, int repeats = 2,
                                            double noise = 0.02)
{
    sb::SweepResults r;
    r.sweepName = QStringLiteral("rate-fixture");
    r.toolVersion = QStringLiteral("0.1.0");
    int index = 0;
    for (int s = 0; s < servers; ++s)
        for (double rate : rates)
            for (int run = 0; run < repeats; ++run) {
                sb::CellResult cell = makeCell(index++, s, 256);
                cell.repeat = run;
                sb::OpenLoopResult o;
                o.targetRate = rate;
                o.arrival = QStringLiteral("poisson");
                o.maxConcurrency = 256;
                o.achievedRate = rate;
                cell.openLoop = o;
                const double f = 1.0 + noise * (run - (repeats - 1) / 2.0);
                cell.metrics.insert(QStringLiteral("time_to_first_token"), latencyStats((20.0 + rate) * (1 + 0.2 * s) * f));
                cell.metrics.insert(QStringLiteral("output_token_throughput"),
                                    avgOnly(100.0 * rate * (s + 1) * f, QStringLiteral("tokens/s")));
                cell.metrics.insert(QStringLiteral("request_throughput"), avgOnly(rate * f, QStringLiteral("requests/s")));
                r.cells.append(cell);
            }
    return r;
}

// Writes `n` records to folder/relativePath; request i has ttft = i+1 ms, latency = 10*(i+1) ms,
// itl = 0.5 ms; every 10th request failed (ok=false, no token).
inline bool writeRecords(const QString &folder, const QString &relativePath, int n)
{
    const QString path = QDir(folder).filePath(relativePath);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    for (int i = 0; i < n; ++i) {
        const bool ok = i % 10 != 9;
        QJsonObject o{{QStringLiteral("i"), i},
                      {QStringLiteral("send_ns"), qint64(i) * 1000},
                      {QStringLiteral("first_token_ns"), ok ? qint64(i) * 1000 + 500 : qint64(-1)},
                      {QStringLiteral("end_ns"), qint64(i) * 1000 + 900},
                      {QStringLiteral("ttft_ms"), ok ? QJsonValue(double(i + 1)) : QJsonValue(QJsonValue::Null)},
                      {QStringLiteral("latency_ms"), 10.0 * (i + 1)},
                      {QStringLiteral("itl_ms"), ok ? QJsonValue(0.5) : QJsonValue(QJsonValue::Null)},
                      {QStringLiteral("status"), ok ? 200 : 500},
                      {QStringLiteral("ok"), ok},
                      {QStringLiteral("error_kind"), ok ? QString() : QStringLiteral("http_500")},
                      {QStringLiteral("error"), QString()},
                      {QStringLiteral("input_tokens"), 128},
                      {QStringLiteral("output_tokens"), 64},
                      {QStringLiteral("token_source"), QStringLiteral("usage")},
                      {QStringLiteral("inter_chunk_us"), QJsonArray{400, 500, 600}}};
        f.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
    }
    return true;
}

// A SweepBench results folder (results.json + records) that sb::loadResults opens.
inline bool writeResultsFolder(const QString &folder, const sb::SweepResults &r, int recordsPerCell = 0)
{
    QDir().mkpath(folder);
    QFile f(QDir(folder).filePath(QStringLiteral("results.json")));
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(QJsonDocument(sb::toJson(r)).toJson());
    f.close();
    if (recordsPerCell > 0)
        for (const sb::CellResult &c : r.cells)
            if (!writeRecords(folder, c.recordsPath, recordsPerCell))
                return false;
    return true;
}

} // namespace sbtest
