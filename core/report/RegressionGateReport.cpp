#include "report/RegressionGateReport.h"
#include "report/DisplayText.h"
#include "report/SetComparison.h"
#include <QMap>
#include <QXmlStreamWriter>
#include <algorithm>

namespace sb {

namespace {
QString oneLine(const QString &s) { return displaySafe(s, DisplayLines::Single); }

// XML 1.0 has no U+FFFE / U+FFFF; displaySafe already escaped controls and lone surrogates.
QString xmlText(const QString &s)
{
    QString t = oneLine(s);
    for (QChar &c : t)
        if (c.unicode() == 0xFFFE || c.unicode() == 0xFFFF)
            c = QChar::ReplacementCharacter;
    return t;
}

QStringList cellsOf(const GateComparison &c)
{
    return {c.series, gatePointText(c), c.metric.title(), gateValueText(c, c.base.mean), gateValueText(c, c.candidate.mean),
            deltaText(c.deltaPct), gateSignificanceText(c), gateTestName(c.test), gateVerdictText(c)};
}

const QStringList &headings()
{
    static const QStringList h{QStringLiteral("series"), QStringLiteral("point"), QStringLiteral("metric"), QStringLiteral("base"),
                               QStringLiteral("new"), QStringLiteral("Δ"), QStringLiteral("significant (Holm)"),
                               QStringLiteral("test"), QStringLiteral("verdict")};
    return h;
}

// Comparisons grouped per series × point, in the result's order.
QList<QList<const GateComparison *>> pointsOf(const GateResult &r)
{
    QList<QList<const GateComparison *>> groups;
    for (const GateComparison &c : r.comparisons) {
        if (groups.isEmpty() || groups.last().first()->series != c.series || groups.last().first()->point != c.point)
            groups.append(QList<const GateComparison *>());
        groups.last().append(&c);
    }
    return groups;
}
} // namespace

QString markdownText(const QString &text)
{
    QString out;
    for (const QChar c : oneLine(text)) {
        if (c.unicode() < 128 && (c.isPunct() || c.isSymbol()))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

QString gateText(const GateResult &r)
{
    QString out = QStringLiteral("sweepbench diff: %1 → %2 (worse than %3 % and significant at α = %4)\n")
                      .arg(oneLine(r.baseName), oneLine(r.newName), QString::number(r.options.thresholdPct),
                           QString::number(r.options.alpha));
    if (!r.comparisons.isEmpty()) {
        QList<QStringList> table{headings()};
        for (const GateComparison &c : r.comparisons) {
            QStringList cells = cellsOf(c);
            cells[0] = oneLine(cells[0]);
            table.append(cells);
        }
        QList<int> width(headings().size(), 0);
        for (const QStringList &row : table)
            for (int i = 0; i < row.size(); ++i)
                width[i] = std::max(width[i], int(row[i].size()));
        for (const QStringList &row : table) {
            QString line = QStringLiteral(" ");
            for (int i = 0; i < row.size(); ++i)
                line += QLatin1Char(' ') + (i + 1 < row.size() ? row[i].leftJustified(width[i]) : row[i]);
            out += line + QLatin1Char('\n');
        }
    }
    for (const GateComparison &c : r.comparisons)
        if (c.regression())
            out += QStringLiteral("regression: ") + oneLine(gateFindingText(c)) + QLatin1Char('\n');
    for (const QString &n : r.notes)
        out += QStringLiteral("note: ") + oneLine(n) + QLatin1Char('\n');
    out += oneLine(gateSummaryText(r)) + QLatin1Char('\n');
    return out;
}

QByteArray gateMarkdown(const GateResult &r)
{
    QString md = QStringLiteral("## SweepBench diff: %1 → %2\n\n").arg(markdownText(r.baseName), markdownText(r.newName));
    const QString mark = r.verdict == GateVerdict::Pass ? QStringLiteral("✅") : r.verdict == GateVerdict::Regression ? QStringLiteral("❌") : QStringLiteral("⚠️");
    md += QStringLiteral("%1 **%2**\n\n").arg(mark, markdownText(gateSummaryText(r)));
    if (!r.comparisons.isEmpty()) {
        md += QStringLiteral("| %1 |\n").arg(headings().join(QStringLiteral(" | ")));
        md += QStringLiteral("|---|---|---|---:|---:|---:|---|---|---|\n");
        for (const GateComparison &c : r.comparisons) {
            QStringList cells;
            for (const QString &cell : cellsOf(c))
                cells.append(markdownText(cell));
            if (c.regression())
                cells.last() = QStringLiteral("**%1**").arg(cells.last());
            md += QStringLiteral("| %1 |\n").arg(cells.join(QStringLiteral(" | ")));
        }
        md += QLatin1Char('\n');
    }
    if (!r.notes.isEmpty()) {
        md += QStringLiteral("Notes:\n\n");
        for (const QString &n : r.notes)
            md += QStringLiteral("- %1\n").arg(markdownText(n));
        md += QLatin1Char('\n');
    }
    return md.toUtf8();
}

QByteArray gateJUnitXml(const GateResult &r)
{
    const QList<QList<const GateComparison *>> points = pointsOf(r);
    int failures = 0;
    for (const auto &p : points)
        failures += std::any_of(p.begin(), p.end(), [](const GateComparison *c) { return c->regression(); }) ? 1 : 0;
    const bool error = r.verdict == GateVerdict::CannotCompare;
    const QString tests = QString::number(error ? 1 : points.size());
    const QString suiteName = xmlText(QStringLiteral("sweepbench diff %1 → %2").arg(r.baseName, r.newName));

    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), suiteName);
    w.writeAttribute(QStringLiteral("tests"), tests);
    w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    w.writeAttribute(QStringLiteral("errors"), QString::number(error ? 1 : 0));
    w.writeStartElement(QStringLiteral("testsuite"));
    w.writeAttribute(QStringLiteral("name"), suiteName);
    w.writeAttribute(QStringLiteral("tests"), tests);
    w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    w.writeAttribute(QStringLiteral("errors"), QString::number(error ? 1 : 0));
    if (error) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), QStringLiteral("sweepbench diff"));
        w.writeAttribute(QStringLiteral("name"), QStringLiteral("comparison"));
        w.writeStartElement(QStringLiteral("error"));
        w.writeAttribute(QStringLiteral("type"), QStringLiteral("cannot-compare"));
        w.writeAttribute(QStringLiteral("message"), xmlText(r.reason));
        w.writeCharacters(xmlText(gateSummaryText(r)));
        w.writeEndElement();
        w.writeEndElement();
    }
    for (const auto &p : points) {
        const GateComparison &first = *p.first();
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), xmlText(first.series));
        w.writeAttribute(QStringLiteral("name"), xmlText(QStringLiteral("%1 at %2").arg(first.series, gatePointText(first))));
        w.writeAttribute(QStringLiteral("time"), QStringLiteral("0"));
        QStringList regressed, lines;
        for (const GateComparison *c : p) {
            lines.append(xmlText(QStringLiteral("%1: %2").arg(gateVerdictText(*c), gateFindingText(*c))));
            if (c->regression())
                regressed.append(xmlText(gateFindingText(*c)));
        }
        if (!regressed.isEmpty()) {
            w.writeStartElement(QStringLiteral("failure"));
            w.writeAttribute(QStringLiteral("type"), QStringLiteral("regression"));
            w.writeAttribute(QStringLiteral("message"), regressed.join(QStringLiteral("; ")));
            w.writeCharacters(regressed.join(QLatin1Char('\n')));
            w.writeEndElement();
        }
        w.writeTextElement(QStringLiteral("system-out"), lines.join(QLatin1Char('\n')));
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    return xml;
}

} // namespace sb
