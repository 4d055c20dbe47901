#include "launch/CommandLine.h"

namespace sb {

namespace {
bool isBlank(QChar c) { return c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r'); }

// A word holding a blank, a quote or a backslash is written quoted (splitCommandLine would read it
// otherwise), and so is one with a character a shell would expand, so that the line also pastes
// into a shell unchanged. `{port}` stays bare: braces alone expand nothing.
bool needsQuoting(const QString &word)
{
    static const QString kSpecial = QStringLiteral("'\"\\$`!*?[]()<>|&;#~");
    if (word.isEmpty())
        return true;
    for (const QChar c : word)
        if (isBlank(c) || kSpecial.contains(c))
            return true;
    return false;
}
} // namespace

CommandLineSplit splitCommandLine(const QString &line)
{
    CommandLineSplit out;
    QString word;
    bool inWord = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (isBlank(c)) {
            if (inWord)
                out.argv << word;
            word.clear();
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == QLatin1Char('\'')) {
            const qsizetype end = line.indexOf(QLatin1Char('\''), i + 1);
            if (end < 0) {
                return {{}, QStringLiteral("the ' at column %1 is never closed").arg(i + 1)};
            }
            word += line.mid(i + 1, end - i - 1);
            i = end;
        } else if (c == QLatin1Char('"')) {
            const qsizetype open = i;
            for (++i; i < line.size() && line[i] != QLatin1Char('"'); ++i) {
                if (line[i] == QLatin1Char('\\') && i + 1 < line.size() && (line[i + 1] == QLatin1Char('"') || line[i + 1] == QLatin1Char('\\')))
                    ++i;
                word += line[i];
            }
            if (i >= line.size()) {
                return {{}, QStringLiteral("the \" at column %1 is never closed").arg(open + 1)};
            }
        } else if (c == QLatin1Char('\\')) {
            if (i + 1 >= line.size()) {
                return {{}, QStringLiteral("a \\ at the end escapes nothing (column %1)").arg(i + 1)};
            }
            word += line[++i];
        } else {
            word += c;
        }
    }
    if (inWord)
        out.argv << word;
    return out;
}

QString joinCommandLine(const QStringList &argv)
{
    QStringList words;
    for (const QString &a : argv) {
        if (!needsQuoting(a)) {
            words << a;
            continue;
        }
        // 'it'\''s': a single quote cannot appear inside single quotes, so it is closed, escaped
        // and reopened.
        QString quoted = a;
        quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
        words << QLatin1Char('\'') + quoted + QLatin1Char('\'');
    }
    return words.join(QLatin1Char(' '));
}

} // namespace sb
