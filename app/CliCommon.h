#pragma once
// Pieces shared by the headless subcommands.
#include "engine/SweepEngine.h"
#include "spec/SweepSpec.h"
#include <QString>
#include <QTextStream>
#include <optional>

namespace sb {

QTextStream &out();
QTextStream &err();
// Loads a spec file (bounded: spec/SpecIO.h readSpecFile), printing every diagnostic
// (file:line:column: ...) to stderr; `text` receives the bytes that were parsed.
std::optional<SweepSpec> loadSpecReporting(const QString &path, QByteArray *text = nullptr);
std::optional<SweepSpec> loadSpecTextReporting(const QByteArray &yaml, const QString &name);
// Runs a sweep in the foreground with progress on stderr; prints the summary at the end.
int runSweepHeadless(const SweepSpec &spec, const RunOptions &options);
// Default results folder: ./results/<sweep-name>-<yyyyMMdd-HHmmss>.
QString defaultOutDir(const SweepSpec &spec);
bool isUsageOption(const QString &arg);
// Points at `sweepbench help COMMAND` on stderr; returns 2 (usage error).
int usageError(const QString &command);
// Test seam: sleeps SWEEPBENCH_TEST_EXEC_DELAY_MS (at most 10 s) between starting a worker
// and entering the event loop, so tests can make the worker finish first.
void holdBeforeEventLoopForTests();

} // namespace sb
