#include "cluster/JobQuoting.h"
#include "report/DisplayText.h"
#include <QRegularExpression>

namespace sb {

namespace {
QByteArray utf8(char32_t c) { return QString::fromUcs4(&c, 1).toUtf8(); }

QByteArray yamlEscape(char32_t c)
{
    switch (c) {
    case U'\n': return "\\n";
    case U'\t': return "\\t";
    case U'\r': return "\\r";
    default: break; // U+0085 too: yaml-cpp 0.7 reads \N as one byte 0x85, not as the character

    }
    if (c < 0x100)
        return "\\x" + QByteArray::number(uint(c), 16).rightJustified(2, '0');
    if (c < 0x10000)
        return "\\u" + QByteArray::number(uint(c), 16).rightJustified(4, '0');
    return "\\U" + QByteArray::number(uint(c), 16).rightJustified(8, '0');
}

// A literal block reads the same to every parser only when each line holds nothing but
// printable characters: no CR, U+0085, U+2028, U+2029 (line breaks to some parsers, not to
// others), no tab (indentation to some), no control or format character.
bool blockSafe(const QString &text)
{
    bool visible = false;
    for (const char32_t c : text.toUcs4()) {
        if (c != U'\n' && isUnsafeForDisplay(c))
            return false;
        visible = visible || c != U'\n';
    }
    return visible; // a text of line breaks alone is quoted: its chomping would be ambiguous
}
} // namespace

QByteArray shellQuoted(const QString &value)
{
    QByteArray out = value.toUtf8();
    out.replace('\'', "'\\''");
    return '\'' + out + '\'';
}

QByteArray yamlQuoted(const QString &value)
{
    QByteArray out = "\"";
    for (const char32_t c : value.toUcs4()) {
        if (c == U'"' || c == U'\\')
            out += '\\' + utf8(c);
        else if (isUnsafeForDisplay(c))
            out += yamlEscape(c);
        else
            out += utf8(c);
    }
    return out + '"';
}

QByteArray yamlText(const QByteArray &bytes, int keyIndent)
{
    const QString text = QString::fromUtf8(bytes);
    if (!bytes.isValidUtf8() || !blockSafe(text))
        return yamlQuoted(text);
    // The indentation is given explicitly (|2): a first line that starts with spaces would
    // otherwise set it. Chomping keeps the trailing line breaks exactly: none (-), one, several (+).
    qsizetype trailing = 0;
    while (trailing < bytes.size() && bytes.at(bytes.size() - 1 - trailing) == '\n')
        ++trailing;
    QByteArray out = QByteArray("|2") + (trailing == 0 ? "-" : trailing == 1 ? "" : "+");
    const QByteArray indent(keyIndent + 2, ' ');
    const QList<QByteArray> lines = bytes.left(bytes.size() - trailing).split('\n');
    for (const QByteArray &line : lines)
        out += '\n' + (line.isEmpty() ? QByteArray() : indent + line);
    for (qsizetype i = 1; i < trailing; ++i)
        out += '\n';
    return out;
}

QByteArray commentText(const QString &value)
{
    return displaySafe(value, DisplayLines::Keep).replace(QLatin1Char('\n'), QLatin1String("\\x0a")).toUtf8();
}

bool isSbatchWord(const QString &value)
{
    static const QRegularExpression word(QStringLiteral("^[A-Za-z0-9_./:@+,=-]+\\z"));
    return word.match(value).hasMatch();
}

} // namespace sb
