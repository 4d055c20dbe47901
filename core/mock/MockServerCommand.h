#pragma once
// `sweepbench mock-server`'s serving half: the mock in the foreground until SIGINT/SIGTERM. Its
// flags are parsed in app/commands/MockServerCli (only app/ parses our command line).
#include "mock/MockServer.h"

namespace sb {

// Needs a running QCoreApplication (created by the caller); runs its own event loop. Prints the
// URL, serves until SIGINT or SIGTERM. Returns the process exit code: 0, or 1 when the server
// could not start.
int serveMockInForeground(const MockConfig &cfg);

} // namespace sb
