#include "compare/CompareTables.h"
#include "charts/ChartPoints.h"
#include "compare/SeriesSwatch.h"
#include "metrics/MetricCatalogue.h"
#include "report/DisplayText.h"
#include "report/ReportText.h"
#include <QChart>
#include <QHeaderView>
#include <QScatterSeries>
#include <QTableWidget>
#include <cmath>

namespace sb::ui {

namespace {
QTableWidgetItem *item(const QString &text, const QString &toolTip = {})
{
    auto *it = new QTableWidgetItem(displaySafe(text, DisplayLines::Single));
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    it->setToolTip(displaySafe(toolTip.isEmpty() ? text : toolTip));
    return it;
}

QTableWidgetItem *number(const QString &text, const QString &toolTip = {})
{
    QTableWidgetItem *it = item(text, toolTip);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}

void prepare(QTableWidget *table, const QStringList &headings, int rows)
{
    table->clearContents();
    table->setColumnCount(int(headings.size()));
    table->setHorizontalHeaderLabels(headings);
    table->setRowCount(rows);
}

void fitColumns(QTableWidget *table)
{
    // Full names: columns take the width of their text; the view scrolls sideways when the pane
    // is narrower, and a column a user shrinks elides with the name in the tooltip.
    table->resizeColumnsToContents();
}
} // namespace

QString valueHeading(const QString &metric, Stat stat)
{
    const MetricInfo *info = findMetric(metric);
    const QString label = metricLabel(metric) + (info && info->singleValued ? QString() : QLatin1Char(' ') + statName(stat));
    const QString unit = info ? shortUnit(info->unit) : QString();
    return unit.isEmpty() ? label : QStringLiteral("%1 (%2)").arg(label, unit);
}

QString meanCiText(const MeanCi &ci, const QString &metric)
{
    if (ci.n == 0 || !std::isfinite(ci.mean))
        return QStringLiteral("–");
    const MetricInfo *info = findMetric(metric);
    const int decimals = info ? info->decimals : 2;
    QString s = formatFixed(ci.mean, decimals);
    if (ci.n >= 2 && std::isfinite(ci.halfWidth))
        s += QStringLiteral(" ± ") + formatFixed(ci.halfWidth, decimals);
    return s;
}

QList<LegendRow> legendRows(const QChart *chart, const QList<ChartSeriesInput> &inputs)
{
    QList<LegendRow> rows;
    if (!chart)
        return rows;
    for (QXYSeries *s : taggedSeries(chart)) {
        LegendRow r;
        r.name = s->name();
        r.color = s->color();
        r.setIndex = seriesSetIndex(s);
        r.server = seriesServer(s);
        r.style = r.setIndex >= 0 && r.setIndex < inputs.size() ? inputs.at(r.setIndex).styleIndex : 0;
        rows.append(r);
    }
    return rows;
}

void fillLegendTable(QTableWidget *table, const QList<LegendRow> &rows, const QList<ChartSeriesInput> &inputs,
                     const QString &metric, Stat stat, std::optional<double> at)
{
    const SweepAxis axis = chartAxis(inputs);
    const QString valueColumn = at ? QStringLiteral("%1 at %2").arg(valueHeading(metric, stat), formatPoint(axis, *at))
                                   : QStringLiteral("%1 (click a point)").arg(valueHeading(metric, stat));
    prepare(table, {QObject::tr("Series"), QObject::tr("Runs"), valueColumn}, int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        const LegendRow &r = rows.at(i);
        QTableWidgetItem *name = item(r.name);
        name->setIcon(seriesSwatch(r.style, r.color));
        table->setItem(i, 0, name);
        std::vector<double> values;
        if (at && r.setIndex >= 0 && r.setIndex < inputs.size())
            for (const CellResult &c : inputs.at(r.setIndex).results.cells)
                if (c.server == r.server && hasMeasurements(c.status) && axisOf(c) == axis && pointValue(c) == *at)
                    if (const double v = cellValue(c, metric, stat); std::isfinite(v))
                        values.push_back(v);
        const MeanCi ci = meanCi95(values);
        table->setItem(i, 1, number(at ? QString::number(ci.n) : QString()));
        table->setItem(i, 2, number(at ? meanCiText(ci, metric) : QString(),
                                    ci.n >= 2 ? QObject::tr("mean ± 95 % confidence interval over %1 runs").arg(ci.n) : QString()));
    }
    fitColumns(table);
}

void fillDifferenceTable(QTableWidget *table, const QList<DifferenceRow> &rows, const QString &metric, Stat stat)
{
    const QString heading = valueHeading(metric, stat);
    const SweepAxis axis = rows.isEmpty() ? SweepAxis::Concurrency : rows.first().axis;
    QString point = axisTitle(axis);
    point[0] = point[0].toUpper();
    // The numbers first, the (long) series names last: at 1024 px the verdict stays in view.
    prepare(table, {point, QObject::tr("A: %1").arg(heading), QObject::tr("B: %1").arg(heading), QObject::tr("Δ %"),
                    QObject::tr("Significant?"), QObject::tr("A"), QObject::tr("B")},
            int(rows.size()));
    const MetricInfo *info = findMetric(metric);
    const Better better = info ? info->better : Better::Neither;
    for (int i = 0; i < rows.size(); ++i) {
        const DifferenceRow &r = rows.at(i);
        table->setItem(i, 0, number(formatPoint(r.axis, r.point)));
        table->setItem(i, 1, number(meanCiText(r.a, metric), seriesName(r.setA, r.serverA)));
        table->setItem(i, 2, number(meanCiText(r.b, metric), seriesName(r.setB, r.serverB)));
        QTableWidgetItem *delta = number(deltaText(r.deltaPct));
        if (std::isfinite(r.deltaPct) && r.deltaPct != 0 && better != Better::Neither) {
            const bool bBetter = (r.deltaPct < 0) == (better == Better::Lower);
            const QString direction = better == Better::Lower ? QObject::tr("lower") : QObject::tr("higher");
            delta->setToolTip(bBetter ? QObject::tr("B is better (%1 is better)").arg(direction)
                                      : QObject::tr("B is worse (%1 is better)").arg(direction));
        }
        table->setItem(i, 3, delta);
        table->setItem(i, 4, item(significanceText(r), significanceExplanation(r)));
        table->setItem(i, 5, item(seriesName(r.setA, r.serverA)));
        table->setItem(i, 6, item(seriesName(r.setB, r.serverB)));
    }
    fitColumns(table);
}

} // namespace sb::ui
