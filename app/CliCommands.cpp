#include "CliCommon.h"
#include "results/HookSeverity.h"
#include "report/DisplayText.h"
#include "Commands.h"
#include "engine/CalibrationReport.h"
#include "engine/HookPreflight.h"
#include "hooks/HookPresets.h"
#include "spec/LaunchVariants.h"
#include "spec/SecretSet.h"
#include "spec/SpecIO.h"
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QTemporaryDir>
#include <algorithm>

namespace sb {

namespace {
// Parses "--out DIR", "--resume" and one positional argument. Returns false on usage errors.
struct RunArgs {
    QString spec;
    QString outDir;
    bool resume = false;
    bool force = false;
    ShardId shard;
};

bool parseRunArgs(const QStringList &args, bool needSpec, RunArgs *r, const QString &command)
{
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("--out") || a == QLatin1String("-o")) {
            if (i + 1 >= args.size()) {
                err() << "sweepbench " << command << ": " << a << " needs a folder\n";
                return false;
            }
            r->outDir = args[++i];
        } else if (a.startsWith(QLatin1String("--out="))) {
            r->outDir = a.mid(6);
        } else if (a == QLatin1String("--resume")) {
            r->resume = true;
        } else if (a == QLatin1String("--force")) {
            r->force = true;
        } else if (needSpec && (a == QLatin1String("--shard") || a.startsWith(QLatin1String("--shard=")))) {
            const QString value = a.contains(QLatin1Char('=')) ? a.section(QLatin1Char('='), 1) : (i + 1 < args.size() ? args[++i] : QString());
            QString why;
            const auto shard = parseShardId(value, &why);
            if (!shard) {
                err() << "sweepbench " << command << ": " << why << "\n";
                return false;
            }
            r->shard = *shard;
        } else if (a.startsWith(QLatin1Char('-'))) {
            err() << "sweepbench " << command << ": unknown option " << a << "\n";
            return false;
        } else if (needSpec && r->spec.isEmpty()) {
            r->spec = a;
        } else {
            err() << "sweepbench " << command << ": unexpected argument " << a << "\n";
            return false;
        }
    }
    if (needSpec && r->spec.isEmpty()) {
        err() << "sweepbench " << command << ": missing SPEC (a sweep YAML file)\n";
        return false;
    }
    if (r->force && !r->resume) {
        err() << "sweepbench " << command << ": --force only applies to --resume\n";
        return false;
    }
    return true;
}
} // namespace

int runRunCommand(const QStringList &args)
{
    if (!args.isEmpty() && isUsageOption(args.first()))
        return runHelpCommand({QStringLiteral("run")});
    RunArgs r;
    if (!parseRunArgs(args, true, &r, QStringLiteral("run")))
        return usageError(QStringLiteral("run"));
    const auto spec = loadSpecReporting(r.spec);
    if (!spec)
        return 2;
    if (r.resume && r.outDir.isEmpty()) {
        err() << "sweepbench run: --resume needs --out DIR (the folder of the run to resume)\n";
        return 2;
    }
    RunOptions options{r.outDir.isEmpty() ? defaultOutDir(*spec) : r.outDir, r.resume, r.force};
    options.shard = r.shard;
    return runSweepHeadless(*spec, options);
}

int runDemoCommand(const QStringList &args)
{
    if (!args.isEmpty() && isUsageOption(args.first()))
        return runHelpCommand({QStringLiteral("demo")});
    RunArgs r;
    if (!parseRunArgs(args, false, &r, QStringLiteral("demo")))
        return usageError(QStringLiteral("demo"));
    QFile f(QStringLiteral(":/demo.yaml"));
    f.open(QIODevice::ReadOnly);
    const auto spec = loadSpecTextReporting(f.readAll(), QStringLiteral("demo.yaml"));
    if (!spec)
        return 2;
    QString outDir = r.outDir;
    if (outDir.isEmpty())
        outDir = QDir::temp().filePath(QStringLiteral("sweepbench-demo-%1").arg(QCoreApplication::applicationPid()));
    return runSweepHeadless(*spec, RunOptions{outDir, r.resume, r.force});
}

int runValidateCommand(const QStringList &args)
{
    if (args.size() != 1 || isUsageOption(args.first())) {
        if (!args.isEmpty() && isUsageOption(args.first()))
            return runHelpCommand({QStringLiteral("validate")});
        err() << "sweepbench validate: expected exactly one SPEC file\n";
        return usageError(QStringLiteral("validate"));
    }
    const auto spec = loadSpecReporting(args.first());
    if (!spec)
        return 2;
    // The workload's lengths and dataset: a dataset that cannot be read fails here, at its line.
    bool workloadOk = true;
    const QStringList workload = describeWorkload(*spec, &workloadOk);
    if (!workloadOk) {
        err() << "sweepbench validate: " << displaySafe(workload.join(QLatin1Char('\n')), DisplayLines::Keep) << '\n';
        return 2;
    }
    // Launch variants are series of their own (spec/LaunchVariants.h): counted and listed as run.
    const SweepSpec run = withLaunchVariantsExpanded(*spec);
    const int cells = int(run.servers.size() * run.cellsPerServer());
    out() << args.first() << ": ok — " << run.servers.size() << " server(s) × " << spec->pointCount()
          << (spec->openLoop.active() ? " request-rate point(s)" : " concurrency point(s)");
    if (spec->repeats > 1)
        out() << " × " << spec->repeats << " repeats";
    out() << " = " << cells << " cell(s)\n";
    const SecretSet secrets = SecretSet::fromSpec(run); // --api-key VALUE is not printed
    for (const ServerSpec &server : run.servers)
        if (!server.variantOf.isEmpty())
            out() << "  series " << displaySafe(server.name, DisplayLines::Single) << ": "
                  << displaySafe(secrets.scrub(server.launch.command.join(QLatin1Char(' '))), DisplayLines::Single) << '\n';
    for (const QString &line : workload)
        out() << "  " << displaySafe(line, DisplayLines::Single) << '\n';
    out().flush();
    return 0;
}

int runHooksCommand(const QStringList &args)
{
    if (args.size() != 2 || args.first() != QLatin1String("check")) {
        if (!args.isEmpty() && isUsageOption(args.last()))
            return runHelpCommand({QStringLiteral("hooks")});
        err() << "sweepbench hooks: expected 'hooks check SPEC'\n";
        return usageError(QStringLiteral("hooks"));
    }
    const auto spec = loadSpecReporting(args[1]);
    if (!spec)
        return 2;
    HookPreflight preflight(*spec);
    bool allOk = true;
    // The origin column matters for servers with several URLs: each origin is checked.
    out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                 .arg(QStringLiteral("SERVER"), -16).arg(QStringLiteral("ORIGIN"), -26).arg(QStringLiteral("HOOK"), -15)
                 .arg(QStringLiteral("PATH"), -24).arg(QStringLiteral("HTTP"), 4).arg(QStringLiteral("VERDICT"), -15)
                 .arg(QStringLiteral("MESSAGE"));
    QHash<QString, QStringList> printedHints; // per server: not printed again after its hooks
    auto printRow = [](const QString &server, const HookOutcome &o, HookSeverity severity) {
        out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                     .arg(server, -16).arg(o.origin, -26).arg(hookKindName(o.hook), -15).arg(o.path, -24).arg(o.status, 4)
                     .arg(hookSeverityGlyph(severity) + QLatin1Char(' ') + hookVerdictText(o), -15)
                     .arg(displaySafe(o.message, DisplayLines::Single)); // server text
    };
    // Handlers run on this thread (context &preflight), not on the checker's: see runSweepHeadless.
    // First whether the server answers and serves the model (engine/ServerPreflight.h): judged by
    // severity, so a server without /v1/models warns (⚠) without failing the check.
    QObject::connect(&preflight, &HookPreflight::serverReached, &preflight, [&](const QString &server, const QList<HookOutcome> &checks, const QStringList &hints) {
        for (const auto &o : checks) {
            const HookSeverity severity = hookSeverity(o);
            allOk = allOk && severity != HookSeverity::Failed;
            printRow(server, o, severity);
        }
        for (const auto &h : hints) {
            // The GPU telemetry's hint repeats its row's message (for the designer's table).
            const bool inARow = std::any_of(checks.begin(), checks.end(), [&](const HookOutcome &o) { return !o.message.isEmpty() && h.endsWith(o.message); });
            if (!inARow)
                out() << "    hint: " << displaySafe(h, DisplayLines::Single) << '\n';
        }
        printedHints[server] = hints;
        out().flush();
    });
    QObject::connect(&preflight, &HookPreflight::serverChecked, &preflight, [&](const QString &server, const QList<HookOutcome> &outcomes, const QStringList &hints) {
        if (outcomes.isEmpty())
            out() << QStringLiteral("%1 (no hooks enabled)\n").arg(server, -20);
        for (const auto &o : outcomes) { // as the GUI's check judges them: a failed profiler stop warns
            const HookSeverity severity = hookSeverity(o);
            allOk = allOk && severity != HookSeverity::Failed;
            printRow(server, o, severity);
        }
        for (const auto &h : hints) {
            // A hint the verdict's message already ends with is not printed twice; calibration
            // lines (engine/CalibrationReport) are findings, not advice.
            const bool inAMessage = std::any_of(outcomes.begin(), outcomes.end(), [&](const HookOutcome &o) { return o.message.contains(h); })
                                    || printedHints.value(server).contains(h);
            if (!inAMessage)
                out() << (h.startsWith(QLatin1String("prompt calibration")) ? "    " : "    hint: ") << displaySafe(h, DisplayLines::Single) << '\n';
        }
        out().flush();
    });
    QObject::connect(&preflight, &HookPreflight::finished, &preflight, [] { QCoreApplication::quit(); });
    preflight.start();
    holdBeforeEventLoopForTests();
    QCoreApplication::exec();
    // After the table: the workload the calibration lines above were made for. The table's lines
    // come scrubbed from the preflight; these are scrubbed here, so no line shows a key.
    bool workloadOk = true;
    const SecretSet secrets = SecretSet::fromSpec(*spec);
    for (const QString &line : describeWorkload(*spec, &workloadOk))
        out() << "workload " << displaySafe(secrets.scrub(line), DisplayLines::Single) << '\n';
    out().flush();
    return allOk && workloadOk ? 0 : 1;
}

} // namespace sb
