#include "servermetrics/NvidiaSmiCsv.h"
#include "servermetrics/GpuTelemetry.h"
#include <cmath>

namespace sb {

namespace {
// What a GPU can plausibly report; anything else is not a reading.
constexpr double kMaxPowerW = 100000;
constexpr double kMaxMemoryMib = 1 << 30;
constexpr int kMaxIndex = 4096;
constexpr qsizetype kMaxNameBytes = 200;

// A number, or NaN for nvidia-smi's "[N/A]" / "[Not Supported]" and anything else.
double number(const QByteArray &field, double max)
{
    bool ok = false;
    const double v = field.trimmed().toDouble(&ok);
    return ok && std::isfinite(v) && v >= 0 && v <= max ? v : NAN;
}
} // namespace

bool parseNvidiaSmiLine(QByteArrayView line, std::vector<MetricSample> *out)
{
    QList<QByteArray> fields = line.toByteArray().split(',');
    for (QByteArray &f : fields)
        f = f.trimmed();
    if (fields.size() < 6)
        return false;
    bool ok = false;
    const int index = fields[0].toInt(&ok);
    const QByteArray &uuid = fields[1];
    if (!ok || index < 0 || index > kMaxIndex || !uuid.startsWith("GPU-") || uuid.size() > 64)
        return false;
    const qsizetype n = fields.size();
    // The name is everything between the UUID and the three numbers, commas included.
    QByteArray name = fields[2];
    for (qsizetype i = 3; i < n - 3 && name.size() < kMaxNameBytes; ++i)
        name += ", " + fields[i];
    const double util = number(fields[n - 3], 100), memory = number(fields[n - 2], kMaxMemoryMib), power = number(fields[n - 1], kMaxPowerW);
    if (std::isnan(util) && std::isnan(memory) && std::isnan(power))
        return false;
    const QList<QPair<QByteArray, QByteArray>> labels = {{dcgm::kGpuLabel, QByteArray::number(index)},
                                                         {dcgm::kUuidLabel, uuid},
                                                         {dcgm::kModelLabel, name.left(kMaxNameBytes)}};
    for (const auto &[field, value] : {std::pair{dcgm::kGpuUtil, util}, {dcgm::kFbUsed, memory}, {dcgm::kPower, power}}) {
        if (std::isnan(value))
            continue;
        MetricSample s;
        s.name = field;
        s.labels = labels;
        s.value = value;
        out->push_back(std::move(s));
    }
    return true;
}

} // namespace sb
