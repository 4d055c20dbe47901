#pragma once
// `sweepbench summary PATH`: its command line, parsed here (only app/ parses our command line);
// report/SummaryCommand prints the table.
#include <QStringList>

namespace sb {

// args = the arguments after "summary". Exit codes: 0 ok, 2 usage error or unreadable input.
int runSummaryCommand(const QStringList &args);

} // namespace sb
