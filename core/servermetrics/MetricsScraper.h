#pragma once
// Scrapes each origin's metrics endpoint of one server while a measured phase runs
// (docs/server-metrics.md): a baseline scrape right before the phase's first send, one every
// interval_s during it, and scrapes over a short tail after it, so counters cover every measured
// request. While a profiler window is open the server traces every scrape it answers, so scrapes
// then follow their own interval (none at all by default): setWindowOpen() marks the window. It runs on its own thread over the control client (one fresh connection per scrape,
// never a load connection, never counted as load); a slow answer is cut at its timeout and a
// huge one at MetricsLimits::maxBodyBytes, so a scrape never stalls the cell.
// Every answer goes whole into OUT/cells/<cell>/server_metrics.jsonl (one line per scrape); the
// samples of the key metrics (ServerMetricCatalogue) are kept in memory for the aggregates.
#include "servermetrics/PrometheusText.h"
#include "io/DurableWrite.h"
#include "spec/SecretSet.h"
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <QThread>
#include <vector>

namespace sb {

struct ScrapeTarget {
    QString origin;                                   // scheme://host:port, as in hook outcomes
    QUrl url;                                         // origin + metrics path
    QList<QPair<QByteArray, QByteArray>> headers;     // the control calls' headers (auth)
};

// One scrape of one origin.
struct ScrapePoint {
    QString origin;
    std::int64_t steadyNs = 0;   // when the answer arrived (steadyNowNs clock)
    double latencyMs = 0;
    int status = 0;
    QString error;               // empty when the answer parsed
    MetricsScrape keySamples;    // the key metrics' samples only (with their families)
    bool inWindow = false;       // taken while a profiler window was open on the server
};

// An origin whose endpoint answered something that is not metrics at its first scrape.
struct MissingEndpoint {
    QString origin;
    QString reason;              // "HTTP 404", "no valid metric samples in the answer (line 1: …)"
};

class MetricsScraper
{
public:
    // `partPath`: where the series goes while the phase runs (published by finish()).
    // `secrets`: scrubbed from every line written (a server may echo a key in a label or an error).
    MetricsScraper(QList<ScrapeTarget> targets, double intervalS, const QString &partPath,
                   std::shared_ptr<const SecretSet> secrets = {});
    ~MetricsScraper(); // stops the thread if finish() was not called
    MetricsScraper(const MetricsScraper &) = delete;
    MetricsScraper &operator=(const MetricsScraper &) = delete;

    // Seconds between scrapes while a profiler window is open; 0 = none then. Before start().
    void setWindowInterval(double intervalS) { m_windowIntervalS = intervalS; }
    // A profiler window opened or closed on the server: the scrape schedule follows at once (and
    // scrapes held by holdScrapes() resume).
    void setWindowOpen(bool open);
    // No scrape until the next setWindowOpen(); returns once a scrape in flight has its answer.
    // Called before a profiler route so no scrape overlaps it: a scrape marked in-window was sent
    // after the start route's answer and answered before the stop route was sent.
    void holdScrapes();
    // Does the baseline scrape of every origin (on the scraper thread, waited for) and starts
    // the periodic ones. Returns when the baseline is in.
    void start();
    // Which samples of a scrape stay in memory (ScrapePoint::keySamples), at most `maxKept` of
    // them; the default is the server metrics' key samples, unbounded beyond the answer's own
    // bounds. Before start().
    using KeepFn = std::function<bool(const MetricsScrape &, const MetricSample &)>;
    void setKeep(KeepFn keep, int maxKept) { m_keep = std::move(keep); m_maxKept = maxKept; }
    // Called on the scraper thread after each scrape that parsed (before start()): keep it short.
    void setOnScrape(std::function<void(const ScrapePoint &)> onScrape) { m_onScrape = std::move(onScrape); }
    // Scrapes on for `tailS` seconds, does one last scrape of each origin and stops.
    void stop(double tailS);
    // Writes the series with times relative to `phaseStartNs` to `finalPath` (checked writes,
    // synced, published atomically); false and *error when it could not be written.
    bool publish(std::int64_t phaseStartNs, const QString &finalPath, QString *error);

    const std::vector<ScrapePoint> &points() const { return m_points; } // after stop()
    const QList<MissingEndpoint> &missing() const { return m_missing; }
    // Scrapes that failed after the endpoint had answered metrics (timeouts, errors), with the first reason.
    int failedScrapes() const { return m_failed; }
    const QString &firstFailure() const { return m_firstFailure; }
    double timeoutS() const { return m_timeoutS; }

private:
    void run();
    void scrapeAll(bool inWindow);
    void scrapeOne(int index, bool inWindow);

    QList<ScrapeTarget> m_targets;
    std::vector<bool> m_dropped; // per target: not a metrics endpoint, no longer scraped
    std::vector<bool> m_typesWritten;
    double m_intervalS;
    double m_windowIntervalS = 0;
    double m_timeoutS;
    QString m_partPath;
    std::shared_ptr<const SecretSet> m_secrets;
    CheckedFile m_file;
    std::vector<ScrapePoint> m_points;
    QList<MissingEndpoint> m_missing;
    int m_failed = 0;
    std::function<void(const ScrapePoint &)> m_onScrape;
    KeepFn m_keep;
    int m_maxKept = -1;
    QString m_firstFailure;

    std::unique_ptr<QThread> m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_baselineDone = false;
    bool m_stopRequested = false;
    bool m_windowOpen = false;
    bool m_held = false;     // holdScrapes(): no scrape until the window's next change
    bool m_scraping = false; // a periodic scrape is in flight
    std::uint64_t m_windowChanges = 0; // wakes the scrape loop to re-plan its next scrape
    std::int64_t m_stopAtNs = 0;
    std::atomic<bool> m_abort{false}; // ends a scrape in flight when the scraper is destroyed
};

} // namespace sb
