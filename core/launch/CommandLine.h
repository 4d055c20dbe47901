#pragma once
// A launch command as one line of text, the way users copy it from a shell, and back: the
// designer edits `launch.command` (an argv, never run through a shell) as such a line. Words are
// split on blanks; 'single quotes' keep everything literally, "double quotes" keep blanks and take
// \" and \\ escapes, and a backslash outside quotes escapes the next character. No expansion of
// any kind ($VAR, globs, ~) happens: what is typed is what the server gets.
#include <QString>
#include <QStringList>

namespace sb {

struct CommandLineSplit {
    QStringList argv;
    QString error; // empty when the line was read; else what is wrong and at which column (argv empty)
};

CommandLineSplit splitCommandLine(const QString &line);
// The inverse: words that need it are single-quoted, so splitCommandLine(joinCommandLine(a)) == a.
QString joinCommandLine(const QStringList &argv);

} // namespace sb
