#pragma once
// nvidia-smi's CSV readings as GPU telemetry (docs/gpu-telemetry.md "Without an exporter"): one
// line of `nvidia-smi --query-gpu=<kNvidiaSmiQuery> --format=csv,noheader,nounits` becomes the
// DCGM-named samples the exporters' summary reads (servermetrics/GpuTelemetry.h), so one
// aggregation serves both sources. nvidia-smi has no energy counter: a cell's energy is its power
// integrated over the readings.
#include "servermetrics/PrometheusText.h"
#include <QByteArrayView>
#include <vector>

namespace sb {

// The fields asked for, in the order each line prints them. The name may itself hold ", "
// (nvidia-smi does not quote it): the numbers are read from the end of the line.
inline constexpr char kNvidiaSmiQuery[] = "index,uuid,name,utilization.gpu,memory.used,power.draw";

// The samples of one line (gpu index, UUID and model name as labels) appended to `out`; false
// when the line is not a reading (a message, garbage, "[N/A]" in every number). A number
// nvidia-smi cannot read ("[N/A]", "[Not Supported]") is left out.
bool parseNvidiaSmiLine(QByteArrayView line, std::vector<MetricSample> *out);

} // namespace sb
