#pragma once
// An exported comparison (Compare → Export comparison…): one self-contained HTML page, charts
// inlined as data: PNGs, no script, no network (the same Content-Security-Policy and stylesheet
// as report.html). It shows what each set is (source, servers, points, cells, warnings, best
// server per metric: report/ReportSummary.h) and the difference table (report/SetComparison.h).
// Every string from a set, a spec or a server is HTML-escaped.
#include "report/SetComparison.h"
#include <QByteArray>
#include <QList>
#include <QString>

namespace sb {

struct ComparisonSetInfo {
    QString name;    // legend name of the set
    QString source;  // the folder or file it was loaded from
    SweepResults results;
};

struct ComparisonChart {
    QString title;
    QByteArray png;
};

struct ComparisonHtmlInput {
    QList<ComparisonSetInfo> sets;
    QString metric;               // what the difference table compares: metric.stat
    Stat stat = Stat::P50;
    QList<DifferenceRow> rows;
    QList<ComparisonChart> charts;
    QString generatedAt;          // ISO UTC
};

QByteArray comparisonHtml(const ComparisonHtmlInput &in);

} // namespace sb
