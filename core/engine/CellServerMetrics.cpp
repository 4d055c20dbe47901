#include "engine/CellServerMetrics.h"
#include "hooks/HookRunner.h"
#include "load/LoadGenerator.h"
#include "io/LineReader.h"
#include "io/ReadLimits.h"
#include "metrics/MetricCatalogue.h"
#include "metrics/Stats.h"
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace sb {

namespace {
QString metricsPath(const ServerSpec &s) { return s.metrics.path.isEmpty() ? QStringLiteral("/metrics") : s.metrics.path; }

// The client's TTFT minus the server's, beyond which the gap is more than network time: the
// request waited in front of the server's engine (HTTP front end, tokenizer) or in the client.
constexpr double kTtftGapWarnMs = 100;
constexpr double kTtftGapWarnShare = 0.5;
// llama.cpp reports no TTFT histogram but times each request: `timings.prompt_ms` is the prompt's
// evaluation, at whose end the first token is sampled, so it is the server's TTFT without the
// wait for a free slot. The records file holds them (README "records.jsonl"). Empty when none.
std::vector<double> serverPromptMs(const QString &recordsPath)
{
    std::vector<double> out;
    QFile f(recordsPath);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    LineReader reader(f, kMaxRecordLineBytes);
    QByteArray line;
    while (reader.next(&line)) {
        if (!line.contains("\"timings\""))
            continue;
        const QJsonObject rec = QJsonDocument::fromJson(line).object();
        const QJsonValue ms = rec.value(QStringLiteral("timings")).toObject().value(QStringLiteral("prompt_ms"));
        if (rec.value(QStringLiteral("ok")).toBool() && ms.isDouble() && std::isfinite(ms.toDouble()))
            out.push_back(ms.toDouble());
    }
    return out;
}
// Scrapes answered while a profiler window was open: the server traced them (docs/server-metrics.md).
int windowScrapes(const std::vector<ScrapePoint> &points)
{
    return int(std::count_if(points.begin(), points.end(), [](const ScrapePoint &p) { return p.inWindow; }));
}
} // namespace

void CellServerMetrics::start(const ServerSpec &server, const QList<HookTarget> &targets, const QString &cellDir,
                              std::shared_ptr<const SecretSet> secrets, std::function<void(const ScrapePoint &)> onScrape)
{
    if (!server.metrics.enabled)
        return;
    QList<ScrapeTarget> scrape;
    for (const HookTarget &t : targets) {
        if (m_knownMissing->contains(server.name + QLatin1Char(' ') + t.origin))
            continue;
        QUrl url(t.origin + metricsPath(server));
        scrape.append({t.origin, url, controlHeaders(t)});
    }
    if (scrape.isEmpty())
        return;
    m_intervalS = server.metrics.intervalS;
    m_scraper = std::make_unique<MetricsScraper>(scrape, m_intervalS, cellDir + QStringLiteral("/server_metrics.jsonl.part"),
                                                 std::move(secrets));
    m_scraper->setOnScrape(std::move(onScrape));
    m_scraper->setWindowInterval(server.metrics.windowIntervalS);
    m_scraper->start();
}

void CellServerMetrics::checkGaugesFollowLoad(const ServerMetricsSummary &sum, CellResult &cell)
{
    // Measured on vLLM 0.32's CPU build: vllm:num_requests_running and kv_cache_usage_perc stay 0
    // while it generates hundreds of tokens a second (its own log line says "Running: 0 reqs"
    // too). A reader must not take such gauges for an idle server.
    if (!sum.family || !sum.family->runningGauge || sum.scrapes < kMinScrapesForGaugeCheck || cell.meanInFlight < kMinInFlightForGaugeCheck)
        return;
    const auto running = cell.serverMetrics.constFind(QLatin1String(sum.family->runningGauge));
    if (running == cell.serverMetrics.constEnd() || !(running->max == 0))
        return;
    cell.serverMetricsInfo.gaugesFollowLoad = false;
    cell.warnings.append(QStringLiteral("the server's %1 read 0 at all %2 scrapes while %3 requests were in flight on average: "
                                        "its gauges (running, waiting, KV-cache usage) do not follow its load, so they say nothing "
                                        "about this cell")
                             .arg(QLatin1String(sum.family->runningGauge))
                             .arg(sum.scrapes)
                             .arg(cell.meanInFlight, 0, 'f', 1));
}

MetricsVerdict CellServerMetrics::judgeReset(std::optional<double> cacheHitDelta, int measured, const WorkloadSpec &w, double *allowance,
                                             double historyTokens)
{
    if (!cacheHitDelta)
        return MetricsVerdict::NoMetrics;
    const int shared = w.prompts == PromptMode::SharedPrefix ? w.sharedPrefixTokens : 0;
    const int perRequest = shared + std::min(kTemplatePrefixAllowance, w.inputTokens / 2);
    *allowance = double(measured) * perRequest + std::max(0.0, historyTokens);
    return *cacheHitDelta <= *allowance ? MetricsVerdict::Confirmed : MetricsVerdict::NotConfirmed;
}

bool CellServerMetrics::finish(const ServerSpec &server, const WorkloadSpec &w, const PhaseOutcome &out, HookPlacement proofPlacement,
                               const QString &relativeSeriesPath, const QString &absoluteSeriesPath, const QString &recordsPath,
                               CellResult &cell, QString *error)
{
    if (!m_scraper) {
        // Off, or known missing: a reset cannot be judged by counters.
        if (proofPlacement != HookPlacement::None)
            for (HookOutcome &o : cell.hooks)
                if (isCacheReset(o.hook) && o.placement == proofPlacement && o.ok)
                    o.metricsVerdict = MetricsVerdict::NoMetrics;
        return true;
    }
    // The tail: one more interval (at most 2 s) so the last requests' counters are in.
    m_scraper->stop(std::min(m_intervalS, 2.0));
    for (const MissingEndpoint &m : m_scraper->missing()) {
        m_knownMissing->insert(server.name + QLatin1Char(' ') + m.origin);
        cell.warnings.append(QStringLiteral("no server metrics from %1%2 (%3): not scraped again in this sweep "
                                            "(vLLM serves /metrics by default, SGLang with --enable-metrics, llama-server with --metrics; "
                                            "metrics: false turns this off)")
                                 .arg(m.origin, metricsPath(server), m.reason));
    }
    if (m_scraper->failedScrapes() > 0)
        cell.warnings.append(QStringLiteral("%1 metrics scrapes failed (first: %2)").arg(m_scraper->failedScrapes()).arg(m_scraper->firstFailure()));

    const ServerMetricsSummary sum = aggregateServerMetrics(m_scraper->points(), out.startNs, cell.durationS);
    const bool anyScrape = sum.scrapes > 0;
    if (anyScrape) {
        if (!m_scraper->publish(out.startNs, absoluteSeriesPath, error))
            return false;
        cell.serverMetrics = sum.metrics;
        ServerScrapeInfo &info = cell.serverMetricsInfo;
        info.series = relativeSeriesPath;
        info.path = metricsPath(server);
        info.intervalS = m_intervalS;
        info.scrapes = sum.scrapes;
        info.failedScrapes = m_scraper->failedScrapes();
        info.windowScrapes = windowScrapes(m_scraper->points());
        info.server = sum.family ? QLatin1String(sum.family->server) : QLatin1String("");
    }
    m_scraper.reset(); // removes the part file when nothing was published
    checkGaugesFollowLoad(sum, cell);

    if (proofPlacement != HookPlacement::None) {
        const int measured = cell.completed + cell.failed;
        double allowance = 0, history = 0;
        for (const RequestRecord &r : out.records) // a session's later turns reuse their own history
            history += std::max(0, r.historyTokens);
        const MetricsVerdict verdict = judgeReset(sum.family ? sum.cacheHitDelta : std::nullopt, measured, w, &allowance, history);
        for (HookOutcome &o : cell.hooks) {
            if (!isCacheReset(o.hook) || o.placement != proofPlacement || !o.ok)
                continue;
            o.metricsVerdict = verdict;
            if (verdict == MetricsVerdict::NoMetrics)
                continue;
            o.metricsCachedTokens = qint64(*sum.cacheHitDelta);
            o.message += QStringLiteral(" — %1 by metrics: %2 %3 over %4 measured requests (allowance %5)")
                             .arg(verdict == MetricsVerdict::Confirmed ? QStringLiteral("confirmed") : QStringLiteral("not confirmed"))
                             .arg(*sum.cacheHitDelta, 0, 'f', 0)
                             .arg(QLatin1String(sum.family->cacheHits.meaning))
                             .arg(measured)
                             .arg(allowance, 0, 'f', 0);
            if (verdict == MetricsVerdict::NotConfirmed)
                cell.warnings.append(QStringLiteral("the cache reset on %1 answered ok, but the server's %2 counter shows %3 tokens reused "
                                                    "during the measured phase (more than the %4 its own requests can share): "
                                                    "earlier prompts were still cached")
                                         .arg(o.origin, QLatin1String(sum.family->cacheHits.name))
                                         .arg(*sum.cacheHitDelta, 0, 'f', 0)
                                         .arg(allowance, 0, 'f', 0));
        }
    }

    // Client vs server TTFT, where the server keeps a TTFT histogram or times each request.
    const auto client = cell.metrics.constFind(tag::ttft);
    if (client == cell.metrics.constEnd() || client->count == 0)
        return true;
    double serverP50 = NAN, serverMean = NAN;
    QString source;
    if (sum.serverTtft && sum.serverTtft->count > 0) {
        serverP50 = sum.serverTtft->p50 * 1000;
        serverMean = sum.serverTtft->sum / sum.serverTtft->count * 1000;
        source = QString::fromLatin1(sum.family->serverTtft);
    } else if (std::vector<double> promptMs = serverPromptMs(recordsPath); !promptMs.empty()) {
        std::sort(promptMs.begin(), promptMs.end());
        serverP50 = percentileSorted(promptMs, 50);
        serverMean = std::accumulate(promptMs.begin(), promptMs.end(), 0.0) / double(promptMs.size());
        source = QStringLiteral("records timings.prompt_ms");
    }
    if (!source.isEmpty()) {
        const double gap = client->p50 - serverP50;
        cell.serverMetricsInfo.ttftCheck = TtftCheck{source, client->p50, client->avg, serverP50, serverMean, gap};
        if (std::isfinite(gap) && gap > kTtftGapWarnMs && gap > kTtftGapWarnShare * client->p50)
            cell.warnings.append(QStringLiteral("client TTFT p50 %1 ms vs the server's own %2 ms: the %3 ms gap is far beyond network time "
                                                "(requests queued in front of the server's engine, or a client problem)")
                                     .arg(client->p50, 0, 'f', 1)
                                     .arg(serverP50, 0, 'f', 1)
                                     .arg(gap, 0, 'f', 1));
    }
    return true;
}

} // namespace sb
