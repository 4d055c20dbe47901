#pragma once
// `sweepbench mock-server`: the mock in the foreground until SIGINT/SIGTERM.
#include <QString>
#include <QStringList>

namespace sb {

// args[0] is the program name ("sweepbench mock-server"). Needs a running QCoreApplication
// (created by the caller); runs its own event loop. Returns the process exit code.
int runMockServerCommand(const QStringList &args);
// The text of `sweepbench help mock-server`.
QString mockServerHelpText();

} // namespace sb
