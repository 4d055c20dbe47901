#include "compare/CompareView.h"
#include "charts/ChartsPanel.h"
#include "compare/ResultSetListModel.h"
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace sb::ui {

class CompareViewPrivate
{
public:
    ResultSetListModel *model = nullptr;
    QListView *list = nullptr;
    ChartsPanel *charts = nullptr;
    QPushButton *remove = nullptr;
};

CompareView::CompareView(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<CompareViewPrivate>())
{
    d->model = new ResultSetListModel(this);
    d->list = new QListView(this);
    d->list->setObjectName(QStringLiteral("resultSets"));
    d->list->setModel(d->model);
    d->list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                             | QAbstractItemView::SelectedClicked);
    d->list->setIconSize(QSize(36, 16));
    d->charts = new ChartsPanel(this);
    d->charts->setObjectName(QStringLiteral("chartsPanel"));

    auto *addFolder = new QPushButton(tr("Add folder…"), this);
    auto *addFile = new QPushButton(tr("Add file…"), this);
    d->remove = new QPushButton(tr("Remove"), this);
    d->remove->setObjectName(QStringLiteral("removeSet"));
    d->remove->setEnabled(false);
    addFolder->setToolTip(tr("A SweepBench results folder, an AIPerf artifact folder or a folder of vLLM bench JSON files"));
    addFile->setToolTip(tr("An exported SweepBench zip or a vLLM bench --save-result JSON file"));

    auto *hint = new QLabel(tr("Double-click a name to rename it in the legends. Drop folders or files here."), this);
    hint->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(addFolder);
    buttons->addWidget(addFile);
    buttons->addWidget(d->remove);
    auto *sideBox = new QWidget(this);
    auto *side = new QVBoxLayout(sideBox);
    side->setContentsMargins(0, 0, 0, 0);
    side->addWidget(new QLabel(tr("Result sets"), this));
    side->addWidget(d->list, 1);
    side->addLayout(buttons);
    side->addWidget(hint);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(sideBox);
    splitter->addWidget(d->charts);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({260, 900});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    setAcceptDrops(true);

    auto refresh = [this] {
        d->charts->setInputs(d->model->chartInputs());
        Q_EMIT resultSetsChanged();
    };
    connect(d->model, &QAbstractItemModel::dataChanged, this, refresh);
    connect(d->model, &QAbstractItemModel::rowsInserted, this, refresh);
    connect(d->model, &QAbstractItemModel::rowsRemoved, this, refresh);
    connect(d->model, &QAbstractItemModel::modelReset, this, refresh);
    connect(d->list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &cur) { d->remove->setEnabled(cur.isValid()); });
    connect(d->remove, &QPushButton::clicked, this, [this] { removeResultSet(d->list->currentIndex().row()); });
    auto addInteractive = [this](const QString &path) {
        if (path.isEmpty())
            return;
        QString error;
        if (!addResultSet(path, &error))
            QMessageBox::warning(this, tr("Add result set"), tr("Could not open %1:\n%2").arg(path, error));
    };
    connect(addFolder, &QPushButton::clicked, this, [this, addInteractive] {
        addInteractive(QFileDialog::getExistingDirectory(this, tr("Add results folder")));
    });
    connect(addFile, &QPushButton::clicked, this, [this, addInteractive] {
        addInteractive(QFileDialog::getOpenFileName(this, tr("Add results file"), QString(),
                                                    tr("Results (*.zip *.json);;All files (*)")));
    });
}

CompareView::~CompareView() = default;

bool CompareView::addResultSet(const QString &path, QString *error)
{
    QString err;
    const std::optional<LoadedResults> loaded = loadResults(path, &err);
    if (!loaded) {
        if (error)
            *error = err;
        return false;
    }
    d->model->add(*loaded, path);
    return true;
}

void CompareView::addLoadedResults(const LoadedResults &loaded)
{
    d->model->add(loaded, loaded.folder);
}

void CompareView::removeResultSet(int row)
{
    d->model->remove(row);
    d->remove->setEnabled(d->list->currentIndex().isValid());
}

void CompareView::clear()
{
    d->model->clear();
}

int CompareView::resultSetCount() const
{
    return d->model->rowCount();
}

void CompareView::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void CompareView::dropEvent(QDropEvent *event)
{
    QStringList failures;
    for (const QUrl &url : event->mimeData()->urls()) {
        QString error;
        if (url.isLocalFile() && !addResultSet(url.toLocalFile(), &error))
            failures << QStringLiteral("%1: %2").arg(url.toLocalFile(), error);
    }
    event->acceptProposedAction();
    if (!failures.isEmpty())
        QMessageBox::warning(this, tr("Add result sets"), failures.join(QLatin1Char('\n')));
}

} // namespace sb::ui
