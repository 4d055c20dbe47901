#include "metrics/MetricCatalogue.h"
#include <limits>

namespace sb {

const QList<MetricInfo> &allMetrics()
{
    // Definitions follow AIPerf (docs/ARCHITECTURE.md §7). Decimals: what a reader compares
    // (ms to 0.01 for TTFT, 0.001 for ITL, 0.1 for a request's whole latency).
    static const QList<MetricInfo> metrics = {
        {tag::outputThroughput, QStringLiteral("Output throughput"), QStringLiteral("Out tok/s"),
         QStringLiteral("output_token_throughput"), unit::tokensPerS,
         QStringLiteral("Output tokens per second over the measured phase"), true, Better::Higher, 1},
        {tag::requestThroughput, QStringLiteral("Request throughput"), QStringLiteral("Req/s"),
         QStringLiteral("request_throughput"), unit::requestsPerS,
         QStringLiteral("Successful requests per second over the measured phase"), true, Better::Higher, 2},
        {tag::ttft, QStringLiteral("TTFT"), QStringLiteral("TTFT"), QStringLiteral("ttft"), unit::ms,
         QStringLiteral("Time to first token (first non-empty content chunk)"), false, Better::Lower, 2},
        {tag::itl, QStringLiteral("ITL"), QStringLiteral("ITL"), QStringLiteral("itl"), unit::ms,
         QStringLiteral("Inter-token latency: (latency − TTFT) / (output tokens − 1)"), false, Better::Lower, 3},
        {tag::latency, QStringLiteral("Request latency"), QStringLiteral("Latency"), QStringLiteral("request_latency"),
         unit::ms, QStringLiteral("Request latency (send to last byte)"), false, Better::Lower, 1},
        {tag::interChunk, QStringLiteral("Inter-chunk latency"), QStringLiteral("Chunk gap"),
         QStringLiteral("inter_chunk_latency"), unit::ms,
         QStringLiteral("Gap between consecutive streamed chunks"), false, Better::Lower, 3},
        {tag::goodput, QStringLiteral("Goodput"), QStringLiteral("Goodput req/s"), QStringLiteral("goodput"),
         unit::requestsPerS, QStringLiteral("Requests per second that met every SLO"), true, Better::Higher, 2},
        {tag::goodFraction, QStringLiteral("Good request fraction"), QStringLiteral("Good fraction"),
         QStringLiteral("good_request_fraction"), unit::fraction,
         QStringLiteral("Fraction of completed requests that met every SLO"), true, Better::Higher, 3},
        {tag::outputLength, QStringLiteral("Output length"), QStringLiteral("OSL"), QStringLiteral("output_sequence_length"),
         unit::tokens, QStringLiteral("Output tokens per request"), false, Better::Neither, 0},
        {tag::inputLength, QStringLiteral("Input length"), QStringLiteral("ISL"), QStringLiteral("input_sequence_length"),
         unit::tokens, QStringLiteral("Input tokens per request"), false, Better::Neither, 0},
        {tag::requestedInputLength, QStringLiteral("Requested input length"), QStringLiteral("ISL asked"),
         QStringLiteral("requested_input_sequence_length"), unit::tokens,
         QStringLiteral("Input tokens each request asked for (the workload's length distribution)"), false, Better::Neither, 0},
        {tag::requestedOutputLength, QStringLiteral("Requested output length"), QStringLiteral("OSL asked"),
         QStringLiteral("requested_output_sequence_length"), unit::tokens,
         QStringLiteral("max_tokens each request asked for (the workload's length distribution)"), false, Better::Neither, 0},
    };
    return metrics;
}

const MetricInfo *findMetric(QStringView key)
{
    for (const MetricInfo &m : allMetrics())
        if (m.key == key)
            return &m;
    return nullptr;
}

QStringList distributionStats()
{
    return {QStringLiteral("avg"), QStringLiteral("p50"), QStringLiteral("p90"), QStringLiteral("p95"),
            QStringLiteral("p99"), QStringLiteral("min"), QStringLiteral("max"), QStringLiteral("std")};
}

QStringList metricStats(const MetricInfo &metric)
{
    return metric.singleValued ? QStringList{QStringLiteral("avg")} : distributionStats();
}

QString statDescription(QStringView stat)
{
    if (stat == u"avg")
        return QStringLiteral("mean");
    if (stat == u"p50")
        return QStringLiteral("median");
    if (stat == u"min")
        return QStringLiteral("minimum");
    if (stat == u"max")
        return QStringLiteral("maximum");
    if (stat == u"std")
        return QStringLiteral("standard deviation");
    if (stat.startsWith(u'p'))
        return stat.mid(1).toString() + QStringLiteral("th percentile");
    return stat.toString();
}

QString metricLabel(QStringView key)
{
    const MetricInfo *m = findMetric(key);
    return m ? m->label : key.toString();
}

QString shortUnit(const QString &unit)
{
    if (unit == QLatin1String("tokens/s") || unit == QLatin1String("tokens/sec"))
        return QStringLiteral("tok/s");
    if (unit == QLatin1String("requests/s") || unit == QLatin1String("requests/sec"))
        return QStringLiteral("req/s");
    return unit;
}

QString metricColumnTitle(const MetricInfo &metric, QStringView stat, bool withUnit)
{
    // Single-valued rates read with their unit already ("Out tok/s").
    if (metric.singleValued)
        return metric.shortLabel;
    QString t = metric.shortLabel + QLatin1Char(' ') + stat.toString();
    if (withUnit && !metric.unit.isEmpty())
        t += QLatin1Char(' ') + shortUnit(metric.unit);
    return t;
}

QString metricColumnToolTip(const MetricInfo &metric, QStringView stat)
{
    if (metric.singleValued)
        return metric.description;
    return QStringLiteral("%1, %2, %3").arg(metric.description, statDescription(stat), shortUnit(metric.unit));
}

QString metricCsvHeader(const MetricInfo &metric, QStringView stat)
{
    QString suffix = shortUnit(metric.unit);
    suffix.replace(QLatin1Char('/'), QLatin1Char('_'));
    QString h = metric.csvStem;
    if (!metric.singleValued)
        h += QLatin1Char('_') + stat.toString();
    return suffix.isEmpty() ? h : h + QLatin1Char('_') + suffix;
}

double cellValue(const CellResult &cell, const QString &metric, const QString &stat)
{
    const auto it = cell.metrics.constFind(metric);
    return it == cell.metrics.cend() ? std::numeric_limits<double>::quiet_NaN() : it->value(stat);
}

} // namespace sb
