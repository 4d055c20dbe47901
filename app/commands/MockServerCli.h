#pragma once
// `sweepbench mock-server [options]`: its flags, parsed here (only app/ parses our command line),
// and its help text.
#include <QString>
#include <QStringList>

namespace sb {

// args[0] is the program name ("sweepbench mock-server"). Needs a running QCoreApplication
// (created by the caller); runs its own event loop. Returns the process exit code: 2 for a
// usage error, else what serveMockInForeground returns.
int runMockServerCommand(const QStringList &args);
// The text of `sweepbench help mock-server`.
QString mockServerHelpText();

} // namespace sb
