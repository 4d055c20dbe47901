// `run --resume` never mixes cells measured under different settings (spec fingerprint), never
// keeps or silently re-runs a cell that is not as SweepBench wrote it, and never replaces a good
// results.json on a full disk.
#include "DiskFull.h"
#include "EngineFixture.h"
#include "TestSupport.h"
#include "results/ResultsStore.h"
#include "results/SpecFingerprint.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <cerrno>
#include <functional>
#include <sys/resource.h>

using namespace sb;
using namespace sbtest;

namespace {
SweepSpec baseSpec()
{
    ServerSpec a;
    a.name = QStringLiteral("a");
    a.urls = {QStringLiteral("http://127.0.0.1:18001")};
    a.model = QStringLiteral("m");
    a.flavor = Flavor::Vllm;
    a.apiKey = QStringLiteral("sk-FINGERPRINT-SECRET-123456");
    a.headers = {{QStringLiteral("Authorization"), QStringLiteral("Bearer HEADER-SECRET-654321")}};
    a.reset.enabled = true;
    SweepSpec s;
    s.name = QStringLiteral("fp");
    s.servers = {a};
    s.concurrency = {1, 2};
    s.workload.inputTokens = 16;
    return s;
}

// A spec for the sweepbench binary: one embedded mock, small and fast.
QByteArray mockSpecYaml(int inputTokens, int requests = 4)
{
    return QStringLiteral("name: resume\n"
                          "servers:\n"
                          "  - name: m\n"
                          "    mock: sglang\n"
                          "workload: {input_tokens: %1, output_tokens: 4, requests_per_cell: %2}\n"
                          "sweep: {concurrency: [1, 2]}\n")
        .arg(inputTokens).arg(requests).toUtf8();
}
} // namespace

class TestResumeSafety : public QObject
{
    Q_OBJECT
    QString m_binary;

    struct Run {
        int code = -1;
        QString out, err;
    };
    Run cli(const QStringList &args, rlim_t fileSizeLimit = 0)
    {
        QProcess p;
        if (fileSizeLimit)
            p.setChildProcessModifier([fileSizeLimit] { limitChildFileSize(fileSizeLimit); });
        p.start(m_binary, args);
        if (!p.waitForFinished(180000))
            p.kill();
        p.waitForFinished();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    static QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
    {
        QFile f(dir.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return f.fileName();
    }
    static bool overwrite(const QString &path, const QByteArray &text)
    {
        QFile f(path);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
    }

private Q_SLOTS:
    void initTestCase() { m_binary = qEnvironmentVariable("SWEEPBENCH_BINARY"); }
    void init() { failOnQtWarnings(); }

    void fingerprintCoversMeasurementSettingsOnly()
    {
        const SweepSpec base = baseSpec();
        const SpecFingerprint fp = specFingerprint(base);
        QCOMPARE(fingerprintDifferences(fp, specFingerprint(base)), QStringList());
        // Secrets never enter it.
        const QByteArray text = QJsonDocument(toJson(fp)).toJson();
        QVERIFY(!text.contains("FINGERPRINT-SECRET") && !text.contains("HEADER-SECRET"));

        SweepSpec same = base; // what picks cells or names the sweep does not count
        same.name = QStringLiteral("renamed");
        same.description = QStringLiteral("new words");
        same.concurrency = {1, 2, 4, 8};
        same.onHookFailure = HookFailurePolicy::Abort;
        same.servers[0].apiKey = QStringLiteral("sk-another-key-000000000");
        ServerSpec extra = base.servers[0];
        extra.name = QStringLiteral("b"); // a server added measures new cells only
        same.servers.append(extra);
        QCOMPARE(fingerprintDifferences(fp, specFingerprint(same)), QStringList());

        SweepSpec tokens = base;
        tokens.workload.inputTokens = 1024;
        QCOMPARE(fingerprintDifferences(fp, specFingerprint(tokens)), QStringList{QStringLiteral("workload.input_tokens: 16 -> 1024")});

        SweepSpec server = base;
        server.servers[0].urls = {QStringLiteral("http://127.0.0.1:18009")};
        server.servers[0].reset.enabled = false;
        server.workload.slo.ttftMs = 200;
        const QStringList diff = fingerprintDifferences(fp, specFingerprint(server));
        QCOMPARE(diff.size(), 3);
        QVERIFY2(diff.contains(QStringLiteral("servers[a].url: \"http://127.0.0.1:18001\" -> \"http://127.0.0.1:18009\"")), qPrintable(diff.join('\n')));
        QVERIFY(diff.contains(QStringLiteral("servers[a].reset_kv_cache: true -> false")));
        QVERIFY(diff.contains(QStringLiteral("workload.slo.time_to_first_token: (not set) -> 200")));

        // A results.json from before fingerprints: cannot be compared, so it is a difference.
        QCOMPARE(fingerprintDifferences(SpecFingerprint(), fp).size(), 1);
    }

    void fingerprintIsStoredInResults()
    {
        SweepResults r;
        r.specFingerprint = specFingerprint(baseSpec());
        SweepResults back;
        QString error;
        QVERIFY(sweepResultsFromJson(toJson(r), &back, &error));
        QCOMPARE(back.specFingerprint, r.specFingerprint);
    }

    void resumeWithAChangedSpecIsRefusedOrForced()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY(mock);
        const SweepSpec spec = smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {1, 2}, 4);
        QTemporaryDir out;
        QCOMPARE(runSweep(spec, out.path()).exitCode, 0);
        // Cell 1 "did not finish": a resume would run it again.
        SweepResults disk;
        QVERIFY(ResultsStore::readResults(out.path(), &disk, &error));
        disk.cells[1].status = CellStatus::Cancelled;
        QVERIFY(ResultsStore(out.path()).writeResults(disk, &error));
        const QByteArray resultsBefore = readFile(out.filePath(QStringLiteral("results.json")));
        const QByteArray specBefore = readFile(out.filePath(QStringLiteral("sweep.yaml")));

        SweepSpec changed = spec;
        changed.workload.inputTokens = 64;
        mock->resetStats();
        {
            SweepEngine engine(changed, RunOptions{out.path(), true});
            QSignalSpy finished(&engine, &SweepEngine::finished);
            engine.start();
            QVERIFY(sbtest::waitForSignal(finished, 60000));
            QCOMPARE(finished.first().first().toInt(), exitcode::kCannotStart);
            const QString why = engine.failureMessage();
            QVERIFY2(why.contains(QLatin1String("workload.input_tokens: 32 -> 64")), qPrintable(why));
            QVERIFY2(why.contains(QLatin1String("--out")) && why.contains(QLatin1String("--force")), qPrintable(why));
        }
        QCOMPARE(mock->stats().requests, 0);
        QCOMPARE(readFile(out.filePath(QStringLiteral("results.json"))), resultsBefore); // untouched
        QCOMPARE(readFile(out.filePath(QStringLiteral("sweep.yaml"))), specBefore);

        // --force keeps the finished cell and says so on it.
        RunResult forced;
        {
            SweepEngine engine(changed, RunOptions{out.path(), true, true});
            QSignalSpy finished(&engine, &SweepEngine::finished);
            engine.start();
            QVERIFY(sbtest::waitForSignal(finished, 120000));
            forced.exitCode = finished.first().first().toInt();
            forced.results = engine.results();
        }
        QCOMPARE(forced.exitCode, 0);
        QCOMPARE(mock->stats().requests, 4); // only cell 1 ran
        QCOMPARE(forced.results.cells[0].startedAt, disk.cells[0].startedAt);
        QVERIFY2(forced.results.cells[0].warnings.join('\n').contains(QLatin1String("--force")) &&
                     forced.results.cells[0].warnings.join('\n').contains(QLatin1String("workload.input_tokens: 32 -> 64")),
                 qPrintable(forced.results.cells[0].warnings.join('\n')));
        QVERIFY(forced.results.cells[1].warnings.join('\n').indexOf(QLatin1String("--force")) < 0);
        // The folder now records the new settings: resuming with them again is accepted.
        QCOMPARE(runSweep(changed, out.path(), true).exitCode, 0);
    }

    // Each forged or mistyped cell refuses the resume by cell and key: nothing is measured, the
    // file stays byte for byte (it may be the only copy of finished cells), and nothing is
    // silently kept as a measurement or re-run as if it were pending.
    void resumeRefusesForgedOrMistypedCells()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY(mock);
        const SweepSpec spec = smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {1, 2}, 2);
        QTemporaryDir out;
        QCOMPARE(runSweep(spec, out.path()).exitCode, 0);
        const QString path = out.filePath(QStringLiteral("results.json"));
        const QJsonObject good = QJsonDocument::fromJson(readFile(path)).object();
        QVERIFY(!good.isEmpty());

        using Edit = std::function<void(QJsonObject &)>;
        const auto member = [](const char *object, const char *key, QJsonValue v) -> Edit {
            return [=](QJsonObject &cell) {
                QJsonObject o = cell.value(QLatin1String(object)).toObject();
                o.insert(QLatin1String(key), v);
                cell.insert(QLatin1String(object), o);
            };
        };
        const auto set = [](const char *key, QJsonValue v) -> Edit { return [=](QJsonObject &cell) { cell.insert(QLatin1String(key), v); }; };
        QJsonArray slices;
        for (int i = 0; i <= kMaxTimeSlices; ++i)
            slices.append(QJsonObject{{QStringLiteral("t_s"), i}, {QStringLiteral("sent"), 1}});
        const struct {
            const char *key; // what the message names
            Edit edit;
        } cases[] = {
            {"status", set("status", 5)},                              // a wrong type: used to be read as pending and re-run
            {"status", set("status", QStringLiteral("finished"))},     // unknown: used to be read as failed and re-run
            {"requests.completed", member("requests", "completed", QStringLiteral("ten"))},
            {"requests.completed", member("requests", "completed", -5)}, // negative counts used to be kept as they were
            {"requests.failed", member("requests", "failed", 2.5)},
            {"duration_s", set("duration_s", 1e308)},
            {"duration_s", set("duration_s", -1)},
            {"records", set("records", QStringLiteral("/etc/passwd"))},
            {"records", set("records", QStringLiteral("cells/../../outside/records.jsonl"))},
            {"metrics.time_to_first_token.p50", member("metrics", "time_to_first_token", QJsonObject{{QStringLiteral("p50"), QStringLiteral("fast")}})},
            {"hooks", set("hooks", QStringLiteral("none"))},
            {"time_slices", set("time_slices", slices)},
            {"server", set("server", 7)},
            {"profiler_window.settled", member("profiler_window", "settled", QStringLiteral("yes"))},
            {"profiler_window.stop_s", member("profiler_window", "stop_s", -3)},
            {"error_rate", set("error_rate", 3)},
        };
        for (const auto &c : cases) {
            QJsonObject forged = good;
            QJsonArray cells = forged.value(QStringLiteral("cells")).toArray();
            QJsonObject cell = cells[0].toObject();
            c.edit(cell);
            cells[0] = cell;
            forged.insert(QStringLiteral("cells"), cells);
            const QByteArray text = QJsonDocument(forged).toJson();
            QVERIFY(overwrite(path, text));
            mock->resetStats();
            const RunResult r = runSweep(spec, out.path(), true);
            QVERIFY2(r.exitCode == exitcode::kCannotStart, qPrintable(QStringLiteral("%1: exit %2").arg(QLatin1String(c.key)).arg(r.exitCode)));
            QVERIFY2(r.failure.contains(QStringLiteral("cells[0]")) && r.failure.contains(QStringLiteral(": %1: expected").arg(QLatin1String(c.key)))
                         && r.failure.contains(QDir::toNativeSeparators(path)),
                     qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(c.key), r.failure)));
            QCOMPARE(readFile(path), text); // not replaced
            QCOMPARE(mock->stats().requests, 0);
        }
        // The file as the engine wrote it still resumes: nothing left to run, nothing measured.
        QVERIFY(overwrite(path, QJsonDocument(good).toJson()));
        mock->resetStats();
        QCOMPARE(runSweep(spec, out.path(), true).exitCode, 0);
        QCOMPARE(mock->stats().requests, 0);
    }

    // A 40 MB results.json whose one cell holds 2 million time slices: refused by the per-cell
    // value cap on the text, before a parse (which took 739 MB), through the CLI as users run
    // it. The peak RSS of the children so far (this one included) is printed.
    void cliResumeRefusesTwoMillionTimeSlicesBeforeParsing()
    {
        if (m_binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        const QString spec = write(dir, QStringLiteral("a.yaml"), mockSpecYaml(16));
        QCOMPARE(cli({QStringLiteral("run"), spec, QStringLiteral("--out"), out}).code, 0);
        QJsonObject o = QJsonDocument::fromJson(readFile(out + QStringLiteral("/results.json"))).object();
        QJsonArray cells = o.value(QStringLiteral("cells")).toArray();
        QJsonObject cell = cells[0].toObject();
        cell.insert(QStringLiteral("time_slices"), QStringLiteral("@SLICES@"));
        cells[0] = cell;
        o.insert(QStringLiteral("cells"), cells);
        QByteArray text = QJsonDocument(o).toJson(QJsonDocument::Compact);
        constexpr int kSlices = 2'000'000;
        const QByteArray slice = "{\"t_s\":1,\"sent\":2},";
        QByteArray slicesText;
        slicesText.reserve(slice.size() * kSlices + 2);
        slicesText.append('[');
        for (int i = 0; i < kSlices; ++i)
            slicesText.append(slice);
        slicesText.back() = ']';
        text.replace("\"@SLICES@\"", slicesText);
        slicesText.clear();
        const QString path = out + QStringLiteral("/results.json");
        QVERIFY(overwrite(path, text));

        const Run r = cli({QStringLiteral("run"), spec, QStringLiteral("--out"), out, QStringLiteral("--resume")});
        rusage usage{};
        getrusage(RUSAGE_CHILDREN, &usage);
        qInfo("results.json of %lld MB, %d time slices in one cell: peak RSS of the CLI children so far %ld MB",
              qlonglong(text.size() / (1024 * 1024)), kSlices, usage.ru_maxrss / 1024);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("cells[0] holds")) && r.err.contains(QLatin1String("the limit for one of its cells is")), qPrintable(r.err));
        QCOMPARE(readFile(path), text);
        // Bounded: the text (40 MB) and the process, far from the 739 MB a parse took.
        QVERIFY2(usage.ru_maxrss / 1024 < 300, qPrintable(QString::number(usage.ru_maxrss / 1024)));
    }

    void resumeRefusesAnUnreadableResultsFile()
    {
        QString error;
        auto mock = MockServer::start(timedMock(Flavor::Vllm), &error);
        QVERIFY(mock);
        const SweepSpec spec = smallSpec({serverFor("vllm", *mock, Flavor::Vllm)}, {1}, 2);
        QTemporaryDir out;
        const QString path = write(out, QStringLiteral("results.json"), "{\"schema\": \"sweepbench-results/1\", \"cells\": [");
        const RunResult r = runSweep(spec, out.path(), true);
        QCOMPARE(r.exitCode, exitcode::kCannotStart);
        QCOMPARE(readFile(path), QByteArray("{\"schema\": \"sweepbench-results/1\", \"cells\": ["));
        QCOMPARE(mock->stats().requests, 0);
    }

    // The CLI as users run it: refused resume names the keys; --force needs --resume.
    void cliNamesTheChangedKeys()
    {
        if (m_binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        QCOMPARE(cli({QStringLiteral("run"), write(dir, QStringLiteral("a.yaml"), mockSpecYaml(16)), QStringLiteral("--out"), out}).code, 0);
        const Run refused = cli({QStringLiteral("run"), write(dir, QStringLiteral("b.yaml"), mockSpecYaml(1024)), QStringLiteral("--out"), out,
                                 QStringLiteral("--resume")});
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains(QLatin1String("workload.input_tokens: 16 -> 1024")), qPrintable(refused.err));
        QVERIFY(!refused.out.contains(QLatin1String("results written")));
        const Run forced = cli({QStringLiteral("run"), dir.filePath(QStringLiteral("b.yaml")), QStringLiteral("--out"), out,
                                QStringLiteral("--resume"), QStringLiteral("--force")});
        QCOMPARE(forced.code, 0);
        QVERIFY2(forced.err.contains(QLatin1String("kept by --resume --force")), qPrintable(forced.err));
        QCOMPARE(cli({QStringLiteral("run"), dir.filePath(QStringLiteral("b.yaml")), QStringLiteral("--force")}).code, 2);
        const Run help = cli({QStringLiteral("help"), QStringLiteral("run")});
        QVERIFY(help.out.contains(QLatin1String("--force")) && help.out.contains(QLatin1String("3 results could not be written")));
    }

    // --resume into a folder with a valid results.json when nothing can be written: the file
    // stays byte for byte, the exit code is 3, the file and reason are named, and no
    // "results written" is claimed.
    void cliResumeOnAFullDiskKeepsResults()
    {
        if (m_binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        const QString spec = write(dir, QStringLiteral("a.yaml"), mockSpecYaml(16));
        QCOMPARE(cli({QStringLiteral("run"), spec, QStringLiteral("--out"), out}).code, 0);
        const QByteArray before = readFile(out + QStringLiteral("/results.json"));
        QVERIFY(!before.isEmpty());
        const Run r = cli({QStringLiteral("run"), spec, QStringLiteral("--out"), out, QStringLiteral("--resume")}, 64);
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(out) && r.err.contains(qt_error_string(EFBIG)), qPrintable(r.err));
        QVERIFY(!r.out.contains(QLatin1String("results written")));
        QCOMPARE(readFile(out + QStringLiteral("/results.json")), before);
    }

    // A real small disk (root only): a sweep that fills it stops with exit 3 and a valid
    // results.json holding the cells finished before; a resume on the full disk keeps it.
    void cliOnASmallTmpfs()
    {
        if (m_binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set (run through ctest)");
        QTemporaryDir dir;
        SmallTmpfs fs(dir.filePath(QStringLiteral("disk")), "200k");
        if (!fs.mounted())
            QSKIP("needs root to mount a 200 KB tmpfs");
        const QString out = dir.filePath(QStringLiteral("disk/out"));
        // Streaming records with 63 inter-chunk gaps each: ~80 KB a cell, so the disk fills
        // during the second or third cell.
        const QByteArray yaml = "name: fill\nservers:\n  - name: m\n    mock: sglang\n"
                                "workload: {input_tokens: 16, output_tokens: 64, requests_per_cell: 120}\n"
                                "sweep: {concurrency: [40, 60, 80, 100, 120]}\n";
        const Run r = cli({QStringLiteral("run"), write(dir, QStringLiteral("fill.yaml"), yaml), QStringLiteral("--out"), out});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(out) && r.err.contains(qt_error_string(ENOSPC)), qPrintable(r.err));
        QVERIFY(!r.out.contains(QLatin1String("results written")));
        SweepResults disk;
        QString error;
        QVERIFY2(ResultsStore::readResults(out, &disk, &error), qPrintable(error));
        QCOMPARE(disk.cells.size(), 5);
        QCOMPARE(disk.cells[0].status, CellStatus::Completed);
        for (const CellResult &c : std::as_const(disk.cells))
            if (c.status == CellStatus::Completed) // every cell the file calls finished has its records
                QVERIFY(readFile(out + QLatin1Char('/') + c.recordsPath).count('\n') == c.completed + c.failed);

        fs.fill(QStringLiteral("more"));
        const QByteArray before = readFile(out + QStringLiteral("/results.json"));
        const Run resumed = cli({QStringLiteral("run"), dir.filePath(QStringLiteral("fill.yaml")), QStringLiteral("--out"), out, QStringLiteral("--resume")});
        QCOMPARE(resumed.code, 3);
        QVERIFY2(resumed.err.contains(qt_error_string(ENOSPC)), qPrintable(resumed.err));
        QCOMPARE(readFile(out + QStringLiteral("/results.json")), before);
    }
};

QTEST_GUILESS_MAIN(TestResumeSafety)
#include "tst_resume_safety.moc"
