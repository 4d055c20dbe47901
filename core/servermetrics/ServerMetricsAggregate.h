#pragma once
// A cell's server metrics, from the scrapes of its measured phase (docs/server-metrics.md):
// for each key metric of the detected server family (ServerMetricCatalogue), gauges get avg and
// max over the scrapes inside the measured window, counters the delta from the baseline scrape
// to the last tail scrape (a counter that went down restarted: its new value counts) and that
// delta per second of the measured phase, histograms the delta of their buckets with p50/p99
// interpolated inside the bucket (as Prometheus' histogram_quantile) and the mean.
#include "servermetrics/MetricsScraper.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include "results/ServerMetricsResult.h"
#include <optional>

namespace sb {

struct HistogramDelta {
    double count = 0;
    double sum = 0;
    double p50 = NAN, p99 = NAN;  // in the histogram's unit
};

struct ServerMetricsSummary {
    const ServerMetricFamily *family = nullptr; // nullptr: no known server family was seen
    ServerMetricAggregates metrics;             // cells[].server_metrics, keyed by full metric name
    int scrapes = 0;                            // successful scrapes
    std::optional<double> cacheHitDelta;        // the family's prefix-cache hit counter over the phase
    std::optional<HistogramDelta> serverTtft;   // the server's TTFT histogram over the phase (seconds)
};

// `points` in scrape order; `phaseStartNs` on their clock; `durationS` the measured phase.
ServerMetricsSummary aggregateServerMetrics(const std::vector<ScrapePoint> &points, std::int64_t phaseStartNs, double durationS);

// Increase of a counter over the values it took, in order; a drop means it restarted from zero
// (a server or a GPU driver restarted), and its new value counts.
double counterIncrease(const std::vector<double> &values);

// Quantile q of cumulative buckets (upper bound -> cumulative count, +Inf last), as Prometheus'
// histogram_quantile; NaN when empty.
double bucketQuantile(const std::vector<std::pair<double, double>> &cumulative, double q);

} // namespace sb
