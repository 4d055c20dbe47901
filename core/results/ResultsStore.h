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
    // readResults for `run --resume`, which keeps cells as measurements: every cell is also
    // checked as results/CellCheck.h says, its problems (one line each, by cell and key) in
    // *cellProblems.
    static bool readResultsForResume(const QString &outDir, SweepResults *out, QStringList *cellProblems, QString *error);
    // The caps of any results.json we read (io/ReadLimits.h): size, values, cells.
    static JsonFileCaps resultsFileCaps();

    // Relative folder of a cell: cells/003-vllm-a-c64 (server names made filesystem-safe).
    static QString cellDirName(int index, const QString &server, int concurrency);
    // `pointTag`: results/SweepAxis.h pointTag() ("c8", "r2.5").
    static QString cellDirName(int index, const QString &server, const QString &pointTag);
    QString absolute(const QString &relative) const;
    // A cell file's path as results.json stores it: cells/<cell folder>/<fileName>, relative,
    // the folder one plain name (not "." or "..", no separator), so it never leaves the results
    // folder. Checked before a merge copies a cell's files or a resume keeps a cell.
    static bool isCellFilePath(const QString &relative, const QString &fileName);

private:
    QString m_outDir;
};

// Host facts recorded in results (hostname, OS, CPU count, Qt version).
HostInfo hostInfo();

} // namespace sb
