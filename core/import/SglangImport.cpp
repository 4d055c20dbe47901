#include "import/SglangImport.h"
#include "import/ImportCommon.h"
#include "metrics/Stats.h"
#include "io/BoundedRead.h"
#include "io/LineReader.h"
#include "metrics/MetricCatalogue.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {

struct Mapped {
    const char *key;
    const QString &tag;
};
// Percentile groups: <stat>_<group>_ms.
const Mapped kGroups[] = {
    {"ttft", tag::ttft},
    {"tpot", tag::itl},
    {"itl", tag::interChunk},
    {"e2e_latency", tag::latency},
};
const Mapped kRates[] = {
    {"request_throughput", tag::requestThroughput},
    {"output_throughput", tag::outputThroughput},
    {"total_throughput", kTotalTokenThroughput},
};
// The run's configuration, and figures read into cell fields.
const char *const kNotMetrics[] = {"tag", "backend", "dataset_name", "request_rate", "max_concurrency", "sharegpt_output_len",
                                   "random_input_len", "random_output_len", "random_range_ratio", "server_info", "duration",
                                   "completed", "concurrency", "max_concurrent_requests", "date", "model_id", "tokenizer_id"};

bool isOneOf(const QString &key, const char *const *begin, const char *const *end)
{
    return std::any_of(begin, end, [&](const char *k) { return key == QLatin1String(k); });
}

QString unitOf(const QString &tag)
{
    if (tag == tag::requestThroughput)
        return unit::requestsPerS;
    return unit::tokensPerS;
}

bool readLine(const ImportSource &src, const QJsonObject &o, CellResult *c)
{
    double completed = 0, duration = 0, maxConcurrency = 0, rate = 0;
    if (!importNumber(src, o.value(QStringLiteral("completed")), QStringLiteral("completed"), &completed)
        || !importNumber(src, o.value(QStringLiteral("duration")), QStringLiteral("duration"), &duration)
        || !importNumber(src, o.value(QStringLiteral("max_concurrency")), QStringLiteral("max_concurrency"), &maxConcurrency, true)
        || !importNumber(src, o.value(QStringLiteral("request_rate")), QStringLiteral("request_rate"), &rate, true))
        return false;
    c->completed = importCount(completed);
    c->durationS = std::isfinite(duration) ? duration : 0;
    c->concurrency = std::isfinite(maxConcurrency) ? importCount(maxConcurrency) : 0;
    if (std::isfinite(rate) && rate > 0) { // null (Infinity in the file): every request at once
        OpenLoopResult open;
        open.targetRate = rate;
        open.arrival = QStringLiteral("poisson"); // bench_serving's default arrival (burstiness 1)
        open.maxConcurrency = c->concurrency;
        c->openLoop = open;
    }
    if (o.value(QStringLiteral("concurrency")).isDouble())
        c->meanInFlight = o.value(QStringLiteral("concurrency")).toDouble();
    if (o.value(QStringLiteral("max_concurrent_requests")).isDouble())
        c->maxInFlight = importCount(o.value(QStringLiteral("max_concurrent_requests")).toDouble());
    const QString label = o.value(QStringLiteral("tag")).toString().left(200);
    c->server = !label.isEmpty() ? label : QStringLiteral("sglang bench_serving");
    c->status = CellStatus::Completed;
    c->tokenSource = TokenSource::Usage;
    c->warnings.append(QStringLiteral("sglang bench_serving writes no count of failed requests"));

    static const QRegularExpression grouped(QStringLiteral("^(mean|median|std|p[0-9.]+)_(.+)_ms$"));
    QMap<QString, MetricStats> groups;
    QStringList unmapped;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = it.key();
        if (isOneOf(key, std::begin(kNotMetrics), std::end(kNotMetrics)) || it.value().isNull())
            continue;
        const auto m = grouped.match(key);
        const auto group = m.hasMatch() ? std::find_if(std::begin(kGroups), std::end(kGroups), [&](const Mapped &g) { return m.captured(2) == QLatin1String(g.key); })
                                        : std::end(kGroups);
        const auto rateIt = std::find_if(std::begin(kRates), std::end(kRates), [&](const Mapped &r) { return key == QLatin1String(r.key); });
        if (group == std::end(kGroups) && rateIt == std::end(kRates)) {
            unmapped.append(key);
            continue;
        }
        double v = 0;
        if (!importNumber(src, it.value(), key, &v))
            return false;
        if (rateIt != std::end(kRates)) {
            c->metrics.insert(rateIt->tag, singleValue(v, unitOf(rateIt->tag)));
            continue;
        }
        if (!groups.contains(group->tag))
            groups.insert(group->tag, emptyMetricStats(unit::ms));
        if (!setNamedStat(&groups[group->tag], m.captured(1), v))
            unmapped.append(key); // p99.9: no such stat here
    }
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        it->count = c->completed;
        c->metrics.insert(it.key(), it.value());
    }
    noteUnmappedFields(c, QStringLiteral("sglang"), unmapped);
    return true;
}
} // namespace

namespace {
// The length of Python's non-finite literal at `i`, or 0.
qsizetype nonFiniteAt(const QByteArray &line, qsizetype i)
{
    for (const char *word : {"-Infinity", "Infinity", "NaN"}) {
        const qsizetype n = qsizetype(qstrlen(word));
        if (line.mid(i, n) == word)
            return n;
    }
    return 0;
}
} // namespace

QByteArray pythonJsonToJson(const QByteArray &line)
{
    QByteArray out;
    out.reserve(line.size());
    bool inString = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const char ch = line.at(i);
        if (inString) {
            out.append(ch);
            if (ch == '\\' && i + 1 < line.size())
                out.append(line.at(++i));
            else if (ch == '"')
                inString = false;
        } else if (const qsizetype n = nonFiniteAt(line, i); n > 0) {
            out.append("null");
            i += n - 1;
        } else {
            inString = ch == '"';
            out.append(ch);
        }
    }
    return out;
}

namespace {
// Reads the file's lines (each within kMaxRecordLineBytes, at most kMaxResultsCells of them),
// calling `take` with each parsed object and its 1-based line number; false with the error of
// the first line that is not a JSON object.
template <typename Take>
bool forEachLine(const QString &path, QString *error, Take take)
{
    if (!checkRegularFile(path, kMaxResultsFileBytes, error))
        return false;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return false;
    }
    LineReader lines(f, kMaxRecordLineBytes, LineReader::TooLong::Stop);
    QByteArray line;
    int number = 0, runs = 0;
    while (lines.next(&line)) {
        ++number;
        if (line.isEmpty())
            continue;
        if (++runs > kMaxResultsCells) {
            *error = QStringLiteral("%1: more than %2 runs").arg(QDir::toNativeSeparators(path)).arg(kMaxResultsCells);
            return false;
        }
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(pythonJsonToJson(line), &pe);
        if (!doc.isObject()) {
            *error = QStringLiteral("%1:%2: not a JSON object (%3)").arg(QDir::toNativeSeparators(path)).arg(number)
                         .arg(pe.error != QJsonParseError::NoError ? pe.errorString() : QStringLiteral("another JSON value"));
            return false;
        }
        if (!take(doc.object(), number))
            return false;
    }
    if (lines.tooLong() > 0) {
        *error = QStringLiteral("%1:%2: a line longer than %3 bytes").arg(QDir::toNativeSeparators(path)).arg(number + 1).arg(kMaxRecordLineBytes);
        return false;
    }
    return true;
}

bool looksLikeSglangLine(const QJsonObject &o)
{
    return o.contains(QStringLiteral("completed")) && o.contains(QStringLiteral("request_throughput"))
        && (o.contains(QStringLiteral("mean_e2e_latency_ms")) || o.contains(QStringLiteral("total_output_tokens_retokenized")));
}
} // namespace

bool looksLikeSglangJsonl(const QString &path)
{
    bool yes = false;
    QString ignored;
    forEachLine(path, &ignored, [&](const QJsonObject &o, int) {
        yes = looksLikeSglangLine(o);
        return false; // the first line decides
    });
    return yes;
}

bool loadSglangJsonl(const QString &path, LoadedResults *out, QString *error)
{
    SweepResults r;
    r.toolName = QStringLiteral("sglang bench_serving");
    r.sourceTool = QStringLiteral("sglang-bench");
    r.sweepName = QFileInfo(path).completeBaseName();
    const bool ok = forEachLine(path, error, [&](const QJsonObject &o, int number) {
        const ImportSource src{QStringLiteral("%1:%2").arg(QDir::toNativeSeparators(path)).arg(number), error};
        if (!looksLikeSglangLine(o)) {
            *error = QStringLiteral("%1: not an sglang bench_serving result (expected completed, request_throughput, "
                                    "mean_e2e_latency_ms)").arg(src.file);
            return false;
        }
        CellResult c;
        if (!readLine(src, o, &c))
            return false;
        if (r.sourceCommand.isEmpty()) // bench_serving keeps its arguments, not its command line
            r.sourceCommand = importedSettings({{QStringLiteral("backend"), o.value(QStringLiteral("backend")).toVariant().toString()},
                                                {QStringLiteral("dataset"), o.value(QStringLiteral("dataset_name")).toVariant().toString()},
                                                {QStringLiteral("random_input_len"), o.value(QStringLiteral("random_input_len")).toVariant().toString()},
                                                {QStringLiteral("random_output_len"), o.value(QStringLiteral("random_output_len")).toVariant().toString()}});
        c.reason = QStringLiteral("line %1").arg(number);
        r.cells.append(c);
        return true;
    });
    if (!ok)
        return false;
    if (r.cells.isEmpty()) {
        *error = QStringLiteral("%1 holds no sglang bench_serving results").arg(QDir::toNativeSeparators(path));
        return false;
    }
    publishImport(out, std::move(r), QFileInfo(path).absolutePath(), QFileInfo(path).fileName());
    return true;
}

} // namespace sb
