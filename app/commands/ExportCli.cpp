#include "commands/ExportCli.h"
#include "report/ExportCommand.h"
#include "spec/SpecIO.h"
#include <QTextStream>

namespace sb {

namespace {
const char *kUsage = "usage: sweepbench export RESULTS -o REPORT.zip [--spec SPEC.yaml]\n"
                     "  RESULTS: a SweepBench results folder (or a zip, an AIPerf folder, vLLM bench JSON)\n"
                     "  -o, --output   the zip to write (default: RESULTS-report.zip beside RESULTS)\n"
                     "  --spec FILE    the spec you ran: its api_key values are kept out of the export too\n"
                     "  --secret-env NAME   also keep the value of environment variable NAME out (repeatable):\n"
                     "                 for a key the run read from an api_key_env variable that is not set now\n"
                     "  --no-secret-check   export although such a key cannot be scanned for (the run itself\n"
                     "                 scrubbed every key it knew)\n";
} // namespace

int runExportCommand(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QString input, output;
    ui::ExportSecrets secrets;
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
    return ui::runExport({input, output, secrets});
}

} // namespace sb
