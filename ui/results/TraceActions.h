#pragma once
// Context-menu actions for files a cell produced (profiler traces, records): open with the
// desktop's handler, show the folder, copy the path. Opening can fail (no handler registered,
// xdg-open missing): the user then sees why in a message box instead of nothing happening.
// Traces live where the server wrote them and can be deleted or on another machine: the
// results table and the cell detail mark the ones no longer on disk.
#include <QStringList>

QT_BEGIN_NAMESPACE
class QMenu;
class QWidget;
QT_END_NAMESPACE

namespace sb::ui {

// One submenu per file when several, flat actions when one ("Open", "Copy path", "Show in
// folder"); errors are shown over `errorParent`.
void addFileActions(QMenu *menu, const QStringList &paths, QWidget *errorParent = nullptr);
// False (and a non-modal message box over errorParent, when given) when the desktop could not
// open it.
bool openWithDesktop(const QString &path, QWidget *errorParent = nullptr);
bool revealInFolder(const QString &path, QWidget *errorParent = nullptr);
// What the box says.
QString openFailureText(const QString &path);

// A regular file (or a folder: some profilers write one per rank) at that path now.
bool fileOnDisk(const QString &path);
// The text of a trace in the results table: its file name, marked when it is gone.
QString traceDisplayName(const QString &path);
inline constexpr const char *kMissingMarker = "⚠";

} // namespace sb::ui
