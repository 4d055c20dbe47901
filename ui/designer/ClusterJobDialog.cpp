#include "designer/ClusterJobDialog.h"
#include "cluster/ClusterJobs.h"
#include "engine/ShardPlan.h"
#include "spec/SpecIO.h"
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sb::ui {

ClusterJobDialog::ClusterJobDialog(const SweepSpec &spec, const QString &specPath, QWidget *parent)
    : QDialog(parent), m_spec(spec), m_specPath(QFileInfo(specPath).absoluteFilePath())
{
    setWindowTitle(tr("Export as cluster job"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Runs this sweep as shards on your scheduler and merges them into one result set. "
                                "Servers sharing an origin always stay in one shard (hooks act on the whole server)."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *common = new QFormLayout;
    m_scheduler = new QComboBox;
    m_scheduler->setObjectName(QStringLiteral("scheduler"));
    m_scheduler->addItems({tr("Slurm (job array + merge job)"), tr("Kubernetes (Indexed Job + merge Job)")});
    common->addRow(tr("Scheduler:"), m_scheduler);
    m_shards = new QSpinBox;
    m_shards->setObjectName(QStringLiteral("shards"));
    m_shards->setRange(1, kMaxShards);
    m_shards->setValue(std::max(1, int(std::min<qsizetype>(spec.servers.size(), 8))));
    common->addRow(tr("Shards:"), m_shards);
    m_cpus = new QSpinBox;
    m_cpus->setRange(1, 256);
    m_cpus->setValue(2);
    m_cpus->setSuffix(tr(" CPUs per shard"));
    common->addRow(tr("Client CPUs:"), m_cpus);
    layout->addLayout(common);

    m_pages = new QStackedWidget;
    auto *slurmPage = new QWidget;
    auto *slurmForm = new QFormLayout(slurmPage);
    m_outDir = new QLineEdit(QFileInfo(m_specPath).absolutePath() + QStringLiteral("/cluster-results"));
    m_outDir->setObjectName(QStringLiteral("outDir"));
    m_outDir->setToolTip(tr("An absolute folder every node sees (shared storage)"));
    slurmForm->addRow(tr("Results folder:"), m_outDir);
    m_partition = new QLineEdit;
    m_partition->setPlaceholderText(tr("cluster default"));
    slurmForm->addRow(tr("Partition:"), m_partition);
    m_account = new QLineEdit;
    m_account->setPlaceholderText(tr("cluster default"));
    slurmForm->addRow(tr("Account:"), m_account);
    m_time = new QLineEdit;
    m_time->setPlaceholderText(tr("e.g. 04:00:00"));
    slurmForm->addRow(tr("Time limit:"), m_time);
    m_pages->addWidget(slurmPage);
    auto *k8sPage = new QWidget;
    auto *k8sForm = new QFormLayout(k8sPage);
    m_image = new QLineEdit(QStringLiteral("sweepbench:latest"));
    k8sForm->addRow(tr("Image:"), m_image);
    m_claim = new QLineEdit(QStringLiteral("sweepbench-results"));
    k8sForm->addRow(tr("Volume claim:"), m_claim);
    m_pages->addWidget(k8sPage);
    layout->addWidget(m_pages);

    auto *where = new QFormLayout;
    m_jobsDir = new QLineEdit;
    m_jobsDir->setObjectName(QStringLiteral("jobsDir"));
    m_jobsDir->setPlaceholderText(tr("default: RESULTS/slurm, or k8s-NAME beside the spec"));
    where->addRow(tr("Write job files to:"), m_jobsDir);
    layout->addLayout(where);

    m_plan = new QLabel;
    m_plan->setObjectName(QStringLiteral("plan"));
    m_plan->setTextFormat(Qt::PlainText);
    m_plan->setWordWrap(true);
    layout->addWidget(m_plan);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton *write = buttons->addButton(tr("Write job files"), QDialogButtonBox::ActionRole);
    write->setObjectName(QStringLiteral("write"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(write, &QPushButton::clicked, this, [this] { writeJobs(); });
    connect(m_scheduler, &QComboBox::currentIndexChanged, m_pages, &QStackedWidget::setCurrentIndex);
    connect(m_shards, &QSpinBox::valueChanged, this, [this] { updatePlan(); });
    updatePlan();
}

bool ClusterJobDialog::slurm() const { return m_scheduler->currentIndex() == 0; }

void ClusterJobDialog::updatePlan()
{
    m_plan->setText(describePlan(m_spec, planShards(m_spec, m_shards->value())).join(QLatin1Char('\n')));
}

bool ClusterJobDialog::writeJobs()
{
    ClusterJobOptions o;
    o.specPath = m_specPath;
    o.shards = m_shards->value();
    o.cpusPerShard = m_cpus->value();
    o.outDir = m_outDir->text().trimmed();
    o.partition = m_partition->text().trimmed();
    o.account = m_account->text().trimmed();
    o.timeLimit = m_time->text().trimmed();
    o.image = m_image->text().trimmed();
    o.volumeClaim = m_claim->text().trimmed();
    QString error;
    QList<RenderedFile> files;
    if (slurm())
        files = renderSlurmJobs(m_spec, o, &error);
    else if (readSpecFile(m_specPath, &o.specText, &error)) // the ConfigMap carries the saved file
        files = renderKubernetesJobs(m_spec, o, &error);
    QString dir = m_jobsDir->text().trimmed();
    if (dir.isEmpty() && !files.isEmpty())
        dir = slurm() ? QDir(o.outDir).filePath(QStringLiteral("slurm"))
                      : QFileInfo(m_specPath).absoluteDir().filePath(QStringLiteral("k8s-") + clusterJobName(m_spec.name));
    if (files.isEmpty() || !writeRenderedFiles(files, dir, &error)) {
        m_status->setStyleSheet(QStringLiteral("color: palette(highlight);"));
        m_status->setText(tr("Not written: %1").arg(error));
        return false;
    }
    m_written.clear();
    for (const RenderedFile &f : files)
        m_written.append(QDir(dir).filePath(f.name));
    m_status->setStyleSheet(QString());
    m_status->setText(tr("Wrote %1. %2").arg(m_written.join(QStringLiteral(", ")),
                                               slurm() ? tr("Submit with: bash %1").arg(QDir(dir).filePath(QStringLiteral("submit.sh")))
                                                       : tr("Apply with: bash %1").arg(QDir(dir).filePath(QStringLiteral("apply.sh")))));
    return true;
}

} // namespace sb::ui
