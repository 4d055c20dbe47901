// sweepbench-uistall: the longest UI-thread gap while the real main window runs a sweep.
// Opens MainWindow offscreen, starts a C=1024 sweep (Run tab, live chart, hook log)
// against an in-process MockServer through MainWindow::startRun, and measures the gaps of a
// 5 ms heartbeat timer on the GUI thread until the run has finished and the Results view has
// loaded. Prints one JSON object. Bounded by --requests and --max-seconds.
#include "load/PhaseState.h"
#include "mainwindow/MainWindow.h"
#include "mock/MockServer.h"
#include "run/RunTab.h"
#include "style/Theme.h"
#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <vector>

using namespace sb;

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QStandardPaths::setTestModeEnabled(true); // recent files and settings stay out of the user's
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("SweepBenchBench"));
    QApplication::setApplicationName(QStringLiteral("uistall"));
    ui::initResources();
    ui::applyTheme(ui::ThemeMode::Light);
    int concurrency = 1024, requests = 8192, outputTokens = 64;
    double maxSeconds = 120;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("-c"))
            concurrency = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--requests"))
            requests = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--output-tokens"))
            outputTokens = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--max-seconds"))
            maxSeconds = args[i + 1].toDouble();
    }

    // A fast mock so the client, not the mock's model, sets the pace (most events per second).
    MockConfig mc = mockDefaults(Flavor::Vllm);
    mc.stepBaseMs = 2.0;
    mc.stepPerSeqMs = 0.0;
    mc.prefillPerTokenMs = 0.0;
    mc.maxBatch = 4096;
    mc.maxPrefillTokens = 1 << 24;
    QString err;
    auto mock = MockServer::start(mc, &err);
    if (!mock) {
        std::fprintf(stderr, "mock: %s\n", qPrintable(err));
        return 2;
    }

    SweepSpec spec;
    spec.name = QStringLiteral("ui-stall");
    ServerSpec s;
    s.name = QStringLiteral("mock");
    s.urls = {mock->url().toString()};
    s.model = QStringLiteral("demo-model");
    s.flavor = Flavor::Vllm;
    spec.servers << s;
    spec.workload.streaming = true;
    spec.workload.inputTokens = 16;
    spec.workload.outputTokens = outputTokens;
    spec.workload.requestsPerCell = requests;
    spec.workload.warmupRequests = 0;
    spec.workload.requestTimeoutS = 60;
    spec.concurrency = {concurrency};

    QTemporaryDir out;
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    window.setSpec(spec);

    std::vector<double> gapsMs;
    gapsMs.reserve(100000);
    QElapsedTimer clock;
    qint64 lastNs = -1;
    bool running = false, finished = false;
    double maxRunGap = 0, maxAfterGap = 0;
    // What the UI thread did during its longest gap: ran (its own work) or waited for a CPU
    // (other threads held both cores): the same per-thread clocks the engine's validity uses.
    const ThreadRunDelay runDelay; // on this (the UI) thread
    auto schedstat = [&runDelay] { return std::pair<double, double>{threadCpuSeconds() * 1e3, runDelay.seconds() * 1e3}; };
    std::pair<double, double> lastSched{0, 0};
    double maxGapCpuMs = 0, maxGapWaitMs = 0, maxGapAtS = 0;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(5);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const auto sched = schedstat();
        if (lastNs >= 0) {
            const double gap = double(now - lastNs) / 1e6;
            if (running) {
                gapsMs.push_back(gap);
                if (gap > maxRunGap) {
                    maxRunGap = gap;
                    maxGapCpuMs = sched.first - lastSched.first;
                    maxGapWaitMs = sched.second - lastSched.second;
                    maxGapAtS = double(now) / 1e9;
                }
            } else if (finished) {
                maxAfterGap = std::max(maxAfterGap, gap);
            }
        }
        lastNs = now;
        lastSched = sched;
    });
    int exitCode = -1;
    double runWallS = 0;
    QObject::connect(window.runTab(), &ui::RunTab::runFinished, [&](int code, const QString &) {
        exitCode = code;
        running = false;
        finished = true;
        runWallS = double(clock.nsecsElapsed()) / 1e9;
        // Keep beating while the window loads the results, then stop.
        QTimer::singleShot(2000, &app, &QApplication::quit);
    });
    QTimer::singleShot(int(maxSeconds * 1000), &app, [&] {
        window.runTab()->cancel();
        QTimer::singleShot(5000, &app, &QApplication::quit);
    });
    QTimer::singleShot(200, &app, [&] {
        clock.start();
        heartbeat.start();
        running = true;
        if (!window.startRun(out.path())) {
            std::fprintf(stderr, "the window refused to start the run\n");
            app.exit(2);
        }
    });
    app.exec();
    heartbeat.stop();

    std::sort(gapsMs.begin(), gapsMs.end());
    auto pct = [&](double p) { return gapsMs.empty() ? 0.0 : gapsMs[std::size_t(p / 100.0 * double(gapsMs.size() - 1))]; };
    const auto over50 = std::count_if(gapsMs.begin(), gapsMs.end(), [](double g) { return g > 50; });
    const SweepResults r = window.runTab()->results();
    const CellResult cell = r.cells.value(0);
    QJsonObject o{{"bench", "ui_stall"}, {"concurrency", concurrency}, {"exit_code", exitCode}, {"status", sb::cellStatusName(cell.status)},
                  {"completed", cell.completed}, {"run_wall_s", runWallS}, {"heartbeat_ms", 5},
                  {"ticks", int(gapsMs.size())}, {"max_gap_ms", maxRunGap}, {"p99_gap_ms", pct(99)}, {"p50_gap_ms", pct(50)},
                  {"max_gap_ui_cpu_ms", maxGapCpuMs}, {"max_gap_ui_wait_ms", maxGapWaitMs}, {"max_gap_at_s", maxGapAtS},
                  {"gaps_over_50ms", int(over50)}, {"max_gap_after_finish_ms", maxAfterGap},
                  {"server_max_in_flight", mock->stats().maxInFlight}};
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    return exitCode == 0 ? 0 : 1;
}
