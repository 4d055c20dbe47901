#include "engine/HookPreflight.h"
#include "engine/CalibrationReport.h"
#include "engine/EmbeddedMocks.h"
#include "engine/ServerIdentity.h"
#include "engine/ServerPreflight.h"
#include "engine/TelemetryPreflight.h"
#include "hooks/HookPresets.h"
#include "hooks/HookRunner.h"
#include "hooks/LlamacppProbe.h"
#include "launch/CommandLine.h"
#include "launch/LaunchedServers.h"
#include "load/RequestFactory.h"
#include "spec/LaunchVariants.h"
#include <QDir>
#include <QTemporaryDir>
#include <QThread>

namespace sb {

// Runs on its own thread: the control client blocks while it waits for answers.
class HookPreflightWorker : public QThread
{
public:
    // A launched server's variants are checked one by one, as the sweep runs them: each its own
    // entry SERVER[VARIANT], started with its arguments, checked, and stopped before the next.
    HookPreflightWorker(HookPreflight *owner, const SweepSpec &spec) : m_owner(owner), m_spec(withLaunchVariantsExpanded(spec)) {}
    std::atomic<bool> cancel{false};

protected:
    void run() override
    {
        // The check's own files (an embedded mock's trace of its one profiler window, launched
        // servers' logs) go to a folder of its own that goes away with it: a check must leave
        // nothing in the user's trace_dir beside the traces of real cells.
        QTemporaryDir scratch(QDir::temp().filePath(QStringLiteral("sweepbench-preflight-XXXXXX")));
        const QString base = scratch.isValid() ? scratch.path() : QDir::temp().filePath(QStringLiteral("sweepbench-preflight"));
        EmbeddedMocks mocks;
        LaunchedServers launches; // started one at a time, each stopped after its checks
        QString error;
        const auto mockTraceDir = [&](int i) {
            return QDir(base).filePath(QStringLiteral("traces/") + QString::number(i));
        };
        if (!mocks.start(m_spec, mockTraceDir, &error)
            || !launches.plan(m_spec, QDir(base).filePath(QStringLiteral("servers")), &error)) {
            m_owner->report(HookPreflight::Stage::Checked, QStringLiteral("(setup)"), {}, {error});
            Q_EMIT m_owner->finished();
            return;
        }
        ControlClient client;
        HookRunner runner(client, &cancel);
        // The prompt calibration a run would do, shown per server (engine/CalibrationReport).
        Dataset dataset;
        QString datasetError;
        const bool haveDataset = m_spec.workload.dataset && loadDataset(*m_spec.workload.dataset, m_spec.sourcePath, &dataset, &datasetError,
                                                                               m_spec.workload.sessions.has_value());
        for (int i = 0; i < m_spec.servers.size(); ++i)
            if (launches.launched(i))
                mocks.useUrls(i, launches.urls(i));
        for (int i = 0; i < m_spec.servers.size() && !cancel; ++i) {
            ServerSpec server = m_spec.servers[i];
            if (const QString why = launches.ensureReady(i, &cancel); !why.isEmpty()) {
                // A server that could not be started is unreachable: a failed check, not a hint.
                HookOutcome reach;
                reach.hook = HookKind::Reachability;
                reach.origin = launches.urls(i).value(0).section(QLatin1Char('/'), 0, 2);
                reach.method = QStringLiteral("GET");
                reach.path = server.launch.readyPath;
                reach.verdict = why.startsWith(QLatin1String("server not ready")) ? HookVerdict::Timeout : HookVerdict::Error;
                reach.message = QStringLiteral("launch: ") + why;
                m_owner->report(HookPreflight::Stage::Reached, server.name, {reach}, {});
                m_owner->report(HookPreflight::Stage::Checked, server.name, {}, {});
                continue;
            }
            QStringList unreachable; // origins whose reachability check failed (and said why)
            {
                // Whatever hooks are on: does the server answer, and does it serve the model?
                QList<HookOutcome> checks;
                QStringList checkHints;
                if (launches.launched(i)) { // which process, started how (a variant's arguments included)
                    ServerInfo launched;
                    recordLaunch(launched, server.launch, launches.port(i), m_owner->m_secrets);
                    checkHints.append(QStringLiteral("launched: pid %1: %2").arg(launches.pid(i)).arg(joinCommandLine(launched.command)));
                }
                const ServerSpec &spec = m_spec.servers[i];
                for (const HookTarget &target : hookTargetsFor(spec, mocks.baseUrls(i)))
                    checks += checkServerAnswers(client, target, spec.mock.isEmpty(), &cancel, &checkHints);
                // Its GPU telemetry: each exporter answers, with how many GPUs and the energy counter.
                // The outcome's message is also advice: it names the exporter, which a table cell cannot.
                for (const TelemetrySpec &t : telemetryFor(m_spec, spec)) {
                    const HookOutcome gpu = checkTelemetry(client, t, &cancel);
                    checkHints.append(QStringLiteral("GPU telemetry %1: %2").arg(t.nvidiaSmi ? gpu.path : gpu.origin + gpu.path, gpu.message));
                    checks.append(gpu);
                }
                checkHints.removeDuplicates();
                for (const HookOutcome &c : std::as_const(checks))
                    if (c.hook == HookKind::Reachability && !c.ok)
                        unreachable << c.origin;
                m_owner->report(HookPreflight::Stage::Reached, spec.name, checks, checkHints);
            }
            // One attempt is enough to learn whether the route exists and answers.
            server.reset.maxRetryS = 0;
            QList<HookOutcome> outcomes;
            QStringList hints;
            if (server.reset.enabled && !server.reset.restart && server.flavor == Flavor::Trtllm)
                hints.append(routeMissingHint(Flavor::Trtllm, HookKind::Reset));
            // Every origin of the server is checked: one misconfigured replica spoils a sweep.
            const QList<HookTarget> targets = hookTargetsFor(server, mocks.baseUrls(i));
            for (const HookTarget &target : targets) {
                if (server.reset.enabled && !server.reset.restart && isSlotEraseReset(server)) {
                    // llama-server: is erasing the slots a full reset? (LlamacppProbe.h)
                    LlamacppProbe probe(client, target, &cancel);
                    hints.append(probe.readProps());
                    const bool primed = probe.prime(&hints);
                    const HookOutcome reset = runner.reset(target, HookPlacement::Preflight);
                    outcomes.append(reset);
                    if (primed && reset.ok)
                        hints.append(probe.checkAfterReset());
                } else if (server.reset.enabled && server.reset.restart) {
                    if (&target == &targets.first()) { // one process, whatever the number of origins
                        HookOutcome restart = launches.restart(i, &cancel, true);
                        restart.placement = HookPlacement::Preflight;
                        outcomes.append(restart);
                    }
                } else if (server.reset.enabled) {
                    outcomes.append(runner.reset(target, HookPlacement::Preflight));
                }
                if (server.profiler.enabled) {
                    // A mock writes where it was started to (above); a real server where its body
                    // or its own configuration says, which must exist.
                    const QString traceDir = server.mock.isEmpty() ? resolvedTraceDir(server, base) : mockTraceDir(i);
                    if (!traceDir.isEmpty())
                        QDir().mkpath(traceDir);
                    std::optional<QJsonObject> body = resolvedProfilerStartBody(server, base);
                    if (body && !server.mock.isEmpty() && body->contains(QStringLiteral("output_dir")))
                        body->insert(QStringLiteral("output_dir"), traceDir); // a mock writes where the body says
                    const HookOutcome start = runner.profilerStart(target, body);
                    outcomes.append(start);
                    if (start.ok) // close the window we opened
                        outcomes.append(runner.profilerStop(target));
                }
            }
            if (server.profiler.enabled && !profilerWindowHint(server.flavor).isEmpty())
                hints.append(profilerWindowHint(server.flavor));
            if (server.profiler.enabled && server.flavor == Flavor::Llamacpp)
                hints.append(routeMissingHint(Flavor::Llamacpp, HookKind::ProfilerStart));
            for (const auto &o : outcomes)
                for (const bool listing : {true, false}) // a slot route's hint is in its message
                    if (o.message.contains(llamacppNotSupportedHint(listing)))
                        hints.append(llamacppNotSupportedHint(listing));
            for (const auto &o : outcomes)
                if (o.verdict == HookVerdict::RouteMissing && !isSlotEraseReset(server))
                    hints.append(routeMissingHint(server.flavor, o.hook));
            // No HTTP answer at all: the advice is about the server, not the hook.
            for (const auto &o : outcomes)
                if (!o.ok && o.status == 0 && !o.origin.isEmpty() && o.verdict != HookVerdict::Timeout && !unreachable.contains(o.origin))
                    hints.append(QStringLiteral("no answer from %1 (%2): is the server running there, and is the URL right?")
                                     .arg(o.origin, o.message.left(200)));
            hints.removeDuplicates();
            if (!mocks.baseUrls(i).isEmpty() && datasetError.isEmpty())
                hints += calibrationReport(client, server, mocks.baseUrls(i).first(), m_spec.workload, haveDataset ? &dataset : nullptr, &cancel);
            launches.stop(i);
            m_owner->report(HookPreflight::Stage::Checked, server.name, outcomes, hints);
        }
        Q_EMIT m_owner->finished();
    }

private:
    HookPreflight *m_owner;
    SweepSpec m_spec;
};

HookPreflight::HookPreflight(const SweepSpec &spec, QObject *parent)
    : QObject(parent), m_secrets(SecretSet::fromSpec(spec)), m_worker(std::make_unique<HookPreflightWorker>(this, spec))
{
    qRegisterMetaType<QList<sb::HookOutcome>>();
}

void HookPreflight::report(Stage stage, const QString &server, QList<HookOutcome> outcomes, QStringList hints)
{
    for (HookOutcome &o : outcomes) {
        o.origin = m_secrets.scrub(o.origin);
        o.path = m_secrets.scrub(o.path);
        o.message = m_secrets.scrub(o.message);
    }
    for (QString &h : hints)
        h = m_secrets.scrub(h);
    hints.removeDuplicates(); // two hints that differed only in a key are one now
    const QString name = m_secrets.scrub(server);
    if (stage == Stage::Reached)
        Q_EMIT serverReached(name, outcomes, hints, QPrivateSignal());
    else
        Q_EMIT serverChecked(name, outcomes, hints, QPrivateSignal());
}

HookPreflight::~HookPreflight()
{
    m_worker->cancel = true;
    m_worker->wait();
}

void HookPreflight::start()
{
    if (!m_worker->isRunning())
        m_worker->start();
}

} // namespace sb
