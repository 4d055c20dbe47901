#pragma once
// The results folder on disk: results.json replaced atomically after every cell (a crash or a
// full disk loses no finished cell: io/DurableWrite.h), sweep.yaml without secrets,
// cells/<NNN>-<server>-c<C>/records.jsonl. Errors name the file and the OS reason.
#include "io/BoundedJson.h"
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <QString>

namespace sb {

class ResultsStore
{
public:
    explicit ResultsStore(const QString &outDir);
    const QString &outDir() const { return m_outDir; }

    bool prepare(QString *error);                          // creates the folder
    bool writeSpec(const SweepSpec &spec, QString *error); // sweep.yaml, api keys stripped
    bool writeResults(const SweepResults &results, QString *error);
    static bool hasResults(const QString &outDir);
    // Reads OUT/results.json (for --resume): a regular file within resultsFileCaps().
    static bool readResults(const QString &outDir, SweepResults *out, QString *error);
    // The caps of any results.json we read (io/ReadLimits.h): size, values, cells.
    static JsonFileCaps resultsFileCaps();

    // Relative folder of a cell: cells/003-vllm-a-c64 (server names made filesystem-safe).
    static QString cellDirName(int index, const QString &server, int concurrency);
    // `pointTag`: results/SweepAxis.h pointTag() ("c8", "r2.5").
    static QString cellDirName(int index, const QString &server, const QString &pointTag);
    QString absolute(const QString &relative) const;

private:
    QString m_outDir;
};

// Host facts recorded in results (hostname, OS, CPU count, Qt version).
QJsonObject hostInfo();

} // namespace sb
