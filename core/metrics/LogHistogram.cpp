#include "metrics/LogHistogram.h"
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
const double kGrowth = 1.005; // bucket width: 0.5% of the value
const double kLogGrowth = std::log(kGrowth);
} // namespace

int LogHistogram::bucketOf(double valueUs)
{
    if (valueUs <= 1.0)
        return 0;
    const int b = 1 + int(std::log(valueUs) / kLogGrowth);
    return std::min(b, kBuckets - 1);
}

double LogHistogram::centreOf(int bucket)
{
    if (bucket == 0)
        return 1.0;
    // bucket b covers [g^(b-1), g^b); the geometric centre
    return std::exp((bucket - 0.5) * kLogGrowth);
}

void LogHistogram::add(double valueUs)
{
    if (!(valueUs >= 0))
        return;
    ++m_buckets[bucketOf(valueUs)];
    if (m_count == 0 || valueUs < m_min)
        m_min = valueUs;
    if (m_count == 0 || valueUs > m_max)
        m_max = valueUs;
    ++m_count;
    m_sum += valueUs;
    m_sumSq += valueUs * valueUs;
}

void LogHistogram::merge(const LogHistogram &other)
{
    if (other.m_count == 0)
        return;
    for (int i = 0; i < kBuckets; ++i)
        m_buckets[i] += other.m_buckets[i];
    m_min = m_count ? std::min(m_min, other.m_min) : other.m_min;
    m_max = m_count ? std::max(m_max, other.m_max) : other.m_max;
    m_count += other.m_count;
    m_sum += other.m_sum;
    m_sumSq += other.m_sumSq;
}

double LogHistogram::percentile(double q) const
{
    if (m_count == 0)
        return 0;
    // Value at fractional rank r (0-based) as numpy's linear method; each sample takes its
    // bucket centre, clamped to the exact min/max so the extremes are exact.
    const double rank = q / 100.0 * double(m_count - 1);
    auto valueAtRank = [&](std::uint64_t r) {
        std::uint64_t seen = 0;
        for (int b = 0; b < kBuckets; ++b) {
            seen += m_buckets[b];
            if (seen > r)
                return std::clamp(centreOf(b), m_min, m_max);
        }
        return m_max;
    };
    const auto lo = std::uint64_t(std::floor(rank));
    const auto hi = std::min<std::uint64_t>(lo + 1, m_count - 1);
    if (lo == 0 && q <= 0)
        return m_min;
    if (hi == m_count - 1 && q >= 100)
        return m_max;
    const double frac = rank - double(lo);
    const double a = valueAtRank(lo);
    return frac > 0 ? a + (valueAtRank(hi) - a) * frac : a;
}

} // namespace sb
