#include "results/RankTests.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace sb {

MannWhitneyResult mannWhitneyU(const std::vector<double> &a, const std::vector<double> &b)
{
    MannWhitneyResult r;
    const double n1 = double(a.size()), n2 = double(b.size());
    if (a.empty() || b.empty()) {
        r.u = r.z = r.p = std::numeric_limits<double>::quiet_NaN();
        return r;
    }
    // Pool both samples, remembering which one each value came from, and rank them with ties
    // sharing their average rank.
    std::vector<std::pair<double, bool>> all;
    all.reserve(a.size() + b.size());
    for (double v : a)
        all.emplace_back(v, true);
    for (double v : b)
        all.emplace_back(v, false);
    std::sort(all.begin(), all.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
    const double n = n1 + n2;
    double rankSumA = 0, tieSum = 0;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j].first == all[i].first)
            ++j;
        const double t = double(j - i);
        const double rank = (double(i) + 1 + double(j)) / 2; // ranks i+1 .. j
        for (std::size_t k = i; k < j; ++k)
            if (all[k].second)
                rankSumA += rank;
        tieSum += t * t * t - t;
        i = j;
    }
    r.u = rankSumA - n1 * (n1 + 1) / 2;
    const double mean = n1 * n2 / 2;
    const double variance = n1 * n2 / 12 * ((n + 1) - tieSum / (n * (n - 1)));
    if (!(variance > 0)) { // every value the same: nothing tells the samples apart
        r.z = 0;
        r.p = 1;
        return r;
    }
    const double distance = std::abs(r.u - mean);
    r.z = std::copysign(std::max(0.0, distance - 0.5) / std::sqrt(variance), r.u - mean);
    r.p = std::min(1.0, std::erfc(std::abs(r.z) / std::sqrt(2.0))); // 2 * (1 - Phi(|z|))
    return r;
}

std::vector<double> holmAdjusted(const std::vector<double> &p)
{
    std::vector<double> out(p.size(), std::numeric_limits<double>::quiet_NaN());
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < p.size(); ++i)
        if (!std::isnan(p[i]))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
    const double m = double(order.size());
    double running = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
        running = std::max(running, std::min(1.0, (m - double(k)) * p[order[k]]));
        out[order[k]] = running;
    }
    return out;
}

} // namespace sb
