#include "import/GuidellmImport.h"
#include "import/ImportCommon.h"
#include "metrics/Stats.h"
#include "metrics/MetricCatalogue.h"
#include <QDir>
#include <QFileInfo>
#include <QTimeZone>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {

struct Mapped {
    const char *key;
    const QString &tag;
    const QString &unit;
    double scale; // GuideLLM's unit -> ours (request_latency is in seconds)
};
// Distributions over the successful requests.
const Mapped kDistributions[] = {
    {"time_to_first_token_ms", tag::ttft, unit::ms, 1},
    {"inter_token_latency_ms", tag::itl, unit::ms, 1},
    {"request_latency", tag::latency, unit::ms, 1000},
    {"prompt_token_count", tag::inputLength, unit::tokens, 1},
    {"output_token_count", tag::outputLength, unit::tokens, 1},
};
// Rates: GuideLLM reports a distribution over the run; its summary table shows the mean.
const Mapped kRates[] = {
    {"requests_per_second", tag::requestThroughput, unit::requestsPerS, 1},
    {"output_tokens_per_second", tag::outputThroughput, unit::tokensPerS, 1},
    {"tokens_per_second", kTotalTokenThroughput, unit::tokensPerS, 1},
};
// Read into cell fields rather than metrics.
const char *const kCellFields[] = {"request_totals", "request_concurrency"};
constexpr int kMaxToolWarnings = 20;
constexpr int kMaxKeptMetrics = 200; // distributions kept under GuideLLM's own names, per cell (0.8.1 has about 15)

// GuideLLM's percentile keys: p001 is the 0.1th, p01 the 1st, p999 the 99.9th.
const std::pair<const char *, int> kPercentiles[] = {{"p01", 1},  {"p05", 5},  {"p10", 10}, {"p25", 25}, {"p50", 50},
                                                     {"p75", 75}, {"p90", 90}, {"p95", 95}, {"p99", 99}};

// {mean, median, std_dev, min, max, count, percentiles{...}} -> our stats, times `scale`.
bool readDistribution(const ImportSource &src, const QJsonValue &v, const QString &path, const QString &unit, double scale,
                      MetricStats *out)
{
    QJsonObject d;
    if (!importObject(src, v, path, &d))
        return false;
    *out = emptyMetricStats(unit);
    const std::pair<const char *, double *> plain[] = {
        {"mean", &out->avg}, {"median", &out->p50}, {"std_dev", &out->std}, {"min", &out->min}, {"max", &out->max}};
    for (const auto &[key, field] : plain) {
        if (!importNumber(src, d.value(QLatin1String(key)), path + QLatin1Char('.') + QLatin1String(key), field))
            return false;
        *field *= scale;
    }
    double count = 0;
    if (!importNumber(src, d.value(QStringLiteral("count")), path + QStringLiteral(".count"), &count))
        return false;
    out->count = importCount(count);
    if (d.value(QStringLiteral("percentiles")).isNull() || !d.contains(QStringLiteral("percentiles")))
        return true;
    QJsonObject pct;
    if (!importObject(src, d.value(QStringLiteral("percentiles")), path + QStringLiteral(".percentiles"), &pct))
        return false;
    for (const auto &[key, n] : kPercentiles) {
        double x = 0;
        if (!importNumber(src, pct.value(QLatin1String(key)), path + QStringLiteral(".percentiles.") + QLatin1String(key), &x, true))
            return false;
        setNamedStat(out, QStringLiteral("p%1").arg(n), x * scale);
    }
    return true;
}

// metrics.<key>.successful: the distribution over successful requests.
bool readSuccessful(const ImportSource &src, const QJsonObject &metrics, const QString &where, const QString &key,
                    const QString &unit, double scale, MetricStats *out)
{
    const QString path = where + QLatin1Char('.') + key;
    QJsonObject byStatus;
    if (!importObject(src, metrics.value(key), path, &byStatus))
        return false;
    return readDistribution(src, byStatus.value(QStringLiteral("successful")), path + QStringLiteral(".successful"), unit, scale, out);
}

bool isStatusDistribution(const QJsonValue &v)
{
    return v.toObject().value(QStringLiteral("successful")).toObject().contains(QStringLiteral("mean"));
}

QDateTime epochTime(const QJsonValue &v)
{
    const double s = v.toDouble(std::nan(""));
    return std::isfinite(s) && s > 0 && s < 1e11 ? QDateTime::fromMSecsSinceEpoch(qint64(s * 1000), QTimeZone::utc()) : QDateTime();
}

// The load point of one benchmark (config.strategy).
void readStrategy(const QJsonObject &strategy, CellResult *c)
{
    const QString type = strategy.value(QStringLiteral("type_")).toString();
    const int maxConcurrency = strategy.value(QStringLiteral("max_concurrency")).toInt(0);
    if (type == QLatin1String("concurrent")) {
        c->concurrency = strategy.value(QStringLiteral("streams")).toInt(maxConcurrency);
    } else if (type == QLatin1String("synchronous")) {
        c->concurrency = 1;
    } else if (type == QLatin1String("throughput")) {
        c->concurrency = maxConcurrency;
    } else if (strategy.value(QStringLiteral("rate")).isDouble()) { // constant, poisson, async
        OpenLoopResult open;
        open.targetRate = strategy.value(QStringLiteral("rate")).toDouble();
        open.arrival = type == QLatin1String("poisson") ? QStringLiteral("poisson") : QStringLiteral("constant");
        open.maxConcurrency = maxConcurrency;
        c->openLoop = open;
        c->concurrency = maxConcurrency;
    } else {
        c->warnings.append(QStringLiteral("guidellm strategy \"%1\" has no concurrency or rate SweepBench can show").arg(type.left(80)));
    }
}

bool readBenchmark(const ImportSource &src, const QJsonValue &v, int index, const QJsonObject &backend, CellResult *c)
{
    const QString where = QStringLiteral("benchmarks[%1]").arg(index);
    QJsonObject bench, config, metrics, totals;
    if (!importObject(src, v, where, &bench) || !importObject(src, bench.value(QStringLiteral("config")), where + QStringLiteral(".config"), &config)
        || !importObject(src, bench.value(QStringLiteral("metrics")), where + QStringLiteral(".metrics"), &metrics)
        || !importObject(src, metrics.value(QStringLiteral("request_totals")), where + QStringLiteral(".metrics.request_totals"), &totals))
        return false;
    readStrategy(config.value(QStringLiteral("strategy")).toObject(), c);

    double ok = 0, errored = 0, incomplete = 0, duration = 0;
    const QString t = where + QStringLiteral(".metrics.request_totals.");
    if (!importNumber(src, totals.value(QStringLiteral("successful")), t + QStringLiteral("successful"), &ok)
        || !importNumber(src, totals.value(QStringLiteral("errored")), t + QStringLiteral("errored"), &errored)
        || !importNumber(src, totals.value(QStringLiteral("incomplete")), t + QStringLiteral("incomplete"), &incomplete, true)
        || !importNumber(src, bench.value(QStringLiteral("duration")), where + QStringLiteral(".duration"), &duration))
        return false;
    c->completed = importCount(ok);
    c->failed = importCount(errored);
    c->errorRate = c->completed + c->failed > 0 ? double(c->failed) / (double(c->completed) + c->failed) : 0;
    c->durationS = std::isfinite(duration) ? duration : 0;
    if (const int n = importCount(incomplete); n > 0)
        c->warnings.append(QStringLiteral("%1 request(s) incomplete: cancelled when the benchmark ended").arg(n));
    if (c->failed > 0) {
        const QString kind = QStringLiteral("error");
        c->errors.insert(kind, c->failed);
        const QJsonArray samples = bench.value(QStringLiteral("requests")).toObject().value(QStringLiteral("errored")).toArray();
        const QString sample = samples.isEmpty() ? QString()
                                                 : samples.first().toObject().value(QStringLiteral("info")).toObject().value(QStringLiteral("error")).toString();
        if (!sample.isEmpty())
            c->errorSamples.insert(kind, sample.left(300));
    }
    c->startedAt = epochTime(bench.value(QStringLiteral("start_time")));
    c->finishedAt = epochTime(bench.value(QStringLiteral("end_time")));
    c->status = CellStatus::Completed;
    c->tokenSource = config.value(QStringLiteral("prefer_response_metrics")).toBool(true) ? TokenSource::Usage : TokenSource::Counted;
    const QString model = backend.value(QStringLiteral("model")).toString();
    c->server = model.isEmpty() ? QStringLiteral("guidellm") : QDir::isAbsolutePath(model) ? QFileInfo(model).fileName() : model.left(200);
    c->origin = backend.value(QStringLiteral("target")).toString().left(300);

    const QString m = where + QStringLiteral(".metrics");
    for (const Mapped &d : kDistributions) {
        MetricStats s;
        if (!readSuccessful(src, metrics, m, QLatin1String(d.key), d.unit, d.scale, &s))
            return false;
        s.count = c->completed; // GuideLLM counts tokens for token-weighted ones (ITL: 11 per 12-token answer)
        c->metrics.insert(d.tag, s);
    }
    for (const Mapped &r : kRates) {
        MetricStats s;
        if (!readSuccessful(src, metrics, m, QLatin1String(r.key), r.unit, r.scale, &s))
            return false;
        MetricStats single = singleValue(s.avg, r.unit);
        single.count = s.count;
        c->metrics.insert(r.tag, single);
    }
    if (isStatusDistribution(metrics.value(QStringLiteral("request_concurrency")))) {
        MetricStats inFlight;
        if (!readSuccessful(src, metrics, m, QStringLiteral("request_concurrency"), QString(), 1, &inFlight))
            return false;
        c->meanInFlight = std::isfinite(inFlight.avg) ? inFlight.avg : 0;
        c->maxInFlight = importCount(inFlight.max);
    }

    // Everything else: distributions kept under their own names, all of it listed.
    QStringList unmapped;
    for (auto it = metrics.begin(); it != metrics.end(); ++it) {
        const QString key = it.key();
        const auto known = [&](const char *k) { return key == QLatin1String(k); };
        if (it.value().isNull() || std::any_of(std::begin(kCellFields), std::end(kCellFields), known)
            || std::any_of(std::begin(kDistributions), std::end(kDistributions), [&](const Mapped &d) { return known(d.key); })
            || std::any_of(std::begin(kRates), std::end(kRates), [&](const Mapped &d) { return known(d.key); }))
            continue;
        unmapped.append(key);
        if (isStatusDistribution(it.value()) && c->metrics.size() < kMaxKeptMetrics) {
            MetricStats s;
            const QString unit = key.endsWith(QLatin1String("_ms")) ? unit::ms : QString();
            if (readSuccessful(src, metrics, m, key, unit, 1, &s))
                c->metrics.insert(key, s);
        }
    }
    noteUnmappedFields(c, QStringLiteral("guidellm"), unmapped);

    const QJsonArray warnings = bench.value(QStringLiteral("warnings")).toArray();
    for (int i = 0; i < warnings.size() && i < kMaxToolWarnings; ++i) {
        const QString text = warnings.at(i).toObject().value(QStringLiteral("message")).toString();
        if (!text.isEmpty())
            c->warnings.append(QStringLiteral("guidellm: %1").arg(text.left(300)));
    }
    c->reason = QStringLiteral("%1@%2").arg(config.value(QStringLiteral("strategy")).toObject().value(QStringLiteral("type_")).toString().left(40))
                    .arg(c->openLoop ? c->openLoop->targetRate : c->concurrency);
    return true;
}
} // namespace

bool looksLikeGuidellmReport(const QJsonObject &o)
{
    if (!o.value(QStringLiteral("benchmarks")).isArray())
        return false;
    if (o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("guidellm_version")).isString())
        return true;
    const QJsonArray b = o.value(QStringLiteral("benchmarks")).toArray();
    return !b.isEmpty() && b.first().toObject().value(QStringLiteral("type_")).toString() == QLatin1String("generative_benchmark");
}

bool loadGuidellmReport(const QString &file, LoadedResults *out, QString *error)
{
    QJsonObject o;
    if (!readJsonObject(file, &o, error))
        return false;
    const ImportSource src{QDir::toNativeSeparators(file), error};
    if (!looksLikeGuidellmReport(o)) {
        *error = QStringLiteral("%1 is not a GuideLLM benchmarks report (expected \"benchmarks\" and metadata.guidellm_version)").arg(src.file);
        return false;
    }
    QJsonArray benchmarks;
    if (!importArray(src, o.value(QStringLiteral("benchmarks")), QStringLiteral("benchmarks"), &benchmarks))
        return false;
    if (benchmarks.isEmpty() || benchmarks.size() > kMaxResultsCells) {
        *error = QStringLiteral("%1: %2 benchmarks (expected 1 to %3)").arg(src.file).arg(benchmarks.size()).arg(kMaxResultsCells);
        return false;
    }
    const QJsonObject backend = o.value(QStringLiteral("config")).toObject().value(QStringLiteral("spec")).toObject().value(QStringLiteral("backend")).toObject();
    SweepResults r;
    r.toolName = QStringLiteral("guidellm");
    r.sourceTool = QStringLiteral("guidellm");
    r.toolVersion = o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("guidellm_version")).toString().left(40);
    r.sweepName = QFileInfo(file).completeBaseName();
    // guidellm keeps no command line: the backend it was pointed at says what it measured.
    r.sourceCommand = importedSettings({{QStringLiteral("backend"), backend.value(QStringLiteral("kind")).toString()},
                                        {QStringLiteral("target"), backend.value(QStringLiteral("target")).toString()},
                                        {QStringLiteral("model"), backend.value(QStringLiteral("model")).toString()},
                                        {QStringLiteral("request_format"), backend.value(QStringLiteral("request_format")).toString()}});
    r.host.os = o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("platform")).toString().left(200);
    for (int i = 0; i < benchmarks.size(); ++i) {
        CellResult c;
        if (!readBenchmark(src, benchmarks.at(i), i, backend, &c))
            return false;
        r.cells.append(c);
    }
    publishImport(out, std::move(r), QFileInfo(file).absolutePath(), QFileInfo(file).fileName());
    return true;
}

} // namespace sb
