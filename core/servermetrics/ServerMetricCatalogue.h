#pragma once
// The one list of server metrics SweepBench aggregates per cell (docs/server-metrics.md): the
// key metrics of each server family, as the servers publish them, with their type, unit, label
// and how series of several label sets or origins combine. Everything else a server publishes
// is kept in the cell's server_metrics.jsonl only.
#include "results/HookVocabulary.h"
#include "servermetrics/PrometheusText.h"
#include <QByteArray>
#include <QHash>
#include <QString>
#include <vector>

namespace sb {

enum class SeriesCombine { Sum, Mean }; // requests and tokens add up; fractions average

struct ServerMetricInfo {
    const char *name;     // family name as published (counters with their _total)
    MetricType type;
    const char *unit;     // requests, tokens, fraction, seconds, …
    const char *label;    // for tables and charts
    SeriesCombine combine;
};

// Which prefix-cache counter proves a reset (docs/server-metrics.md "Reset verified by counters").
struct CacheHitCounter {
    const char *name;     // counter family
    const char *meaning;  // for messages
};

struct ServerMetricFamily {
    const char *prefix;   // "vllm:", "sglang:", "llamacpp:"
    const char *server;   // vllm | sglang | llamacpp
    std::vector<ServerMetricInfo> keys;
    CacheHitCounter cacheHits;
    const char *serverTtft;   // the server's own TTFT histogram, or nullptr
    // The gauge of requests the server is running: a cell that kept requests in flight while it
    // read 0 at every scrape shows the server's gauges do not follow its load.
    const char *runningGauge;
    const char *waitingGauge; // requests queued or deferred (the run monitor's live series)
};

const std::vector<ServerMetricFamily> &serverMetricFamilies();

// How a reset's metrics verdict (HookOutcome::metricsVerdict) reads in logs, tables, tooltips and
// reports: "confirmed by metrics (0 cached tokens)", "NOT confirmed by metrics (5120 cached
// tokens)", "no metrics to confirm it"; empty for no verdict.
QString describeMetricsVerdict(MetricsVerdict verdict, qint64 cachedTokens);
// The family whose prefix the scrape's metric names carry (the first with any), or nullptr:
// picked from what the server publishes, not from the spec's flavor (an `openai` server may be a vLLM).
const ServerMetricFamily *detectServerFamily(const MetricsScrape &scrape);
const ServerMetricInfo *findKeyMetric(const ServerMetricFamily &family, const QByteArray &familyName);
// Is this sample part of a key metric of any family (kept in memory for the aggregates)?
bool isKeySample(const MetricsScrape &scrape, const MetricSample &s);

// The server's load in one scrape, for the run monitor's live series: requests running (in the
// batch) and waiting (queued, deferred), summed over label sets; -1 when the scrape has none.
struct ServerLoad {
    double running = -1;
    double waiting = -1;
};
ServerLoad serverLoad(const MetricsScrape &scrape);

// The load of a server with several URLs (replicas behind one name): each origin is scraped on
// its own, so the server's figure is the sum of every origin's latest scrape, not whichever
// origin answered last. Used from the scraper's one thread.
class ServerLoadSum
{
public:
    // Records `origin`'s latest load and returns the sum over every origin seen; a figure no
    // origin reports stays -1.
    ServerLoad add(const QString &origin, const ServerLoad &load);

private:
    QHash<QString, ServerLoad> m_latest;
};

} // namespace sb
