#include "import/VllmImport.h"
#include "import/ImportCommon.h"
#include "metrics/Stats.h"
#include "metrics/MetricCatalogue.h"
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
struct Rename {
    const char *vllm;
    const QString &tag; // the catalogue's key (vLLM's own name where SweepBench has none)
};
const QString kTotalIsl = QStringLiteral("total_isl");
const QString kTotalOsl = QStringLiteral("total_osl");
// Percentile-metric groups: mean_<g>_ms, median_<g>_ms, std_<g>_ms, p<N>_<g>_ms.
const Rename kGroups[] = {
    {"ttft", tag::ttft},
    {"tpot", tag::itl},
    {"itl", tag::interChunk},
    {"e2el", tag::latency},
};
// Single values (throughputs and totals).
const Rename kScalars[] = {
    {"request_throughput", tag::requestThroughput},
    {"output_throughput", tag::outputThroughput},
    {"request_goodput", tag::goodput},
    {"total_token_throughput", kTotalTokenThroughput},
    {"total_input_tokens", kTotalIsl},
    {"total_output_tokens", kTotalOsl},
};
// Keys that are not metrics (configuration, counters we store elsewhere, per-request arrays).
const char *const kNotMetrics[] = {"date", "endpoint_type", "backend", "label", "model_id", "tokenizer_id", "num_prompts",
                                   "request_rate", "burstiness", "max_concurrency", "duration", "completed", "failed",
                                   "ramp_up_strategy", "ramp_up_start_rps", "ramp_up_end_rps"};

QString unitFor(const QString &tag)
{
    if (tag == tag::requestThroughput || tag == tag::goodput)
        return QStringLiteral("requests/sec");
    if (tag.endsWith(QLatin1String("throughput")) || tag == QLatin1String("max_output_tokens_per_s"))
        return QStringLiteral("tokens/sec");
    if (tag.startsWith(QLatin1String("total_")))
        return QStringLiteral("tokens");
    return QString();
}

QString tagForGroup(const QString &group)
{
    for (const auto &g : kGroups)
        if (group == QLatin1String(g.vllm))
            return g.tag;
    return group; // client_queue_time, e2el_including_client_queue, ...: kept as named
}

// A stat part our MetricStats holds (mean, median, std, p1 ... p99); other percentiles (p99.9)
// stay scalars under their own key.
bool isKnownStat(const QString &stat)
{
    MetricStats probe;
    return setNamedStat(&probe, stat, 0);
}
} // namespace

bool looksLikeVllmResult(const QJsonObject &o)
{
    return o.contains(QStringLiteral("completed")) && o.contains(QStringLiteral("request_throughput"))
        && (o.contains(QStringLiteral("backend")) || o.contains(QStringLiteral("endpoint_type")) || o.contains(QStringLiteral("mean_e2el_ms"))
            || o.contains(QStringLiteral("mean_ttft_ms")));
}

CellResult vllmCell(const QJsonObject &o)
{
    CellResult c;
    const QString label = o.value(QStringLiteral("label")).toString();
    c.server = !label.isEmpty() ? label : o.value(QStringLiteral("model_id")).toString();
    if (c.server.isEmpty())
        c.server = QStringLiteral("vllm-bench");
    c.concurrency = o.value(QStringLiteral("max_concurrency")).toInt(0);
    if (c.concurrency == 0) // null: unbounded; every prompt may be in flight at once
        c.warnings.append(QStringLiteral("max_concurrency was not set (unbounded)"));
    c.completed = o.value(QStringLiteral("completed")).toInt();
    c.failed = o.value(QStringLiteral("failed")).toInt();
    c.durationS = o.value(QStringLiteral("duration")).toDouble();
    c.status = CellStatus::Completed;
    c.tokenSource = TokenSource::Counted;
    c.startedAt = QDateTime::fromString(o.value(QStringLiteral("date")).toString(), QStringLiteral("yyyyMMdd-HHmmss"));
    if (o.value(QStringLiteral("max_concurrent_requests")).isDouble())
        c.maxInFlight = o.value(QStringLiteral("max_concurrent_requests")).toInt();

    static const QRegularExpression grouped(QStringLiteral("^(mean|median|std|p[0-9.]+)_(.+)_ms$"));
    QMap<QString, MetricStats> groups;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = it.key();
        if (!it.value().isDouble())
            continue; // arrays of per-request values, strings, nulls (request_goodput without SLOs)
        if (std::any_of(std::begin(kNotMetrics), std::end(kNotMetrics), [&](const char *k) { return key == QLatin1String(k); }))
            continue;
        const double v = it.value().toDouble();
        const auto m = grouped.match(key);
        if (m.hasMatch() && isKnownStat(m.captured(1))) {
            const QString tag = tagForGroup(m.captured(2));
            if (!groups.contains(tag))
                groups.insert(tag, emptyMetricStats(unit::ms));
            setNamedStat(&groups[tag], m.captured(1), v);
            continue;
        }
        QString tag = key;
        for (const auto &s : kScalars)
            if (key == QLatin1String(s.vllm))
                tag = s.tag;
        c.metrics.insert(tag, singleValue(v, unitFor(tag)));
    }
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        it->count = c.completed;
        c.metrics.insert(it.key(), it.value());
    }
    return c;
}

bool loadVllmResults(const QString &path, LoadedResults *out, QString *error)
{
    const QFileInfo info(path);
    QStringList files;
    if (info.isDir()) {
        for (const QFileInfo &f : QDir(path).entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::NoSymLinks, QDir::Name))
            files.append(f.filePath());
    } else {
        files.append(path);
    }
    SweepResults r;
    r.toolName = QStringLiteral("vllm bench serve");
    r.sourceTool = QStringLiteral("vllm-bench");
    r.sweepName = info.completeBaseName();
    for (const QString &file : files) {
        QJsonObject o;
        if (!readJsonObject(file, &o, error))
            return false;
        if (!looksLikeVllmResult(o)) {
            if (info.isDir())
                continue; // a folder may hold other JSON too
            *error = QStringLiteral("%1 is not a vLLM bench serve result").arg(QDir::toNativeSeparators(file));
            return false;
        }
        if (r.sourceCommand.isEmpty()) // no command line in the file: the settings every point shares
            r.sourceCommand = importedSettings({{QStringLiteral("backend"), o.value(QStringLiteral("backend")).toVariant().toString()},
                                                {QStringLiteral("model"), o.value(QStringLiteral("model_id")).toVariant().toString()},
                                                {QStringLiteral("num_prompts"), o.value(QStringLiteral("num_prompts")).toVariant().toString()},
                                                {QStringLiteral("burstiness"), o.value(QStringLiteral("burstiness")).toVariant().toString()}});
        CellResult c = vllmCell(o);
        c.reason = QFileInfo(file).fileName();
        r.cells.append(c);
    }
    if (r.cells.isEmpty()) {
        *error = QStringLiteral("%1 holds no vLLM bench serve results").arg(QDir::toNativeSeparators(path));
        return false;
    }
    std::stable_sort(r.cells.begin(), r.cells.end(), [](const CellResult &a, const CellResult &b) {
        return a.server != b.server ? a.server < b.server : a.concurrency < b.concurrency;
    });
    for (int i = 0; i < r.cells.size(); ++i) {
        r.cells[i].index = i;
        const QDateTime t = r.cells[i].startedAt;
        if (t.isValid() && (!r.startedAt.isValid() || t < r.startedAt))
            r.startedAt = t;
    }
    out->results = r;
    out->folder = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
    out->displayName = info.fileName();
    return true;
}

} // namespace sb
