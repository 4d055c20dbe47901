#include "mainwindow/RecentFiles.h"
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace sb::ui {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(QMenu *menu, QObject *parent)
    : QObject(parent)
    , m_menu(menu)
{
    rebuild();
}

QStringList RecentFiles::paths() const
{
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = paths();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMax)
        list.removeLast();
    QSettings().setValue(kKey, list);
    rebuild();
}

void RecentFiles::rebuild()
{
    m_menu->clear();
    const QStringList list = paths();
    int n = 0;
    for (const QString &path : list) {
        if (!QFileInfo::exists(path))
            continue; // moved or deleted since: do not offer it
        ++n;
        QAction *a = m_menu->addAction(QStringLiteral("&%1 %2").arg(n % 10).arg(QDir::toNativeSeparators(path)));
        connect(a, &QAction::triggered, this, [this, path] { Q_EMIT openRequested(path); });
    }
    if (n == 0)
        m_menu->addAction(tr("No recent files"))->setEnabled(false);
    m_menu->addSeparator();
    connect(m_menu->addAction(tr("Clear list")), &QAction::triggered, this, [this] {
        QSettings().remove(kKey);
        rebuild();
    });
}

} // namespace sb::ui
