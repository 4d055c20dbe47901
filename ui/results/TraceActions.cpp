#include "results/TraceActions.h"
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFileInfo>
#include <QMenu>
#include <QUrl>

namespace sb::ui {

void openWithDesktop(const QString &path)
{
    QDesktopServices::openUrl(QUrl::fromLocalFile(path));
}

void revealInFolder(const QString &path)
{
    // Selecting the file inside the file manager is platform-specific (DBus FileManager1 on
    // Linux); opening the folder works everywhere.
    QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(path).absolutePath()));
}

namespace {
void addActionsFor(QMenu *menu, const QString &path, bool named)
{
    const QString name = QFileInfo(path).fileName();
    QAction *open = menu->addAction(named ? QMenu::tr("Open %1").arg(name) : QMenu::tr("Open"),
                                    menu, [path] { openWithDesktop(path); });
    open->setEnabled(QFileInfo::exists(path));
    menu->addAction(QMenu::tr("Reveal in folder"), menu, [path] { revealInFolder(path); });
    menu->addAction(QMenu::tr("Copy path"), menu, [path] { QApplication::clipboard()->setText(path); });
}
} // namespace

void addFileActions(QMenu *menu, const QStringList &paths)
{
    if (paths.size() == 1) {
        addActionsFor(menu, paths.first(), true);
        return;
    }
    for (const QString &p : paths)
        addActionsFor(menu->addMenu(QFileInfo(p).fileName()), p, false);
    menu->addAction(QMenu::tr("Copy all paths"), menu,
                    [paths] { QApplication::clipboard()->setText(paths.join(QLatin1Char('\n'))); });
}

} // namespace sb::ui
