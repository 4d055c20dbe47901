#pragma once
// Headless subcommands. Each takes the arguments after its name and returns the exit code:
// 0 success, 1 some cells not completed (run/demo) or a check failed, 2 spec or usage error,
// 3 results could not be written (run/demo; engine/SweepEngine.h exitcode).
#include <QStringList>

namespace sb {

int runRunCommand(const QStringList &args);        // sweepbench run SPEC [--out DIR] [--resume [--force]]
int runDemoCommand(const QStringList &args);       // sweepbench demo [--out DIR]
int runValidateCommand(const QStringList &args);   // sweepbench validate SPEC
int runHooksCommand(const QStringList &args);      // sweepbench hooks check SPEC
int runHelpCommand(const QStringList &args);       // sweepbench help [COMMAND]
int runMergeCommand(const QStringList &args);      // sweepbench merge -o OUT SHARD_DIR...
int runClusterCommand(const QStringList &args);    // sweepbench cluster slurm|k8s SPEC --shards N ...
int runDiffCommand(const QStringList &args);       // sweepbench diff BASE NEW [--metric M]... (0 pass, 1 regression, 2 cannot compare, 3 write failed)

QString mainHelpText();
QString commandHelpText(const QString &command);   // empty when unknown

} // namespace sb
