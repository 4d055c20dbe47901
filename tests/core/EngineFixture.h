#pragma once
// Shared by the engine and hook tests: specs pointing at in-test mock servers and a blocking
// "run this sweep" helper that drives the real engine over real loopback sockets.
#include "TestSupport.h"
#include "engine/SweepEngine.h"
#include "mock/MockServer.h"
#include <QSignalSpy>
#include <QTest>

namespace sbtest {

inline sb::ServerSpec serverFor(const QString &name, const sb::MockServer &mock, sb::Flavor flavor)
{
    sb::ServerSpec s;
    s.name = name;
    s.urls = {mock.url().toString()};
    s.model = QStringLiteral("demo-model");
    s.flavor = flavor;
    return s;
}

// A server spec for a test peer at `url` (a hostile or tokenizing server) serving `model`.
inline sb::ServerSpec serverAt(const QString &url, const QString &name, const QString &model = QStringLiteral("m"))
{
    sb::ServerSpec s;
    s.name = name;
    s.urls = {url};
    s.model = model;
    return s;
}

inline sb::SweepSpec smallSpec(const QList<sb::ServerSpec> &servers, const QList<int> &concurrency, int requests)
{
    sb::SweepSpec spec;
    spec.name = QStringLiteral("test");
    spec.servers = servers;
    spec.concurrency = concurrency;
    spec.workload.requestsPerCell = requests;
    spec.workload.inputTokens = 32;
    spec.workload.outputTokens = 8;
    spec.workload.requestTimeoutS = 30;
    // These tests count the requests each server saw; calibration probes are tested on their own
    // (tst_prompt_calibration).
    spec.workload.calibratePrompts = false;
    return spec;
}

struct RunResult {
    int exitCode = -1;
    sb::SweepResults results;
    QList<sb::HookOutcome> hookSignals;
    QList<sb::CellKey> hookCells; // the cell each hookSignals entry was sent for
    QString failure;              // the engine's failureMessage() (why it stopped), if any
    QStringList log;              // the engine's logMessage lines, in order
};

inline RunResult runSweep(const sb::SweepSpec &spec, const QString &outDir, bool resume = false, int timeoutMs = 180000)
{
    RunResult r;
    sb::SweepEngine engine(spec, sb::RunOptions{outDir, resume});
    QSignalSpy finished(&engine, &sb::SweepEngine::finished);
    QObject::connect(&engine, &sb::SweepEngine::hookCalled, &engine, [&](const sb::CellKey &cell, const sb::HookOutcome &o) {
        r.hookSignals.append(o);
        r.hookCells.append(cell);
    });
    QObject::connect(&engine, &sb::SweepEngine::logMessage, &engine, [&](const QString &line) { r.log.append(line); });
    engine.start();
    if (!sbtest::waitForSignal(finished, timeoutMs)) {
        engine.cancel();
        sbtest::waitForSignal(finished, 30000);
    }
    r.exitCode = finished.isEmpty() ? -1 : finished.first().first().toInt();
    r.results = engine.results();
    r.failure = engine.failureMessage();
    return r;
}

inline sb::MockConfig timedMock(sb::Flavor flavor)
{
    // Server timing known exactly: TTFT = base + prefill = 50 ms (first token at the end of the
    // prefill step), then one token every 10 ms, whatever the batch.
    sb::MockConfig c = sb::mockDefaults(flavor);
    c.stepBaseMs = 10;
    c.stepPerSeqMs = 0;
    c.prefillPerTokenMs = 40.0 / 32.0; // 32-token prompts
    c.maxBatch = 4096;
    c.maxPrefillTokens = 1 << 30;
    return c;
}

} // namespace sbtest
