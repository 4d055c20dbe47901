#pragma once
// What the window arrangement remembers between sessions (QSettings): the main window's geometry
// and the splitters' positions. A remembered geometry comes back only when it fits the screen
// the window opens on; otherwise the window takes its default size clamped to that screen's
// available geometry, so a layout saved on a large monitor never opens off a laptop's screen.
#include <QRect>
#include <QSize>
#include <QString>

class QSplitter;
class QWidget;

namespace sb::ui {

// `wanted` made to fit inside `available`: no larger, and moved inside it (centred when moved).
QRect fitRect(const QRect &wanted, const QRect &available);

// Restores `window`'s geometry saved under `key` when it fits the available geometry of the
// screen it opens on; else `defaultSize` clamped to that screen, centred. The minimum size is
// clamped too: a minimum larger than the screen would push the window off it.
void restoreWindowGeometry(QWidget *window, const QString &key, QSize defaultSize);
void saveWindowGeometry(const QWidget *window, const QString &key);

// Restores the splitter's state saved under `key` (if any) and saves it whenever the user
// moves a handle.
void rememberSplitter(QSplitter *splitter, const QString &key);

} // namespace sb::ui
