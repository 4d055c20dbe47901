#pragma once
// report.html of a bundle: one self-contained page (inline CSS, no script, charts by relative
// path inside the bundle) that opens offline. Every string that came from a spec, a server or an
// imported file is HTML-escaped; a Content-Security-Policy forbids any network load.
#include "results/Results.h"
#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>

namespace sb {

struct ReportChart {
    QString title;
    QString svgPath; // relative to the bundle root, e.g. charts/throughput_vs_ttft_p99.svg
    QString pngPath; // may be empty
};

struct ReportHtmlInput {
    SweepResults results;
    QString sourceName;          // the results folder or file the bundle was made from
    QList<ReportChart> charts;
    QSet<QString> bundledFiles;  // relative paths present in the bundle (records are linked only if here)
    QString generatedAt;         // ISO UTC
    QString generatorHost;
    QStringList warnings;        // export warnings (shown, escaped)
};

QByteArray reportHtml(const ReportHtmlInput &in);

} // namespace sb
