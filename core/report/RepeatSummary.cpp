#include "report/RepeatSummary.h"
#include "report/DisplayText.h"
#include "results/PointSummary.h"
#include <cmath>

namespace sb {

namespace {
QString meanCi(const PointSummary &p, const QString &key, int decimals)
{
    const auto it = p.stats.constFind(key);
    if (it == p.stats.cend() || !std::isfinite(it->mean))
        return QStringLiteral("-");
    QString s = QString::number(it->mean, 'f', decimals);
    if (std::isfinite(it->halfWidth))
        s += QStringLiteral(" ± ") + QString::number(it->halfWidth, 'f', decimals);
    return s;
}
QString printable(const QString &s) { return displaySafe(s, DisplayLines::Single); }
} // namespace

QString significanceWords(const WelchResult &w)
{
    return w.significant() ? QStringLiteral("differ significantly") : QStringLiteral("no significant difference");
}

QString pValueText(double p)
{
    return p < 0.001 ? QStringLiteral("< 0.001") : QStringLiteral("= ") + QString::number(p, 'f', 3);
}

const QList<RepeatColumn> &repeatColumns()
{
    static const QList<RepeatColumn> cols{{QStringLiteral("time_to_first_token.p50"), 2, QStringLiteral("TTFT p50 ms")},
                                          {QStringLiteral("time_to_first_token.p99"), 2, QStringLiteral("TTFT p99 ms")},
                                          {QStringLiteral("inter_token_latency.avg"), 3, QStringLiteral("ITL avg ms")},
                                          {QStringLiteral("output_token_throughput.avg"), 1, QStringLiteral("out tok/s")}};
    return cols;
}

QString significanceLine(SweepAxis axis, const PointComparison &c)
{
    return QStringLiteral("%1: %2 %3 ms vs %4 %5 ms: %6 (p %7)")
        .arg(formatPoint(axis, c.point), printable(c.serverA))
        .arg(c.a.mean, 0, 'f', 2)
        .arg(printable(c.serverB))
        .arg(c.b.mean, 0, 'f', 2)
        .arg(significanceWords(c.welch), pValueText(c.welch.p));
}

QString formatRepeatSummary(const SweepResults &results)
{
    const QList<PointSummary> points = summarizePoints(results);
    if (!hasRepeats(points))
        return {};
    const SweepAxis axis = axisOf(results);
    QString out = QStringLiteral("\npoints over repeats (mean ± 95 % CI, Student t on the runs' values):\n");
    out += QStringLiteral("  %1  %2  runs  TTFT p50 ms  |  TTFT p99 ms  |  ITL avg ms  |  out tok/s\n").arg(QStringLiteral("server"), axisShort(axis));
    for (const PointSummary &p : points) {
        QStringList figures;
        for (const RepeatColumn &col : repeatColumns())
            figures.append(meanCi(p, col.key, col.decimals));
        out += QStringLiteral("  %1  %2  %3  %4\n").arg(printable(p.server), formatPoint(p.axis, p.point)).arg(p.runs()).arg(figures.join(QStringLiteral("  |  ")));
    }
    const QList<PointComparison> pairs = comparePoints(points, QLatin1String(kSignificanceKey));
    if (!pairs.isEmpty()) {
        out += QStringLiteral("significance (Welch's t-test on the runs' TTFT p99, two-sided, α = 0.05):\n");
        for (const PointComparison &c : pairs)
            out += QStringLiteral("  ") + significanceLine(axis, c) + QLatin1Char('\n');
    }
    return out;
}

} // namespace sb
