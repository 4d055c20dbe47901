#include "CliCommon.h"
#include "report/DisplayText.h"
#include "SignalWatcher.h"
#include "engine/CellVerdict.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include "engine/SweepEngine.h"
#include "report/SummaryCommand.h"
#include "spec/SpecIO.h"
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QRegularExpression>
#include <QThread>
#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace sb {

QTextStream &out()
{
    static QTextStream s(stdout);
    return s;
}

QTextStream &err()
{
    static QTextStream s(stderr);
    return s;
}

namespace {
std::optional<SweepSpec> report(const SpecLoadResult &r)
{
    for (const auto &d : r.diagnostics)
        err() << d.toString() << '\n';
    err().flush();
    if (!r.ok())
        return std::nullopt;
    return r.spec;
}

QString formatEta(double s)
{
    if (s < 0)
        return QStringLiteral("--:--");
    const int t = int(s + 0.5);
    return QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}
} // namespace

std::optional<SweepSpec> loadSpecReporting(const QString &path, QByteArray *text)
{
    return report(loadSpecFile(path, text));
}

std::optional<SweepSpec> loadSpecTextReporting(const QByteArray &yaml, const QString &name)
{
    return report(loadSpecText(yaml, name));
}

QString defaultOutDir(const SweepSpec &spec)
{
    QString name = spec.name.isEmpty() ? QStringLiteral("sweep") : spec.name;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    return QDir::current().filePath(QStringLiteral("results/%1-%2").arg(name, QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
}

int usageError(const QString &command)
{
    err() << "try: sweepbench help " << command << '\n';
    err().flush();
    return 2;
}

void holdBeforeEventLoopForTests()
{
    // tst_cli sets this so that a run failing at once finishes before the event loop starts,
    // the order in which a lost quit() used to hang the CLI (docs/ARCHITECTURE.md §4).
    const int ms = qEnvironmentVariableIntValue("SWEEPBENCH_TEST_EXEC_DELAY_MS");
    if (ms > 0)
        QThread::msleep(ulong(std::min(ms, 10000)));
}

bool isUsageOption(const QString &arg)
{
    return arg == QLatin1String("-h") || arg == QLatin1String("--help");
}

int runSweepHeadless(const SweepSpec &spec, const RunOptions &options)
{
    const QString &outDir = options.outDir;
    SweepEngine engine(spec, options);
    SignalWatcher watcher;
    const bool tty = ::isatty(STDERR_FILENO);
    int exitCode = exitcode::kCannotStart;
    QObject::connect(&watcher, &SignalWatcher::interrupted, &engine, [&] {
        err() << "\ninterrupted: cancelling (profilers are still stopped; Ctrl+C again to quit at once)\n";
        err().flush();
        engine.cancel();
    });
    // The engine emits from its own thread. Every handler names a context living on this
    // thread (&engine), so it runs here, queued: the three-argument connect would run it on the
    // engine's thread, racing our own writes to stderr, and a quit() from there before exec()
    // has started is ignored (the run then never ends).
    QObject::connect(&engine, &SweepEngine::logMessage, &engine, [&](const QString &line) {
        err() << (tty ? "\r\033[K" : "") << displaySafe(line, DisplayLines::Single) << '\n'; // may quote a server
        err().flush();
    });
    qint64 lastLine = 0;
    QObject::connect(&engine, &SweepEngine::progress, &engine, [&](const ProgressSnapshot &p) {
        if (p.cellIndex < 0)
            return;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (!tty && now - lastLine < 5000 && p.phase == RunPhase::Measure)
            return; // logs and CI: a line every few seconds is plenty
        lastLine = now;
        const QString line = QStringLiteral("[%1/%2] %3 %4 %5 %6/%7 in flight %8  ETA %9")
                                 .arg(p.cellIndex + 1).arg(p.cellCount).arg(p.server, p.point, runPhaseName(p.phase))
                                 .arg(p.requestsDone).arg(p.requestsTarget > 0 ? QString::number(p.requestsTarget) : QStringLiteral("-"))
                                 .arg(p.inFlight).arg(formatEta(p.etaS));
        err() << (tty ? "\r\033[K" : "") << line << (tty ? "" : "\n");
        err().flush();
    });
    QObject::connect(&engine, &SweepEngine::cellFinished, &engine, [&](const CellResult &c) {
        err() << (tty ? "\r\033[K" : "") << displaySafe(cellOutcomeLine(c), DisplayLines::Single) << '\n'; // reason: server text
        for (const HookOutcome &h : c.hooks) // judged after the phase, so not in the hook's own log line
            if (h.metricsVerdict != MetricsVerdict::None)
                err() << "  reset on " << h.origin << ": " << describeMetricsVerdict(h.metricsVerdict, h.metricsCachedTokens) << '\n';
        for (const auto &w : c.warnings)
            err() << "  warning: " << displaySafe(w, DisplayLines::Single) << '\n';
        err().flush();
    });
    QObject::connect(&engine, &SweepEngine::finished, &engine, [&](int code) {
        exitCode = code;
        QCoreApplication::quit();
    });
    err() << "results: " << QDir(outDir).absolutePath() << '\n';
    err().flush();
    engine.start();
    holdBeforeEventLoopForTests();
    QCoreApplication::exec();
    if (exitCode == exitcode::kAllCompleted || exitCode == exitcode::kNotAllCompleted) {
        out() << '\n' << formatSummaryTable(engine.results());
        out() << "results written to " << engine.outDir() << '\n';
        out().flush();
    } else if (exitCode == exitcode::kWriteFailed) {
        // Never "results written" after a failed write: say what is on disk instead.
        err() << "run stopped: results could not be written (" << engine.failureMessage() << ")\n"
              << "the cells finished before the failure are in " << QDir(outDir).absoluteFilePath(QStringLiteral("results.json")) << '\n';
        err().flush();
    }
    return exitCode;
}

} // namespace sb
