#pragma once
// A cell's scraped server metrics over time, read from its server_metrics.jsonl
// (docs/server-metrics.md "Files and fields"): the one reader of the file MetricsScraper writes,
// beside it; the Results view's Server tab calls it on a worker thread. The file holds every series a server publishes, scrape by scrape, so what is loaded is
// bounded and the result says what was left out:
//   - key metrics (servermetrics/ServerMetricCatalogue) are combined per scrape over their label
//     sets as the aggregates are (sum or mean), labelled from the catalogue, and listed first;
//   - any other series is listed by its full key, histogram buckets left out (their _sum and
//     _count are kept), at most kMaxOtherSeries of them;
//   - at most kMaxScrapes scrapes and kMaxFileBytes bytes are read.
#include <QHash>
#include <QList>
#include <QMap>
#include <QPointF>
#include <QString>
#include <QStringList>

namespace sb {

struct ServerSeriesEntry {
    QString key;     // family name for a key metric ("vllm:num_requests_running"), else the series key
    QString label;   // what the picker shows
    bool keyMetric = false;
};

struct ServerSeriesData {
    static constexpr int kMaxScrapes = 20000;
    static constexpr int kMaxOtherSeries = 300;
    static constexpr qint64 kMaxFileBytes = 512LL * 1024 * 1024;

    QList<ServerSeriesEntry> entries;
    // entry key -> origin -> points (seconds from the measured phase's start, value); non-finite
    // values are left out.
    QHash<QString, QMap<QString, QList<QPointF>>> points;
    int scrapes = 0;        // lines read
    int failedScrapes = 0;  // lines with an "error" and no samples
    int badLines = 0;       // lines that are not JSON objects
    QStringList limits;     // what was not loaded and why (shown under the picker)
    QString error;          // the file could not be read at all

    qsizetype pointCount(const QString &key) const;
};

ServerSeriesData readServerSeries(const QString &path);

} // namespace sb
