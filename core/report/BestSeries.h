#pragma once
// Which series is best at one sweep point, and whether the runs back the claim. Every "best"
// a reader sees (report.html's summary, the comparison export, the Results tab's difference
// table) is decided here: the best mean over the runs is called best only when Welch's t-test
// (results/RepeatStats.h, two-sided, α = 0.05) separates it from every other series at that
// point; otherwise there is "no significant difference". A point where some series ran once has
// no test at all ("not testable").
#include "results/RepeatStats.h"
#include <QMap>
#include <QString>
#include <vector>

namespace sb {

enum class BestVerdict {
    Significant,    // the best mean differs significantly from every other series
    NotSignificant, // some other series is not significantly worse
    NotTestable,    // some series ran only once at this point
};

struct PointBest {
    QString series;   // the best mean (empty when fewer than two series measured the point)
    double mean = 0;
    BestVerdict verdict = BestVerdict::NotTestable;
    double p = 1;     // the largest p of the winner's pairwise tests (the weakest separation)
};

// `runs`: per series, the point's run values. `lowerIsBetter` from the metric's direction.
PointBest bestAtPoint(const QMap<QString, std::vector<double>> &runs, bool lowerIsBetter);

} // namespace sb
