#pragma once
// A sweep point across its repeats (`sweep.repeats`, docs/spec-reference.md "Repeats"): the mean
// and 95 % confidence interval of each per-run figure, and whether two servers differ at a point
// (Welch's t-test on the run values). Derived from the cells, so it works for any results file;
// results.json also carries it as "points" when some point ran more than once.
#include "results/RepeatStats.h"
#include "results/SweepAxis.h"
#include <QJsonArray>
#include <QList>
#include <QMap>
#include <QString>

namespace sb {

struct PointSummary {
    QString server;
    SweepAxis axis = SweepAxis::Concurrency;
    double point = 0;               // C, or R in requests/s
    QList<int> cells;               // indexes of its measured cells (one per run)
    // "metric.stat" ("time_to_first_token.p99") -> mean and CI over the runs
    QMap<QString, MeanCi> stats;
    // The run values behind stats (same keys), in cell order.
    QMap<QString, std::vector<double>> runValues;
    int runs() const { return int(cells.size()); }
};

// The key of metric.stat in PointSummary::stats: "time_to_first_token.p99".
QString pointKey(const QString &metric, Stat stat);

// Points in first-appearance order; only cells with measurements count as runs.
QList<PointSummary> summarizePoints(const SweepResults &results);
bool hasRepeats(const QList<PointSummary> &points); // some point ran at least twice
QJsonArray pointsJson(const QList<PointSummary> &points);

struct PointComparison {
    double point = 0;
    QString serverA, serverB;
    MeanCi a, b;
    WelchResult welch;
};
// Every pair of servers at every point both measured at least twice, on `key` ("metric.stat").
QList<PointComparison> comparePoints(const QList<PointSummary> &points, const QString &key);

} // namespace sb
