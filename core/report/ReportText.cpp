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
        const auto v = [&](const QString &m, Stat stat, int d) { return formatFixed(cellValue(cell, m, stat), d, QStringLiteral("–")); };
        parts.append(QStringLiteral("%1 %2 asked, %3 measured (%4 %5 / %6, %7 %8 / %9)")
                         .arg(QLatin1String(name), v(asked, Stat::Avg, 1), v(got, Stat::Avg, 1), statName(Stat::P50), v(asked, Stat::P50, 0),
                              v(got, Stat::P50, 0), statName(Stat::P99), v(asked, Stat::P99, 0))
                         .arg(v(got, Stat::P99, 0)));
    };
    one("ISL", tag::requestedIsl, tag::isl);
    one("OSL", tag::requestedOsl, tag::osl);
    return parts.join(QStringLiteral("; "));
}

QString requestedVsMeasuredShort(const CellResult &cell)
{
    QStringList parts;
    const auto one = [&](const char *name, const QString &asked, const QString &got) {
        if (cell.metrics.contains(asked) && cell.metrics.contains(got))
            parts.append(QStringLiteral("%1 %2 → %3").arg(QLatin1String(name), formatFixed(cellValue(cell, asked, Stat::Avg), 1, QStringLiteral("–")),
                                                           formatFixed(cellValue(cell, got, Stat::Avg), 1, QStringLiteral("–"))));
    };
    one("ISL", tag::requestedIsl, tag::isl);
    one("OSL", tag::requestedOsl, tag::osl);
    return parts.join(QStringLiteral(" · "));
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
