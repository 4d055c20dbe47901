#include "results/CellCheck.h"
#include "results/CellStatus.h"
#include "results/Results.h"
#include "results/ResultsStore.h"
#include <QJsonArray>
#include <cmath>
#include <limits>

namespace sb {

namespace {
constexpr double kIntMax = std::numeric_limits<int>::max();
constexpr double kHuge = 1e15; // a rate, a time in ms, a share: far above anything measured, below overflow
const char *const kStatKeys[] = {"avg", "min", "max", "std", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"};

// The offending value as the file holds it, short.
QString shown(const QJsonValue &v)
{
    if (v.isString())
        return QLatin1Char('"') + v.toString().left(60) + (v.toString().size() > 60 ? QStringLiteral("…\"") : QStringLiteral("\""));
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 17);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isNull())
        return QStringLiteral("null");
    return v.isArray() ? QStringLiteral("an array") : QStringLiteral("an object");
}

class Check
{
public:
    explicit Check(QString where) : m_where(std::move(where)) {}
    QStringList problems;

    void problem(const QString &key, const QString &expected, const QJsonValue &got)
    {
        problems.append(QStringLiteral("%1: %2: expected %3, got %4").arg(m_where, key, expected, shown(got)));
    }
    void string(const QJsonObject &o, const QString &path, const char *key, bool required = false)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if ((v.isUndefined() && required) || (!v.isUndefined() && !v.isString()) || (required && v.toString().isEmpty()))
            problem(path + QLatin1String(key), required ? QStringLiteral("a non-empty string") : QStringLiteral("a string"), v);
    }
    void boolean(const QJsonObject &o, const QString &path, const char *key)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isBool())
            problem(path + QLatin1String(key), QStringLiteral("true or false"), v);
    }
    // A number within [min, max] (`below`: max itself excluded); null when `nullOk`.
    void number(const QJsonObject &o, const QString &path, const QString &key, double min, double max, bool below = false, bool nullOk = false)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || (nullOk && v.isNull()))
            return;
        const double d = v.toDouble(std::numeric_limits<double>::quiet_NaN());
        if (!v.isDouble() || !std::isfinite(d) || d < min || d > max || (below && d >= max))
            problem(path + key, QStringLiteral("a number from %1 to %2%3").arg(min).arg(below ? QStringLiteral("under ") : QString()).arg(max), v);
    }
    void count(const QJsonObject &o, const QString &path, const QString &key, double min = 0, double max = kIntMax)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return;
        const double d = v.toDouble(std::numeric_limits<double>::quiet_NaN());
        if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d) || d < min || d > max)
            problem(path + key, QStringLiteral("a whole number from %1 to %2").arg(min).arg(max, 0, 'f', 0), v);
    }
    // The member as an object (empty when absent or of another type, which is then a problem).
    QJsonObject object(const QJsonObject &o, const QString &path, const char *key)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isObject())
            problem(path + QLatin1String(key), QStringLiteral("an object"), v);
        return v.toObject();
    }
    QJsonArray array(const QJsonObject &o, const QString &path, const char *key)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isArray())
            problem(path + QLatin1String(key), QStringLiteral("an array"), v);
        return v.toArray();
    }
    void strings(const QJsonObject &o, const QString &path, const char *key)
    {
        const QJsonArray a = array(o, path, key);
        for (qsizetype i = 0; i < a.size(); ++i)
            if (!a[i].isString())
                problem(QStringLiteral("%1%2[%3]").arg(path, QLatin1String(key)).arg(i), QStringLiteral("a string"), a[i]);
    }
    // `f(item, "name[i].")` for each item of the array that is an object; any other is a problem.
    template <typename F>
    void eachObject(const QJsonArray &a, const char *name, F &&f)
    {
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString at = QStringLiteral("%1[%2]").arg(QLatin1String(name)).arg(i);
            if (a[i].isObject())
                f(a[i].toObject(), at + QLatin1Char('.'));
            else
                problem(at, QStringLiteral("an object"), a[i]);
        }
    }
    // A path that must name a file inside the results folder (results/ResultsStore.h).
    void cellFile(const QJsonObject &o, const QString &path, const char *key, const QString &fileName)
    {
        string(o, path, key);
        const QString p = o.value(QLatin1String(key)).toString();
        if (!p.isEmpty() && !ResultsStore::isCellFilePath(p, fileName))
            problem(path + QLatin1String(key), QStringLiteral("cells/<cell folder>/%1 inside the results folder").arg(fileName), o.value(QLatin1String(key)));
    }

private:
    QString m_where;
};

void checkRequests(Check &c, const QJsonObject &req)
{
    const QString at = QStringLiteral("requests.");
    for (const char *key : {"completed", "failed", "reconnects", "resent", "unsolicited_responses"})
        c.count(req, at, QLatin1String(key));
    const QJsonObject errors = c.object(req, at, "errors");
    for (auto it = errors.begin(); it != errors.end(); ++it)
        c.count(errors, at + QStringLiteral("errors."), it.key());
    const QJsonObject samples = c.object(req, at, "error_samples");
    for (auto it = samples.begin(); it != samples.end(); ++it)
        if (!it.value().isString())
            c.problem(at + QStringLiteral("error_samples.") + it.key(), QStringLiteral("a string"), it.value());
}

void checkMetrics(Check &c, const QJsonObject &metrics)
{
    for (auto it = metrics.begin(); it != metrics.end(); ++it) {
        const QString at = QStringLiteral("metrics.%1.").arg(it.key());
        if (!it.value().isObject()) {
            c.problem(QStringLiteral("metrics.") + it.key(), QStringLiteral("an object"), it.value());
            continue;
        }
        const QJsonObject m = it.value().toObject();
        c.string(m, at, "unit");
        for (const char *stat : kStatKeys) // NaN (no value) is written as null
            c.number(m, at, QLatin1String(stat), -kHuge, kHuge, false, true);
        c.count(m, at, QStringLiteral("count"), 0, 9e15);
    }
}

void checkHooks(Check &c, const QJsonArray &hooks)
{
    c.eachObject(hooks, "hooks", [&c](const QJsonObject &h, const QString &at) {
        for (const char *key : {"hook", "origin", "method", "path", "verdict", "message", "placement", "at", "cache_proof", "metrics_verdict"})
            c.string(h, at, key);
        c.count(h, at, QStringLiteral("status"), 0, 999);
        c.boolean(h, at, "ok");
        c.count(h, at, QStringLiteral("attempts"));
        c.number(h, at, QStringLiteral("latency_ms"), 0, kHuge);
        c.count(h, at, QStringLiteral("metrics_cached_tokens"), -1, 9e15);
    });
}

void checkSlices(Check &c, const QJsonArray &slices)
{
    if (slices.size() > kMaxTimeSlices) {
        c.problem(QStringLiteral("time_slices"), QStringLiteral("at most %1 slices").arg(kMaxTimeSlices),
                  QJsonValue(QStringLiteral("%1 slices").arg(slices.size())));
        return;
    }
    c.eachObject(slices, "time_slices", [&c](const QJsonObject &s, const QString &at) {
        for (auto it = s.begin(); it != s.end(); ++it) // a slice without a TTFT has null there
            c.number(s, at, it.key(), -1, kHuge, false, true);
    });
}
} // namespace

QStringList storedCellProblems(const QJsonObject &cell, int position)
{
    const QString server = cell.value(QStringLiteral("server")).toString().left(60);
    QString where = QStringLiteral("cells[%1]").arg(position);
    if (!server.isEmpty())
        where += QStringLiteral(" (%1)").arg(server);
    Check c(where);
    const QString top;
    c.count(cell, top, QStringLiteral("index"), 0, kMaxResultsCells);
    c.string(cell, top, "server", true);
    c.string(cell, top, "origin");
    c.count(cell, top, QStringLiteral("concurrency"));
    c.count(cell, top, QStringLiteral("repeat"));
    c.string(cell, top, "status", true);
    if (const QJsonValue s = cell.value(QStringLiteral("status")); s.isString() && !s.toString().isEmpty() && !cellStatusFromString(s.toString()))
        c.problem(QStringLiteral("status"), QStringLiteral("pending, completed, degraded, failed, skipped or cancelled"), s);
    c.string(cell, top, "reason");
    c.number(cell, top, QStringLiteral("error_rate"), 0, 1);
    checkRequests(c, c.object(cell, top, "requests"));
    c.count(cell, top, QStringLiteral("max_in_flight"));
    c.number(cell, top, QStringLiteral("mean_in_flight"), 0, kIntMax);
    c.number(cell, top, QStringLiteral("steady_mean_in_flight"), -1, kIntMax);
    c.number(cell, top, QStringLiteral("duration_s"), 0, kMaxCellSeconds, true);
    c.string(cell, top, "token_source");
    c.number(cell, top, QStringLiteral("client_cpu_max"), 0, kHuge);
    c.number(cell, top, QStringLiteral("client_wait_max"), 0, kHuge);
    c.number(cell, top, QStringLiteral("host_steal_ms"), -1, kHuge);
    checkMetrics(c, c.object(cell, top, "metrics"));
    checkHooks(c, c.array(cell, top, "hooks"));
    c.strings(cell, top, "traces");
    c.strings(cell, top, "warnings");
    c.cellFile(cell, top, "records", QStringLiteral("records.jsonl"));
    c.string(cell, top, "started_at");
    c.string(cell, top, "finished_at");
    c.number(cell, top, QStringLiteral("request_rate"), 0, kHuge, false, true);
    c.boolean(cell, top, "slo_search");
    checkSlices(c, c.array(cell, top, "time_slices"));
    c.object(cell, top, "open_loop");
    c.object(cell, top, "server_metrics");
    c.object(cell, top, "trace_summary");
    c.cellFile(c.object(cell, top, "server_scrape"), QStringLiteral("server_scrape."), "series", QStringLiteral("server_metrics.jsonl"));
    const QJsonObject gpu = c.object(cell, top, "gpu_telemetry");
    const QString gpuAt = QStringLiteral("gpu_telemetry.");
    c.cellFile(gpu, gpuAt, "series", QStringLiteral("gpu_telemetry.jsonl"));
    c.string(gpu, gpuAt, "source");
    c.strings(gpu, gpuAt, "exporters");
    c.strings(gpu, gpuAt, "models");
    for (const char *key : {"scrapes", "failed_scrapes", "gpus"})
        c.count(gpu, gpuAt, QString::fromLatin1(key));
    c.number(gpu, gpuAt, QStringLiteral("window_s"), 0, kMaxCellSeconds, false, true);
    c.number(gpu, gpuAt, QStringLiteral("energy_j"), 0, kHuge, false, true);
    c.string(gpu, gpuAt, "energy_source");
    for (const char *key : {"gpu_util_pct", "sm_active", "memory_used_mib", "power_w"}) {
        const QJsonObject g = c.object(gpu, gpuAt, key);
        for (const char *stat : {"avg", "max"})
            c.number(g, gpuAt + QLatin1String(key) + QLatin1Char('.'), QString::fromLatin1(stat), 0, kHuge, false, true);
    }
    const QJsonObject cost = c.object(cell, top, "cost");
    c.number(cost, QStringLiteral("cost."), QStringLiteral("gpu_hour"), 0, kHuge);
    c.count(cost, QStringLiteral("cost."), QStringLiteral("gpus"));
    const QJsonObject window = c.object(cell, top, "profiler_window");
    const QString windowAt = QStringLiteral("profiler_window.");
    for (const char *key : {"stop_s", "settle_s"})
        c.number(window, windowAt, QString::fromLatin1(key), 0, kHuge);
    for (const char *key : {"settled", "traces_complete"})
        c.boolean(window, windowAt, key);
    c.string(window, windowAt, "why");
    return c.problems;
}

} // namespace sb
