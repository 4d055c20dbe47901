#include "import/InferencePerfImport.h"
#include "import/ImportCommon.h"
#include "metrics/Stats.h"
#include "io/BoundedRead.h"
#include "load/RequestRecord.h"
#include "metrics/MetricCatalogue.h"
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
const QString kNtpot = QStringLiteral("normalized_time_per_output_token");
constexpr int kMaxStages = kMaxResultsCells;

const QRegularExpression &stageFileName()
{
    // A report_file_prefix may come first.
    static const QRegularExpression re(QStringLiteral("^(.*)stage_(\\d{1,6})_lifecycle_metrics\\.json$"));
    return re;
}

QStringList stageFiles(const QString &dir)
{
    QStringList out;
    const auto files = QDir(dir).entryInfoList({QStringLiteral("*lifecycle_metrics.json")}, QDir::Files | QDir::NoSymLinks, QDir::Name);
    for (const QFileInfo &f : files)
        if (stageFileName().match(f.fileName()).hasMatch())
            out.append(f.filePath());
    std::sort(out.begin(), out.end(), [](const QString &a, const QString &b) {
        return stageFileName().match(QFileInfo(a).fileName()).captured(2).toInt() < stageFileName().match(QFileInfo(b).fileName()).captured(2).toInt();
    });
    return out;
}

QString summaryFile(const QString &dir)
{
    const auto files = QDir(dir).entryInfoList({QStringLiteral("*summary_lifecycle_metrics.json")}, QDir::Files | QDir::NoSymLinks, QDir::Name);
    return files.isEmpty() ? QString() : files.first().filePath();
}

// server.model_name from the config.yaml inference-perf writes beside its reports; "inference-perf"
// without one. A regular expression on at most 1 MiB rather than a YAML parse of a file anyone
// may have written.
QString modelName(const QString &dir)
{
    QByteArray text;
    QString ignored;
    if (!readRegularFile(dir + QStringLiteral("/config.yaml"), 1024 * 1024, &text, &ignored))
        return QStringLiteral("inference-perf");
    static const QRegularExpression re(QStringLiteral("(?m)^server:[ \\t]*\\n(?:[ \\t]+.*\\n)*?[ \\t]+model_name:[ \\t]*['\"]?([^'\"\\s]{1,200})"));
    const auto m = re.match(QString::fromUtf8(text));
    return m.hasMatch() && m.captured(1) != QLatin1String("null") ? m.captured(1) : QStringLiteral("inference-perf");
}

struct Mapped {
    const char *key;
    const QString &tag;
    const QString &unit;
    double scale;
};
const Mapped kLatencies[] = {
    {"time_to_first_token", tag::ttft, unit::ms, 1000},
    {"time_per_output_token", tag::itl, unit::ms, 1000},
    {"request_latency", tag::latency, unit::ms, 1000},
    {"normalized_time_per_output_token", kNtpot, unit::ms, 1000},
};
const Mapped kTokens[] = {
    {"prompt_tokens", tag::inputLength, unit::tokens, 1},
    {"output_tokens", tag::outputLength, unit::tokens, 1},
};
const Mapped kRates[] = {
    {"requests_per_sec", tag::requestThroughput, unit::requestsPerS, 1},
    {"output_tokens_per_sec", tag::outputThroughput, unit::tokensPerS, 1},
    {"total_tokens_per_sec", kTotalTokenThroughput, unit::tokensPerS, 1},
};

template <size_t N>
bool mapped(const Mapped (&table)[N], const QString &key)
{
    return std::any_of(std::begin(table), std::end(table), [&](const Mapped &m) { return key == QLatin1String(m.key); });
}

// "500 - Internal Server Error" -> http_500; other labels as they are.
QString errorKind(const QString &label)
{
    static const QRegularExpression http(QStringLiteral("^(\\d{3})\\b"));
    const auto m = http.match(label);
    return m.hasMatch() ? errorKey(ErrorKind::Http, m.captured(1).toInt()) : label.left(80);
}

bool readStage(const ImportSource &src, const QJsonObject &doc, CellResult *c)
{
    QJsonObject load, ok, failures, latency, throughput;
    if (!importObject(src, doc.value(QStringLiteral("load_summary")), QStringLiteral("load_summary"), &load)
        || !importObject(src, doc.value(QStringLiteral("successes")), QStringLiteral("successes"), &ok)
        || !importObject(src, doc.value(QStringLiteral("failures")), QStringLiteral("failures"), &failures)
        || !importObject(src, ok.value(QStringLiteral("latency")), QStringLiteral("successes.latency"), &latency)
        || !importObject(src, ok.value(QStringLiteral("throughput")), QStringLiteral("successes.throughput"), &throughput))
        return false;
    double completed = 0, failed = 0, duration = 0, concurrency = 0, rate = 0, achieved = 0;
    if (!importNumber(src, ok.value(QStringLiteral("count")), QStringLiteral("successes.count"), &completed)
        || !importNumber(src, failures.value(QStringLiteral("count")), QStringLiteral("failures.count"), &failed)
        || !importNumber(src, doc.value(QStringLiteral("benchmark_time_seconds")), QStringLiteral("benchmark_time_seconds"), &duration)
        || !importNumber(src, load.value(QStringLiteral("concurrency")), QStringLiteral("load_summary.concurrency"), &concurrency, true)
        || !importNumber(src, load.value(QStringLiteral("requested_rate")), QStringLiteral("load_summary.requested_rate"), &rate, true)
        || !importNumber(src, load.value(QStringLiteral("achieved_rate")), QStringLiteral("load_summary.achieved_rate"), &achieved, true))
        return false;
    c->completed = importCount(completed);
    c->failed = importCount(failed);
    c->errorRate = c->completed + c->failed > 0 ? double(c->failed) / (double(c->completed) + c->failed) : 0;
    c->durationS = std::isfinite(duration) ? duration : 0;
    if (std::isfinite(concurrency)) {
        c->concurrency = importCount(concurrency);
    } else if (std::isfinite(rate)) { // constant or poisson load: a request rate
        OpenLoopResult open;
        open.targetRate = rate;
        open.achievedRate = std::isfinite(achieved) ? achieved : 0;
        open.arrival = QStringLiteral("constant");
        c->openLoop = open;
    }
    const QJsonObject labels = failures.value(QStringLiteral("by_label")).toObject();
    for (auto it = labels.begin(); it != labels.end() && c->errors.size() < 100; ++it) {
        const QJsonObject l = it.value().toObject();
        const QString kind = errorKind(it.key());
        c->errors[kind] += importCount(l.value(QStringLiteral("count")).toDouble());
        const QJsonArray messages = l.value(QStringLiteral("messages")).toArray();
        if (!messages.isEmpty() && !c->errorSamples.contains(kind))
            c->errorSamples.insert(kind, messages.first().toObject().value(QStringLiteral("message")).toString().left(300));
    }

    QStringList unmapped;
    for (const Mapped &m : kLatencies) {
        MetricStats s;
        if (!importFlatStats(src, latency.value(QLatin1String(m.key)), QStringLiteral("successes.latency.") + QLatin1String(m.key), m.unit, m.scale, &s))
            return false;
        s.count = c->completed;
        c->metrics.insert(m.tag, s);
    }
    for (const Mapped &m : kTokens) {
        MetricStats s;
        if (!importFlatStats(src, ok.value(QLatin1String(m.key)), QStringLiteral("successes.") + QLatin1String(m.key), m.unit, m.scale, &s))
            return false;
        s.count = c->completed;
        c->metrics.insert(m.tag, s);
    }
    for (const Mapped &m : kRates) {
        double v = 0;
        if (!importNumber(src, throughput.value(QLatin1String(m.key)), QStringLiteral("successes.throughput.") + QLatin1String(m.key), &v))
            return false;
        c->metrics.insert(m.tag, singleValue(v, m.unit));
    }
    unmapped.append(QLatin1String(kLatencies[3].key)); // kept under its own name, not a catalogue metric
    for (auto it = latency.begin(); it != latency.end(); ++it)
        if (!mapped(kLatencies, it.key()))
            unmapped.append(QStringLiteral("latency.") + it.key());
    for (auto it = throughput.begin(); it != throughput.end(); ++it)
        if (!mapped(kRates, it.key()) && !(it.value().isDouble() && it.value().toDouble() == 0)) // images_per_sec 0 of a text run
            unmapped.append(QStringLiteral("throughput.") + it.key());
    for (auto it = ok.begin(); it != ok.end(); ++it)
        if (!mapped(kTokens, it.key()) && it.key() != QLatin1String("count") && it.key() != QLatin1String("latency")
            && it.key() != QLatin1String("throughput") && !it.value().isNull())
            unmapped.append(it.key());
    for (auto it = load.begin(); it != load.end(); ++it)
        if (it.key() != QLatin1String("concurrency") && it.key() != QLatin1String("requested_rate") && it.key() != QLatin1String("achieved_rate")
            && it.key() != QLatin1String("count"))
            unmapped.append(QStringLiteral("load_summary.") + it.key());
    noteUnmappedFields(c, QStringLiteral("inference-perf"), unmapped);
    c->status = CellStatus::Completed;
    c->tokenSource = TokenSource::Mixed; // usage where the server sent it, the client's count otherwise
    return true;
}
} // namespace

bool isInferencePerfFolder(const QString &dir)
{
    return !stageFiles(dir).isEmpty() || !summaryFile(dir).isEmpty();
}

bool loadInferencePerfFolder(const QString &dir, LoadedResults *out, QString *error)
{
    QStringList files = stageFiles(dir);
    if (files.isEmpty() && !summaryFile(dir).isEmpty())
        files.append(summaryFile(dir));
    if (files.isEmpty() || files.size() > kMaxStages) {
        *error = QStringLiteral("%1: %2 inference-perf stage reports (expected 1 to %3)").arg(QDir::toNativeSeparators(dir)).arg(files.size()).arg(kMaxStages);
        return false;
    }
    SweepResults r;
    r.toolName = QStringLiteral("inference-perf");
    r.sourceTool = QStringLiteral("inference-perf");
    r.sweepName = QFileInfo(dir).fileName();
    const QString server = modelName(dir);
    for (const QString &file : std::as_const(files)) {
        QJsonObject doc;
        if (!readJsonObject(file, &doc, error))
            return false;
        CellResult c;
        if (!readStage(ImportSource{QDir::toNativeSeparators(file), error}, doc, &c))
            return false;
        c.server = server;
        c.reason = QFileInfo(file).fileName();
        r.cells.append(c);
    }
    publishImport(out, std::move(r), QFileInfo(dir).absoluteFilePath(), QFileInfo(dir).fileName());
    return true;
}

} // namespace sb
