#pragma once
// Distribution of per-request samples of one cell (TTFT, ITL or latency): a histogram or an
// empirical CDF, with p50/p99 marked. Shared by the Results view and the report exporter.
#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace sb::ui {

enum class DistributionKind { Histogram, Cdf };

// Bins: Freedman–Diaconis clamped to [10, 80] so both 50 and 500k samples read well.
QChart *makeDistributionChart(const QList<double> &samples, const QString &label, const QString &unit,
                              DistributionKind kind);
// Linear-interpolated percentile (numpy's default, as the summaries) of sorted values; NaN if empty.
double percentileSorted(const QList<double> &sorted, double p);

} // namespace sb::ui
