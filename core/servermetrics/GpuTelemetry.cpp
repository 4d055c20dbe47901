#include "servermetrics/GpuTelemetry.h"
#include "servermetrics/ServerMetricsAggregate.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace sb {

namespace {
// One GPU's identity: its UUID, else (several exporters may each have a gpu="0") its exporter,
// host and index.
QString gpuKey(const QString &origin, const MetricSample &s)
{
    const QByteArray uuid = labelValue(s, dcgm::kUuidLabel);
    if (!uuid.isEmpty())
        return QString::fromUtf8(uuid);
    return origin + QLatin1Char(' ') + QString::fromUtf8(labelValue(s, dcgm::kHostLabel)) + QLatin1Char('/') + QString::fromUtf8(labelValue(s, dcgm::kGpuLabel));
}

// The exporter names the models: a cell keeps a few names of bounded length.
constexpr std::size_t kMaxModelNames = 16;
constexpr qsizetype kMaxModelNameBytes = 200;

enum Field { Util, Sm, Fb, Power, Energy, FieldCount };
constexpr const char *kFieldNames[FieldCount] = {dcgm::kGpuUtil, dcgm::kSmActive, dcgm::kFbUsed, dcgm::kPower, dcgm::kEnergy};

int fieldOf(const QByteArray &name)
{
    for (int f = 0; f < FieldCount; ++f)
        if (name == kFieldNames[f])
            return f;
    return -1;
}

struct GpuSeries {
    std::vector<std::pair<std::int64_t, double>> power; // (steady ns, W)
    std::vector<double> energy;                          // mJ, in scrape order
};

// Per exporter, one gauge's per-scrape combined values.
struct GaugeScrapes {
    std::map<QString, std::vector<double>> byOrigin;
    std::map<QString, int> gpusByOrigin; // the most GPUs one scrape of the origin had the field for
};

GaugeSummary summarise(const GaugeScrapes &g, bool mean)
{
    GaugeSummary out;
    if (g.byOrigin.empty())
        return out;
    double avg = 0, max = 0, weight = 0;
    for (const auto &[origin, values] : g.byOrigin) {
        double a = 0;
        for (double v : values)
            a += v;
        a /= double(values.size());
        const double m = *std::max_element(values.begin(), values.end());
        const double w = mean ? double(g.gpusByOrigin.at(origin)) : 1.0;
        avg += a * w;
        max += m * w;
        weight += w;
    }
    out.avg = mean ? avg / weight : avg;
    out.max = mean ? max / weight : max;
    return out;
}

double trapezoidJoules(const std::vector<std::pair<std::int64_t, double>> &power)
{
    double j = 0;
    for (std::size_t i = 1; i < power.size(); ++i)
        j += (power[i].second + power[i - 1].second) / 2 * double(power[i].first - power[i - 1].first) / 1e9;
    return j;
}
} // namespace

bool isGpuTelemetrySample(const MetricsScrape &, const MetricSample &s)
{
    return fieldOf(s.name) >= 0;
}

GpuTelemetrySummary aggregateGpuTelemetry(const std::vector<ScrapePoint> &points, bool counterExpected)
{
    GpuTelemetrySummary out;
    GpuTelemetryResult &r = out.result;
    std::map<QString, GpuSeries> gpus;
    std::set<QString> models;
    GaugeScrapes gauges[FieldCount - 1]; // every field but the energy counter
    std::int64_t first = 0, last = 0;
    for (const ScrapePoint &p : points) {
        if (!p.error.isEmpty())
            continue;
        if (r.scrapes++ == 0)
            first = p.steadyNs;
        last = p.steadyNs;
        double sum[FieldCount] = {};
        int count[FieldCount] = {};
        for (const MetricSample &s : p.keySamples.samples) {
            const int f = fieldOf(s.name);
            if (f < 0 || !std::isfinite(s.value))
                continue;
            const QString key = gpuKey(p.origin, s);
            GpuSeries &g = gpus[key];
            if (const QByteArray model = labelValue(s, dcgm::kModelLabel); !model.isEmpty() && models.size() < kMaxModelNames)
                models.insert(QString::fromUtf8(model.left(kMaxModelNameBytes)));
            if (f == Energy) {
                g.energy.push_back(s.value);
                continue;
            }
            if (f == Power)
                g.power.emplace_back(p.steadyNs, s.value);
            sum[f] += s.value;
            ++count[f];
        }
        for (int f = 0; f < Energy; ++f) {
            if (count[f] == 0)
                continue;
            const bool mean = f == Util || f == Sm;
            gauges[f].byOrigin[p.origin].push_back(mean ? sum[f] / count[f] : sum[f]);
            int &n = gauges[f].gpusByOrigin[p.origin];
            n = std::max(n, count[f]);
        }
    }
    r.gpus = int(gpus.size());
    for (const QString &m : models)
        r.models.append(m);
    if (r.scrapes > 0)
        r.windowS = double(last - first) / 1e9;
    r.utilizationPct = summarise(gauges[Util], true);
    r.smActive = summarise(gauges[Sm], true);
    r.memoryUsedMib = summarise(gauges[Fb], false);
    r.powerW = summarise(gauges[Power], false);
    if (gpus.empty())
        return out;

    int withCounter = 0, withPower = 0;
    QStringList stale;
    double counterJ = 0, integralJ = 0;
    for (const auto &[key, g] : gpus) {
        if (g.power.size() >= 2) {
            ++withPower;
            integralJ += trapezoidJoules(g.power);
        }
        if (g.energy.size() < 2)
            continue;
        ++withCounter;
        const double j = counterIncrease(g.energy) / 1000; // mJ
        counterJ += j;
        double drawn = 0;
        for (const auto &[t, w] : g.power)
            drawn = std::max(drawn, w);
        if (j == 0 && drawn > 0)
            stale.append(key);
    }
    const int n = r.gpus;
    if (withCounter == n && stale.isEmpty()) {
        r.energyJ = counterJ;
        r.energySource = EnergySource::Counter;
        return out;
    }
    const QString why = withCounter < n
                            ? QStringLiteral("%1 of %2 GPUs had no two readings of %3").arg(n - withCounter).arg(n).arg(QLatin1String(dcgm::kEnergy))
                            : QStringLiteral("%1 did not move on %2 of %3 GPUs while they drew power (is dcgm-exporter's collection "
                                             "interval, -c, longer than the phase?)")
                                  .arg(QLatin1String(dcgm::kEnergy))
                                  .arg(stale.size())
                                  .arg(n);
    if (withPower == n) {
        r.energyJ = integralJ;
        r.energySource = EnergySource::PowerIntegral;
        if (counterExpected || withCounter > 0)
            out.warnings.append(QStringLiteral("GPU energy from the power gauge integrated over the phase: %1").arg(why));
    } else if (!counterExpected) {
        out.warnings.append(QStringLiteral("no GPU energy for this cell: %1 of %2 GPUs had no two power readings").arg(n - withPower).arg(n));
    } else {
        out.warnings.append(QStringLiteral("no GPU energy for this cell: %1, and %2 of %3 GPUs had no two readings of %4")
                                .arg(why)
                                .arg(n - withPower)
                                .arg(n)
                                .arg(QLatin1String(dcgm::kPower)));
    }
    return out;
}

} // namespace sb
