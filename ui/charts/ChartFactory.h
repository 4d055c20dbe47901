#pragma once
// Builders of the result charts. One place so the Results view, the Compare view and the report
// exporter (offscreen, SVG/PNG through ChartExport) draw the same pictures from the same data.
// Every builder returns a new QChart (caller owns it) with animations off.
#include "metrics/MetricCatalogue.h" // the metrics and stats a chart offers
#include "results/SweepAxis.h"
#include "results/Results.h"
#include <QList>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QChart;
class QLogValueAxis;
class QValueAxis;
QT_END_NAMESPACE

namespace sb::ui {

// One result set on a chart. Colours follow the server, the line style/marker follows styleIndex,
// so sets overlaid in Compare stay apart while one server keeps its colour.
struct ChartSeriesInput {
    QString name;        // legend name of the set; empty = legend shows only server names
    SweepResults results;
    int styleIndex = 0;  // 0 = solid line + circle, 1 = dashes + square, ...
};

// Every server of the sets, in first-appearance order: a server's colour is
// serverColor(its index here) in every chart (charts/ChartStyle.h).
QStringList chartServers(const QList<ChartSeriesInput> &sets);
// A series' legend name: the server, or "set: server" when the set is named.
QString curveLegend(const ChartSeriesInput &set, const QString &server);
// A new chart as every builder starts one (no animation, titles that fit, legend at the bottom).
QChart *newSweepChart(const QString &title, const QString &shortTitle);
// Qt's legend draws a series' name as rich text: a server named "<b>x</b>" would show in bold and
// one named "<script>…" not at all. After the series is in `chart`, its legend entry shows the
// name as written.
void plainLegendLabel(QChart *chart, QAbstractSeries *series);

// The latency on the x axis of the throughput/latency chart.
enum class LatencyChoice { TtftP50, TtftP90, TtftP99, ItlAvg, ItlP50, ItlP99, LatencyP50, LatencyP99, TtfoP50, TtfoP99 };

struct LatencyChoiceInfo {
    QString metric; // AIPerf tag, e.g. time_to_first_token
    Stat stat;
    QString label;  // "TTFT p99"
};
LatencyChoiceInfo latencyChoiceInfo(LatencyChoice choice);
// With ttfo: the time to the first answer token too (reasoning models' cells store it).
QList<LatencyChoice> allLatencyChoices(bool ttfo = false);

// Output token throughput (avg) on y against the chosen latency on x: one line + scatter per
// server and set, points labelled "c=<concurrency>". Cells lacking either number are skipped.
// `logLatency`: the latency on a log (base 10) axis; latencies <= 0 are then not drawn.
QChart *makeThroughputVsLatencyChart(const QList<ChartSeriesInput> &sets, LatencyChoice choice, bool logLatency = false);

// metric.stat on y against concurrency on a log2 x axis, one line + scatter per server and set.
// Points with a value <= 0 or NaN on a log axis are skipped (QLogValueAxis would drop the series).
// The x axis of an overlay: the first set's (results/SweepAxis.h). Cells on the other axis are not
// drawn against it: a concurrency of 8 is not a rate of 8 req/s.
SweepAxis chartAxis(const QList<ChartSeriesInput> &sets);
// Metric vs the sweep point: concurrency, or request rate for open-loop results (log2 x axis).
// `logY`: the metric on a log (base 10) axis; values <= 0 are then not drawn.
// Both charts title their axes with the catalogue's label and unit ("TTFT p99 (ms)") and a short
// form for narrow views (charts/ChartTitles.h), and ring the SLO search's finding per server.
QChart *makeMetricVsConcurrencyChart(const QList<ChartSeriesInput> &sets, const QString &metric,
                                     Stat stat, bool logY = false);

// A log value axis over [minPositive, maxPositive] with room at both ends that always labels
// at least two ticks: base 10 when the range holds two powers of 10, else base 2 over a range
// widened to the powers of 2 around the values.
void fitLogAxis(QLogValueAxis *axis, double minPositive, double maxPositive);
// A linear axis from 0 (or the minimum when negative) to a little over the maximum, nice ticks.
void fitLinearAxis(QValueAxis *axis, double lo, double hi);

} // namespace sb::ui
