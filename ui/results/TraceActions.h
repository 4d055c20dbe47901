#pragma once
// Context-menu actions for files a cell produced (profiler traces, records): open with the
// desktop's handler, reveal the folder, copy the path.
#include <QStringList>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

namespace sb::ui {

// One submenu per file when several, flat actions when one.
void addFileActions(QMenu *menu, const QStringList &paths);
void openWithDesktop(const QString &path);
void revealInFolder(const QString &path);

} // namespace sb::ui
