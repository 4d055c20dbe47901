#include "report/ReportText.h"
#include "results/HookSeverity.h"
#include <cmath>

namespace sb {

QString requestedVsMeasured(const CellResult &cell)
{
    QStringList parts;
    const auto one = [&](const char *name, const QString &asked, const QString &got) {
        if (!cell.metrics.contains(asked) || !cell.metrics.contains(got))
            return;
        const auto v = [&](const QString &m, const char *stat, int d) { return formatFixed(cellValue(cell, m, QLatin1String(stat)), d, QStringLiteral("–")); };
        parts.append(QStringLiteral("%1 %2 asked, %3 measured (p50 %4 / %5, p99 %6 / %7)")
                         .arg(QLatin1String(name), v(asked, "avg", 1), v(got, "avg", 1), v(asked, "p50", 0), v(got, "p50", 0), v(asked, "p99", 0),
                              v(got, "p99", 0)));
    };
    one("ISL", tag::requestedIsl, tag::isl);
    one("OSL", tag::requestedOsl, tag::osl);
    return parts.join(QStringLiteral("; "));
}

QString formatFixed(double v, int decimals, const QString &empty)
{
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : empty;
}

QString hookVerdicts(const CellResult &cell)
{
    QStringList parts;
    for (const HookOutcome &h : cell.hooks)
        parts.append(hookKindName(h.hook) + QLatin1Char('=') + hookVerdictText(h)
                     + (h.metricsVerdict == MetricsVerdict::None ? QString() : QStringLiteral("/metrics:") + metricsVerdictName(h.metricsVerdict)));
    return parts.join(QLatin1Char(' '));
}

QString htmlEscape(const QString &s)
{
    // toHtmlEscaped covers < > & "; single quotes too, so no attribute style can be broken out of.
    return s.toHtmlEscaped().replace(QLatin1Char('\''), QLatin1String("&#39;"));
}

} // namespace sb
