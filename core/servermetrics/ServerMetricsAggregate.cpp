#include "servermetrics/ServerMetricsAggregate.h"
#include <algorithm>
#include <cmath>
#include <map>

namespace sb {

double bucketQuantile(const std::vector<std::pair<double, double>> &cumulative, double q)
{
    if (cumulative.empty())
        return NAN;
    const double total = cumulative.back().second;
    if (!(total > 0))
        return NAN;
    const double rank = q * total;
    double lowerBound = 0, lowerCount = 0;
    for (const auto &[upper, count] : cumulative) {
        if (count >= rank) {
            if (std::isinf(upper))
                return lowerBound; // the +Inf bucket has no width: its lower bound is all we know
            if (count == lowerCount)
                return upper;
            return lowerBound + (upper - lowerBound) * (rank - lowerCount) / (count - lowerCount);
        }
        lowerBound = upper;
        lowerCount = count;
    }
    return lowerBound;
}

double counterIncrease(const std::vector<double> &values)
{
    double inc = 0;
    for (std::size_t i = 1; i < values.size(); ++i) {
        const double d = values[i] - values[i - 1];
        if (std::isfinite(d))
            inc += d >= 0 ? d : values[i];
    }
    return inc;
}

ServerMetricsSummary aggregateServerMetrics(const std::vector<ScrapePoint> &points, std::int64_t phaseStartNs, double durationS)
{
    ServerMetricsSummary out;
    for (const ScrapePoint &p : points) {
        if (!p.error.isEmpty())
            continue;
        ++out.scrapes;
        if (!out.family)
            out.family = detectServerFamily(p.keySamples);
    }
    if (!out.family)
        return out;
    const ServerMetricFamily &fam = *out.family;

    // Counters and histogram parts: values of each (origin, series) in scrape order.
    std::map<QByteArray, std::map<QString, std::vector<double>>> increasing; // key metric -> series -> values
    std::map<QByteArray, std::map<QString, QByteArray>> bucketLe;            // key metric -> series -> le ("" = not a bucket)
    std::map<QByteArray, std::map<QString, QByteArray>> partOf;              // key metric -> series -> _sum/_count/_bucket
    // Gauges: per key metric and origin, the combined value of each scrape in the window (all scrapes if none are).
    struct GaugeSeries { std::vector<double> inWindow, all; };
    std::map<QByteArray, std::map<QString, GaugeSeries>> gauges;

    const double windowEndNs = durationS * 1e9;
    for (const ScrapePoint &p : points) {
        if (!p.error.isEmpty())
            continue;
        const double t = double(p.steadyNs - phaseStartNs);
        const bool inWindow = t >= 0 && t <= windowEndNs;
        std::map<QByteArray, std::pair<double, int>> gaugeNow; // this scrape: sum and count per gauge
        for (const MetricSample &s : p.keySamples.samples) {
            const QByteArray family = p.keySamples.familyOf(s.name);
            const ServerMetricInfo *info = findKeyMetric(fam, s.name);
            if (!info)
                info = findKeyMetric(fam, family);
            if (!info)
                continue;
            const QString series = p.origin + QLatin1Char(' ') + QString::fromUtf8(seriesKey(s));
            if (info->type == MetricType::Gauge) {
                auto &[sum, n] = gaugeNow[info->name];
                if (std::isfinite(s.value)) {
                    sum += s.value;
                    ++n;
                }
                continue;
            }
            increasing[info->name][series].push_back(s.value);
            if (info->type == MetricType::Histogram) {
                const QByteArray suffix = s.name.mid(family.size());
                partOf[info->name][series] = suffix;
                if (suffix == "_bucket")
                    bucketLe[info->name][series] = labelValue(s, "le");
            }
        }
        for (const auto &[name, sn] : gaugeNow) {
            if (sn.second == 0)
                continue;
            const ServerMetricInfo *info = findKeyMetric(fam, name);
            const double v = info->combine == SeriesCombine::Mean ? sn.first / sn.second : sn.first;
            GaugeSeries &g = gauges[name][p.origin];
            g.all.push_back(v);
            if (inWindow)
                g.inWindow.push_back(v);
        }
    }

    for (const ServerMetricInfo &info : fam.keys) {
        ServerMetricAggregate m;
        m.type = info.type;
        m.unit = QLatin1String(info.unit);
        m.label = QLatin1String(info.label);
        if (info.type == MetricType::Gauge) {
            const auto it = gauges.find(info.name);
            if (it == gauges.end())
                continue;
            // Origins: requests add up (avg and max of the sum, the max an upper bound), fractions average.
            double avg = 0, max = 0;
            int samples = 0;
            for (const auto &[origin, g] : it->second) {
                const std::vector<double> &v = g.inWindow.empty() ? g.all : g.inWindow;
                double a = 0;
                for (double x : v)
                    a += x;
                a /= double(v.size());
                avg += a;
                max += *std::max_element(v.begin(), v.end());
                samples += int(v.size());
            }
            if (info.combine == SeriesCombine::Mean) {
                avg /= double(it->second.size());
                max /= double(it->second.size());
            }
            m.avg = avg;
            m.max = max;
            m.samples = samples;
        } else if (info.type == MetricType::Counter) {
            const auto it = increasing.find(info.name);
            if (it == increasing.end())
                continue;
            double delta = 0;
            for (const auto &[series, values] : it->second)
                delta += counterIncrease(values);
            m.delta = delta;
            m.rate = durationS > 0 ? delta / durationS : NAN;
            if (QByteArray(info.name) == fam.cacheHits.name)
                out.cacheHitDelta = delta;
        } else if (info.type == MetricType::Histogram) {
            const auto it = increasing.find(info.name);
            if (it == increasing.end())
                continue;
            HistogramDelta h;
            std::map<double, double> byLe;
            for (const auto &[series, values] : it->second) {
                const QByteArray part = partOf[info.name][series];
                const double inc = counterIncrease(values);
                if (part == "_count")
                    h.count += inc;
                else if (part == "_sum")
                    h.sum += inc;
                else if (part == "_bucket") {
                    double le = 0;
                    if (parseMetricValue(bucketLe[info.name][series], &le))
                        byLe[le] += inc;
                }
            }
            std::vector<std::pair<double, double>> cumulative(byLe.begin(), byLe.end());
            h.p50 = bucketQuantile(cumulative, 0.5);
            h.p99 = bucketQuantile(cumulative, 0.99);
            m.count = h.count;
            m.mean = h.count > 0 ? h.sum / h.count : NAN;
            m.p50 = h.p50;
            m.p99 = h.p99;
            if (fam.serverTtft && QByteArray(info.name) == fam.serverTtft)
                out.serverTtft = h;
        }
        out.metrics.insert(QLatin1String(info.name), m);
    }
    return out;
}

} // namespace sb
