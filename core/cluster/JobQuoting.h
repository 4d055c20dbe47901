#pragma once
// How a value is written into a job file (docs/CLUSTER.md): the one quoting function per language
// the templates hold. Every value a template substitutes goes through exactly one of these, so a
// name, a path or an option can never end its quoting, start a command or add a document, and a
// comment can never be broken onto a second line. Numbers are formatted by the renderer, never
// taken from text.
#include <QByteArray>
#include <QString>

namespace sb {

// A POSIX shell word: single quotes, each ' written as '\'' (no expansion of any kind inside).
// Line breaks stay inside the quotes, where the shell keeps them as data.
QByteArray shellQuoted(const QString &value);

// A YAML double-quoted scalar on one line: " and \ escaped, and every control character, line
// or paragraph separator (U+2028, U+2029, U+0085: line breaks to YAML 1.1 parsers such as
// kubectl's) and format character (bidi controls, BOM) written as an escape.
QByteArray yamlQuoted(const QString &value);

// A multi-line text (the spec in a ConfigMap) as the value of a mapping key indented by
// `keyIndent` spaces: a literal block scalar when every line reads the same to every YAML parser,
// else yamlQuoted(). Either way it reads back to exactly `utf8`.
QByteArray yamlText(const QByteArray &utf8, int keyIndent);

// The text of one comment line (shell and YAML alike): line breaks, controls and format
// characters shown as visible escapes (\x0a, \u2028), so the comment ends where the line does.
QByteArray commentText(const QString &value);

// #SBATCH lines are read by sbatch, whose quoting differs between Slurm versions: a value there
// is checked, never quoted. True for letters, digits and _ . / : @ + , = - only ('%' would be a
// Slurm file-name pattern).
bool isSbatchWord(const QString &value);

} // namespace sb
