#include "import/GenaiBenchImport.h"
#include "import/ImportCommon.h"
#include "metrics/Stats.h"
#include "load/RequestRecord.h"
#include "metrics/MetricCatalogue.h"
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
const QString kMetadataFile = QStringLiteral("experiment_metadata.json");

struct Mapped {
    const char *key;
    const QString &tag;
    const QString &unit;
    bool time; // in _time_unit
};
const Mapped kStats[] = {
    {"ttft", tag::ttft, unit::ms, true},
    {"tpot", tag::itl, unit::ms, true},
    {"e2e_latency", tag::latency, unit::ms, true},
    {"num_input_tokens", tag::inputLength, unit::tokens, false},
    {"num_output_tokens", tag::outputLength, unit::tokens, false},
};
const Mapped kRates[] = {
    {"requests_per_second", tag::requestThroughput, unit::requestsPerS, false},
    {"mean_output_throughput_tokens_per_s", tag::outputThroughput, unit::tokensPerS, false},
    {"mean_total_tokens_throughput_tokens_per_s", kTotalTokenThroughput, unit::tokensPerS, false},
};
// Read into cell fields, or configuration.
const char *const kCellFields[] = {"scenario", "num_concurrency", "batch_size", "iteration_type", "run_duration",
                                   "error_codes_frequency", "num_error_requests", "num_completed_requests", "num_requests",
                                   "stats"};

template <size_t N>
bool inTable(const Mapped (&table)[N], const QString &key)
{
    return std::any_of(std::begin(table), std::end(table), [&](const Mapped &m) { return key == QLatin1String(m.key); });
}

QStringList runFiles(const QString &dir)
{
    QStringList out;
    for (const QFileInfo &f : QDir(dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::NoSymLinks, QDir::Name))
        if (f.fileName() != kMetadataFile)
            out.append(f.filePath());
    return out;
}

bool readRun(const ImportSource &src, const QJsonObject &doc, CellResult *c, QString *scenario)
{
    QJsonObject agg, stats;
    if (!importObject(src, doc.value(QStringLiteral("aggregated_metrics")), QStringLiteral("aggregated_metrics"), &agg)
        || !importObject(src, agg.value(QStringLiteral("stats")), QStringLiteral("aggregated_metrics.stats"), &stats))
        return false;
    const QString timeUnit = doc.value(QStringLiteral("_time_unit")).toString(QStringLiteral("s"));
    if (timeUnit != QLatin1String("s") && timeUnit != QLatin1String("ms")) {
        *src.error = QStringLiteral("%1: _time_unit: expected \"s\" or \"ms\", found \"%2\"").arg(src.file, timeUnit.left(20));
        return false;
    }
    const double toMs = timeUnit == QLatin1String("s") ? 1000 : 1;
    const QString a = QStringLiteral("aggregated_metrics.");
    double completed = 0, failed = 0, duration = 0, concurrency = 0;
    if (!importNumber(src, agg.value(QStringLiteral("num_completed_requests")), a + QStringLiteral("num_completed_requests"), &completed)
        || !importNumber(src, agg.value(QStringLiteral("num_error_requests")), a + QStringLiteral("num_error_requests"), &failed)
        || !importNumber(src, agg.value(QStringLiteral("run_duration")), a + QStringLiteral("run_duration"), &duration)
        || !importNumber(src, agg.value(QStringLiteral("num_concurrency")), a + QStringLiteral("num_concurrency"), &concurrency, true))
        return false;
    c->completed = importCount(completed);
    c->failed = importCount(failed);
    c->errorRate = c->completed + c->failed > 0 ? double(c->failed) / (double(c->completed) + c->failed) : 0;
    c->durationS = std::isfinite(duration) ? duration : 0;
    c->concurrency = importCount(concurrency);
    *scenario = agg.value(QStringLiteral("scenario")).toString().left(80);
    const QJsonObject codes = agg.value(QStringLiteral("error_codes_frequency")).toObject();
    for (auto it = codes.begin(); it != codes.end() && c->errors.size() < 100; ++it) {
        bool isCode = false;
        const int code = it.key().toInt(&isCode);
        c->errors[isCode ? errorKey(ErrorKind::Http, code) : it.key().left(80)] += importCount(it.value().toDouble());
    }
    for (const QJsonValue &v : doc.value(QStringLiteral("individual_request_metrics")).toArray()) {
        const QJsonObject r = v.toObject();
        const QString message = r.value(QStringLiteral("error_message")).toString();
        if (message.isEmpty())
            continue;
        const int code = r.value(QStringLiteral("error_code")).toInt();
        const QString kind = code > 0 ? errorKey(ErrorKind::Http, code) : QStringLiteral("error");
        if (!c->errorSamples.contains(kind))
            c->errorSamples.insert(kind, message.left(300));
    }

    for (const Mapped &m : kStats) {
        MetricStats s;
        if (!importFlatStats(src, stats.value(QLatin1String(m.key)), QStringLiteral("aggregated_metrics.stats.") + QLatin1String(m.key), m.unit,
                             m.time ? toMs : 1, &s))
            return false;
        s.count = c->completed;
        c->metrics.insert(m.tag, s);
    }
    for (const Mapped &m : kRates) {
        double v = 0;
        if (!importNumber(src, agg.value(QLatin1String(m.key)), a + QLatin1String(m.key), &v))
            return false;
        c->metrics.insert(m.tag, singleValue(v, m.unit));
    }
    QStringList unmapped;
    for (auto it = stats.begin(); it != stats.end(); ++it)
        if (!inTable(kStats, it.key()) && !it.value().toObject().value(QStringLiteral("mean")).isNull())
            unmapped.append(QStringLiteral("stats.") + it.key());
    for (auto it = agg.begin(); it != agg.end(); ++it) {
        const QString key = it.key();
        if (!inTable(kRates, key) && !std::any_of(std::begin(kCellFields), std::end(kCellFields), [&](const char *k) { return key == QLatin1String(k); }))
            unmapped.append(key);
    }
    noteUnmappedFields(c, QStringLiteral("genai-bench"), unmapped);
    c->status = CellStatus::Completed;
    c->tokenSource = TokenSource::Mixed;
    return true;
}
} // namespace

bool isGenaiBenchFolder(const QString &dir)
{
    return QFileInfo(dir + QLatin1Char('/') + kMetadataFile).isFile();
}

bool loadGenaiBenchFolder(const QString &dir, LoadedResults *out, QString *error)
{
    QJsonObject meta;
    if (!readJsonObject(dir + QLatin1Char('/') + kMetadataFile, &meta, error))
        return false;
    const QStringList files = runFiles(dir);
    if (files.size() > kMaxResultsCells) {
        *error = QStringLiteral("%1: %2 run files (at most %3)").arg(QDir::toNativeSeparators(dir)).arg(files.size()).arg(kMaxResultsCells);
        return false;
    }
    SweepResults r;
    r.toolName = QStringLiteral("genai-bench");
    r.sourceTool = QStringLiteral("genai-bench");
    r.toolVersion = meta.value(QStringLiteral("benchmark_version")).toString().left(40);
    r.sourceCommand = importedCommand(meta.value(QStringLiteral("cmd")).toString());
    r.sweepName = QFileInfo(dir).fileName();
    QString model = meta.value(QStringLiteral("api_model_name")).toString().left(200);
    if (model.isEmpty())
        model = QStringLiteral("genai-bench");
    const QString origin = meta.value(QStringLiteral("api_base")).toString().left(300);
    QStringList scenarios;
    for (const QString &file : files) {
        QJsonObject doc;
        if (!readJsonObject(file, &doc, error))
            return false;
        if (!doc.contains(QStringLiteral("aggregated_metrics")))
            continue; // a folder may hold other JSON too
        CellResult c;
        QString scenario;
        if (!readRun(ImportSource{QDir::toNativeSeparators(file), error}, doc, &c, &scenario))
            return false;
        c.server = model;
        c.origin = origin;
        c.reason = QFileInfo(file).fileName();
        scenarios.append(scenario);
        r.cells.append(c);
    }
    if (r.cells.isEmpty()) {
        *error = QStringLiteral("%1 holds no genai-bench runs (JSON files with aggregated_metrics)").arg(QDir::toNativeSeparators(dir));
        return false;
    }
    // Several traffic scenarios: one series each, so a point's cells are not mixed up.
    if (QSet<QString>(scenarios.begin(), scenarios.end()).size() > 1)
        for (int i = 0; i < r.cells.size(); ++i)
            r.cells[i].server = QStringLiteral("%1 %2").arg(model, scenarios[i]);
    publishImport(out, std::move(r), QFileInfo(dir).absoluteFilePath(), QFileInfo(dir).fileName());
    return true;
}

} // namespace sb
