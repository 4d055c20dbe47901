#include "designer/DatasetEditor.h"
#include "workload/Dataset.h"
#include "designer/StackFit.h"
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::ui {

DatasetEditor::DatasetEditor(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("promptSource"));
    m_source->addItems({tr("synthetic prompts"), tr("a dataset file")});
    m_source->setToolTip(tr("Synthetic prompts have the lengths set below; a dataset sends its own prompts in file order"));
    layout->addWidget(m_source);

    auto *fields = new QWidget;
    auto *form = new QFormLayout(fields);
    form->setContentsMargins(0, 0, 0, 0);
    form->setVerticalSpacing(2);
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("datasetFormat"));
    m_format->addItems(datasetFormatNames());
    m_format->setToolTip(tr("jsonl: one {text | messages, output_tokens, timestamp} per line; sharegpt: conversations; "
                            "mooncake: a trace of input_length, output_length, hash_ids, timestamp. With sessions, "
                            "jsonl and mooncake entries sharing a session_id are one session (delay: its think time)"));
    m_path = new QLineEdit;
    m_path->setObjectName(QStringLiteral("datasetPath"));
    m_path->setPlaceholderText(tr("FILE (relative to the spec's folder)"));
    m_browse = new QToolButton;
    m_browse->setText(tr("Browse…"));
    m_browse->setObjectName(QStringLiteral("datasetBrowse"));
    m_pathRow = new QWidget;
    auto *pathLayout = new QHBoxLayout(m_pathRow);
    pathLayout->setContentsMargins(0, 0, 0, 0);
    pathLayout->addWidget(m_path, 1);
    pathLayout->addWidget(m_browse);
    m_blockTokens = new QSpinBox;
    m_blockTokens->setObjectName(QStringLiteral("datasetBlockTokens"));
    m_blockTokens->setRange(-10'000'000, 10'000'000); // the validator reports the range
    m_blockTokens->setSuffix(tr(" tokens"));
    m_blockTokens->setToolTip(tr("Tokens per hash_id block of the trace (its block size)"));
    form->addRow(tr("Format"), m_format);
    form->addRow(tr("File"), m_pathRow);
    form->addRow(tr("Block size"), m_blockTokens);
    m_stack = new QStackedWidget;
    m_stack->addWidget(new QWidget);
    m_stack->addWidget(fields);
    m_stack->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    layout->addWidget(m_stack);

    auto changed = [this](bool reloadFile) {
        updateVisibility();
        if (m_loading)
            return;
        if (reloadFile)
            reload();
        Q_EMIT edited();
    };
    connect(m_source, &QComboBox::activated, this, [changed] { changed(true); });
    connect(m_format, &QComboBox::activated, this, [changed] { changed(true); });
    connect(m_path, &QLineEdit::editingFinished, this, [this, changed] {
        if (!m_loading)
            changed(true);
    });
    connect(m_path, &QLineEdit::textEdited, this, [changed] { changed(false); });
    connect(m_blockTokens, &QSpinBox::valueChanged, this, [changed] { changed(true); });
    connect(m_browse, &QToolButton::clicked, this, [this, changed] {
        const QString start = m_specFile.isEmpty() ? QString() : QFileInfo(m_specFile).absolutePath();
        const QString file = QFileDialog::getOpenFileName(this, tr("Dataset file"), start,
                                                          tr("Datasets (*.jsonl *.json);;All files (*)"));
        if (file.isEmpty())
            return;
        // Relative to the spec's folder when it lies beneath it, so the spec can move with it.
        const QString rel = start.isEmpty() ? QString() : QDir(start).relativeFilePath(file);
        m_path->setText(!rel.isEmpty() && !rel.startsWith(QLatin1String("..")) ? rel : file);
        changed(true);
    });
    connect(&m_watcher, &QFutureWatcher<Load>::finished, this, &DatasetEditor::onLoaded);
    updateVisibility();
}

DatasetEditor::~DatasetEditor()
{
    m_watcher.waitForFinished(); // the load holds no pointer to this; wait so it ends with us
}

bool DatasetEditor::usesDataset() const
{
    return m_source->currentIndex() == 1;
}

void DatasetEditor::updateVisibility()
{
    m_stack->setCurrentIndex(usesDataset() ? 1 : 0);
    fitStackToCurrent(m_stack);
    m_blockTokens->setEnabled(datasetFormatFromString(m_format->currentText()) == DatasetFormat::Mooncake);
}

void DatasetEditor::setDataset(const std::optional<DatasetSpec> &dataset, const QString &specFile)
{
    m_loading = true;
    m_specFile = specFile;
    const DatasetSpec d = dataset.value_or(DatasetSpec());
    m_source->setCurrentIndex(dataset ? 1 : 0);
    m_format->setCurrentIndex(m_format->findText(toString(d.format)));
    m_path->setText(d.path);
    m_blockTokens->setValue(d.blockTokens);
    updateVisibility();
    m_loading = false;
    reload();
}

void DatasetEditor::applyTo(std::optional<DatasetSpec> &dataset) const
{
    if (!usesDataset()) {
        dataset.reset();
        return;
    }
    DatasetSpec d;
    d.format = datasetFormatFromString(m_format->currentText()).value_or(DatasetFormat::Jsonl);
    d.path = m_path->text().trimmed();
    d.blockTokens = m_blockTokens->value();
    dataset = d;
}

void DatasetEditor::setAsSessions(bool asSessions)
{
    if (asSessions == m_asSessions)
        return;
    m_asSessions = asSessions;
    reload();
}

void DatasetEditor::reload()
{
    ++m_generation;
    m_loaded.reset();
    m_error.clear();
    std::optional<DatasetSpec> spec;
    applyTo(spec);
    if (!spec || spec->path.isEmpty()) {
        Q_EMIT loadFinished();
        return;
    }
    if (m_inFlight) {
        m_reloadPending = true; // one load at a time; the newest spec is read when this one ends
        return;
    }
    m_reloadPending = false;
    const quint64 generation = m_generation;
    const QString specFile = m_specFile;
    const DatasetSpec ds = *spec;
    const bool asSessions = m_asSessions;
    m_inFlight = true;
    m_watcher.setFuture(QtConcurrent::run([ds, specFile, generation, asSessions] {
        auto dataset = std::make_shared<Dataset>();
        Load result;
        result.generation = generation;
        if (loadDataset(ds, specFile, dataset.get(), &result.error, asSessions))
            result.dataset = std::move(dataset);
        return result;
    }));
}

void DatasetEditor::onLoaded()
{
    const Load result = m_watcher.result();
    m_inFlight = false;
    if (m_reloadPending) {
        reload(); // the spec changed while this load ran: its result is stale
        return;
    }
    if (result.generation != m_generation)
        return;
    m_loaded = result.dataset;
    m_error = result.error;
    Q_EMIT loadFinished();
}

} // namespace sb::ui
