#pragma once
// The summary at the top of report.html and of an exported comparison: what
// was measured (servers, axis, points, cells by status), the best server per headline metric
// (the catalogue's better direction, metrics/MetricCatalogue.h), the SLO search's sentences and
// the warnings a reader must not miss (degraded or failed cells, failed hooks, validity
// warnings). Plain text: each page escapes it.
#include "results/Results.h"
#include "results/SweepAxis.h"
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sb {

struct ReportSummary {
    QStringList servers;
    SweepAxis axis = SweepAxis::Concurrency;
    QList<double> points;               // sorted, distinct
    int cells = 0;
    QMap<QString, int> cellsByStatus;   // cellStatusName -> count
    // "TTFT p99 (lower is better): a is significantly best at 1 of 3 points; no significant
    // difference at 2 of 3 points" (report/BestSeries.h decides each point)
    QStringList best;
    QStringList slo;                    // the SLO search's sentences
    // The workload's SLOs, per request ("TTFT ≤ 60 ms and ITL ≤ 20 ms"): what goodput and
    // good_request_fraction count; empty when the spec set none (or an import does not say).
    QString sloLimits;
    QStringList warnings;
    QString pointsText() const;         // "1, 4, 16" or "2 req/s, 8 req/s"
    QString cellsText() const;          // "10 cells: 8 completed, 1 degraded, 1 failed"
};

ReportSummary summarizeReport(const SweepResults &results);

} // namespace sb
