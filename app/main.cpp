// sweepbench: the desktop workbench by default; headless subcommands for CI and remote boxes.
#include "CliCommon.h"
#include "Commands.h"
#include "commands/MockServerCli.h"
#include "commands/SummaryCli.h"
#include <QCoreApplication>
#include <QStringList>
#ifdef SWEEPBENCH_WITH_GUI
#include "GuiMain.h"
#include "commands/ExportCli.h"
#include "commands/GuiCli.h"
#endif

namespace {

#ifdef SWEEPBENCH_WITH_GUI
// Only the GUI asks: a build without it (SWEEPBENCH_BUILD_GUI=OFF) is headless anyway.
bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
           || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}
#endif

int runHeadless(int argc, char **argv, int (*command)(const QStringList &), const QStringList &args)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sweepbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SWEEPBENCH_VERSION));
    return command(args);
}

int runMock(const QStringList &args)
{
    QStringList withProgram = args;
    withProgram.prepend(QStringLiteral("sweepbench mock-server"));
    return sb::runMockServerCommand(withProgram);
}

#ifdef SWEEPBENCH_WITH_GUI
int runGuiFromArgs(int argc, char **argv, const QStringList &args)
{
    sb::ui::GuiOptions opts;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("--demo")) {
            opts.demo = true;
        } else if (a == QLatin1String("--compare") && i + 1 < args.size()) {
            opts.comparePaths.append(args[++i]);
        } else if ((a == QLatin1String("--screenshot") || a == QLatin1String("--out")) && i + 1 < args.size()) {
            (a == QLatin1String("--out") ? opts.outDir : opts.screenshotPath) = args[++i];
        } else if ((a == QLatin1String("--theme") || a == QLatin1String("--size") || a == QLatin1String("--tab")
                    || a == QLatin1String("--chart")) && i + 1 < args.size()) {
            QString error;
            if (!sb::parseGuiOption(a, args[++i], &opts, &error)) {
                QCoreApplication app(argc, argv);
                sb::err() << "sweepbench: " << error << "\n";
                return 2;
            }
        } else if (a.startsWith(QLatin1Char('-'))) {
            QCoreApplication app(argc, argv);
            sb::err() << "sweepbench: unknown option " << a << "\n" << sb::mainHelpText();
            return 2;
        } else if (opts.openPath.isEmpty()) {
            opts.openPath = a;
        } else {
            QCoreApplication app(argc, argv);
            sb::err() << "sweepbench: unexpected argument " << a << "\n";
            return 2;
        }
    }
    if (opts.demo && !hasDisplay() && opts.screenshotPath.isEmpty()) {
        // No screen to show it on: run the same demo headless and print its summary.
        QStringList demoArgs;
        if (!opts.outDir.isEmpty())
            demoArgs << QStringLiteral("--out") << opts.outDir;
        return runHeadless(argc, argv, sb::runDemoCommand, demoArgs);
    }
    return sb::ui::runGui(argc, argv, opts);
}
#endif

} // namespace

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    const QString command = args.isEmpty() ? QString() : args.first();
    const QStringList rest = args.mid(1);

    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        std::printf("sweepbench %s\n", SWEEPBENCH_VERSION);
        return 0;
    }
    if (command == QLatin1String("--help") || command == QLatin1String("-h"))
        return runHeadless(argc, argv, sb::runHelpCommand, {});
    struct Entry {
        const char *name;
        int (*fn)(const QStringList &);
    };
    static const Entry headless[] = {
        {"run", sb::runRunCommand},         {"demo", sb::runDemoCommand}, {"validate", sb::runValidateCommand},
        {"hooks", sb::runHooksCommand},     {"help", sb::runHelpCommand}, {"summary", sb::runSummaryCommand},
        {"mock-server", runMock},           {"merge", sb::runMergeCommand}, {"cluster", sb::runClusterCommand},
        {"diff", sb::runDiffCommand},
    };
    for (const auto &e : headless)
        if (command == QLatin1String(e.name))
            return runHeadless(argc, argv, e.fn, rest);
#ifdef SWEEPBENCH_WITH_GUI
    if (command == QLatin1String("export"))
        return sb::runExportCommand(rest); // creates its own (offscreen-capable) application
    return runGuiFromArgs(argc, argv, args);
#else
    QCoreApplication app(argc, argv);
    sb::err() << "sweepbench: this build has no GUI; see 'sweepbench help'\n";
    return 2;
#endif
}
