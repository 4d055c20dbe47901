#include "report/ReportExporter.h"
#include "report/BundleWriter.h"
#include "report/ReportCharts.h"
#include "report/ResultsLoader.h"
#include "results/HookSeverity.h"
#include "style/Theme.h"
#include <QApplication>
#include <QFile>

namespace sb::ui {

QMap<int, QByteArray> hookIconSvgs()
{
    initResources();
    QMap<int, QByteArray> icons;
    for (HookSeverity s : {HookSeverity::Ok, HookSeverity::Retried, HookSeverity::Warning, HookSeverity::Failed}) {
        QFile f(QStringLiteral(":/ui/icons/%1.svg").arg(hookSeverityIconName(s)));
        if (f.open(QIODevice::ReadOnly))
            icons.insert(int(s), f.readAll());
    }
    return icons;
}

bool exportReport(const QString &resultsFolder, const QString &zipPath, QString *error, ExportOutcome *outcome,
                  const ExportSecrets &secrets, const ExportChoices &choices)
{
    QString err;
    const auto loaded = loadResults(resultsFolder, &err);
    if (!loaded) {
        if (error)
            *error = err;
        return false;
    }
    BundleOptions options;
    options.extraSpecs = secrets.specs;
    options.extraSecrets = secrets.values;
    options.allowUnknownSecrets = secrets.allowUnknown;
    options.includeTraces = choices.includeTraces;
    options.hookIcons = hookIconSvgs();
    QStringList warnings;
    if (qobject_cast<QApplication *>(QCoreApplication::instance())) {
        RenderedCharts charts = renderReportCharts(loaded->results);
        options.chartFiles = charts.files;
        options.charts = charts.charts;
        warnings = charts.warnings;
    } else {
        warnings.append(QStringLiteral("charts left out: no QApplication (charts need a GUI application object)"));
    }
    options.warnings = warnings;
    BundleReport report;
    if (!writeBundle(*loaded, zipPath, options, &report, &err)) {
        if (error)
            *error = err;
        return false;
    }
    if (outcome) {
        outcome->files = report.files;
        outcome->warnings = report.warnings; // starts with ours (options.warnings)
    }
    return true;
}

} // namespace sb::ui
