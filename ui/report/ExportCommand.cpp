#include "report/ExportCommand.h"
#include "report/ReportExporter.h"
#include "spec/SpecIO.h"
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>
#include <memory>

namespace sb::ui {

namespace {
const char *kUsage = "usage: sweepbench export RESULTS -o REPORT.zip [--spec SPEC.yaml]\n"
                     "  RESULTS: a SweepBench results folder (or a zip, an AIPerf folder, vLLM bench JSON)\n"
                     "  -o, --output   the zip to write (default: RESULTS-report.zip beside RESULTS)\n"
                     "  --spec FILE    the spec you ran: its api_key values are kept out of the export too\n"
                     "  --secret-env NAME   also keep the value of environment variable NAME out (repeatable):\n"
                     "                 for a key the run read from an api_key_env variable that is not set now\n"
                     "  --no-secret-check   export although such a key cannot be scanned for (the run itself\n"
                     "                 scrubbed every key it knew)\n";

// Charts need QApplication; on a headless box the offscreen platform does the job.
std::unique_ptr<QApplication> ensureApplication()
{
    if (QCoreApplication::instance())
        return nullptr;
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "sweepbench";
    static char *argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}
} // namespace

int runExportCommand(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QString input, output;
    ExportSecrets secrets;
    QList<QByteArray> &specs = secrets.specs;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("-h") || a == QLatin1String("--help")) {
            out << kUsage;
            return 0;
        }
        if (a == QLatin1String("--no-secret-check")) {
            secrets.allowUnknown = true;
            continue;
        }
        if (a == QLatin1String("--secret-env") && i + 1 < args.size()) {
            const QString name = args[++i];
            const QString value = qEnvironmentVariable(name.toLocal8Bit().constData()).trimmed();
            if (value.isEmpty()) { // never silently weaker than asked
                err << "sweepbench export: --secret-env " << name << ": the variable is not set\n";
                return 2;
            }
            secrets.values.append(value);
            continue;
        }
        if ((a == QLatin1String("-o") || a == QLatin1String("--output") || a == QLatin1String("--spec")) && i + 1 < args.size()) {
            const QString value = args[++i];
            if (a == QLatin1String("--spec")) {
                QByteArray text;
                QString error;
                if (!readSpecFile(value, &text, &error)) {
                    err << "sweepbench export: --spec: " << error << "\n";
                    return 2;
                }
                specs.append(text);
            } else {
                output = value;
            }
        } else if (!a.startsWith(QLatin1Char('-')) && input.isEmpty()) {
            input = a;
        } else {
            err << "sweepbench export: unexpected argument " << a << "\n" << kUsage;
            return 2; // usage error, like every other subcommand
        }
    }
    if (input.isEmpty()) {
        err << kUsage;
        return 2; // usage error, like every other subcommand
    }
    if (output.isEmpty())
        output = QFileInfo(input).absoluteFilePath() + QStringLiteral("-report.zip");
    if (!output.endsWith(QLatin1String(".zip"), Qt::CaseInsensitive)) {
        err << "sweepbench export: the output must be a .zip file\n";
        return 2; // usage error, like every other subcommand
    }
    const QString absOut = QFileInfo(output).absoluteFilePath();
    const QString absIn = QFileInfo(input).absoluteFilePath();
    if (absOut.startsWith(absIn + QLatin1Char('/'))) {
        // The results folder is evidence: exports never write into it.
        err << "sweepbench export: write the zip outside the results folder\n";
        return 2; // usage error, like every other subcommand
    }

    const std::unique_ptr<QApplication> app = ensureApplication();
    QString error;
    ExportOutcome outcome;
    if (!exportReport(input, output, &error, &outcome, secrets)) {
        err << "sweepbench export: " << error << "\n";
        return 2;
    }
    for (const QString &w : std::as_const(outcome.warnings))
        err << "warning: " << w << "\n";
    out << "wrote " << QDir::toNativeSeparators(absOut) << " (" << outcome.files.size() << " files)\n";
    return 0;
}

} // namespace sb::ui
