#pragma once
// report.html of a bundle: one self-contained page (inline CSS, no script, charts by relative
// path inside the bundle) that opens offline. Summary first (what was measured, best server per
// metric, SLO findings, warnings), then the run, charts, repeats, cells and server metrics; a
// print stylesheet keeps tables and charts whole on paper. Every string that came from a spec, a server or an
// imported file is HTML-escaped; a Content-Security-Policy forbids any network load.
#include "results/Results.h"
#include <QByteArray>
#include <QList>
#include <QMap>
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
    // The hook outcome icon set (ui/icons/verdict-*.svg), SVG bytes by int(HookSeverity); the
    // page falls back to the severity glyphs (✓ ⚠ ✗) for a severity without one.
    QMap<int, QByteArray> hookIcons;
    // Trace files copied into the bundle: the path the cell recorded -> the bundle path
    // ("traces/<cell>/<file>"). Traces not here are named by file name only, never linked: an
    // absolute path points into the author's machine.
    QMap<QString, QString> bundledTraces;
};

QByteArray reportHtml(const ReportHtmlInput &in);

// Shared with the exported comparison (report/ComparisonHtml.h): HTML-escaped text in which no
// URL can be followed ("://" written as an entity), and the page head (doctype, a CSP that
// forbids any network load, the stylesheet with its print rules, the title and <h1>).
QString htmlEscapeNoUrls(const QString &s);
QString reportHead(const QString &title, const QString &extraCss = {});

} // namespace sb
