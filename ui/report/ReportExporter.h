#pragma once
// Export of a results folder (or any result set loadResults reads) to a report bundle zip, with
// charts. Called by File → Export report and by `sweepbench export`. Needs a QApplication.
#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sb {

struct ExportOutcome {
    QStringList files;     // entries of the zip
    QStringList warnings;  // non-fatal: charts left out, secrets redacted, records missing
};

// `extraSpecs`: other spec texts whose secrets must also be kept out (e.g. the spec the user ran,
// with its api_key). Returns false with *error set; the zip is written atomically.
bool exportReport(const QString &resultsFolder, const QString &zipPath, QString *error,
                  ExportOutcome *outcome = nullptr, const QList<QByteArray> &extraSpecs = {});

} // namespace sb
