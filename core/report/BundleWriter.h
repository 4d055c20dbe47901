#pragma once
// Writes a report bundle (zip) from a results folder: sweep.yaml (re-stripped), results.json,
// results.csv, cells/*/records.jsonl, charts supplied by the caller (the UI layer renders them),
// report.html and manifest.json. Widgets-free so the core tests can exercise it.
#include "report/ReportHtml.h"
#include "results/LoadedResults.h"
#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sb {

struct BundleFile {
    QString path;    // inside the zip, e.g. charts/throughput_vs_ttft_p99.svg
    QByteArray data;
};

struct BundleOptions {
    QList<BundleFile> chartFiles;   // rendered charts (svg and png)
    QList<ReportChart> charts;      // how report.html shows them
    QList<QByteArray> extraSpecs;   // other spec texts whose secrets must not leak (e.g. the spec the user ran)
    QStringList extraSecrets;       // literal secrets to scrub as well
    // Export even when sweep.yaml names an api_key_env variable that is unset now (the key the
    // run used cannot be scanned for). Without it, such an export is refused unless extraSecrets
    // or extraSpecs supply a secret.
    bool allowUnknownSecrets = false;
    QStringList warnings;           // caller's notes (e.g. a chart left out), listed in report.html
    // Copy the cells' profiler traces into traces/<cell>/<file> (report.html links them
    // relatively); without it report.html names them by file name only. Bounded by
    // kMaxBundledTraceBytes in total: traces past it are left out with a warning.
    bool includeTraces = false;
    QMap<int, QByteArray> hookIcons; // the outcome icon set for report.html (ReportHtmlInput::hookIcons)
};

inline constexpr qint64 kMaxBundledTraceBytes = qint64(512) * 1024 * 1024;

// The traces a set's cells name that are on disk now: how many and their total size (the export
// dialog shows it beside "include traces").
struct TraceTotals {
    int files = 0;
    int missing = 0;
    qint64 bytes = 0;
};
TraceTotals traceTotals(const SweepResults &results);

struct BundleReport {
    QStringList files;       // entries written, in order
    QStringList warnings;    // shown to the user; also listed in report.html
    int redactions = 0;      // secret occurrences replaced
};

// Loads `resultsPath` (any format loadResults reads: an imported AIPerf or vLLM result becomes a
// SweepBench results.json in the bundle) and writes the zip atomically (temp file beside zipPath, renamed over it only when complete).
bool writeBundle(const QString &resultsPath, const QString &zipPath, const BundleOptions &options,
                 BundleReport *report, QString *error);
// The same from a set the caller has loaded already (the GUI renders the charts from it): the
// set is loaded once per export, and the charts and the bundle show the same results.
bool writeBundle(const LoadedResults &loaded, const QString &zipPath, const BundleOptions &options,
                 BundleReport *report, QString *error);

// Lower level: zip exactly these files (atomic, errors checked after every close).
bool writeZipAtomically(const QString &zipPath, const QList<BundleFile> &files, QString *error);

// manifest.json for these files: sha256 and size of each, tool version, date, host, Qt version,
// and the export's warnings (e.g. a truncated records.jsonl bundled as it is).
QByteArray manifestJson(const QList<BundleFile> &files, const QString &sourceName, const QString &sourceTool,
                        const QStringList &warnings = {});

} // namespace sb
