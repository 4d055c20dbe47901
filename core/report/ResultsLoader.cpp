#include "report/ResultsLoader.h"
#include "import/AiperfImport.h"
#include "import/GenaiBenchImport.h"
#include "import/GuidellmImport.h"
#include "import/InferencePerfImport.h"
#include "import/ImportCommon.h"
#include "import/SafeUnzip.h"
#include "import/SglangImport.h"
#include "import/VllmImport.h"
#include "io/BoundedJson.h"
#include "io/BoundedRead.h"
#include "results/ResultsStore.h"
#include "results/ShardMerge.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace sb {

namespace {
const QString kResultsFile = QStringLiteral("results.json");
const QString kSpecFile = QStringLiteral("sweep.yaml");

bool isZip(const QString &path)
{
    QFile f(path); // a regular file: loadResults checked before anything opens it
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(4);
    return head == QByteArray("PK\x03\x04", 4) || head == QByteArray("PK\x05\x06", 4) || path.endsWith(QLatin1String(".zip"), Qt::CaseInsensitive);
}

// results.json is untrusted too (it may come out of a shared zip): records paths that would
// leave the folder are dropped, so no reader follows them.
void sanitizeRecordPaths(SweepResults *r)
{
    for (CellResult &c : r->cells) {
        if (c.recordsPath.isEmpty())
            continue;
        const QString p = QDir::cleanPath(QString(c.recordsPath).replace(QLatin1Char('\\'), QLatin1Char('/')));
        if (QDir::isAbsolutePath(p) || p == QLatin1String("..") || p.startsWith(QLatin1String("../")) || p.contains(QLatin1Char(':'))) {
            c.warnings.append(QStringLiteral("records path \"%1\" points outside the results folder; ignored").arg(c.recordsPath));
            c.recordsPath.clear();
        } else {
            c.recordsPath = p;
        }
    }
}

bool loadOurFolder(const QString &dir, LoadedResults *out, QString *error)
{
    SweepResults r;
    if (!ResultsStore::readResults(dir, &r, error)) // the one reader of results.json (results/ResultsStore)
        return false;
    sanitizeRecordPaths(&r);
    out->results = r;
    out->folder = QFileInfo(dir).absoluteFilePath();
    out->displayName = QFileInfo(dir).fileName();
    QByteArray spec;
    QString ignored; // sweep.yaml is optional: results load without it
    if (readRegularFile(dir + QLatin1Char('/') + kSpecFile, kMaxSmallFileBytes, &spec, &ignored))
        out->specYaml = spec;
    return true;
}

// A folder of shard folders (`run --shard K/N` into DIR/shard-K): one set, merged in memory;
// cells of shards not (yet) there are pending. Records stay in their shard's folder.
bool loadShardSet(const QString &dir, const QStringList &shards, LoadedResults *out, QString *error)
{
    MergedShards merged;
    if (!mergeShardFolders(shards, true, &merged, error))
        return false;
    const QDir root(dir);
    for (int i = 0; i < merged.results.cells.size(); ++i) {
        CellResult &c = merged.results.cells[i];
        if (!merged.cellSource[i].isEmpty() && !c.recordsPath.isEmpty())
            c.recordsPath = root.relativeFilePath(QDir(merged.cellSource[i]).filePath(c.recordsPath));
        // The server metrics series lies beside the records (docs/server-metrics.md).
        if (QString &series = c.serverMetricsInfo.series; !merged.cellSource[i].isEmpty() && !series.isEmpty())
            series = root.relativeFilePath(QDir(merged.cellSource[i]).filePath(series));
        if (c.gpuTelemetry && !merged.cellSource[i].isEmpty() && !c.gpuTelemetry->series.isEmpty()) // so does the GPU telemetry's
            c.gpuTelemetry->series = root.relativeFilePath(QDir(merged.cellSource[i]).filePath(c.gpuTelemetry->series));
    }
    // Missing shards need no extra note: each of their cells is pending with "shard K/N is missing".
    sanitizeRecordPaths(&merged.results);
    out->results = merged.results;
    out->folder = QFileInfo(dir).absoluteFilePath();
    out->displayName = QFileInfo(dir).fileName();
    out->specYaml = merged.specYaml; // every shard's sweep.yaml says the same (results/ShardMerge.h)
    return true;
}

// Which tool wrote a JSON document read whole (vLLM's and GuideLLM's are single files).
enum class JsonKind { None, Vllm, Guidellm };
JsonKind jsonKind(const QJsonObject &o)
{
    if (looksLikeGuidellmReport(o))
        return JsonKind::Guidellm;
    if (looksLikeVllmResult(o))
        return JsonKind::Vllm;
    return JsonKind::None;
}

// The kind of the first *.json in `dir` that one of the importers reads, and that file.
JsonKind jsonFolderKind(const QString &dir, QString *file)
{
    const auto files = QDir(dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::NoSymLinks, QDir::Name);
    for (const QFileInfo &f : files) {
        QJsonObject o;
        QString ignored;
        if (!readJsonObject(f.filePath(), &o, &ignored))
            continue;
        if (const JsonKind kind = jsonKind(o); kind != JsonKind::None) {
            *file = f.filePath();
            return kind;
        }
    }
    return JsonKind::None;
}

bool loadJsonFile(const QString &path, LoadedResults *out, QString *error)
{
    QJsonObject o;
    if (!readJsonObject(path, &o, error))
        return false;
    switch (jsonKind(o)) {
    case JsonKind::Guidellm: return loadGuidellmReport(path, out, error);
    case JsonKind::Vllm: return loadVllmResults(path, out, error);
    case JsonKind::None: break;
    }
    *error = QStringLiteral("%1 is not a result file SweepBench can read (expected a vLLM bench serve result, a GuideLLM "
                            "benchmarks report or sglang bench_serving JSONL)").arg(QDir::toNativeSeparators(path));
    return false;
}

bool loadFolder(const QString &dir, LoadedResults *out, QString *error)
{
    // exists(), not isFile(): a results.json that is a FIFO or a device is refused by name
    // (io/BoundedRead.h) instead of being mistaken for another tool's folder.
    if (QFileInfo::exists(dir + QLatin1Char('/') + kResultsFile))
        return loadOurFolder(dir, out, error);
    if (const QStringList shards = shardFoldersIn(dir); !shards.isEmpty())
        return loadShardSet(dir, shards, out, error);
    if (isAiperfFolder(dir))
        return loadAiperfFolder(dir, out, error);
    if (isGenaiBenchFolder(dir))
        return loadGenaiBenchFolder(dir, out, error);
    if (isInferencePerfFolder(dir))
        return loadInferencePerfFolder(dir, out, error);
    // sglang bench_serving JSONL: the first *.jsonl whose first line is one of its results.
    for (const QFileInfo &f : QDir(dir).entryInfoList({QStringLiteral("*.jsonl")}, QDir::Files | QDir::NoSymLinks, QDir::Name))
        if (looksLikeSglangJsonl(f.filePath()))
            return loadSglangJsonl(f.filePath(), out, error);
    QString file;
    switch (jsonFolderKind(dir, &file)) {
    case JsonKind::Guidellm: return loadGuidellmReport(file, out, error);
    case JsonKind::Vllm: return loadVllmResults(dir, out, error);
    case JsonKind::None: break;
    }
    *error = QStringLiteral("%1 holds no results SweepBench can read (expected results.json, an AIPerf artifact folder, "
                            "an inference-perf report folder, a genai-bench experiment folder, vLLM bench serve JSON files, "
                            "a GuideLLM benchmarks.json or sglang bench_serving JSONL)").arg(QDir::toNativeSeparators(dir));
    return false;
}

bool loadZip(const QString &zipPath, LoadedResults *out, QString *error)
{
    const QString dest = newExtractionDir(error);
    if (dest.isEmpty())
        return false;
    if (!safeUnzip(zipPath, dest, error))
        return false;
    // Zips made by hand often wrap everything in one top folder.
    QString root = dest;
    const auto top = QDir(dest).entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot);
    if (!QFileInfo(dest + QLatin1Char('/') + kResultsFile).isFile() && top.size() == 1 && top.first().isDir())
        root = top.first().filePath();
    if (!loadFolder(root, out, error)) {
        QDir(dest).removeRecursively(); // nothing points into it: not kept until the process exits
        *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(zipPath), *error);
        return false;
    }
    out->displayName = QFileInfo(zipPath).fileName();
    return true;
}
} // namespace

std::optional<LoadedResults> loadResults(const QString &path, QString *error)
{
    QString err;
    LoadedResults out;
    const QFileInfo info(path);
    bool ok = false;
    if (!info.exists()) {
        err = QStringLiteral("%1: no such file or folder").arg(QDir::toNativeSeparators(path));
    } else if (info.isDir()) {
        ok = loadFolder(info.absoluteFilePath(), &out, &err);
    } else if (!checkRegularFile(path, kMaxArchiveBytes, &err)) {
        // /dev/zero, a FIFO, a socket: refused before anything reads from it (io/BoundedRead.h)
    } else if (info.fileName() == kResultsFile) {
        ok = loadOurFolder(info.absolutePath(), &out, &err);
    } else if (isZip(path)) {
        ok = loadZip(info.absoluteFilePath(), &out, &err);
    } else if (looksLikeSglangJsonl(info.absoluteFilePath())) {
        ok = loadSglangJsonl(info.absoluteFilePath(), &out, &err);
    } else {
        ok = loadJsonFile(info.absoluteFilePath(), &out, &err);
    }
    if (!ok) {
        if (error)
            *error = err;
        return std::nullopt;
    }
    return out;
}

} // namespace sb
