#include "style/WindowMemory.h"
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QWidget>

namespace sb::ui {

QRect fitRect(const QRect &wanted, const QRect &available)
{
    if (available.contains(wanted))
        return wanted;
    QRect r(wanted.topLeft(), wanted.size().boundedTo(available.size()));
    if (!available.contains(r))
        r.moveCenter(available.center());
    return r;
}

void restoreWindowGeometry(QWidget *window, const QString &key, QSize defaultSize)
{
    const QScreen *screen = window->screen();
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, defaultSize.width(), defaultSize.height());
    window->setMinimumSize(window->minimumSize().boundedTo(available.size()));
    const QByteArray saved = QSettings().value(key).toByteArray();
    // restoreGeometry() may itself move or shrink what it restores: judge the outcome, and
    // reject a remembered window that does not fit rather than show it cut off.
    if (!saved.isEmpty() && window->restoreGeometry(saved) && available.contains(window->geometry())
        && window->frameGeometry().width() <= available.width() && window->frameGeometry().height() <= available.height())
        return;
    const QRect wanted(QPoint(0, 0), defaultSize);
    QRect r = fitRect(wanted, available);
    r.moveCenter(available.center());
    window->setGeometry(r);
}

void saveWindowGeometry(const QWidget *window, const QString &key)
{
    QSettings().setValue(key, window->saveGeometry());
}

void rememberSplitter(QSplitter *splitter, const QString &key)
{
    const QByteArray saved = QSettings().value(key).toByteArray();
    if (!saved.isEmpty())
        splitter->restoreState(saved);
    QObject::connect(splitter, &QSplitter::splitterMoved, splitter, [splitter, key] { QSettings().setValue(key, splitter->saveState()); });
}

} // namespace sb::ui
