#pragma once
// Export of a results folder (or any result set loadResults reads) to a report bundle zip, with
// charts. Called by File → Export report and by `sweepbench export`. Needs a QApplication.
#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sb::ui {

struct ExportOutcome {
    QStringList files;     // entries of the zip
    QStringList warnings;  // non-fatal: charts left out, secrets redacted, records missing
};

// Secrets the caller knows beyond those sweep.yaml and the environment give.
struct ExportSecrets {
    QList<QByteArray> specs;  // other spec texts (e.g. the spec the user ran, with its api_key)
    QStringList values;       // literal secrets (e.g. read from `--secret-env NAME`)
    bool allowUnknown = false; // `--no-secret-check`: export although an api_key_env variable is unset
};

// What the user chose in the export dialog.
struct ExportChoices {
    bool includeTraces = false; // copy the cells' profiler traces into traces/ (BundleOptions::includeTraces)
};

// Returns false with *error set (also when the export cannot know a key the run used: see
// BundleOptions::allowUnknownSecrets); the zip is written atomically.
bool exportReport(const QString &resultsFolder, const QString &zipPath, QString *error,
                  ExportOutcome *outcome = nullptr, const ExportSecrets &secrets = {}, const ExportChoices &choices = {});

// The hook outcome icon set (ui/icons/verdict-*.svg) by int(HookSeverity), for report.html.
QMap<int, QByteArray> hookIconSvgs();

} // namespace sb::ui
