#pragma once
// Text a server (or an imported file) controls, made safe to show in a terminal or a widget.
// A status message can carry ANSI escapes that rewrite the user's terminal, a carriage return that
// hides what came before it, or bidi overrides (U+202E) that make "ok" read as a different verdict.
// Every such character is shown as a visible escape (\x1b, \u202e) instead of acting.
#include <QString>

namespace sb {

enum class DisplayLines {
    Keep,   // \n and \t stay (tooltips, multi-line logs)
    Single, // \n, \r and \t become spaces (table cells, one log line per event)
};

// Escapes C0/C1 controls and DEL (except \n and \t with DisplayLines::Keep), format characters
// (bidi embeddings/overrides/isolates U+202A-U+202E, U+2066-U+2069, marks U+200E/U+200F/U+061C,
// zero-width characters, BOM, soft hyphen: Unicode category Cf), line/paragraph separators and
// unpaired surrogates.
QString displaySafe(const QString &text, DisplayLines lines = DisplayLines::Keep);
// The characters displaySafe escapes (\n and \t included): other writers that must not let text
// act (cluster/JobQuoting) escape the same set.
bool isUnsafeForDisplay(char32_t c);

} // namespace sb
