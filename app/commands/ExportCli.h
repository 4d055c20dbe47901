#pragma once
// `sweepbench export RESULTS [-o report.zip] [--spec SPEC.yaml] [--secret-env NAME]...
// [--no-secret-check]`: its command line, parsed here (only app/ parses our command line);
// ui/report/ExportCommand writes the zip.
#include <QStringList>

namespace sb {

// args = the arguments after "export". Creates its own QApplication when none exists (see
// ui::runExport). Exit codes: 0 ok, 2 usage error or export failed.
int runExportCommand(const QStringList &args);

} // namespace sb
