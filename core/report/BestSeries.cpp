#include "report/BestSeries.h"
#include <algorithm>
#include <cmath>

namespace sb {

PointBest bestAtPoint(const QMap<QString, std::vector<double>> &runs, bool lowerIsBetter)
{
    PointBest best;
    if (runs.size() < 2)
        return best;
    const auto mean = [](const std::vector<double> &v) {
        double s = 0;
        for (double x : v)
            s += x;
        return v.empty() ? std::nan("") : s / double(v.size());
    };
    for (auto it = runs.cbegin(); it != runs.cend(); ++it) {
        const double m = mean(it.value());
        if (!std::isfinite(m))
            continue;
        if (best.series.isEmpty() || (lowerIsBetter ? m < best.mean : m > best.mean)) {
            best.series = it.key();
            best.mean = m;
        }
    }
    if (best.series.isEmpty())
        return best;
    const std::vector<double> &winner = runs.value(best.series);
    best.verdict = BestVerdict::Significant;
    best.p = 0;
    for (auto it = runs.cbegin(); it != runs.cend(); ++it) {
        if (it.key() == best.series)
            continue;
        if (winner.size() < 2 || it.value().size() < 2) {
            best.verdict = BestVerdict::NotTestable;
            best.p = std::nan("");
            return best;
        }
        const WelchResult w = welchTest(winner, it.value());
        best.p = std::max(best.p, w.p);
        if (!w.significant())
            best.verdict = BestVerdict::NotSignificant;
    }
    return best;
}

} // namespace sb
