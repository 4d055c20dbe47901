#pragma once
// Light/dark palettes and the SVG icon set. Toolbar icons are drawn in the palette's text colour
// (the SVGs use `currentColor`), so they stay legible after a palette switch.
#include "results/HookSeverity.h"
#include <QColor>
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

} // namespace sb::ui
