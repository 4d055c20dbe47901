#pragma once
// The server's side of one cell (docs/server-metrics.md): starts the metrics scraper around the
// measured phase, publishes its series (server_metrics.jsonl beside records.jsonl), puts the key
// aggregates into the cell, judges a reset by the server's own prefix-cache counter
// (HookOutcome::metricsVerdict) and compares client and server TTFT.
#include "servermetrics/MetricsScraper.h"
#include "servermetrics/ServerMetricsAggregate.h"
#include "results/Results.h"
#include "spec/SweepSpec.h"
#include <QSet>
#include <memory>

namespace sb {

struct HookTarget;
struct PhaseOutcome;

// Tokens per measured request a counter may show without any reuse of an earlier cell's prompt:
// the chat template's head every request of the cell shares (llama-server's tiny test model: see
// docs/server-metrics.md) plus leading digits two prompts can share; at most half the prompt.
inline constexpr int kTemplatePrefixAllowance = 64;

class CellServerMetrics
{
public:
    // Origins whose endpoint was found not to serve metrics stay off for the rest of the sweep.
    explicit CellServerMetrics(QSet<QString> *knownMissing) : m_knownMissing(knownMissing) {}

    // Starts scraping (baseline scrape included) unless metrics are off for the server or every
    // origin is known to lack them. `cellDir`: absolute cell folder.
    // `onScrape`: called on the scraper thread after each scrape that parsed (the run monitor's live series).
    void start(const ServerSpec &server, const QList<HookTarget> &targets, const QString &cellDir,
               std::shared_ptr<const SecretSet> secrets, std::function<void(const ScrapePoint &)> onScrape = {});
    // A profiler window opened or closed on the server (metrics.window_interval_s applies inside).
    void setWindowOpen(bool open)
    {
        if (m_scraper)
            m_scraper->setWindowOpen(open);
    }
    // Before a profiler route: no scrape overlaps it (MetricsScraper::holdScrapes).
    void holdScrapes()
    {
        if (m_scraper)
            m_scraper->holdScrapes();
    }
    bool started() const { return m_scraper != nullptr; }
    // After the phase: tail, publish, aggregate, judge. `proofPlacement` as in CellRunner::measure.
    // Returns false (and *error) only when the series could not be written.
    bool finish(const ServerSpec &server, const WorkloadSpec &w, const PhaseOutcome &out, HookPlacement proofPlacement,
                const QString &relativeSeriesPath, const QString &absoluteSeriesPath, const QString &recordsPath, CellResult &cell,
                QString *error);

    // The verdict rule, apart for tests: hits over `measured` requests after a reset.
    // `historyTokens`: what sessions' later turns may reuse of their own earlier turns.
    static MetricsVerdict judgeReset(std::optional<double> cacheHitDelta, int measured, const WorkloadSpec &w, double *allowance,
                                     double historyTokens = 0);

    // Cells shorter than this many scrapes, or with fewer requests in flight on average, do not
    // judge whether the server's gauges follow its load.
    static constexpr int kMinScrapesForGaugeCheck = 3;
    static constexpr double kMinInFlightForGaugeCheck = 0.5;

private:
    static void checkGaugesFollowLoad(const ServerMetricsSummary &sum, CellResult &cell);
    QSet<QString> *m_knownMissing;
    std::unique_ptr<MetricsScraper> m_scraper;
    double m_intervalS = 0.5;
};

} // namespace sb
