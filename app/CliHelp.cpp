#include "CliCommon.h"
#include "Commands.h"
#include "commands/MockServerCli.h"

namespace sb {

namespace {
struct CommandHelp {
    const char *name;
    const char *synopsis;
    const char *text;
};

// One table serves `--help`, `help COMMAND` and the man page (packaging/make-manpage.sh).
const CommandHelp kCommands[] = {
    {"gui", "sweepbench [SPEC.yaml | RESULTS | --demo [--out DIR]] [--screenshot FILE [--tab TAB]] [--theme light|dark] [--size WxH] [--chart KIND] [--compare RESULTS]...",
     "Opens the desktop workbench. A sweep YAML opens in Design; a results folder or zip opens in\n"
     "Results. --demo loads the built-in demo sweep (three embedded mock servers) and runs it;\n"
     "with --screenshot FILE it saves a PNG of the window (the Results tab, or --tab design|run|\n"
     "results|compare|trace, trace: Results with the first profiled cell's Trace tab) when the run\n"
     "ends, or once SPEC / RESULTS is open, and exits. --theme picks the palette (screenshots default\n"
     "to light), --size the window size in pixels, --chart the left chart of Results and Compare:\n"
     "latency (throughput vs latency, the default), pareto (the Pareto frontier of throughput vs\n"
     "tok/s/user), pareto-ttft (throughput vs TTFT p50), pareto-energy (vs energy per output token)\n"
     "or pareto-cost (vs dollars per million output tokens; both where the set has them).\n"
     "--compare RESULTS (repeatable) adds a\n"
     "result set to the Compare tab (with --screenshot and no SPEC / RESULTS: a picture of it).\n"
     "Without a display (no DISPLAY / WAYLAND_DISPLAY), --demo runs the headless demo instead."},
    {"run", "sweepbench run SPEC [--out DIR] [--resume [--force]] [--shard K/N]",
     "Runs every cell of the sweep: cache reset, warmup, profiler start, measured phase at exactly C\n"
     "requests in flight, profiler stop, results on disk. Writes DIR/results.json (replaced after\n"
     "every cell), DIR/sweep.yaml (no secrets) and DIR/cells/NNN-SERVER-cC/records.jsonl.\n"
     "  --out DIR   results folder (default ./results/NAME-TIMESTAMP)\n"
     "  --resume    keep the completed cells found in DIR/results.json and run the rest; refused\n"
     "              when the spec changed a setting that affects measurements (the differing keys\n"
     "              are named)\n"
     "  --force     with --resume: keep those cells anyway (each says so in its warnings)\n"
     "  --shard K/N run only shard K (0..N-1) of N: servers sharing an origin stay together, shards\n"
     "              balanced by estimated time; other shards' cells stay pending (sweepbench merge)\n"
     "Ctrl+C cancels: in-flight requests are aborted, profilers stopped, finished cells kept.\n"
     "A file that cannot be written (full disk, I/O error) stops the run at once with the file and\n"
     "the reason named; results.json keeps every cell finished before.\n"
     "Exit: 0 all cells completed, 1 some cell failed/skipped/cancelled, 2 spec or usage error or\n"
     "the run could not start (e.g. a refused --resume), 3 results could not be written."},
    {"demo", "sweepbench demo [--out DIR]",
     "Runs the built-in demo sweep headless against three embedded mock servers (vLLM, SGLang and\n"
     "TRT-LLM personalities) and prints the per-cell summary. Takes about a minute.\n"
     "Exit codes as for run."},
    {"validate", "sweepbench validate SPEC",
     "Checks a sweep YAML without running it. Every problem is printed as FILE:LINE:COLUMN: key path:\n"
     "what was expected. Exit 0 when valid, 2 otherwise."},
    {"hooks", "sweepbench hooks check SPEC",
     "Calls each server's enabled control hooks once (cache reset, profiler start and stop) and prints\n"
     "a verdict per call with hints, e.g. that vLLM was started without VLLM_SERVER_DEV_MODE=1.\n"
     "Exit 0 when every hook answered as it should, 1 otherwise, 2 for spec errors."},
    {"summary", "sweepbench summary PATH",
     "Prints a per-cell table of a result set: a SweepBench results folder or exported zip, an AIPerf\n"
     "artifact folder, vLLM bench serve --save-result JSON (a file or a folder of them), a GuideLLM\n"
     "benchmarks.json, an inference-perf report folder or a genai-bench experiment folder. For an\n"
     "import, the notes after the table list the tool's fields that were not mapped onto SweepBench's."},
    {"diff", "sweepbench diff BASE NEW [--metric KEY[.STAT]]... [--threshold 5%] [--alpha 0.05] [--markdown FILE] [--junit FILE]",
     "Regression gate for CI: compares two result sets (anything summary reads) per series (server\n"
     "name; a lone server on each side is paired whatever its name) and per point (concurrency or\n"
     "request rate). A difference is a regression only when it is worse than the threshold in the\n"
     "metric's worse direction AND significant after Holm's correction over every test made:\n"
     "  - the point ran at least twice on both sides: Welch's t-test on the runs' values;\n"
     "  - else TTFT, ITL, request latency: Mann–Whitney U (normal approximation, tie-corrected) on\n"
     "    the per-request values in records.jsonl. Requests of one run are not independent, so this\n"
     "    is optimistic: run with sweep.repeats ≥ 2 (3 is better) for a sound gate;\n"
     "  - else (throughputs: one value per run) \"not testable (1 run each)\", never flagged.\n"
     "Regressions are named: series, point, metric, base → new, Δ %, p (Holm-adjusted).\n"
     "  --metric KEY[.STAT]  a catalogue key (repeatable or comma-separated; default:\n"
     "                       output_token_throughput, time_to_first_token.p50, time_to_first_token.p99,\n"
     "                       inter_token_latency.p50, request_latency.p99); KEY alone = p50 or the value\n"
     "  --threshold P%       worse by more than P percent of BASE (default 5%)\n"
     "  --alpha A            significance level after Holm's correction (default 0.05)\n"
     "  --markdown FILE      a Markdown table for a CI job summary\n"
     "  --junit FILE         JUnit XML: one testcase per series × point, failing when any of its\n"
     "                       metrics regressed (every metric's line in its system-out)\n"
     "Refused (exit 2), saying why: different workloads (the spec fingerprint's workload section; not\n"
     "checked for imports), concurrency against request rate, no common series or points, an input\n"
     "that cannot be read, an unknown metric (the valid keys are listed).\n"
     "Exit: 0 no regression, 1 regression, 2 cannot compare or usage error, 3 a report file could\n"
     "not be written."},
    {"export", "sweepbench export RESULTS -o REPORT.zip [--spec SPEC] [--secret-env NAME] [--no-secret-check]",
     "Writes a self-contained report bundle: sweep.yaml, results.json, results.csv, per-cell\n"
     "records.jsonl, charts as SVG and PNG, report.html (works offline) and manifest.json (sha256\n"
     "of every file). API keys never appear in it: every file is scanned for the keys and\n"
     "credential headers of sweep.yaml, --spec and --secret-env. When sweep.yaml names an\n"
     "api_key_env variable that is not set now, the export is refused (it cannot scan for that\n"
     "key): set the variable, pass --secret-env NAME, or --no-secret-check."},
    {"merge", "sweepbench merge -o OUT SHARD_DIR...",
     "Merges the folders of a sharded run (run --shard K/N) into one results folder OUT: every cell\n"
     "from the shard that ran it, its records and traces copied, sweep.yaml and results.json written.\n"
     "Refused, naming the folders: shards of different specs or shard counts, a shard given twice,\n"
     "a cell run by two shards, missing shards. The GUI and summary open a folder of shard folders\n"
     "as one set without merging (cells of missing shards are pending).\n"
     "Exit: 0 every cell completed, 1 some did not, 2 refused, 3 OUT could not be written."},
    {"cluster", "sweepbench cluster slurm|k8s SPEC --shards N [--out DIR] [options] [--submit]",
     "Writes job files that run SPEC as N shards and merge them (docs/CLUSTER.md). Prints the plan:\n"
     "servers sharing an origin stay in one shard (hooks reset the whole server); shards are\n"
     "balanced by estimated time. More shards than independent servers leaves shards empty.\n"
     "  slurm: DIR/slurm/{shard.sbatch (job array), merge.sbatch (afterok), submit.sh}; DIR and\n"
     "         SPEC must be on storage every node sees. --partition P --account A --time T\n"
     "         --cpus N --sweepbench PATH; --submit runs submit.sh (sbatch).\n"
     "  k8s:   ./k8s-NAME/{shards-job.yaml (ConfigMap + Indexed Job), merge-job.yaml, apply.sh};\n"
     "         --image IMG --volume-claim PVC --cpus N (packaging/container/Containerfile).\n"
     "  --jobs-dir DIR  where the files go; --job-name NAME."},
    {"mock-server", "sweepbench mock-server --flavor vllm|sglang|trtllm|llamacpp [--port P] [--host H] [options]",
     nullptr /* the mock's own text */},
    {"help", "sweepbench help [COMMAND]", "Shows this overview, or the details of one command."},
};
} // namespace

QString mainHelpText()
{
    QString text = QStringLiteral("SweepBench %1 — benchmark LLM inference servers with concurrency sweeps\n\nUsage:\n")
                       .arg(QStringLiteral(SWEEPBENCH_VERSION));
    for (const auto &c : kCommands)
        text += QStringLiteral("  %1\n").arg(QString::fromUtf8(c.synopsis));
    text += QStringLiteral("\nOptions:\n  -h, --help     show this help\n  -v, --version  show the version\n"
                           "\nRun 'sweepbench help COMMAND' for details of a command.\n");
    return text;
}

QString commandHelpText(const QString &command)
{
    for (const auto &c : kCommands) {
        if (command != QLatin1String(c.name))
            continue;
        if (!c.text)
            return mockServerHelpText();
        return QStringLiteral("usage: %1\n\n%2\n").arg(QString::fromUtf8(c.synopsis), QString::fromUtf8(c.text));
    }
    return {};
}

int runHelpCommand(const QStringList &args)
{
    if (args.isEmpty()) {
        out() << mainHelpText();
        out().flush();
        return 0;
    }
    if (args.first() == QLatin1String("--all")) { // every page, for the man page
        out() << mainHelpText();
        for (const auto &c : kCommands)
            out() << "\n" << c.name << "\n" << commandHelpText(QString::fromLatin1(c.name));
        out().flush();
        return 0;
    }
    const QString text = commandHelpText(args.first());
    if (text.isEmpty()) {
        err() << "sweepbench help: unknown command '" << args.first() << "'\n" << mainHelpText();
        err().flush();
        return 2;
    }
    out() << text;
    out().flush();
    return 0;
}

} // namespace sb
