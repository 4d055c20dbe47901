#pragma once
// `sweepbench export`'s body: a result set's report zip from already parsed options. The command
// line is parsed in app/commands/ExportCli (only app/ parses our command line).
#include "report/ReportExporter.h"
#include <QString>

namespace sb::ui {

struct ExportRequest {
    QString input;         // a results folder, zip, AIPerf folder or vLLM bench JSON
    QString output;        // the zip to write; empty: INPUT-report.zip beside the input
    ExportSecrets secrets; // what to keep out of the export besides the run's own secrets
};

// Creates its own QApplication when none exists (offscreen when there is no display), so call it
// before constructing any application object, or from a process that already has a QApplication.
// Exit codes: 0 ok, 2 a bad output path or the export failed.
int runExport(const ExportRequest &request);

} // namespace sb::ui
