#include "spec/SpecDiagnostic.h"

namespace sb {

QString SpecDiagnostic::toString() const
{
    QString where = file.isEmpty() ? QStringLiteral("<spec>") : file;
    if (line > 0) {
        where += QLatin1Char(':') + QString::number(line);
        if (column > 0)
            where += QLatin1Char(':') + QString::number(column);
    }
    const QString sev = isError() ? QStringLiteral("error") : QStringLiteral("warning");
    QString text = where + QStringLiteral(": ") + sev + QStringLiteral(": ");
    if (!keyPath.isEmpty())
        text += keyPath + QStringLiteral(": ");
    return text + message;
}

} // namespace sb
