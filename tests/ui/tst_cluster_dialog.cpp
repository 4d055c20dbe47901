// File > Export as cluster job…: the dialog shows the shard plan and writes the same job files as
// `sweepbench cluster`, refusing what a scheduler would misread, in a real (offscreen) window.
#include "FifoWatchdog.h"
#include "TestSupport.h"
#include "designer/ClusterJobDialog.h"
#include "engine/SweepEngine.h"
#include "results/ResultsView.h"
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace sb;
using namespace sb::ui;

namespace {
SweepSpec threeServers()
{
    SweepSpec spec;
    spec.name = QStringLiteral("Cluster Dialog");
    for (const char *url : {"http://gpu1:8000", "http://gpu1:8000/v1", "http://gpu2:8000"}) {
        ServerSpec s;
        s.name = QStringLiteral("s%1").arg(spec.servers.size());
        s.urls = {QString::fromLatin1(url)};
        s.model = QStringLiteral("m");
        spec.servers.append(s);
    }
    spec.concurrency = {1, 8};
    spec.workload.requestsPerCell = 64;
    return spec;
}
} // namespace

class TestClusterDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void showsThePlanAndWritesSlurmJobs()
    {
        QTemporaryDir dir;
        const QString spec = dir.filePath(QStringLiteral("sweep.yaml"));
        ui::ClusterJobDialog dialog(threeServers(), spec);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *shards = dialog.findChild<QSpinBox *>(QStringLiteral("shards"));
        auto *plan = dialog.findChild<QLabel *>(QStringLiteral("plan"));
        shards->setValue(2);
        // s0 and s1 share gpu1:8000: one shard has both, the other s2.
        QVERIFY2(plan->text().contains(QLatin1String("s0, s1")) && plan->text().contains(QLatin1String(": s2 ")), qPrintable(plan->text()));
        shards->setValue(3);
        QVERIFY(plan->text().contains(QLatin1String("no servers")));
        shards->setValue(2);
        dialog.findChild<QLineEdit *>(QStringLiteral("outDir"))->setText(dir.filePath(QStringLiteral("out")));
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("write")), Qt::LeftButton);
        QCOMPARE(dialog.writtenFiles().size(), 3);
        QFile shard(dir.filePath(QStringLiteral("out/slurm/shard.sbatch")));
        QVERIFY(shard.open(QIODevice::ReadOnly));
        const QByteArray text = shard.readAll();
        QVERIFY(text.contains("#SBATCH --array=0-1") && text.contains(spec.toUtf8()));
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("status"))->text().contains(QLatin1String("submit.sh")));
    }

    void refusesARelativeResultsFolder()
    {
        QTemporaryDir dir;
        ui::ClusterJobDialog dialog(threeServers(), dir.filePath(QStringLiteral("sweep.yaml")));
        dialog.findChild<QLineEdit *>(QStringLiteral("outDir"))->setText(QStringLiteral("relative/out"));
        dialog.findChild<QLineEdit *>(QStringLiteral("jobsDir"))->setText(dir.filePath(QStringLiteral("jobs")));
        QVERIFY(!dialog.writeJobs());
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("status"))->text().contains(QLatin1String("absolute")));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("jobs/shard.sbatch"))));
    }

    void writesKubernetesManifestsFromTheSavedSpec()
    {
        QTemporaryDir dir;
        const QString spec = dir.filePath(QStringLiteral("sweep.yaml"));
        QFile f(spec);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name: Cluster Dialog\nservers: []\n");
        f.close();
        ui::ClusterJobDialog dialog(threeServers(), spec);
        dialog.findChild<QComboBox *>(QStringLiteral("scheduler"))->setCurrentIndex(1);
        dialog.findChild<QLineEdit *>(QStringLiteral("jobsDir"))->setText(dir.filePath(QStringLiteral("k8s")));
        QVERIFY(dialog.writeJobs());
        QFile job(dir.filePath(QStringLiteral("k8s/shards-job.yaml")));
        QVERIFY(job.open(QIODevice::ReadOnly));
        const QByteArray text = job.readAll();
        QVERIFY(text.contains("completionMode: Indexed") && text.contains("    name: Cluster Dialog"));
    }

    // The ConfigMap's spec is read like every spec (spec/SpecIO.h readSpecFile): a saved spec
    // that turned into a FIFO is refused at once, not waited on with the window frozen.
    void kubernetesRefusesASpecThatIsNotARegularFile()
    {
        QTemporaryDir dir;
        const QString spec = dir.filePath(QStringLiteral("sweep.yaml"));
        QCOMPARE(::mkfifo(QFile::encodeName(spec).constData(), 0600), 0);
        ui::ClusterJobDialog dialog(threeServers(), spec);
        dialog.findChild<QComboBox *>(QStringLiteral("scheduler"))->setCurrentIndex(1);
        dialog.findChild<QLineEdit *>(QStringLiteral("jobsDir"))->setText(dir.filePath(QStringLiteral("k8s")));
        sbtest::FifoWatchdog watchdog(spec, 10);
        QVERIFY(!dialog.writeJobs());
        QVERIFY2(!watchdog.fired(), "the dialog blocked on the FIFO");
        const QString status = dialog.findChild<QLabel *>(QStringLiteral("status"))->text();
        QVERIFY2(status.contains(QLatin1String("sweep.yaml is a pipe (FIFO); only regular files are read")), qPrintable(status));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("k8s"))));
    }

    // File > Open results folder on a folder of shard folders: one set; a shard not there yet
    // leaves its cells pending.
    void aFolderOfShardsOpensAsOneSetInResults()
    {
        QTemporaryDir dir;
        SweepSpec spec;
        spec.name = QStringLiteral("two mocks");
        for (const char *name : {"a", "b"}) {
            ServerSpec s;
            s.name = QString::fromLatin1(name);
            s.mock = QStringLiteral("vllm");
            s.model = QStringLiteral("demo-model");
            s.flavor = Flavor::Vllm;
            spec.servers.append(s);
        }
        spec.concurrency = {1};
        spec.workload.requestsPerCell = 6;
        spec.workload.inputTokens = 8;
        spec.workload.outputTokens = 2;
        spec.workload.calibratePrompts = false;
        RunOptions options{dir.filePath(QStringLiteral("set/shard-0")), false};
        options.shard = ShardId{0, 2};
        SweepEngine engine(spec, options);
        QSignalSpy finished(&engine, &SweepEngine::finished);
        engine.start();
        QVERIFY(sbtest::waitForSignal(finished, 60000));
        ResultsView view;
        QString error;
        QVERIFY2(view.openResults(dir.filePath(QStringLiteral("set")), &error), qPrintable(error));
        QCOMPARE(view.results().cells.size(), 2);
        int pending = 0, completed = 0;
        for (const CellResult &c : view.results().cells) {
            pending += c.status == CellStatus::Pending;
            completed += c.status == CellStatus::Completed;
            if (c.status == CellStatus::Pending)
                QVERIFY2(c.reason.contains(QLatin1String("shard 1/2 is missing")), qPrintable(c.reason));
        }
        QCOMPARE(pending, 1);
        QCOMPARE(completed, 1);
    }
};

QTEST_MAIN(TestClusterDialog)
#include "tst_cluster_dialog.moc"
