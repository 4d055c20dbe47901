#include "commands/SummaryCli.h"
#include "report/SummaryCommand.h"
#include <QTextStream>
#include <cstdio>

namespace sb {

int runSummaryCommand(const QStringList &args)
{
    if (args.size() != 1 || args.first().startsWith(QLatin1Char('-'))) {
        const bool help = !args.isEmpty() && (args.first() == QLatin1String("-h") || args.first() == QLatin1String("--help"));
        QTextStream stream(help ? stdout : stderr);
        stream << "usage: sweepbench summary PATH\n"
                  "  PATH: a SweepBench results folder or exported .zip, an AIPerf artifact folder,\n"
                  "        or vLLM `bench serve --save-result` JSON (a file or a folder of them)\n";
        return help ? 0 : 2; // usage error, like every other subcommand
    }
    return printSummary(args.first());
}

} // namespace sb
