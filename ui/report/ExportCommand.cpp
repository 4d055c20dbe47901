#include "report/ExportCommand.h"
#include "report/ReportExporter.h"
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>
#include <memory>

namespace sb::ui {

namespace {
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

int runExport(const ExportRequest &request)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    const QString &input = request.input;
    QString output = request.output;
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
    if (!exportReport(input, output, &error, &outcome, request.secrets)) {
        err << "sweepbench export: " << error << "\n";
        return 2;
    }
    for (const QString &w : std::as_const(outcome.warnings))
        err << "warning: " << w << "\n";
    out << "wrote " << QDir::toNativeSeparators(absOut) << " (" << outcome.files.size() << " files)\n";
    return 0;
}

} // namespace sb::ui
