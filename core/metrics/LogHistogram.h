#pragma once
// Fixed-size log-bucketed histogram for values in microseconds (1 µs .. ~17 min) with 0.5%
// relative resolution. Used for inter-chunk latency: millions of gaps per sweep would cost
// 4+ bytes each if stored; the histogram costs 32 KB per cell whatever the count, and keeps
// exact count/sum/sum of squares/min/max so avg and std are exact.
#include <array>
#include <cstdint>
#include <vector>

namespace sb {

class LogHistogram
{
public:
    void add(double valueUs);
    void merge(const LogHistogram &other);
    std::uint64_t count() const { return m_count; }
    double sum() const { return m_sum; }
    double sumSquares() const { return m_sumSq; }
    double min() const { return m_count ? m_min : 0; }
    double max() const { return m_count ? m_max : 0; }
    // Percentile q in [0, 100], linearly interpolated between bucket centres (numpy-like rank).
    double percentile(double q) const;

private:
    static constexpr int kBuckets = 4096;
    static int bucketOf(double valueUs);
    static double centreOf(int bucket);
    std::vector<std::uint64_t> m_buckets = std::vector<std::uint64_t>(kBuckets, 0);
    std::uint64_t m_count = 0;
    double m_sum = 0, m_sumSq = 0, m_min = 0, m_max = 0;
};

} // namespace sb
