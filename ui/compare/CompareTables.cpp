#include "compare/CompareTables.h"
#include "charts/DifferencePanel.h"
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
    prepareTable(table, {QObject::tr("Series"), QObject::tr("Runs"), valueColumn}, int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        const LegendRow &r = rows.at(i);
        QTableWidgetItem *name = tableTextItem(r.name);
        name->setIcon(seriesSwatch(r.style, r.color));
        table->setItem(i, 0, name);
        std::vector<double> values;
        if (at && r.setIndex >= 0 && r.setIndex < inputs.size())
            for (const CellResult &c : inputs.at(r.setIndex).results.cells)
                if (c.server == r.server && hasMeasurements(c.status) && axisOf(c) == axis && pointValue(c) == *at)
                    if (const double v = cellValue(c, metric, stat); std::isfinite(v))
                        values.push_back(v);
        const MeanCi ci = meanCi95(values);
        table->setItem(i, 1, tableNumberItem(at ? QString::number(ci.n) : QString()));
        table->setItem(i, 2, tableNumberItem(at ? meanCiText(ci, metric) : QString(),
                                    ci.n >= 2 ? QObject::tr("mean ± 95 % confidence interval over %1 runs").arg(ci.n) : QString()));
    }
    table->resizeColumnsToContents(); // full names; the view scrolls sideways when narrower
}

} // namespace sb::ui
