// Our own observation kept out of the profiler windows it brackets (docs/server-metrics.md
// "Profiler windows"): a profiled server traces every /metrics scrape it answers, so by default
// none reach it while a window is open, yet the counters still cover the measured phase and prove
// the reset; and after a slow or failed stop the next cell waits until the window has settled.
#include "EngineFixture.h"
#include "TestSupport.h"
#include "engine/WindowSettle.h"
#include "hooks/HookPresets.h"
#include "engine/HookPreflight.h"
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <QTemporaryDir>
#include <atomic>
#include <thread>

using namespace sb;

namespace {
int inWindowLines(const QString &seriesPath)
{
    const QList<QJsonObject> lines = sbtest::readJsonLines(seriesPath);
    return int(std::count_if(lines.begin(), lines.end(), [](const QJsonObject &o) {
        return o.value(QStringLiteral("in_profiler_window")).toBool();
    }));
}

bool createFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write("{") == 1;
}

HookOutcome stopOutcome(bool ok, double latencyMs)
{
    HookOutcome o;
    o.hook = HookKind::ProfilerStop;
    o.ok = ok;
    o.latencyMs = latencyMs;
    return o;
}

HookTarget targetAt(const QString &origin)
{
    static const ServerSpec server = sbtest::serverAt(origin, QStringLiteral("s"));
    HookTarget t;
    t.server = &server;
    t.origin = origin;
    t.baseUrl = origin;
    return t;
}

// Appends to `path` every 100 ms for `ms`, as a server still writing its trace would.
std::thread keepWriting(const QString &path, int ms)
{
    return std::thread([path, ms] {
        QFile f(path);
        if (!f.open(QIODevice::Append))
            return;
        for (int t = 0; t < ms; t += 100) {
            f.write(QByteArray(4096, 'x'));
            f.flush();
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
}
// Settles a window whose trace file a server keeps writing for `writeMs` after `stop`, with the
// origin a live mock, bounded by `timeoutS`.
ProfilerWindowResult settleWhileWriting(int writeMs, const HookOutcome &stop, double timeoutS)
{
    QTemporaryDir dir;
    const TraceSnapshot before = TraceSnapshot::take(dir.path());
    const QString trace = dir.filePath(QStringLiteral("rank0.pt.trace.json"));
    if (!createFile(trace))
        return {};
    auto mock = MockServer::start(mockDefaults(Flavor::Vllm));
    if (!mock)
        return {};
    std::thread writer = keepWriting(trace, writeMs);
    SettleOptions options;
    options.timeoutS = timeoutS;
    options.pollS = 0.3;
    const std::atomic<bool> cancel{false};
    const ProfilerWindowResult r = settleProfilerWindow({targetAt(mock->url().toString())}, {stop}, before, options, cancel);
    writer.join();
    return r;
}
} // namespace

class TstProfilerWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // With the window open for the whole phase, the default sends no scrape into it: the baseline
    // comes before /start_profile, the last one after /stop_profile. The counters still cover
    // every measured request and still confirm the reset. window_interval_s brings scrapes back
    // inside the window, and each is marked so.
    void scrapesStayOutOfTheWindow_data()
    {
        QTest::addColumn<double>("windowInterval");
        QTest::newRow("default: none inside") << 0.0;
        QTest::newRow("window_interval_s: 0.05") << 0.05;
    }
    void scrapesStayOutOfTheWindow()
    {
        QFETCH(double, windowInterval);
        QTemporaryDir dir;
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.traceDir = dir.filePath(QStringLiteral("traces")); // vLLM writes where it was started to
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        ServerSpec server = sbtest::serverFor(QStringLiteral("s"), *mock, Flavor::Vllm);
        server.reset.enabled = true;
        server.profiler.enabled = true;
        server.profiler.traceDir = dir.filePath(QStringLiteral("traces"));
        server.metrics.intervalS = 0.05;
        server.metrics.windowIntervalS = windowInterval;
        SweepSpec spec = sbtest::smallSpec({server}, {4}, 40);
        spec.workload.inputTokens = 128;
        spec.workload.calibratePrompts = true; // no length warning to read past
        const auto r = sbtest::runSweep(spec, dir.path());
        QCOMPARE(r.results.cells.size(), 1);
        const CellResult &cell = r.results.cells.at(0);
        QVERIFY2(cell.status == CellStatus::Completed, qPrintable(cell.reason + cell.warnings.join('\n')));
        QVERIFY(cell.durationS > 0.3); // long enough for several scrapes at 0.05 s

        const int servedInWindow = mock->stats().metricsInWindow;
        const int markedInWindow = toJson(cell.serverMetricsInfo).value(QStringLiteral("window_scrapes")).toInt(-1);
        const int linesInWindow = inWindowLines(dir.filePath(toJson(cell.serverMetricsInfo).value(QStringLiteral("series")).toString()));
        if (windowInterval == 0) {
            QCOMPARE(servedInWindow, 0);
            QCOMPARE(markedInWindow, 0);
            QCOMPARE(linesInWindow, 0);
        } else {
            QVERIFY2(servedInWindow >= 3, qPrintable(QString::number(servedInWindow)));
            QCOMPARE(markedInWindow, servedInWindow);
            QCOMPARE(linesInWindow, servedInWindow);
        }
        QVERIFY(toJson(cell.serverMetricsInfo).value(QStringLiteral("scrapes")).toInt() >= 2); // before and after the window
        // Every measured request's tokens are in the counter delta, and the reset is proven.
        QCOMPARE(toJson(cell.serverMetrics.value(QStringLiteral("vllm:generation_tokens_total"))).value(QStringLiteral("delta")).toDouble(),
                 40.0 * spec.workload.outputTokens);
        const auto reset = std::find_if(cell.hooks.cbegin(), cell.hooks.cend(), [](const HookOutcome &o) { return o.hook == HookKind::Reset; });
        QVERIFY(reset != cell.hooks.cend());
        QCOMPARE(reset->metricsVerdict, MetricsVerdict::Confirmed);
        // The window closed cleanly: settled, traces complete, and said so in results.json.
        QVERIFY(cell.profilerWindow);
        QVERIFY(cell.profilerWindow->settled);
        QVERIFY(cell.profilerWindow->tracesComplete);
        QVERIFY(!cell.traces.isEmpty());
        const QByteArray onDisk = sbtest::readFile(dir.filePath(QStringLiteral("results.json")));
        QVERIFY(onDisk.contains("\"profiler_window\""));
        QVERIFY(onDisk.contains("\"traces_complete\": true"));
    }

    // A stop that failed (timed out) while the server still writes its trace: the next cell
    // waits until the files stop growing and the server answers, and the cell says its traces
    // may be cut short.
    void growingTracesAreWaitedFor()
    {
        const ProfilerWindowResult r = settleWhileWriting(1200, stopOutcome(false, 30000), 20);
        QVERIFY2(r.settled, qPrintable(r.why));
        QVERIFY2(r.settleS >= 1.0, qPrintable(QString::number(r.settleS))); // the file grew for 1.2 s
        QVERIFY(!r.tracesComplete);
        QVERIFY(r.why.contains(QStringLiteral("stop failed")));
        QCOMPARE(r.stopS, 30.0);
    }

    // Files still growing when the bound runs out: not settled, and the reason named.
    void unsettledWindowIsNamed()
    {
        const ProfilerWindowResult r = settleWhileWriting(3000, stopOutcome(true, 9000), 1);
        QVERIFY(!r.settled);
        QVERIFY(!r.tracesComplete);
        QCOMPARE(r.why, QStringLiteral("trace files still growing"));
    }

    // A server that does not answer after a failed stop is named; a quick good stop is not
    // waited for at all (the same dead origin does not matter then).
    void deadServerIsNamedQuickStopIsNot()
    {
        QTemporaryDir dir;
        const TraceSnapshot before = TraceSnapshot::take(dir.path());
        const QString dead = QStringLiteral("http://127.0.0.1:%1").arg(sbtest::freePort());
        SettleOptions options;
        options.timeoutS = 1.5;
        options.pollS = 0.3;
        const std::atomic<bool> cancel{false};
        const ProfilerWindowResult failed = settleProfilerWindow({targetAt(dead)}, {stopOutcome(false, 600000)}, before, options, cancel);
        QVERIFY(!failed.settled);
        QVERIFY2(failed.why.contains(QStringLiteral("did not answer")), qPrintable(failed.why));
        const ProfilerWindowResult quick = settleProfilerWindow({targetAt(dead)}, {stopOutcome(true, 120)}, before, options, cancel);
        QVERIFY(quick.settled);
        QVERIFY(quick.tracesComplete);
    }

    // hooks check names the settings that keep a window small, per flavor.
    void hooksCheckGivesWindowHints()
    {
        QVERIFY(profilerWindowHint(Flavor::Vllm).contains(QStringLiteral("ignore_frontend")));
        QVERIFY(profilerWindowHint(Flavor::Vllm).contains(QStringLiteral("torch_profiler_with_stack")));
        QVERIFY(profilerWindowHint(Flavor::Vllm).contains(QStringLiteral("max_iterations")));
        QVERIFY(profilerWindowHint(Flavor::Trtllm).contains(QStringLiteral("num_steps")));
        QVERIFY(profilerWindowHint(Flavor::Llamacpp).isEmpty());
        auto mock = MockServer::start(mockDefaults(Flavor::Vllm));
        QVERIFY(mock);
        QTemporaryDir dir;
        ServerSpec server = sbtest::serverFor(QStringLiteral("s"), *mock, Flavor::Vllm);
        server.profiler.enabled = true;
        server.profiler.traceDir = dir.path();
        SweepSpec spec = sbtest::smallSpec({server}, {1}, 1);
        HookPreflight preflight(spec);
        QSignalSpy checked(&preflight, &HookPreflight::serverChecked);
        QSignalSpy finished(&preflight, &HookPreflight::finished);
        preflight.start();
        QVERIFY(sbtest::waitForSignal(finished, 20000));
        QCOMPARE(checked.size(), 1);
        QVERIFY(checked[0][2].toStringList().contains(profilerWindowHint(Flavor::Vllm)));
    }
};

QTEST_GUILESS_MAIN(TstProfilerWindow)
#include "tst_profiler_window.moc"
