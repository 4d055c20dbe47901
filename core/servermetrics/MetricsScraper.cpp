#include "servermetrics/MetricsScraper.h"
#include "hooks/ControlClient.h"
#include "io/LineReader.h"
#include "io/SteadyClock.h"
#include "servermetrics/ServerMetricCatalogue.h"
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace sb {

namespace {
// A scrape waits at most this long: twice the interval, within [1 s, 5 s]. A server too busy to
// answer its metrics in that time has its scrape recorded as failed, and the cell goes on.
double scrapeTimeout(double intervalS) { return std::clamp(intervalS * 2, 1.0, 5.0); }

QJsonValue jsonNumber(double v)
{
    if (std::isfinite(v))
        return v;
    return QString::fromLatin1(formatMetricValue(v)); // JSON has no NaN/Inf: "NaN", "+Inf", "-Inf"
}

constexpr qint64 kMaxSeriesLineBytes = 64LL * 1024 * 1024; // a line holds one bounded answer
} // namespace

MetricsScraper::MetricsScraper(QList<ScrapeTarget> targets, double intervalS, const QString &partPath,
                               std::shared_ptr<const SecretSet> secrets)
    : m_targets(std::move(targets)), m_dropped(std::size_t(m_targets.size()), false),
      m_typesWritten(std::size_t(m_targets.size()), false), m_intervalS(intervalS), m_timeoutS(scrapeTimeout(intervalS)),
      m_partPath(partPath), m_secrets(std::move(secrets))
{
}

MetricsScraper::~MetricsScraper()
{
    if (m_thread) {
        m_abort = true;
        {
            std::lock_guard lock(m_mutex);
            m_stopRequested = true;
            m_stopAtNs = 0;
        }
        m_wake.notify_all();
        m_thread->wait();
    }
    if (!m_partPath.isEmpty())
        QFile::remove(m_partPath);
}

void MetricsScraper::start()
{
    m_file.open(m_partPath); // a failure is kept in m_file and reported by publish()
    m_thread.reset(QThread::create([this] { run(); }));
    m_thread->setObjectName(QStringLiteral("sb-metrics-scraper"));
    m_thread->start();
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [this] { return m_baselineDone; });
}

void MetricsScraper::setWindowOpen(bool open)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_windowOpen == open && !m_held)
            return;
        m_windowOpen = open;
        m_held = false;
        ++m_windowChanges;
    }
    m_wake.notify_all();
}

void MetricsScraper::holdScrapes()
{
    std::unique_lock lock(m_mutex);
    if (!m_thread)
        return;
    m_held = true;
    ++m_windowChanges;
    m_wake.notify_all();
    m_wake.wait(lock, [this] { return !m_scraping; });
}

void MetricsScraper::stop(double tailS)
{
    if (!m_thread)
        return;
    {
        std::lock_guard lock(m_mutex);
        m_stopRequested = true;
        m_stopAtNs = steadyNowNs() + std::int64_t(tailS * 1e9);
    }
    m_wake.notify_all();
    m_thread->wait();
    m_thread.reset();
}

void MetricsScraper::run()
{
    bool inWindow = false;
    {
        std::lock_guard lock(m_mutex);
        inWindow = m_windowOpen;
    }
    scrapeAll(inWindow);
    {
        std::lock_guard lock(m_mutex);
        m_baselineDone = true;
    }
    m_wake.notify_all();
    constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
    // The next scrape's time under the schedule in force: a window with no scrapes has none.
    const auto plan = [this](std::int64_t from) {
        if (m_held)
            return kNever;
        const double interval = m_windowOpen ? m_windowIntervalS : m_intervalS;
        return interval > 0 ? from + std::int64_t(interval * 1e9) : kNever;
    };
    std::int64_t next = kNever;
    // The window changes `next` was planned for: a change made while this thread was between
    // two waits is still seen, so neither an open window nor a released hold is missed.
    std::uint64_t planned = 0;
    {
        std::lock_guard lock(m_mutex);
        next = plan(steadyNowNs());
        planned = m_windowChanges;
    }
    for (;;) {
        std::unique_lock lock(m_mutex);
        const auto stopDue = [&] { return m_stopRequested && (m_abort || steadyNowNs() >= m_stopAtNs || m_stopAtNs < next); };
        const auto woken = [&] { return stopDue() || m_windowChanges != planned; };
        // Sleep until the next scrape, a window opening or closing, or the end of the tail once
        // a stop is asked for.
        if (next == kNever)
            m_wake.wait(lock, woken);
        else
            m_wake.wait_until(lock, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(next)), woken);
        if (stopDue()) {
            const std::int64_t stopAt = m_stopAtNs;
            inWindow = m_windowOpen;
            lock.unlock();
            // The last scrape comes after the tail, so every measured request's counters are in.
            while (!m_abort && steadyNowNs() < stopAt)
                std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<std::int64_t>(stopAt - steadyNowNs(), 50'000'000)));
            if (!m_abort)
                scrapeAll(inWindow);
            return;
        }
        if (m_windowChanges != planned) { // a window opened or closed, or a hold: a new schedule from now
            planned = m_windowChanges;
            next = plan(steadyNowNs());
            continue;
        }
        inWindow = m_windowOpen;
        m_scraping = true;
        lock.unlock();
        scrapeAll(inWindow);
        // A slow scrape does not make the next ones bunch up: skip the slots it overran.
        lock.lock();
        m_scraping = false;
        m_wake.notify_all(); // holdScrapes() waits for this
        const std::int64_t now = steadyNowNs();
        next = plan(next);
        if (next < now)
            next = plan(now);
    }
}

void MetricsScraper::scrapeAll(bool inWindow)
{
    for (int i = 0; i < m_targets.size(); ++i)
        if (!m_dropped[std::size_t(i)] && !m_abort)
            scrapeOne(i, inWindow);
}

void MetricsScraper::scrapeOne(int index, bool inWindow)
{
    const ScrapeTarget &t = m_targets[index];
    const MetricsLimits limits;
    ControlClient client;
    const ControlResponse r = client.call("GET", t.url, t.headers, std::nullopt, m_timeoutS, &m_abort, limits.maxBodyBytes);
    ScrapePoint p;
    p.origin = t.origin;
    p.steadyNs = steadyNowNs();
    p.latencyMs = r.latencyMs;
    p.status = r.status;
    p.inWindow = inWindow;
    MetricsScrape all;
    if (!r.complete())
        p.error = r.transportError;
    else if (r.status != 200)
        p.error = QStringLiteral("HTTP %1").arg(r.status);
    else if (QString why; !parseMetricsAnswer(r.body, &all, &why, limits))
        p.error = why;
    const bool first = m_points.end() == std::find_if(m_points.begin(), m_points.end(), [&](const ScrapePoint &q) {
                           return q.origin == t.origin && q.error.isEmpty();
                       });
    if (!p.error.isEmpty() && first && !r.timedOut && !r.cancelled) {
        // The endpoint answered, but not with metrics: no use asking again (one warning per server).
        m_dropped[std::size_t(index)] = true;
        m_missing.append({t.origin, p.error.left(300)});
        return;
    }
    if (!p.error.isEmpty() && ++m_failed == 1)
        m_firstFailure = p.error.left(300);

    QJsonObject line{{QStringLiteral("origin"), t.origin},
                     {QStringLiteral("latency_ms"), p.latencyMs}};
    if (inWindow)
        line.insert(QStringLiteral("in_profiler_window"), true);
    if (!p.error.isEmpty()) {
        line.insert(QStringLiteral("error"), p.error.left(300));
    } else {
        if (!m_typesWritten[std::size_t(index)]) { // a family's type once per origin and file
            QJsonObject types;
            for (const auto &[name, f] : all.families)
                types.insert(QString::fromUtf8(name), QLatin1String(metricTypeName(f.type)));
            line.insert(QStringLiteral("types"), types);
            m_typesWritten[std::size_t(index)] = true;
        }
        QJsonObject samples;
        for (const MetricSample &s : all.samples)
            samples.insert(QString::fromUtf8(seriesKey(s)), jsonNumber(s.value));
        line.insert(QStringLiteral("samples"), samples);
        if (all.badLines > 0)
            line.insert(QStringLiteral("bad_lines"), all.badLines);
        if (all.truncated)
            line.insert(QStringLiteral("truncated"), true);
        p.keySamples.families = all.families;
        p.keySamples.json = all.json;
        for (MetricSample &s : all.samples) {
            if (m_maxKept >= 0 && p.keySamples.samples.size() >= std::size_t(m_maxKept))
                break;
            if (m_keep ? m_keep(all, s) : isKeySample(all, s))
                p.keySamples.samples.push_back(std::move(s));
        }
    }
    // t_ns leads the line (QJsonObject sorts its keys) and is the steady clock here; publish()
    // rewrites it relative to the phase start, which is known only once the phase has run.
    QByteArray text = QJsonDocument(line).toJson(QJsonDocument::Compact).mid(1);
    // The whole line: series names and label values are the server's text, and a series named
    // after the key has its '-' turned into '_' (the matcher folds them).
    if (m_secrets && !m_secrets->isEmpty())
        text = m_secrets->scrub(text);
    if (m_file.ok())
        m_file.write("{\"t_ns\":" + QByteArray::number(p.steadyNs) + ',' + text + '\n');
    if (m_onScrape && p.error.isEmpty())
        m_onScrape(p);
    m_points.push_back(std::move(p));
}

bool MetricsScraper::publish(std::int64_t phaseStartNs, const QString &finalPath, QString *error)
{
    if (!m_file.ok() || !m_file.finish()) {
        *error = m_file.error();
        QFile::remove(m_partPath);
        return false;
    }
    QFile in(m_partPath);
    if (!in.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(m_partPath, in.errorString());
        return false;
    }
    const QString tmp = finalPath + QStringLiteral(".tmp");
    CheckedFile out;
    out.open(tmp);
    LineReader reader(in, kMaxSeriesLineBytes);
    QByteArray lineView;
    static const QByteArray kLead("{\"t_ns\":");
    while (out.ok() && reader.next(&lineView)) {
        // Rewrites the leading "t_ns" (this writer's own lines) relative to the phase start.
        QByteArray line(lineView);
        if (line.startsWith(kLead)) {
            const qsizetype comma = line.indexOf(',', kLead.size());
            bool ok = false;
            const qint64 abs = line.mid(kLead.size(), comma - kLead.size()).toLongLong(&ok);
            if (ok && comma > 0)
                line = kLead + QByteArray::number(abs - phaseStartNs) + line.mid(comma);
        }
        out.write(line + '\n');
    }
    in.close();
    QFile::remove(m_partPath);
    if (!out.ok() || !out.finish() || !publishFile(tmp, finalPath, error)) {
        if (error->isEmpty())
            *error = out.error();
        QFile::remove(tmp);
        return false;
    }
    return true;
}

} // namespace sb
