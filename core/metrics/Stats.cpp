#include "metrics/Stats.h"
#include "metrics/MetricCatalogue.h"
#include "metrics/LogHistogram.h"
#include <algorithm>
#include <cmath>
#include <numeric>

namespace sb {

double percentileSorted(const std::vector<double> &sorted, double q)
{
    if (sorted.empty())
        return 0;
    const double rank = q / 100.0 * double(sorted.size() - 1);
    const auto lo = std::size_t(std::floor(rank));
    const auto hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - double(lo));
}

namespace {
void fillPercentiles(MetricStats &s, const auto &pct)
{
    s.p1 = pct(1);
    s.p5 = pct(5);
    s.p10 = pct(10);
    s.p25 = pct(25);
    s.p50 = pct(50);
    s.p75 = pct(75);
    s.p90 = pct(90);
    s.p95 = pct(95);
    s.p99 = pct(99);
}
} // namespace

MetricStats computeStats(std::vector<double> &values, const QString &unit)
{
    MetricStats s;
    s.unit = unit;
    s.count = qint64(values.size());
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    const double n = double(values.size());
    const double sum = std::accumulate(values.begin(), values.end(), 0.0);
    s.avg = sum / n;
    double sq = 0;
    for (double v : values)
        sq += (v - s.avg) * (v - s.avg);
    s.std = std::sqrt(sq / n);
    s.min = values.front();
    s.max = values.back();
    fillPercentiles(s, [&](double q) { return percentileSorted(values, q); });
    return s;
}

MetricStats statsFromHistogramMs(const LogHistogram &h)
{
    MetricStats s;
    s.unit = unit::ms;
    s.count = qint64(h.count());
    if (h.count() == 0)
        return s;
    const double n = double(h.count());
    s.avg = h.sum() / n / 1000.0;
    const double meanUs = h.sum() / n;
    s.std = std::sqrt(std::max(0.0, h.sumSquares() / n - meanUs * meanUs)) / 1000.0;
    s.min = h.min() / 1000.0;
    s.max = h.max() / 1000.0;
    fillPercentiles(s, [&](double q) { return h.percentile(q) / 1000.0; });
    return s;
}

MetricStats singleValue(double value, const QString &unit)
{
    MetricStats s;
    s.unit = unit;
    s.onlyAvg = true;
    s.avg = value;
    s.count = 1;
    return s;
}

} // namespace sb
