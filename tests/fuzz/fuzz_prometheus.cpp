// Fuzzes the /metrics parser (core/servermetrics/PrometheusText): the input is one answer body,
// Prometheus text or trtllm-serve JSON. Oracles besides "no crash, no sanitizer report": the
// series cap holds, every kept sample's key reads back to the same name and labels, and a value
// written with formatMetricValue parses back to itself.
#include "FuzzSupport.h"
#include "servermetrics/PrometheusText.h"
#include <cmath>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    sb::MetricsLimits limits;
    limits.maxSeries = 500;
    sb::MetricsScrape scrape;
    QString error;
    if (!sb::parseMetricsAnswer(body, &scrape, &error, limits))
        return 0;
    if (int(scrape.samples.size()) > limits.maxSeries)
        sbfuzz::broken("more samples than the series cap");
    for (const sb::MetricSample &s : scrape.samples) {
        sb::MetricSample back;
        if (!sb::parseSeriesKey(sb::seriesKey(s), &back) || back.name != s.name || back.labels != s.labels)
            sbfuzz::broken("a series key does not read back");
        double v = 0;
        if (!sb::parseMetricValue(sb::formatMetricValue(s.value), &v) || (v != s.value && !(std::isnan(v) && std::isnan(s.value))))
            sbfuzz::broken("a value does not round-trip");
        (void)scrape.typeOf(s.name);
    }
    return 0;
}
