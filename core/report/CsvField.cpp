#include "report/CsvField.h"
#include <QRegularExpression>

namespace sb {

namespace {
// A decimal number as QString::number and QVariant::toString write one; nothing a spreadsheet
// could evaluate as a formula matches this.
bool isPlainNumber(const QString &s)
{
    static const QRegularExpression number(QStringLiteral("^-?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?$"));
    return number.match(s).hasMatch();
}
} // namespace

QString csvField(const QString &s)
{
    QString out = s;
    if (!out.isEmpty() && QStringLiteral("=+-@\t\r").contains(out.front()) && !isPlainNumber(out))
        out.prepend(QLatin1Char('\''));
    if (out.contains(QLatin1Char(',')) || out.contains(QLatin1Char('"')) || out.contains(QLatin1Char('\n'))
        || out.contains(QLatin1Char('\r')))
        out = QLatin1Char('"') + out.replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
    return out;
}

} // namespace sb
