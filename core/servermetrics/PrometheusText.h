#pragma once
// A server's /metrics answer, parsed: the Prometheus text exposition format 0.0.4 (HELP/TYPE
// lines, labels with escaped values, counters, gauges, histograms, summaries, untyped samples,
// NaN/+Inf/-Inf, optional millisecond timestamps, an OpenMetrics "# EOF") and trtllm-serve's
// JSON iteration stats (an array of per-iteration objects, docs/server-metrics.md). The answer
// comes from a peer: its size, each line, the number of series and labels are bounded, and a
// malformed line is skipped and counted (never aborting the scrape nor guessing at its value).
#include "results/ServerMetricsResult.h" // MetricType
#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <map>
#include <optional>
#include <vector>

namespace sb {

std::optional<MetricType> metricTypeFromName(const QByteArray &name);

struct MetricSample {
    QByteArray name;                                  // the sample's own name (x_bucket, x_total…)
    QList<QPair<QByteArray, QByteArray>> labels;      // in the order the server sent them, unescaped
    double value = 0;                                 // may be NaN or ±infinity
    std::optional<qint64> timestampMs;
};

// The value of a sample's label `name` ("le", "gpu", "UUID"), empty when it has none.
QByteArray labelValue(const MetricSample &s, const char *name);

struct MetricFamily {
    MetricType type = MetricType::Untyped;
    QByteArray help;                                  // unescaped
};

struct MetricsLimits {
    qint64 maxBodyBytes = 8 * 1024 * 1024;  // a real vLLM answer is ~40 KiB
    int maxLineBytes = 64 * 1024;
    int maxSeries = 20000;
    int maxLabels = 64;                      // per sample
    int maxJsonDepth = 8;                    // trtllm iteration stats nest two levels
};

struct MetricsScrape {
    std::map<QByteArray, MetricFamily> families;      // by family name, from TYPE/HELP lines
    std::vector<MetricSample> samples;
    int badLines = 0;                                 // malformed lines skipped
    QString firstError;                               // "line N: what was wrong" for the first of them
    bool truncated = false;                           // series past maxSeries were dropped
    bool json = false;                                // trtllm-serve iteration stats
    // The family a sample belongs to: `x` for x_bucket/x_sum/x_count of a histogram or summary
    // x, for x_total of an OpenMetrics counter x; else the sample's own name.
    QByteArray familyOf(const QByteArray &sampleName) const;
    MetricType typeOf(const QByteArray &sampleName) const;
};

// Parses either form (JSON when the first non-blank byte is '[' or '{'). Returns false with
// *error only when the answer as a whole is unusable (over the size bound, JSON that does not
// parse, text without a single valid sample).
bool parseMetricsAnswer(const QByteArray &body, MetricsScrape *out, QString *error, const MetricsLimits &limits = {});
bool parsePrometheusText(const QByteArray &body, MetricsScrape *out, QString *error, const MetricsLimits &limits = {});
bool parseTrtllmIterationStats(const QByteArray &body, MetricsScrape *out, QString *error, const MetricsLimits &limits = {});

// `name{a="x",b="y\"z"}` in exposition syntax: one series' key, re-escaped.
QByteArray seriesKey(const MetricSample &s);
// Inverse of seriesKey for one line's name+labels (used by readers of server_metrics.jsonl).
bool parseSeriesKey(const QByteArray &key, MetricSample *out);
// A value as exposition text: NaN, +Inf, -Inf or the shortest round-tripping decimal.
QByteArray formatMetricValue(double v);
// Go's ParseFloat forms the format allows, including NaN, +Inf, -Inf, Inf (any case).
bool parseMetricValue(const QByteArray &text, double *out);

} // namespace sb
