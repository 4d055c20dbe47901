#include "compare/ComparisonExport.h"
#include "charts/ChartExport.h"
#include "charts/ParetoChart.h"
#include "io/DurableWrite.h"
#include "metrics/MetricCatalogue.h"
#include "report/ComparisonHtml.h"
#include "report/SecretScrub.h"
#include <QChart>
#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <memory>

namespace sb::ui {

namespace {
QByteArray renderPng(QChart *chart, const QTemporaryDir &tmp, const QString &stem, QString *error)
{
    const QString file = tmp.filePath(stem + QStringLiteral(".png"));
    if (chart)
        styleChartForDocument(chart);
    if (!chart || !saveChart(chart, file, QSize(1000, 640), error))
        return {};
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

bool writeComparisonHtml(const QString &path, const QList<ChartSeriesInput> &sets, const QString &metric, Stat stat,
                         QString *error, const QStringList &sources, const QList<QByteArray> &specs)
{
    if (sets.isEmpty()) {
        if (error)
            *error = QStringLiteral("nothing to compare: add result sets first");
        return false;
    }
    ComparisonHtmlInput in;
    QList<NamedResults> named;
    for (int i = 0; i < sets.size(); ++i) {
        in.sets.append({sets.at(i).name, sources.value(i), sets.at(i).results});
        named.append({sets.at(i).name, sets.at(i).results});
    }
    in.metric = metric;
    in.stat = stat;
    in.rows = compareSets(named, metric, stat);
    in.generatedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);

    QTemporaryDir tmp;
    if (tmp.isValid()) {
        const LatencyChoiceInfo ttft = latencyChoiceInfo(LatencyChoice::TtftP99);
        struct Job {
            QString title, stem;
            std::unique_ptr<QChart> chart;
        };
        Job jobs[3];
        jobs[0] = {QStringLiteral("%1 vs %2").arg(metricLabel(tag::outputThroughput), ttft.label), QStringLiteral("throughput"),
                   std::unique_ptr<QChart>(makeThroughputVsLatencyChart(sets, LatencyChoice::TtftP99))};
        jobs[1] = {QStringLiteral("%1 %2 vs %3").arg(metricLabel(metric), statName(stat), axisTitle(chartAxis(sets))), QStringLiteral("metric"),
                   std::unique_ptr<QChart>(makeMetricVsConcurrencyChart(sets, metric, stat))};
        jobs[2] = {QStringLiteral("Pareto frontier: %1 vs %2").arg(paretoYAxis().label, paretoXAxis(ParetoX::TokensPerUser).unit),
                   QStringLiteral("pareto"), std::unique_ptr<QChart>(makeParetoChart(sets, ParetoX::TokensPerUser))};
        for (Job &j : jobs) {
            QString err;
            const QByteArray png = renderPng(j.chart.get(), tmp, j.stem, &err);
            if (!png.isEmpty())
                in.charts.append({j.title, png});
        }
    }
    QStringList secrets;
    for (const QByteArray &spec : specs)
        if (!spec.isEmpty())
            secrets += stripSpecYaml(spec).secrets;
    secrets.removeDuplicates();
    QByteArray page = comparisonHtml(in);
    redactSecrets(&page, secrets);
    if (containsSecret(page, secrets)) { // cannot happen after redaction; refuse rather than leak
        if (error)
            *error = QStringLiteral("refusing to export: the page still contains a secret");
        return false;
    }
    return writeFileAtomically(path, page, error);
}

} // namespace sb::ui
