// `hooks check` looks at each server's GPU telemetry (engine/TelemetryPreflight.h): one bounded
// scrape says whether an exporter answers, how many GPUs it reports and whether the energy
// counter is there; for nvidia_smi, whether the program runs. A failure is a warning, not a
// failed check. Real loopback peers: the mock's /dcgm/metrics, a dead port, a 404; a fake
// nvidia-smi script.
#include "EngineFixture.h"
#include "LaunchedMock.h"
#include "engine/HookPreflight.h"
#include "engine/TelemetryPreflight.h"
#include "results/HookSeverity.h"
#include <QFile>
#include <QTemporaryDir>

using namespace sb;

namespace {
TelemetrySpec exporter(const QString &url)
{
    TelemetrySpec t;
    t.url = url;
    return t;
}

HookOutcome checkOne(const TelemetrySpec &t)
{
    ControlClient client;
    std::atomic<bool> cancel{false};
    return checkTelemetry(client, t, &cancel);
}

QString fakeSmi(const QTemporaryDir &dir, const QByteArray &body)
{
    const QString path = dir.filePath(QStringLiteral("nvidia-smi"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write("#!/bin/sh\n" + body + "\n");
    f.close();
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return path;
}
} // namespace

class TstTelemetryPreflight : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void vocabulary()
    {
        QCOMPARE(hookKindName(HookKind::GpuTelemetry), QStringLiteral("gpu_telemetry"));
        QCOMPARE(hookKindFromString(QStringLiteral("gpu_telemetry")), std::optional(HookKind::GpuTelemetry));
    }

    void exporterWithEnergyCounter()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.dcgmGpus = 3;
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        const HookOutcome o = checkOne(exporter(mock->url().toString() + QStringLiteral("/dcgm/metrics")));
        QVERIFY2(o.ok, qPrintable(o.message));
        QCOMPARE(o.hook, HookKind::GpuTelemetry);
        QCOMPARE(o.status, 200);
        QCOMPARE(o.path, QStringLiteral("/dcgm/metrics"));
        QCOMPARE(o.message, QStringLiteral("3 GPUs (NVIDIA H100 80GB HBM3), energy counter DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION present"));
        QCOMPARE(hookSeverity(o), HookSeverity::Ok);
    }

    void exporterWithoutEnergyCounter()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.dcgmGpus = 1;
        cfg.dcgmEnergyCounter = false;
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        const HookOutcome o = checkOne(exporter(mock->url().toString() + QStringLiteral("/dcgm/metrics")));
        QVERIFY2(o.ok, qPrintable(o.message));
        QVERIFY2(o.message.startsWith(QLatin1String("1 GPU (")) && o.message.contains(QLatin1String("no energy counter")), qPrintable(o.message));
    }

    // A dead port and a server without the route: warnings that say why.
    void deadOrMissingExporterWarns()
    {
        const quint16 port = sbtest::freePort();
        QVERIFY(port);
        const HookOutcome dead = checkOne(exporter(QStringLiteral("http://127.0.0.1:%1/metrics").arg(port)));
        QVERIFY(!dead.ok);
        QCOMPARE(dead.status, 0);
        QCOMPARE(dead.verdict, std::optional(HookVerdict::Error));
        QCOMPARE(hookSeverity(dead), HookSeverity::Warning);
        QVERIFY2(dead.message.contains(QLatin1String("no answer from the GPU exporter")), qPrintable(dead.message));

        QString error;
        auto mock = MockServer::start(mockDefaults(Flavor::Vllm), &error); // no --dcgm-gpus: 404
        QVERIFY2(mock, qPrintable(error));
        const HookOutcome missing = checkOne(exporter(mock->url().toString() + QStringLiteral("/dcgm/metrics")));
        QCOMPARE(missing.status, 404);
        QCOMPARE(missing.verdict, std::optional(HookVerdict::RouteMissing));
        QCOMPARE(hookSeverity(missing), HookSeverity::Warning);
        // Metrics, but not a GPU exporter's.
        const HookOutcome notDcgm = checkOne(exporter(mock->url().toString() + QStringLiteral("/metrics")));
        QCOMPARE(notDcgm.verdict, std::optional(HookVerdict::Refused));
        QVERIFY2(notDcgm.message.contains(QLatin1String("is this dcgm-exporter?")), qPrintable(notDcgm.message));
    }

    void nvidiaSmiRunsOrNot()
    {
        QTemporaryDir dir;
        TelemetrySpec t;
        t.nvidiaSmi = true;
        t.intervalMs = 100;
        t.program = fakeSmi(dir, "while :; do echo '0, GPU-a, NVIDIA Fake, 1, 2, 30.5'; echo '1, GPU-b, NVIDIA Fake, 1, 2, 30.5'; sleep 0.1; done");
        const HookOutcome ok = checkOne(t);
        QVERIFY2(ok.ok, qPrintable(ok.message));
        QCOMPARE(ok.origin, QStringLiteral("nvidia-smi"));
        QVERIFY2(ok.message.startsWith(QLatin1String("nvidia-smi runs: 2 GPUs (NVIDIA Fake)")), qPrintable(ok.message));

        t.program = dir.filePath(QStringLiteral("absent/nvidia-smi"));
        const HookOutcome absent = checkOne(t);
        QVERIFY(!absent.ok);
        QCOMPARE(hookSeverity(absent), HookSeverity::Warning);
        QVERIFY2(absent.message.startsWith(QLatin1String("nvidia-smi not started")) && absent.message.contains(QLatin1String("absent/nvidia-smi")), qPrintable(absent.message));

        t.program = fakeSmi(dir, "echo 'NVIDIA-SMI has failed'; exit 9");
        const HookOutcome failed = checkOne(t);
        QVERIFY(!failed.ok);
        QVERIFY2(failed.message.contains(QLatin1String("exit code 9")), qPrintable(failed.message));
    }

    // The CLI: a row per exporter under the server's checks; a dead exporter warns (⚠) and the
    // check still passes.
    void hooksCheckCommand()
    {
        MockConfig cfg = mockDefaults(Flavor::Vllm);
        cfg.dcgmGpus = 2;
        QString error;
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        const quint16 port = sbtest::freePort();
        SweepSpec spec = sbtest::smallSpec({sbtest::serverFor(QStringLiteral("s"), *mock, Flavor::Vllm)}, {1}, 1);
        spec.servers[0].model = QStringLiteral("demo-model");
        spec.telemetry = {exporter(mock->url().toString() + QStringLiteral("/dcgm/metrics")),
                          exporter(QStringLiteral("http://127.0.0.1:%1/metrics").arg(port))};
        QTemporaryDir dir;
        const QString specPath = sbtest::writeSpec(dir, spec);
        QVERIFY(!specPath.isEmpty());
        const sbtest::CliRun run = sbtest::runSweepbench({QStringLiteral("hooks"), QStringLiteral("check"), specPath});
        QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("^s +%1 +gpu_telemetry +/dcgm/metrics +200 ✓ ok +2 GPUs")
                                                         .arg(QRegularExpression::escape(mock->url().toString())),
                                                     QRegularExpression::MultilineOption)),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("^s +http://127.0.0.1:%1 +gpu_telemetry .*⚠ error +no answer").arg(port),
                                                     QRegularExpression::MultilineOption)),
                 qPrintable(run.out));
        QVERIFY2(!run.out.contains(QLatin1String("hint: GPU telemetry")), qPrintable(run.out)); // the row says it once
    }
};

QTEST_GUILESS_MAIN(TstTelemetryPreflight)
#include "tst_telemetry_preflight.moc"
