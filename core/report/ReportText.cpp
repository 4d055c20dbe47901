#include "report/ReportText.h"
#include "results/HookSeverity.h"
#include <cmath>

namespace sb {

QString formatFixed(double v, int decimals, const QString &empty)
{
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : empty;
}

QString hookVerdicts(const CellResult &cell)
{
    QStringList parts;
    for (const HookOutcome &h : cell.hooks)
        parts.append(hookKindName(h.hook) + QLatin1Char('=') + hookVerdictText(h));
    return parts.join(QLatin1Char(' '));
}

QString htmlEscape(const QString &s)
{
    // toHtmlEscaped covers < > & "; single quotes too, so no attribute style can be broken out of.
    return s.toHtmlEscaped().replace(QLatin1Char('\''), QLatin1String("&#39;"));
}

} // namespace sb
