// GPU telemetry without an exporter (docs/gpu-telemetry.md "Without an exporter"): nvidia-smi's
// CSV lines read as DCGM samples, the sampler's process (started, bounded, ended, never left
// behind), and the whole path with the real engine against a fake `nvidia-smi` that prints known
// readings at the period it is asked for — energy per output token equal to the power
// integrated over the phase by hand, over the tokens. No GPU needed.
#include "EngineFixture.h"
#include "LaunchedMock.h"
#include "TestSupport.h"
#include "launch/NvidiaSmiSampler.h"
#include "metrics/MetricCatalogue.h"
#include "report/ReportHtml.h"
#include "results/ResultsStore.h"
#include "servermetrics/GpuTelemetry.h"
#include "servermetrics/NvidiaSmiCsv.h"
#include "spec/SpecIO.h"
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <sys/prctl.h>

using namespace sb;

namespace {
constexpr std::int64_t kS = 1'000'000'000;

// DIR/bin/nvidia-smi: a shell script that records its arguments and pid beside itself, reads
// the period from -lms and runs `body` (which may use $period, in seconds).
QString writeFake(const QTemporaryDir &dir, const QByteArray &body)
{
    QDir().mkpath(dir.filePath(QStringLiteral("bin")));
    const QString path = dir.filePath(QStringLiteral("bin/nvidia-smi"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write("#!/bin/sh\n"
            "here=$(dirname \"$0\")\n"
            "echo \"$@\" > \"$here/args\"\n"
            "echo $$ > \"$here/pid\"\n"
            "ms=500\n"
            "while [ $# -gt 0 ]; do if [ \"$1\" = -lms ]; then ms=$2; fi; shift; done\n"
            "period=$((ms / 1000)).$(printf %03d $((ms % 1000)))\n");
    f.write(body);
    f.write("\n");
    f.close();
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return path;
}

// Two GPUs at constant power (100 W and 150 W): the integral is 250 W × the window, exactly.
const QByteArray kSteady = "while :; do\n"
                           "  echo '0, GPU-0000aaaa, NVIDIA Fake, 80, 40000, 100.00'\n"
                           "  echo '1, GPU-1111bbbb, NVIDIA Fake, 60, 30000, 150.00'\n"
                           "  sleep $period\n"
                           "done";

pid_t fakePid(const QTemporaryDir &dir) { return pid_t(sbtest::readFile(dir.filePath(QStringLiteral("bin/pid"))).trimmed().toInt()); }

bool gone(pid_t pid, int withinMs)
{
    for (int waited = 0; waited < withinMs; waited += 20) {
        if (::kill(pid, 0) != 0 && errno == ESRCH)
            return true;
        QTest::qWait(20);
    }
    return false;
}

// Peak resident memory of this process, KiB.
long peakRssKib()
{
    const QByteArray status = sbtest::readFile(QStringLiteral("/proc/self/status"));
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("VmHWM:\\s+(\\d+)")).match(QString::fromLatin1(status));
    return m.hasMatch() ? m.captured(1).toLong() : -1;
}

bool anyWarning(const CellResult &c, const QString &part)
{
    return std::any_of(c.warnings.cbegin(), c.warnings.cend(), [&](const QString &w) { return w.contains(part); });
}

SweepSpec smiSpec(const MockServer &mock, const QString &program, int intervalMs, QList<int> concurrency = {2})
{
    SweepSpec spec = sbtest::smallSpec({sbtest::serverFor(QStringLiteral("s"), mock, Flavor::Vllm)}, concurrency, 16);
    TelemetrySpec t;
    t.nvidiaSmi = true;
    t.program = program;
    t.intervalMs = intervalMs;
    spec.telemetry = {t};
    spec.cost = CostSpec{2.0, 2};
    return spec;
}
} // namespace

class TstNvidiaSmi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { prctl(PR_SET_CHILD_SUBREAPER, 1); } // a killed sweepbench's orphans come here
    void init() { sbtest::failOnQtWarnings(); }

    void parsesReadings()
    {
        std::vector<MetricSample> s;
        QVERIFY(parseNvidiaSmiLine("3, GPU-5e1f, NVIDIA H100 80GB HBM3, 97, 61234, 612.53", &s));
        QCOMPARE(s.size(), std::size_t(3));
        QCOMPARE(s[0].name, QByteArray(dcgm::kGpuUtil));
        QCOMPARE(s[0].value, 97.0);
        QCOMPARE(s[1].name, QByteArray(dcgm::kFbUsed));
        QCOMPARE(s[1].value, 61234.0);
        QCOMPARE(s[2].name, QByteArray(dcgm::kPower));
        QCOMPARE(s[2].value, 612.53);
        QCOMPARE(labelValue(s[2], dcgm::kGpuLabel), QByteArray("3"));
        QCOMPARE(labelValue(s[2], dcgm::kUuidLabel), QByteArray("GPU-5e1f"));
        QCOMPARE(labelValue(s[2], dcgm::kModelLabel), QByteArray("NVIDIA H100 80GB HBM3"));
        // A name with a comma in it (nvidia-smi does not quote): the numbers are read from the end.
        s.clear();
        QVERIFY(parseNvidiaSmiLine("0, GPU-1, Tesla, Special Edition, 5, 10, 70.5", &s));
        QCOMPARE(labelValue(s[0], dcgm::kModelLabel), QByteArray("Tesla, Special Edition"));
        QCOMPARE(s.back().value, 70.5);
        // A number it cannot read is left out; a line with none is not a reading.
        s.clear();
        QVERIFY(parseNvidiaSmiLine("0, GPU-1, GeForce, [N/A], 10, [Not Supported]", &s));
        QCOMPARE(s.size(), std::size_t(1));
        QCOMPARE(s[0].name, QByteArray(dcgm::kFbUsed));
        s.clear();
        for (const char *bad : {"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", "", "0, GPU-1, x, [N/A], [N/A], [N/A]",
                                "x, GPU-1, n, 1, 2, 3", "0, nouuid, n, 1, 2, 3", "0, GPU-1, n, 1, 2, -5e400", "0, GPU-1, n, 1, 2"})
            QVERIFY2(!parseNvidiaSmiLine(bad, &s) || s.size() < 3, bad);
    }

    // Power that changes between readings, integrated by hand: GPU 0 reads 100, 200, 100 W and
    // GPU 1 50 W at t = 0, 1, 3 s: (150·1 + 150·2) + 50·3 = 600 J, with no counter warning.
    void energyIsThePowerIntegral()
    {
        const std::pair<std::int64_t, QByteArray> readings[] = {{0, "100"}, {1, "200"}, {3, "100"}};
        std::vector<ScrapePoint> points;
        for (const auto &[t, w] : readings) {
            ScrapePoint p;
            p.origin = NvidiaSmiSampler::sourceName();
            p.steadyNs = t * kS;
            QVERIFY(parseNvidiaSmiLine("0, GPU-a, Fake, 50, 100, " + w, &p.keySamples.samples));
            QVERIFY(parseNvidiaSmiLine("1, GPU-b, Fake, 50, 100, 50", &p.keySamples.samples));
            points.push_back(p);
        }
        const GpuTelemetrySummary sum = aggregateGpuTelemetry(points, /*counterExpected=*/false);
        QCOMPARE(sum.result.energyJ, 600.0);
        QCOMPARE(sum.result.energySource, EnergySource::PowerIntegral);
        QCOMPARE(sum.result.gpus, 2);
        QCOMPARE(sum.result.windowS, 3.0);
        QVERIFY2(sum.warnings.isEmpty(), qPrintable(sum.warnings.join(QLatin1Char('\n'))));
    }

    // The whole path: a fake nvidia-smi first on PATH, the real engine and mock. Each cell's
    // energy is 250 W over the sampled window, which spans the measured phase; energy per output
    // token is that over the cell's tokens. The process is asked for the spec's period and is
    // gone after each phase.
    void endToEndWithFakeOnPath()
    {
        QTemporaryDir dir;
        QVERIFY(!writeFake(dir, kSteady).isEmpty());
        const QByteArray oldPath = qgetenv("PATH");
        qputenv("PATH", QFile::encodeName(dir.filePath(QStringLiteral("bin"))) + ':' + oldPath);
        QString error;
        auto mock = MockServer::start(sbtest::timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        const auto r = sbtest::runSweep(smiSpec(*mock, QString(), 100, {1, 2}), dir.filePath(QStringLiteral("out")));
        qputenv("PATH", oldPath);
        QCOMPARE(r.exitCode, 0);
        const QByteArray args = sbtest::readFile(dir.filePath(QStringLiteral("bin/args"))).trimmed();
        QCOMPARE(args, QByteArray("--query-gpu=index,uuid,name,utilization.gpu,memory.used,power.draw --format=csv,noheader,nounits -lms 100"));
        QVERIFY2(gone(fakePid(dir), 2000), "nvidia-smi outlived the sweep");
        for (const CellResult &cell : r.results.cells) {
            QCOMPARE(cell.status, CellStatus::Completed);
            QVERIFY2(cell.gpuTelemetry.has_value(), qPrintable(cell.warnings.join(QLatin1Char('\n'))));
            const GpuTelemetryResult &t = *cell.gpuTelemetry;
            QCOMPARE(t.source, TelemetrySource::NvidiaSmi);
            QCOMPARE(t.exporters, QStringList{QStringLiteral("nvidia-smi")});
            QVERIFY(t.series.isEmpty());
            QCOMPARE(t.gpus, 2);
            QCOMPARE(t.models, QStringList{QStringLiteral("NVIDIA Fake")});
            QCOMPARE(t.energySource, EnergySource::PowerIntegral);
            QCOMPARE(t.powerW.avg, 250.0);
            QCOMPARE(t.utilizationPct.avg, 70.0);
            QCOMPARE(t.memoryUsedMib.max, 70000.0);
            QVERIFY2(!anyWarning(cell, QStringLiteral("nvidia-smi")) && !anyWarning(cell, QStringLiteral("GPU energy")),
                     qPrintable(cell.warnings.join(QLatin1Char('\n'))));
            // The window covers the phase (first reading before the first send, last held to the
            // last answer) and little more: nvidia-smi's first reading and the engine's own steps.
            QVERIFY2(t.windowS >= cell.durationS && t.windowS <= cell.durationS + 0.5,
                     qPrintable(QStringLiteral("window %1 s, phase %2 s").arg(t.windowS).arg(cell.durationS)));
            QVERIFY(t.scrapes >= int(cell.durationS / 0.1)); // a reading per period
            const double handJ = 250.0 * t.windowS;
            QVERIFY(qAbs(t.energyJ - handJ) <= 1e-9 * handJ);
            const double tokens = 16.0 * 8;
            QVERIFY(qAbs(cellValue(cell, tag::energyPerOutputToken, Stat::Avg) - handJ / tokens) <= 1e-9 * handJ);
            QVERIFY(cellValue(cell, tag::energyPerOutputToken, Stat::Avg) >= 250.0 * cell.durationS / tokens);
            QVERIFY(qAbs(cellValue(cell, tag::energyPerRequest, Stat::Avg) - handJ / 16) <= 1e-9 * handJ);
        }
        // Stored and read back, the source included.
        SweepResults onDisk;
        QVERIFY2(ResultsStore::readResults(dir.filePath(QStringLiteral("out")), &onDisk, &error), qPrintable(error));
        QVERIFY(onDisk.cells.at(1).gpuTelemetry == r.results.cells.at(1).gpuTelemetry);
        // report.html says where the energy came from.
        ReportHtmlInput html;
        html.results = onDisk;
        QVERIFY(reportHtml(html).contains("J (power integral, nvidia-smi)"));
    }

    // nvidia-smi that fails, prints garbage, or endless long lines: a warning that names it, no
    // telemetry, the cell measured as usual.
    void failingNvidiaSmiWarns_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("warning");
        QTest::newRow("exit 1") << QByteArray("echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"; exit 1")
                                << QStringLiteral("nvidia-smi exited during the phase (exit code 1)");
        QTest::newRow("garbage") << QByteArray("while :; do echo 'Q@#$ 12, 4, x'; echo '0, GPU-zz, n, a, b, c'; sleep $period; done")
                                 << QStringLiteral("nvidia-smi printed");
        QTest::newRow("long lines") << QByteArray("while :; do head -c 100000 /dev/zero | tr '\\\\0' 0; echo; done")
                                    << QStringLiteral("lines longer than 1024 bytes: dropped");
    }
    void failingNvidiaSmiWarns()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, warning);
        QTemporaryDir dir;
        const QString fake = writeFake(dir, body);
        QString error;
        auto mock = MockServer::start(sbtest::timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        const auto r = sbtest::runSweep(smiSpec(*mock, fake, 100), dir.filePath(QStringLiteral("out")));
        QCOMPARE(r.exitCode, 0);
        const CellResult &cell = r.results.cells.at(0);
        QCOMPARE(cell.status, CellStatus::Completed);
        QVERIFY(!cell.gpuTelemetry);
        QVERIFY2(anyWarning(cell, warning), qPrintable(cell.warnings.join(QLatin1Char('\n'))));
        QVERIFY2(anyWarning(cell, QStringLiteral("nvidia-smi gave no GPU reading")), qPrintable(cell.warnings.join(QLatin1Char('\n'))));
        QVERIFY(gone(fakePid(dir), 2000));
        if (QTest::currentDataTag() == QByteArray("exit 1"))
            QVERIFY(anyWarning(cell, QStringLiteral("couldn't communicate with the NVIDIA driver")));
    }

    // Hundreds of megabytes without a newline: memory stays flat (lines past the limit are
    // dropped as they stream), and stop() ends the writer.
    void endlessLineIsBounded()
    {
        QTemporaryDir dir;
        const QString fake = writeFake(dir, "head -c 300000000 /dev/zero; sleep 100");
        const long before = peakRssKib();
        NvidiaSmiSampler sampler(NvidiaSmiOptions{fake, 100, 10});
        QString error;
        QVERIFY2(sampler.start(&error), qPrintable(error));
        QTest::qWait(1500);
        sampler.stop();
        QVERIFY(sampler.points().empty());
        QVERIFY(gone(fakePid(dir), 2000));
        const long growth = peakRssKib() - before;
        QVERIFY2(growth < 32 * 1024, qPrintable(QStringLiteral("peak RSS grew by %1 KiB").arg(growth)));
    }

    // No nvidia-smi at all: one warning naming it in the sweep, the cells measured.
    void missingBinaryWarnsOnce()
    {
        QTemporaryDir dir;
        QString error;
        auto mock = MockServer::start(sbtest::timedMock(Flavor::Vllm), &error);
        QVERIFY2(mock, qPrintable(error));
        const auto r = sbtest::runSweep(smiSpec(*mock, dir.filePath(QStringLiteral("no/nvidia-smi")), 500, {1, 2}), dir.filePath(QStringLiteral("out")));
        QCOMPARE(r.exitCode, 0);
        int warned = 0;
        for (const CellResult &c : r.results.cells) {
            QCOMPARE(c.status, CellStatus::Completed);
            QVERIFY(!c.gpuTelemetry);
            warned += anyWarning(c, QStringLiteral("nvidia-smi not started")) ? 1 : 0;
        }
        QCOMPARE(warned, 1);
        QVERIFY(r.results.cells.at(0).warnings.join(QLatin1Char('\n')).contains(QLatin1String("no/nvidia-smi")));
    }

    // sweepbench killed outright in the middle of a phase: nvidia-smi goes with it.
    void neverOutlivesSweepbench()
    {
        QTemporaryDir dir;
        const QString fake = writeFake(dir, kSteady);
        QString error;
        MockConfig cfg = sbtest::timedMock(Flavor::Vllm);
        cfg.stepBaseMs = 200; // a long phase
        auto mock = MockServer::start(cfg, &error);
        QVERIFY2(mock, qPrintable(error));
        SweepSpec spec = smiSpec(*mock, fake, 100);
        spec.workload.requestsPerCell = 200;
        const QString specPath = sbtest::writeSpec(dir, spec);
        QVERIFY(!specPath.isEmpty());
        QProcess run;
        run.setProcessChannelMode(QProcess::MergedChannels);
        run.start(sbtest::sweepbenchBinary(), {QStringLiteral("run"), specPath, QStringLiteral("--out"), dir.filePath(QStringLiteral("out"))});
        QVERIFY(run.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir.filePath(QStringLiteral("bin/pid"))), 30000);
        QTest::qWait(500);
        const pid_t smi = fakePid(dir);
        QVERIFY(smi > 0 && ::kill(smi, 0) == 0);
        ::kill(pid_t(run.processId()), SIGKILL);
        QVERIFY(run.waitForFinished(30000));
        QVERIFY2(sbtest::groupGone(smi, 5000), "nvidia-smi outlived a killed sweepbench");
    }

    // The spec's shape: alone in the list, no URL beside it, a period in range; written back.
    void specShape()
    {
        const QByteArray yaml = "servers: [{name: s, url: 'http://127.0.0.1:1', model: m}]\nsweep: {concurrency: [1]}\n"
                                "telemetry: [{nvidia_smi: true, program: /opt/nv/nvidia-smi, interval_ms: 250}]\n";
        const SpecLoadResult loaded = loadSpecText(yaml, QStringLiteral("t.yaml"));
        QVERIFY2(loaded.ok(), qPrintable(loaded.diagnostics.value(0).toString()));
        QCOMPARE(loaded.spec->telemetry.size(), 1);
        QVERIFY(loaded.spec->telemetry[0].nvidiaSmi);
        QCOMPARE(loaded.spec->telemetry[0].program, QStringLiteral("/opt/nv/nvidia-smi"));
        QCOMPARE(loaded.spec->telemetry[0].intervalMs, 250);
        const SpecLoadResult again = loadSpecText(saveSpecYaml(*loaded.spec), QStringLiteral("t.yaml"));
        QVERIFY(again.ok());
        QVERIFY(again.spec->telemetry == loaded.spec->telemetry);
        for (const QByteArray &bad : {QByteArray("telemetry: [{nvidia_smi: true}, {url: 'http://g:9400/metrics'}]"),
                                      QByteArray("telemetry: [{nvidia_smi: true, url: 'http://g:9400/metrics'}]"),
                                      QByteArray("telemetry: [{nvidia_smi: true, interval_ms: 5}]"),
                                      QByteArray("telemetry: [{url: 'http://g:9400/metrics', interval_ms: 200}]")}) {
            const SpecLoadResult r = loadSpecText("servers: [{name: s, url: 'http://127.0.0.1:1', model: m}]\nsweep: {concurrency: [1]}\n" + bad, QStringLiteral("t.yaml"));
            QVERIFY2(!r.ok(), bad.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TstNvidiaSmi)
#include "tst_nvidia_smi.moc"
