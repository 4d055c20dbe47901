#pragma once
// Helpers shared by the importers of other tools' results.
#include "io/ReadLimits.h"
#include "results/LoadedResults.h"
#include "results/Results.h"
#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace sb {

// Reads a JSON object from a regular file, refusing anything else and files over `maxBytes`
// (imports are untrusted).
bool readJsonObject(const QString &path, QJsonObject *out, QString *error, qint64 maxBytes = kMaxResultsFileBytes);

// Typed reads of a field another tool wrote. On a wrong type they fail with the file and the
// key path in the error ("benchmarks.json: benchmarks[1].metrics: expected an object, found a
// string"), so a hand-edited or truncated report is refused by name instead of read as zeros.
struct ImportSource {
    QString file; // shown in errors (native separators)
    QString *error = nullptr;
    bool fail(const QString &keyPath, const QString &expected, const QJsonValue &found) const;
};
bool importObject(const ImportSource &src, const QJsonValue &v, const QString &keyPath, QJsonObject *out);
bool importArray(const ImportSource &src, const QJsonValue &v, const QString &keyPath, QJsonArray *out);
// A number; null and a missing key give `*out = NaN` when `optional`.
bool importNumber(const ImportSource &src, const QJsonValue &v, const QString &keyPath, double *out, bool optional = false);
// A count as an int: NaN and negatives are 0, a huge one saturates.
int importCount(double v);

// Stats with every field NaN (a tool that reports p90 only must not show a p50 of 0).
MetricStats emptyMetricStats(const QString &unit);
// Sets one stat named as the tools name them: mean | avg | median | std | std_dev | stddev | min | max | p<N> for
// the percentiles MetricStats holds. False for any other name (p99.9, mode, ...): the caller lists it
// as unmapped.
bool setNamedStat(MetricStats *s, QStringView stat, double v);

// An object of named stats ({"mean": .., "min": .., "p99": .., "median": ..}) times `scale`: a
// number that is not a known stat name is ignored (p0.1, sum, total), null is no value; "mean" must
// be a number.
bool importFlatStats(const ImportSource &src, const QJsonValue &v, const QString &keyPath, const QString &unit, double scale,
                     MetricStats *out);

// Another tool's fields the importer did not map onto the catalogue: one cell warning naming
// them (sorted, each once, at most kMaxListedFields named and the rest counted), so the Results
// summary and the report show what was left out rather than dropping it silently.
constexpr int kMaxListedFields = 40;
// What another tool recorded of its invocation, fit to show and keep: the value after a
// credential option (--api-key, --token, ...) or an Authorization/API-key header becomes
// [redacted], and the text is cut at 2,000 characters. Another tool's command line may carry a
// key that no spec of ours names, so this does not rely on knowing the key.
QString importedCommand(const QString &command);
// "backend openai-chat, model m, max_concurrency 1" from the recorded settings, in the order given.
QString importedSettings(const QList<QPair<QString, QString>> &settings);

void noteUnmappedFields(CellResult *cell, const QString &tool, QStringList fields);

// The cells of an import in the order every view expects (server, then concurrency, then
// request rate), numbered, and the set's start and end from theirs.
void finishImportedCells(SweepResults *r);
// The last step of every importer: the cells finished as above, the set and where it came from
// handed to the loader.
void publishImport(LoadedResults *out, SweepResults r, const QString &folder, const QString &displayName);

// vLLM's name for input + output tokens per second; the importers of tools that report it keep it
// under this key (the catalogue has no entry for it).
inline const QString kTotalTokenThroughput = QStringLiteral("total_token_throughput");

} // namespace sb
