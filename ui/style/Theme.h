#pragma once
// Light/dark palettes and the SVG icon set. Toolbar icons are drawn in the palette's text colour
// (the SVGs use `currentColor`), so they stay legible after a palette switch.
#include "results/CellStatus.h"
#include "results/HookSeverity.h"
#include <QColor>
#include <QPalette>
#include <QIcon>
#include <QString>

class QApplication;

namespace sb::ui {

enum class ThemeMode { Light, Dark };

// Registers the Qt resources of the static libraries (":/ui/icons/...", ":/demo.yaml").
// Static libraries drop their resource initializers unless something references them.
void initResources();

void applyTheme(ThemeMode mode);
ThemeMode currentTheme();

// Icon from ui/icons/<name>.svg, recoloured for the current palette.
QIcon themedIcon(const QString &name);

// The one icon set for hook outcomes (ui/icons/verdict-*.svg), by the one severity judgement
// (results/HookSeverity): ✓ ok, ✓ with an amber badge when retried, ⚠ warning, ✗ failed.
// Used by the results table, the Run tab's hook log and the hook check.
QIcon hookSeverityIcon(HookSeverity severity);
// Its file under ui/icons (":/ui/icons/<name>.svg"): report.html embeds the same pictures.
QString hookSeverityIconName(HookSeverity severity);
QIcon hookPendingIcon(); // a call not made yet
QIcon hookSkippedIcon(); // a call not made at all (an earlier one failed)
// The colour of a verdict written in rich text (the cell detail pane).
QColor hookSeverityColor(HookSeverity severity);
// The colour a cell's outcome is written or drawn in (results table, run monitor's bar): red
// failed, amber degraded, grey cancelled/skipped; invalid (= the palette's own) otherwise.
QColor cellStatusColor(CellStatus status);

// The palette's link colour, adjusted when it reads poorly on the palette's window colour
// (WCAG contrast below 4.5:1): dark blue on dark grey was unreadable.
QColor linkColor(const QPalette &palette);
// WCAG 2 contrast ratio of two colours, 1..21.
double contrastRatio(const QColor &a, const QColor &b);
// A rich-text link in linkColor(): QLabel draws anchors in its own colour otherwise. `href` and
// `text` are escaped here.
QString linkHtml(const QString &href, const QString &text, const QPalette &palette);

} // namespace sb::ui
