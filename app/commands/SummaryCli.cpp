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
                  "        vLLM `bench serve --save-result` JSON (a file or a folder of them), a GuideLLM\n"
                  "        benchmarks.json, an inference-perf report folder, a genai-bench experiment folder\n"
                  "        or SGLang bench_serving JSONL (a file or its folder)\n";
        return help ? 0 : 2; // usage error, like every other subcommand
    }
    return printSummary(args.first());
}

} // namespace sb
