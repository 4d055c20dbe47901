#pragma once
// `workload.dataset`: where prompts come from — synthetic prompts, or a dataset file (format +
// path with a file picker; mooncake traces also their block size). The file is read off the UI
// thread (it may be large, workload/Dataset.h bounds it), and its first error, "FILE:LINE: what",
// is shown at the path field; the loaded dataset feeds the preview.
#include "spec/WorkloadShapes.h"
#include <QFutureWatcher>
#include <QWidget>
#include <memory>

class QComboBox;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QToolButton;

namespace sb {
class Dataset;
}

namespace sb::ui {

class DatasetEditor : public QWidget
{
    Q_OBJECT
public:
    explicit DatasetEditor(QWidget *parent = nullptr);
    ~DatasetEditor() override;

    void setDataset(const std::optional<DatasetSpec> &dataset, const QString &specFile); // emits nothing
    void applyTo(std::optional<DatasetSpec> &dataset) const;
    bool usesDataset() const;
    // workload.sessions is on: the dataset is read as sessions (its conversations), as a run
    // reads it, so the summary counts them and their errors show here. Reloads when it changes.
    void setAsSessions(bool asSessions);

    // The dataset as last loaded for the current format/path/block size; null while loading, on
    // an error, or with synthetic prompts.
    std::shared_ptr<const Dataset> loaded() const { return m_loaded; }
    QString loadError() const { return m_error; } // "FILE:LINE: what was expected"; "" = none
    bool isLoading() const { return m_inFlight || m_reloadPending; }

    QComboBox *sourceBox() const { return m_source; }
    QComboBox *formatBox() const { return m_format; }
    QLineEdit *pathEdit() const { return m_path; }
    QWidget *pathField() const { return m_pathRow; }

Q_SIGNALS:
    void edited();
    void loadFinished(); // loaded() / loadError() changed

private:
    struct Load {
        std::shared_ptr<const Dataset> dataset;
        QString error;
        quint64 generation = 0;
    };
    void reload();
    void onLoaded();
    void updateVisibility();

    QComboBox *m_source = nullptr;
    QStackedWidget *m_stack = nullptr;
    QComboBox *m_format = nullptr;
    QLineEdit *m_path = nullptr;
    QWidget *m_pathRow = nullptr;
    QToolButton *m_browse = nullptr;
    QSpinBox *m_blockTokens = nullptr;
    QString m_specFile;
    bool m_loading = false;
    bool m_asSessions = false;

    QFutureWatcher<Load> m_watcher;
    quint64 m_generation = 0;
    bool m_reloadPending = false;
    bool m_inFlight = false; // a load was started and its result not yet taken
    std::shared_ptr<const Dataset> m_loaded;
    QString m_error;
};

} // namespace sb::ui
