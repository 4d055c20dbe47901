#pragma once
// Small text helpers shared by the CSV, HTML and terminal summary writers, so one cell's numbers
// read the same in every output.
#include "results/Results.h"
#include <QString>

namespace sb {

// metric.stat of a cell; NaN when the metric or stat is missing.
double cellValue(const CellResult &cell, const QString &metric, const QString &stat);
// Fixed decimals, `empty` for NaN/inf.
QString formatFixed(double v, int decimals, const QString &empty = QString());
// "reset_kv_cache=ok profiler_start=ok profiler_stop=route_missing" (one token per call, in order);
// empty when the cell ran no hook.
QString hookVerdicts(const CellResult &cell);
// Escapes text for HTML element content and double- or single-quoted attribute values.
QString htmlEscape(const QString &s);

// Metric tags used by every report (AIPerf names).
namespace tag {
inline const QString ttft = QStringLiteral("time_to_first_token");
inline const QString itl = QStringLiteral("inter_token_latency");
inline const QString latency = QStringLiteral("request_latency");
inline const QString outputThroughput = QStringLiteral("output_token_throughput");
inline const QString requestThroughput = QStringLiteral("request_throughput");
inline const QString goodput = QStringLiteral("goodput");
inline const QString isl = QStringLiteral("input_sequence_length");
inline const QString osl = QStringLiteral("output_sequence_length");
inline const QString requestedIsl = QStringLiteral("requested_input_sequence_length");
inline const QString requestedOsl = QStringLiteral("requested_output_sequence_length");
} // namespace tag

// "ISL 384.9 asked, 385.0 measured (p50 380 / 381, p99 900 / 901); OSL …": the mean (and p50,
// p99) of what the cell's requests asked for beside what the server counted; empty when the
// cell has no requested lengths (results written before they were recorded).
QString requestedVsMeasured(const CellResult &cell);

} // namespace sb
