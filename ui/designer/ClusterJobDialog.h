#pragma once
// Design > File > "Export as cluster job…": the same Slurm / Kubernetes job files as
// `sweepbench cluster` (cluster/ClusterJobs.h), with the shard plan shown before writing.
#include "spec/SweepSpec.h"
#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace sb::ui {

class ClusterJobDialog : public QDialog
{
    Q_OBJECT
public:
    // specPath: where the saved spec is (the jobs name it; Slurm nodes read it from there).
    ClusterJobDialog(const SweepSpec &spec, const QString &specPath, QWidget *parent = nullptr);

    // Renders and writes the files; false with the reason shown in the dialog. Public for tests.
    bool writeJobs();
    QStringList writtenFiles() const { return m_written; }

private:
    void updatePlan();
    bool slurm() const;

    SweepSpec m_spec;
    QString m_specPath;
    QComboBox *m_scheduler = nullptr;
    QSpinBox *m_shards = nullptr;
    QSpinBox *m_cpus = nullptr;
    QStackedWidget *m_pages = nullptr;
    QLineEdit *m_outDir = nullptr, *m_partition = nullptr, *m_account = nullptr, *m_time = nullptr;
    QLineEdit *m_image = nullptr, *m_claim = nullptr;
    QLineEdit *m_jobsDir = nullptr;
    QLabel *m_plan = nullptr;
    QLabel *m_status = nullptr;
    QStringList m_written;
};

} // namespace sb::ui
