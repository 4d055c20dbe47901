#pragma once
// The server's side of one cell as results.json keeps it (docs/server-metrics.md): the key
// metrics' aggregates over the measured phase ("server_metrics", filled by
// servermetrics/ServerMetricsAggregate.h) and how they were scraped ("server_scrape", filled by
// engine/CellServerMetrics.h). The JSON mapping is in results/ResultsJsonParts.cpp.
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <cmath>
#include <optional>

namespace sb {

// Prometheus' metric types (the exposition format's TYPE line); named only here and in JSON.
enum class MetricType { Untyped, Counter, Gauge, Histogram, Summary };
const char *metricTypeName(MetricType t);

// One key metric over a cell's measured phase. Which values it has depends on its type; a value
// that is not a number (no scrapes in the window, an empty histogram) is NaN, null in JSON.
struct ServerMetricAggregate {
    MetricType type = MetricType::Untyped;
    QString unit;
    QString label;                       // the catalogue's words for it
    double avg = NAN, max = NAN;         // gauge: over the scrapes in the measured window
    int samples = 0;                     // gauge: scrapes those are over
    double delta = NAN, rate = NAN;      // counter: increase over the phase, and per second
    double count = NAN, mean = NAN;      // histogram: observations over the phase and their mean
    double p50 = NAN, p99 = NAN;         //   interpolated inside the bucket, in the metric's unit
    bool operator==(const ServerMetricAggregate &o) const;

    // The one figure per cell an aggregate is drawn with (docs/server-metrics.md): a gauge's
    // average, a counter's rate over the measured phase, a histogram's p50; with its name as
    // results.json spells it.
    double headline() const;
    const char *headlineName() const;
};

// The client's TTFT beside the server's own (its TTFT histogram, or llama.cpp's per-request
// timings in records.jsonl).
struct TtftCheck {
    QString serverSource;                // the histogram's name, or "records timings.prompt_ms"
    double clientP50Ms = NAN, clientAvgMs = NAN;
    double serverP50Ms = NAN, serverAvgMs = NAN;
    double gapP50Ms = NAN;               // client p50 minus server p50
    bool operator==(const TtftCheck &) const;
};

// How a cell's server metrics were scraped.
struct ServerScrapeInfo {
    // Set when a series was published (at least one scrape answered):
    QString series;                      // relative to the results folder: cells/<dir>/server_metrics.jsonl
    QString path;                        // the metrics route scraped
    double intervalS = 0;
    int scrapes = 0, failedScrapes = 0;
    int windowScrapes = 0;               // answered while a profiler window was open
    QString server;                      // the server family detected ("vllm", …), empty when none
    // False when the family's running gauge read 0 at every scrape while requests were in flight.
    bool gaugesFollowLoad = true;
    std::optional<TtftCheck> ttftCheck;
    bool isEmpty() const { return series.isEmpty() && gaugesFollowLoad && !ttftCheck; }
    bool operator==(const ServerScrapeInfo &) const;
};

using ServerMetricAggregates = QMap<QString, ServerMetricAggregate>; // by full metric name

QJsonObject toJson(const ServerMetricAggregate &m);
ServerMetricAggregate serverMetricAggregateFromJson(const QJsonObject &o);
QJsonObject serverMetricsJson(const ServerMetricAggregates &metrics);
ServerMetricAggregates serverMetricsFromJson(const QJsonObject &o);
QJsonObject toJson(const ServerScrapeInfo &s);
ServerScrapeInfo serverScrapeInfoFromJson(const QJsonObject &o);

} // namespace sb
