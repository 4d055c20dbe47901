#include "report/DisplayText.h"

namespace sb {

bool isUnsafeForDisplay(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Other_Control:       // C0, DEL, C1
    case QChar::Other_Format:        // bidi controls, zero-width characters, BOM, soft hyphen
    case QChar::Other_Surrogate:     // unpaired: not a character at all
    case QChar::Separator_Line:      // U+2028
    case QChar::Separator_Paragraph: // U+2029
        return true;
    default:
        return false;
    }
}

namespace {
QString escaped(char32_t c)
{
    if (c < 0x100)
        return QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
    return QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
}
} // namespace

QString displaySafe(const QString &text, DisplayLines lines)
{
    QString out;
    out.reserve(text.size());
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar ch = text.at(i);
        char32_t c = ch.unicode();
        qsizetype width = 1;
        if (ch.isHighSurrogate() && i + 1 < n && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(ch, text.at(i + 1));
            width = 2;
        }
        if (c == U'\n' || c == U'\t' || (c == U'\r' && lines == DisplayLines::Single)) {
            out += lines == DisplayLines::Keep ? ch : QLatin1Char(' ');
        } else if (isUnsafeForDisplay(c)) {
            out += escaped(c);
        } else {
            out += text.mid(i, width);
        }
        i += width - 1;
    }
    return out;
}

} // namespace sb
