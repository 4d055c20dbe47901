#include "results/SweepAxis.h"
#include "report/SummaryCommand.h"
#include "report/DisplayText.h"
#include "report/RepeatSummary.h"
#include "report/ReportSummary.h"
#include "report/ReportText.h"
#include "report/ResultsLoader.h"
#include <QJsonArray>
#include <algorithm>
#include <QTextStream>
#include <cstdio>

namespace sb {

namespace {
// Terminal width of a string: counts characters, not bytes (server names may be non-ASCII).
QString pad(const QString &s, int width, bool right)
{
    return right ? s.rightJustified(width, QLatin1Char(' ')) : s.leftJustified(width, QLatin1Char(' '));
}

// Server names, statuses and verdicts come from specs, servers and imported files: keep control
// characters (ANSI escapes, bidi overrides) away from the user's terminal.
QString printable(const QString &s) { return displaySafe(s, DisplayLines::Single); }

const QString kDash = QStringLiteral("-");
} // namespace

QString formatSummaryTable(const SweepResults &results)
{
    QList<std::pair<QString, Stat>> metrics{{tag::ttft, Stat::P50},
                                            {tag::ttft, Stat::P99},
                                            {tag::itl, Stat::Avg},
                                            {tag::latency, Stat::P50},
                                            {tag::outputThroughput, Stat::Avg},
                                            {tag::requestThroughput, Stat::Avg}};
    // Energy and cost per token only for result sets that have them (docs/gpu-telemetry.md).
    const auto any = [&results](auto has) { return std::any_of(results.cells.cbegin(), results.cells.cend(), has); };
    if (any([](const CellResult &c) { return c.gpuTelemetry.has_value(); }))
        metrics.append({{tag::energyPerOutputToken, Stat::Avg}, {tag::gpuPower, Stat::Avg}});
    if (any([](const CellResult &c) { return c.cost.has_value(); }))
        metrics.append({{tag::costPerMillionInput, Stat::Avg}, {tag::costPerMillionOutput, Stat::Avg}});
    QStringList header{QStringLiteral("server"), axisShort(axisOf(results)), QStringLiteral("status"), QStringLiteral("ok/failed")};
    QList<bool> rightAligned{false, true, false, true};
    for (const auto &[key, stat] : metrics) {
        header.append(metricColumnTitle(*findMetric(key), stat, true));
        rightAligned.append(true);
    }
    header.append(QStringLiteral("hooks"));
    rightAligned.append(false);
    QList<QStringList> rows;
    for (const CellResult &c : results.cells) {
        QStringList row{printable(c.server), pointNumber(c), cellStatusName(c.status),
                        QStringLiteral("%1/%2").arg(c.completed).arg(c.failed)};
        for (const auto &[key, stat] : metrics)
            row.append(formatFixed(cellValue(c, key, stat), findMetric(key)->decimals, kDash));
        row.append(printable(hookVerdicts(c)));
        rows.append(row);
    }
    QList<int> widths;
    for (int i = 0; i < header.size(); ++i) {
        int w = int(header[i].size());
        for (const QStringList &r : rows)
            w = qMax(w, int(r[i].size()));
        widths.append(w);
    }
    auto line = [&](const QStringList &cols) {
        QStringList padded;
        for (int i = 0; i < cols.size(); ++i)
            padded.append(i == cols.size() - 1 ? cols[i] : pad(cols[i], widths[i], rightAligned[i]));
        return padded.join(QStringLiteral("  ")).trimmed() + QLatin1Char('\n');
    };
    QString out = line(header);
    QStringList rule;
    for (int w : widths)
        rule.append(QString(w, QLatin1Char('-')));
    out += line(rule);
    for (const QStringList &r : rows)
        out += line(r);
    out += formatRepeatSummary(results);
    // The SLO search's findings (metrics/SloSearch.h), as the engine stored them.
    if (results.sloSearch && !results.sloSearch->findings.isEmpty()) {
        out += QStringLiteral("\nSLO search (%1; search cells are marked slo_search in results.json):\n").arg(printable(results.sloSearch->slo));
        for (const SloFinding &f : results.sloSearch->findings)
            out += QStringLiteral("  %1\n").arg(printable(f.sentence));
    }
    return out;
}

int printSummary(const QString &path)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QString error;
    const auto loaded = loadResults(path, &error);
    if (!loaded) {
        err << "sweepbench summary: " << error << "\n";
        return 2;
    }
    const SweepResults &r = loaded->results;
    out << printable(loaded->displayName);
    if (!r.sweepName.isEmpty() && r.sweepName != loaded->displayName)
        out << " (sweep " << printable(r.sweepName) << ")";
    out << "\nsource tool: " << printable(r.sourceTool);
    if (!r.toolVersion.isEmpty())
        out << " " << printable(r.toolVersion);
    out << "   cells: " << r.cells.size() << "   servers: " << printable(r.serverNames().join(QStringLiteral(", "))) << "\n\n";
    out << formatSummaryTable(r);
    // An import's notes: fields of the other tool's that were not mapped onto ours, its own
    // warnings (docs/ARCHITECTURE.md, Imports), each distinct text once.
    if (r.sourceTool != QLatin1String("sweepbench")) {
        const QStringList notes = summarizeReport(r).warnings;
        if (!notes.isEmpty())
            out << "\nnotes:\n";
        for (const QString &n : notes)
            out << "  " << printable(n) << "\n";
    }
    return 0;
}

} // namespace sb
