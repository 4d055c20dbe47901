#include "GuiMain.h"
#include "io/DurableWrite.h"
#include <QBuffer>
#include "mainwindow/MainWindow.h"
#include "charts/ChartsPanel.h"
#include "compare/CompareView.h"
#include "results/ResultsView.h"
#include "report/ExportFlow.h"
#include <QFileDialog>
#include <algorithm>
#include <QMessageBox>
#include "results/ResultsView.h"
#include "run/RunTab.h"
#include "spec/SpecIO.h"
#include "style/Theme.h"
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>

namespace sb::ui {

namespace {

constexpr int kScreenshotSettleMs = 1500; // lets the Results view finish its coalesced chart rebuild
constexpr int kDemoWatchdogMs = 15 * 60 * 1000;

QString demoOutDir(const GuiOptions &opts)
{
    if (!opts.outDir.isEmpty())
        return opts.outDir;
    return QDir::tempPath() + QStringLiteral("/sweepbench-demo-")
        + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

void fail(const QString &message)
{
    std::fprintf(stderr, "sweepbench: %s\n", qPrintable(message));
}

// Starts the embedded demo; false when the spec cannot be loaded or the run cannot start.
bool startDemo(ui::MainWindow &window, const GuiOptions &opts)
{
    QFile file(QStringLiteral(":/demo.yaml"));
    if (!file.open(QIODevice::ReadOnly)) {
        fail(QStringLiteral("the embedded demo sweep is missing"));
        return false;
    }
    const SpecLoadResult loaded = loadSpecText(file.readAll(), QStringLiteral("demo.yaml"));
    if (!loaded.ok()) {
        for (const SpecDiagnostic &d : loaded.diagnostics)
            fail(d.toString());
        return false;
    }
    window.setSpec(*loaded.spec, QStringLiteral(":/demo.yaml"));
    const QString out = demoOutDir(opts);
    std::printf("sweepbench: demo results go to %s\n", qPrintable(QDir::toNativeSeparators(out)));
    std::fflush(stdout);
    return window.startRun(out);
}

int tabIndex(const QString &tab)
{
    if (tab == QLatin1String("design"))
        return ui::MainWindow::DesignIndex;
    if (tab == QLatin1String("run"))
        return ui::MainWindow::RunIndex;
    if (tab == QLatin1String("compare"))
        return ui::MainWindow::CompareIndex;
    return ui::MainWindow::ResultsIndex;
}

// --chart: the left chart of Results and Compare.
void chooseChart(ui::MainWindow &window, const QString &chart)
{
    if (chart.isEmpty())
        return;
    const bool pareto = chart.startsWith(QLatin1String("pareto"));
    const ParetoX x = chart == QLatin1String("pareto-ttft")     ? ParetoX::Ttft
                      : chart == QLatin1String("pareto-energy") ? ParetoX::EnergyPerToken
                      : chart == QLatin1String("pareto-cost")   ? ParetoX::CostPerMillionOutput
                                                                : ParetoX::TokensPerUser;
    window.resultsView()->chartsPanel()->setParetoView(pareto, x);
    window.compareView()->chartsPanel()->setParetoView(pareto, x);
}

void saveScreenshotAndQuit(ui::MainWindow &window, const GuiOptions &opts)
{
    const QString path = opts.screenshotPath;
    window.tabs()->setCurrentIndex(tabIndex(opts.tab));
    if (opts.tab == QLatin1String("trace"))
        window.resultsView()->showTraceTab();
    // By default wide enough that the per-cell table shows every column, hook icons and trace
    // links included; --size asks for exactly that size (the README's small-screen pictures).
    if (opts.size.isValid())
        window.resize(opts.size);
    else
        window.resize(std::max(window.width(), 1680), std::max(window.height(), 940));
    window.repaint();
    QTimer::singleShot(kScreenshotSettleMs, &window, [&window, path] {
        const QPixmap picture = window.grab();
        QByteArray png;
        QBuffer buffer(&png);
        QString why = QStringLiteral("the window could not be captured");
        if (picture.isNull() || !buffer.open(QIODevice::WriteOnly) || !picture.save(&buffer, "PNG")
            || !writeFileAtomically(path, png, &why)) {
            fail(QStringLiteral("could not write the screenshot %1: %2").arg(path, why));
            QCoreApplication::exit(1);
            return;
        }
        std::printf("sweepbench: screenshot saved to %s\n", qPrintable(path));
        QCoreApplication::exit(0);
    });
}

} // namespace

int runGui(int argc, char **argv, const GuiOptions &opts)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("SweepBench"));
    QApplication::setOrganizationDomain(QStringLiteral("sweepbench.github.io"));
    QApplication::setApplicationName(QStringLiteral("SweepBench"));
    QApplication::setApplicationVersion(QStringLiteral(SWEEPBENCH_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.sweepbench.SweepBench"));
    ui::initResources();
    // A screenshot shows the defaults (docks, splitters, window size), whatever this machine
    // remembers, and leaves the remembered settings alone: its settings live in a folder that
    // goes away with it.
    QTemporaryDir screenshotSettings;
    if (!opts.screenshotPath.isEmpty() && screenshotSettings.isValid())
        for (QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat})
            QSettings::setPath(format, QSettings::UserScope, screenshotSettings.path());
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/ui/app.svg")));
    // Screenshots use the light palette unless --theme says otherwise, so README pictures do not
    // depend on a setting.
    const bool dark = !opts.theme.isEmpty() ? opts.theme == QLatin1String("dark")
                                            : opts.screenshotPath.isEmpty() && QSettings().value(QStringLiteral("darkTheme")).toBool();
    ui::applyTheme(dark ? ui::ThemeMode::Dark : ui::ThemeMode::Light);

    ui::MainWindow window;
    QObject::connect(&window, &ui::MainWindow::exportReportRequested, &window, [&window](const QString &folder) {
        ui::exportReportInteractively(&window, folder); // report/ExportFlow.h
    });
    if (opts.size.isValid())
        window.resize(opts.size);
    chooseChart(window, opts.chart);
    window.show();
    // The sets compared last time come back (missing ones are dropped with a status message);
    // not for screenshots, which must not depend on this machine's history.
    if (opts.screenshotPath.isEmpty())
        QTimer::singleShot(0, &window, [&window] { window.compareView()->restoreSavedSets(); });

    for (const QString &path : opts.comparePaths) {
        QString error;
        if (!window.compareView()->addResultSet(path, &error)) {
            fail(error);
            if (!opts.screenshotPath.isEmpty())
                return 1;
        }
    }

    if (opts.demo) {
        if (!opts.screenshotPath.isEmpty()) {
            QObject::connect(window.runTab(), &ui::RunTab::runFinished, &window, [&window, &opts](int exitCode) {
                if (exitCode == 2) {
                    fail(QStringLiteral("the demo sweep could not start"));
                    QCoreApplication::exit(1);
                    return;
                }
                saveScreenshotAndQuit(window, opts);
            });
            QTimer::singleShot(kDemoWatchdogMs, &app, [] {
                fail(QStringLiteral("the demo sweep did not finish in time"));
                QCoreApplication::exit(1);
            });
        }
        if (!startDemo(window, opts) && !opts.screenshotPath.isEmpty())
            return 1;
    } else if (!opts.openPath.isEmpty()) {
        QString error;
        if (!window.openPath(opts.openPath, &error, /*quiet=*/true)) {
            fail(error); // the window still opens, empty, so the user can pick another file
            if (!opts.screenshotPath.isEmpty())
                return 1;
            QTimer::singleShot(0, &window, [&window, error] { window.announceOpenFailure(error); });
        } else if (!opts.screenshotPath.isEmpty()) {
            // A picture of a result set (or spec) already on disk: no run needed.
            QTimer::singleShot(0, &window, [&window, &opts] { saveScreenshotAndQuit(window, opts); });
        }
    } else if (!opts.comparePaths.isEmpty() && !opts.screenshotPath.isEmpty()) {
        QTimer::singleShot(0, &window, [&window, &opts] { saveScreenshotAndQuit(window, opts); }); // a picture of Compare
    }
    return app.exec();
}

} // namespace sb::ui
