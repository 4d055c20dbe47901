#pragma once
// Light/dark palettes and the SVG icon set. Toolbar icons are drawn in the palette's text colour
// (the SVGs use `currentColor`), so they stay legible after a palette switch.
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

// Verdict icons for hook outcomes: ok | refused | busy | route_missing | timeout | error | pending | skipped.
// ✓ for ok, ⚠ for soft problems (busy, retried), ✗ for failures.
QIcon verdictIcon(const QString &verdict, bool ok);
// Same mapping as a short glyph for plain text contexts ("✓", "✗", "⚠").
QString verdictGlyph(const QString &verdict, bool ok);

} // namespace sb::ui
