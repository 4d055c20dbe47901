#include "import/AiperfImport.h"
#include "import/ImportCommon.h"
#include "io/LineReader.h"
#include "load/RequestRecord.h"
#include "metrics/MetricCatalogue.h"
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <algorithm>
#include <limits>

namespace sb {

namespace {
const QString kRunFile = QStringLiteral("profile_export_aiperf.json");
const QString kRecordsFile = QStringLiteral("profile_export.jsonl");
const QString kSweepFile = QStringLiteral("sweep_aggregate/profile_export_aiperf_sweep.json");
constexpr int kMaxRuns = 1000;
constexpr int kMaxDepth = 4;

bool hasRunFile(const QString &dir) { return QFileInfo(dir + QLatin1Char('/') + kRunFile).isFile(); }

// Every profile_export_aiperf.json at most kMaxDepth levels down, except under aggregate/ (those
// are cross-trial roll-ups under another file name anyway) and symlinked folders. With
// --warmup-request-count, AIPerf 0.13.0 also writes phases/warmup/ and phases/profiling/ beside a
// run's own file: the run is the top-level file, so phases/ is read only when a run has no file
// of its own, and a warmup phase never (it is not a measurement).
QStringList findRunFiles(const QString &dir)
{
    QStringList found;
    if (hasRunFile(dir))
        found.append(dir + QLatin1Char('/') + kRunFile);
    QList<QPair<QString, int>> queue{{dir, 0}};
    while (!queue.isEmpty() && found.size() < kMaxRuns) {
        const auto [current, depth] = queue.takeFirst();
        if (depth >= kMaxDepth)
            continue;
        const auto subdirs = QDir(current).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks, QDir::Name);
        const bool inPhases = QFileInfo(current).fileName() == QLatin1String("phases");
        for (const QFileInfo &sub : subdirs) {
            if (sub.fileName() == QLatin1String("aggregate") || sub.fileName() == QLatin1String("sweep_aggregate") || sub.fileName() == QLatin1String("logs"))
                continue;
            if (sub.fileName() == QLatin1String("phases") && hasRunFile(current))
                continue;
            if (inPhases && sub.fileName() == QLatin1String("warmup"))
                continue;
            const QString f = sub.filePath() + QLatin1Char('/') + kRunFile;
            if (QFileInfo(f).isFile())
                found.append(f);
            queue.append({sub.filePath(), depth + 1});
        }
    }
    return found;
}

QDateTime aiperfTime(const QJsonValue &v)
{
    // AIPerf writes local time without an offset and with microseconds.
    QString s = v.toString();
    static const QRegularExpression frac(QStringLiteral("(\\.\\d{3})\\d+"));
    s.replace(frac, QStringLiteral("\\1"));
    return QDateTime::fromString(s, Qt::ISODateWithMs);
}

// A request count read from a file: NaN and negatives are 0, and a huge number saturates
// instead of overflowing the int it lands in.
int requestCount(double v)
{
    if (!(v > 0))
        return 0;
    return v >= double(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max() : int(v);
}

int addCounts(int a, int b)
{
    return int(std::min<qint64>(qint64(a) + b, std::numeric_limits<int>::max()));
}

double avgOf(const QJsonObject &o, const QString &key, double fallback = -1)
{
    const QJsonObject m = o.value(key).toObject();
    return m.contains(QStringLiteral("avg")) ? m.value(QStringLiteral("avg")).toDouble() : fallback;
}

// Requests that succeeded. In AIPerf 0.13.0 `request_count` counts successful requests and
// `completed_request_count` successes and errors together (44 ok + 16 errors: 44 and 60), so
// the latter is used only without the former, less the errors.
int successfulRequests(const QJsonObject &o)
{
    const double ok = avgOf(o, QStringLiteral("request_count"));
    if (ok >= 0)
        return requestCount(ok);
    return requestCount(avgOf(o, QStringLiteral("completed_request_count"), 0) - avgOf(o, QStringLiteral("error_request_count"), 0));
}

void addMetrics(const QJsonObject &o, CellResult *cell)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QJsonObject m = it.value().toObject();
        if (it.value().isObject() && m.contains(QStringLiteral("unit")) && m.contains(QStringLiteral("avg")))
            cell->metrics.insert(it.key(), metricStatsFromJson(m));
    }
}

void addErrors(const QJsonArray &summary, CellResult *cell)
{
    for (const QJsonValue &v : summary) {
        const QJsonObject e = v.toObject();
        const QJsonObject d = e.value(QStringLiteral("error_details")).toObject();
        const int code = d.value(QStringLiteral("code")).toInt();
        QString kind = code > 0 ? errorKey(ErrorKind::Http, code) : d.value(QStringLiteral("type")).toString();
        if (kind.isEmpty())
            kind = QStringLiteral("error");
        cell->errors[kind] = addCounts(cell->errors.value(kind), requestCount(e.value(QStringLiteral("count")).toDouble()));
        if (!cell->errorSamples.contains(kind))
            cell->errorSamples.insert(kind, d.value(QStringLiteral("message")).toString().left(300));
    }
}

// Counts failed records in profile_export.jsonl (a record with a non-null "error"). With
// --warmup-request-count the warmup's records come first in the same file (metadata.
// benchmark_phase "warmup"); they are not the run's, so only profiling records count.
int failedRecords(const QString &path, int *total)
{
    QFile f(path);
    *total = 0;
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    constexpr qint64 kMaxLine = 64 * 1024 * 1024; // longer than any record: skipped (io/LineReader.h)
    LineReader lines(f, kMaxLine);
    QByteArray line;
    int failed = 0;
    while (lines.next(&line)) {
        if (line.isEmpty())
            continue;
        const QJsonObject r = QJsonDocument::fromJson(line).object();
        const QJsonValue phase = r.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("benchmark_phase"));
        if (!phase.isUndefined() && phase.toString() != QLatin1String("profiling"))
            continue;
        *total = addCounts(*total, 1);
        if (r.contains(QStringLiteral("error")) && !r.value(QStringLiteral("error")).isNull())
            failed = addCounts(failed, 1);
    }
    return failed;
}

int concurrencyOf(const QJsonObject &run, const QString &relDir)
{
    for (const QJsonValue &p : run.value(QStringLiteral("input_config")).toObject().value(QStringLiteral("phases")).toArray()) {
        const QJsonObject phase = p.toObject();
        if (phase.value(QStringLiteral("kind")).toString() == QLatin1String("profiling") && phase.contains(QStringLiteral("concurrency")))
            return phase.value(QStringLiteral("concurrency")).toInt();
    }
    static const QRegularExpression re(QStringLiteral("concurrency_(\\d+)"));
    const auto m = re.match(relDir);
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

CellResult cellFromRun(const QJsonObject &run, const QString &runFile, const QString &relDir)
{
    CellResult c;
    const QJsonObject cfg = run.value(QStringLiteral("input_config")).toObject();
    const QJsonArray models = cfg.value(QStringLiteral("models")).toObject().value(QStringLiteral("items")).toArray();
    c.server = models.isEmpty() ? QStringLiteral("aiperf") : models.first().toObject().value(QStringLiteral("name")).toString();
    const QJsonObject endpoint = cfg.value(QStringLiteral("endpoint")).toObject();
    c.origin = endpoint.value(QStringLiteral("urls")).toArray().first().toString();
    c.tokenSource = endpoint.value(QStringLiteral("use_server_token_count")).toBool() ? TokenSource::Usage : TokenSource::Counted;
    c.concurrency = concurrencyOf(run, relDir);
    addMetrics(run, &c);
    addErrors(run.value(QStringLiteral("error_summary")).toArray(), &c);
    c.durationS = avgOf(run, QStringLiteral("benchmark_duration"), 0);
    c.completed = successfulRequests(run);
    int failed = requestCount(avgOf(run, QStringLiteral("error_request_count"), 0));
    if (failed == 0)
        for (const int n : std::as_const(c.errors))
            failed = addCounts(failed, n);
    const QString records = QFileInfo(runFile).path() + QLatin1Char('/') + kRecordsFile;
    if (QFileInfo(records).isFile()) {
        int total = 0;
        const int bad = failedRecords(records, &total);
        if (bad > failed)
            failed = bad;
    }
    c.failed = failed;
    c.startedAt = aiperfTime(run.value(QStringLiteral("start_time")));
    c.finishedAt = aiperfTime(run.value(QStringLiteral("end_time")));
    if (run.value(QStringLiteral("was_cancelled")).toBool())
        c.status = CellStatus::Cancelled;
    else if (run.contains(QStringLiteral("is_complete")) && !run.value(QStringLiteral("is_complete")).toBool())
        c.status = CellStatus::Failed;
    else
        c.status = CellStatus::Completed;
    c.reason = relDir;
    return c;
}

// Only the sweep roll-up is there (per-point folders removed): build cells from it.
bool cellsFromSweepAggregate(const QJsonObject &sweep, SweepResults *r)
{
    for (const QJsonValue &v : sweep.value(QStringLiteral("per_combination_metrics")).toArray()) {
        const QJsonObject combo = v.toObject();
        CellResult c;
        c.server = QStringLiteral("aiperf");
        c.concurrency = combo.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("concurrency")).toInt();
        const QJsonObject metrics = combo.value(QStringLiteral("metrics")).toObject();
        addMetrics(metrics, &c);
        c.durationS = avgOf(metrics, QStringLiteral("benchmark_duration"), 0);
        c.completed = successfulRequests(metrics);
        c.failed = requestCount(avgOf(metrics, QStringLiteral("error_request_count"), 0));
        c.status = CellStatus::Completed;
        c.reason = QStringLiteral("from sweep_aggregate");
        r->cells.append(c);
    }
    return !r->cells.isEmpty();
}
} // namespace

bool isAiperfFolder(const QString &dir)
{
    return QFileInfo(dir + QLatin1Char('/') + kSweepFile).isFile() || !findRunFiles(dir).isEmpty();
}

bool loadAiperfFolder(const QString &dir, LoadedResults *out, QString *error)
{
    SweepResults r;
    r.toolName = QStringLiteral("aiperf");
    r.sourceTool = QStringLiteral("aiperf");
    r.sweepName = QFileInfo(dir).fileName();
    const QStringList runs = findRunFiles(dir);
    for (const QString &file : runs) {
        QJsonObject run;
        if (!readJsonObject(file, &run, error))
            return false;
        if (!run.contains(tag::latency) && !run.contains(tag::ttft)
            && !run.contains(QStringLiteral("aiperf_version"))) {
            *error = QStringLiteral("%1 is not an AIPerf profile export").arg(QDir::toNativeSeparators(file));
            return false;
        }
        if (r.toolVersion.isEmpty())
            r.toolVersion = run.value(QStringLiteral("aiperf_version")).toString();
        if (r.sourceCommand.isEmpty()) // every run of a sweep records its own command: the first says how it began
            r.sourceCommand = importedCommand(run.value(QStringLiteral("run_info")).toObject().value(QStringLiteral("cli_command")).toString());
        r.cells.append(cellFromRun(run, file, QDir(dir).relativeFilePath(QFileInfo(file).path())));
    }
    if (r.cells.isEmpty()) {
        QJsonObject sweep;
        if (!readJsonObject(dir + QLatin1Char('/') + kSweepFile, &sweep, error))
            return false;
        if (!cellsFromSweepAggregate(sweep, &r)) {
            *error = QStringLiteral("%1 holds no AIPerf runs").arg(QDir::toNativeSeparators(dir));
            return false;
        }
    }
    std::stable_sort(r.cells.begin(), r.cells.end(), [](const CellResult &a, const CellResult &b) {
        return a.server != b.server ? a.server < b.server : a.concurrency < b.concurrency;
    });
    for (int i = 0; i < r.cells.size(); ++i) {
        CellResult &c = r.cells[i];
        c.index = i;
        if (c.reason == QLatin1String("."))
            c.reason.clear();
        if (c.startedAt.isValid() && (!r.startedAt.isValid() || c.startedAt < r.startedAt))
            r.startedAt = c.startedAt;
        if (c.finishedAt.isValid() && (!r.finishedAt.isValid() || c.finishedAt > r.finishedAt))
            r.finishedAt = c.finishedAt;
    }
    out->results = r;
    out->folder = QFileInfo(dir).absoluteFilePath();
    out->displayName = QFileInfo(dir).fileName();
    return true;
}

} // namespace sb
