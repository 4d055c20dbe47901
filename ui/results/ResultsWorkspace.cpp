#include "results/ResultsWorkspace.h"
#include <QDockWidget>
#include <QTimer>
#include <QSettings>
#include <QShowEvent>
#include <QStyle>
#include <algorithm>

namespace sb::ui {

namespace {
// Bumped when the set of docks changes: an older saved arrangement is then ignored rather than
// restored half-way.
constexpr int kLayoutVersion = 1;

QDockWidget *makeDock(const QString &title, const QString &objectName, QWidget *content, QWidget *parent)
{
    auto *dock = new QDockWidget(title, parent);
    dock->setObjectName(objectName); // saveState/restoreState match docks by object name
    dock->setWidget(content);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    return dock;
}
} // namespace

ResultsWorkspace::ResultsWorkspace(QWidget *charts, QWidget *table, QWidget *cellPane, const QString &settingsKey, QWidget *parent)
    : QMainWindow(parent)
    , m_key(settingsKey)
{
    setWindowFlags(Qt::Widget); // a pane inside the main window's tab, not a window of its own
    setObjectName(QStringLiteral("resultsWorkspace"));
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
    setCentralWidget(charts);
    m_tableDock = makeDock(tr("Cells"), QStringLiteral("cellsDock"), table, this);
    m_cellDock = makeDock(tr("Selected cell"), QStringLiteral("cellDock"), cellPane, this);
    m_tableDock->toggleViewAction()->setText(tr("Cell &table"));
    m_cellDock->toggleViewAction()->setText(tr("Selected &cell pane"));
    placeDocks();
}

ResultsWorkspace::~ResultsWorkspace()
{
    saveLayout();
}

void ResultsWorkspace::placeDocks()
{
    for (QDockWidget *dock : {m_tableDock, m_cellDock}) {
        dock->setFloating(false);
        dock->show();
    }
    addDockWidget(Qt::BottomDockWidgetArea, m_tableDock);
    splitDockWidget(m_tableDock, m_cellDock, Qt::Horizontal);
}

void ResultsWorkspace::sizeDocks()
{
    const int dockHeight = qRound(height() * (1.0 - kChartsShare));
    resizeDocks({m_tableDock}, {dockHeight}, Qt::Vertical);
    // resizeDocks does not weigh minimum sizes against each other: leave the cell pane the width
    // its tabs need (every tab in view) or the two docks overlap.
    const int separator = style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, this);
    const int cellWidth = std::max(width() - qRound(width() * kTableShare), m_cellDock->minimumSizeHint().width());
    const int tableWidth = std::max(width() - cellWidth - separator, m_tableDock->minimumSizeHint().width());
    resizeDocks({m_tableDock, m_cellDock}, {tableWidth, width() - tableWidth - separator}, Qt::Horizontal);
}

void ResultsWorkspace::resetLayout()
{
    placeDocks();
    sizeDocks();
    m_laidOut = true;
    saveLayout();
}

void ResultsWorkspace::saveLayout() const
{
    if (m_laidOut)
        QSettings().setValue(m_key, saveState(kLayoutVersion));
}

void ResultsWorkspace::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_laidOut)
        return;
    m_laidOut = true;
    // Dock sizes are shares of the final size, which the enclosing layouts settle only after this
    // first show: apply them once the event loop has laid the window out.
    QTimer::singleShot(0, this, [this] {
        const QByteArray saved = QSettings().value(m_key).toByteArray();
        if (saved.isEmpty() || !restoreState(saved, kLayoutVersion))
            sizeDocks();
    });
}

} // namespace sb::ui
