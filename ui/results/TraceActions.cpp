#include "results/TraceActions.h"
#include "report/DisplayText.h"
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QUrl>

namespace sb::ui {

namespace {
void showFailure(QWidget *parent, const QString &path)
{
    if (!parent)
        return;
    // Non-modal: the table stays usable and nothing waits on the box.
    auto *box = new QMessageBox(QMessageBox::Warning, QMessageBox::tr("Open file"), openFailureText(path), QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("openFailure"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void addActionsFor(QMenu *menu, const QString &path, bool named, QWidget *errorParent)
{
    const QString name = displaySafe(QFileInfo(path).fileName(), DisplayLines::Single);
    const bool there = fileOnDisk(path);
    QString openText = named ? QMenu::tr("Open %1").arg(name) : QMenu::tr("Open");
    if (!there)
        openText += QMenu::tr(" (no longer on disk)");
    QAction *open = menu->addAction(openText, menu, [path, errorParent] { openWithDesktop(path, errorParent); });
    open->setObjectName(QStringLiteral("openFile"));
    open->setEnabled(there);
    QAction *copy = menu->addAction(QMenu::tr("Copy path"), menu, [path] { QApplication::clipboard()->setText(path); });
    copy->setObjectName(QStringLiteral("copyPath"));
    QAction *show = menu->addAction(QMenu::tr("Show in folder"), menu, [path, errorParent] { revealInFolder(path, errorParent); });
    show->setObjectName(QStringLiteral("showInFolder"));
    show->setEnabled(QFileInfo(QFileInfo(path).absolutePath()).isDir());
}
} // namespace

QString openFailureText(const QString &path)
{
    return QMessageBox::tr("Could not open %1: the desktop has no application for it (on Linux, xdg-open may be missing). "
                           "Use \"Copy path\" and open it yourself.")
        .arg(displaySafe(QDir::toNativeSeparators(path), DisplayLines::Single));
}

bool openWithDesktop(const QString &path, QWidget *errorParent)
{
    if (QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        return true;
    showFailure(errorParent, path);
    return false;
}

bool revealInFolder(const QString &path, QWidget *errorParent)
{
    // Selecting the file inside the file manager is platform-specific (DBus FileManager1 on
    // Linux); opening the folder works everywhere.
    const QString folder = QFileInfo(path).absolutePath();
    if (QDesktopServices::openUrl(QUrl::fromLocalFile(folder)))
        return true;
    showFailure(errorParent, folder);
    return false;
}

bool fileOnDisk(const QString &path)
{
    return !path.isEmpty() && QFileInfo::exists(path);
}

QString traceDisplayName(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    return fileOnDisk(path) ? name : QStringLiteral("%1 %2").arg(QString::fromUtf8(kMissingMarker), name);
}

void addFileActions(QMenu *menu, const QStringList &paths, QWidget *errorParent)
{
    if (paths.size() == 1) {
        addActionsFor(menu, paths.first(), true, errorParent);
        return;
    }
    for (const QString &p : paths)
        addActionsFor(menu->addMenu(displaySafe(traceDisplayName(p), DisplayLines::Single)), p, false, errorParent);
    menu->addAction(QMenu::tr("Copy all paths"), menu,
                    [paths] { QApplication::clipboard()->setText(paths.join(QLatin1Char('\n'))); });
}

} // namespace sb::ui
