#include "report/RegressionGate.h"
#include "load/CellRecords.h"
#include "report/RepeatSummary.h"
#include "report/SetComparison.h"
#include "results/CellStatus.h"
#include "results/RankTests.h"
#include "results/SpecFingerprint.h"
#include <QDir>
#include <QHash>
#include <QMap>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>

namespace sb {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool gateable(const MetricInfo &m) { return m.better != Better::Neither; }

// The per-request values records.jsonl holds for a metric; null for metrics that have none
// (throughputs and fractions are one value per run).
QList<double> CellRecordSamples::*requestValues(const QString &metric)
{
    if (metric == tag::ttft)
        return &CellRecordSamples::ttftMs;
    if (metric == tag::itl)
        return &CellRecordSamples::itlMs;
    if (metric == tag::latency)
        return &CellRecordSamples::latencyMs;
    return nullptr;
}

// Pools a metric's per-request values over the given runs of one side, reading each cell's
// records once per point (the cache lives as long as one point is being tested).
class PointRecords
{
public:
    explicit PointRecords(const LoadedResults &set) : m_set(set) {}
    // False with *why set when a run has no readable records.
    bool pool(const QList<int> &cells, const QString &metric, std::vector<double> *out, QString *why)
    {
        for (int index : cells) {
            const CellRecordSamples *s = samples(index, why);
            if (!s)
                return false;
            for (double v : s->*requestValues(metric))
                out->push_back(v);
        }
        return true;
    }

private:
    const CellRecordSamples *samples(int index, QString *why)
    {
        auto it = m_cache.find(index);
        if (it == m_cache.end()) {
            const CellResult &c = m_set.results.cells.at(index);
            CellRecordSamples s;
            if (c.recordsPath.isEmpty() || m_set.folder.isEmpty())
                s.error = QStringLiteral("no per-request records");
            else
                s = readCellRecords(QDir(m_set.folder).filePath(c.recordsPath));
            it = m_cache.insert(index, s);
        }
        if (!it->error.isEmpty()) {
            *why = it->error;
            return nullptr;
        }
        return &*it;
    }
    const LoadedResults &m_set;
    QHash<int, CellRecordSamples> m_cache;
};

QString seriesOf(const DifferenceRow &row)
{
    return row.serverA == row.serverB ? row.serverA : QStringLiteral("%1 / %2").arg(row.serverA, row.serverB);
}

bool worseThan(const GateComparison &c, double thresholdPct)
{
    if (!std::isfinite(c.deltaPct))
        return false;
    return c.metric.metric->better == Better::Lower ? c.deltaPct > thresholdPct : c.deltaPct < -thresholdPct;
}

// Points a server measured (any metric), on the set's axis.
QSet<double> measuredPoints(const SweepResults &r, const QString &server)
{
    QSet<double> out;
    for (const CellResult &c : r.cells)
        if (c.server == server && hasMeasurements(c.status) && axisOf(c) == axisOf(r))
            out.insert(pointValue(c));
    return out;
}

QString pointList(SweepAxis axis, const QSet<double> &points)
{
    QList<double> sorted(points.begin(), points.end());
    std::sort(sorted.begin(), sorted.end());
    QStringList words;
    for (double p : sorted)
        words.append(formatPoint(axis, p));
    return words.isEmpty() ? QStringLiteral("none") : words.join(QStringLiteral(", "));
}

// Why two sets gave no comparison at all: no series in common, or no point in common.
QString nothingInCommon(const GateResult &r, const SweepResults &base, const SweepResults &candidate)
{
    const QStringList a = base.serverNames(), b = candidate.serverNames();
    QStringList common;
    for (const QString &s : a)
        if (b.contains(s))
            common.append(s);
    if (common.isEmpty() && !(a.size() == 1 && b.size() == 1))
        return QStringLiteral("no series in common: %1 has %2; %3 has %4")
            .arg(r.baseName, a.isEmpty() ? QStringLiteral("no servers") : a.join(QStringLiteral(", ")), r.newName,
                 b.isEmpty() ? QStringLiteral("no servers") : b.join(QStringLiteral(", ")));
    const QString serverA = common.isEmpty() ? a.first() : common.first();
    const QString serverB = common.isEmpty() ? b.first() : common.first();
    const SweepAxis axis = axisOf(base);
    return QStringLiteral("no common points: %1 measured %2 at %3; %4 measured %5 at %6 (only measured cells count)")
        .arg(r.baseName, serverA, pointList(axis, measuredPoints(base, serverA)), r.newName, serverB,
             pointList(axis, measuredPoints(candidate, serverB)));
}

// Mann–Whitney for the comparisons Welch could not test, one point at a time so that only that
// point's records are in memory.
void testRequestDistributions(QList<GateComparison> &comparisons, const QList<DifferenceRow> &rows,
                              const LoadedResults &base, const LoadedResults &candidate)
{
    QMap<std::pair<QString, double>, QList<int>> byPoint;
    for (int i = 0; i < comparisons.size(); ++i)
        if (comparisons[i].test == GateTest::None && comparisons[i].untested.isEmpty())
            byPoint[{comparisons[i].series, comparisons[i].point}].append(i);
    for (const QList<int> &group : std::as_const(byPoint)) {
        PointRecords a(base), b(candidate);
        for (int i : group) {
            GateComparison &c = comparisons[i];
            const QString &metric = c.metric.metric->key;
            std::vector<double> va, vb;
            QString why;
            if (!a.pool(rows[i].cellsA, metric, &va, &why) || !b.pool(rows[i].cellsB, metric, &vb, &why)) {
                c.untested = QStringLiteral("%1: %2").arg(notTestableText(c.base.n, c.candidate.n), why);
                continue;
            }
            if (va.empty() || vb.empty()) {
                c.untested = QStringLiteral("%1: no per-request values").arg(notTestableText(c.base.n, c.candidate.n));
                continue;
            }
            const MannWhitneyResult mw = mannWhitneyU(va, vb);
            c.test = GateTest::MannWhitney;
            c.p = mw.p;
            c.samplesBase = int(va.size());
            c.samplesNew = int(vb.size());
        }
    }
}
} // namespace

QString GateMetric::key() const
{
    return metric->singleValued ? metric->key : metric->key + QLatin1Char('.') + statName(stat);
}

QString GateMetric::title() const
{
    return metricColumnTitle(*metric, stat, true);
}

QStringList gateMetricKeys()
{
    QStringList keys;
    for (const MetricInfo &m : allMetrics())
        if (gateable(m))
            keys.append(m.key);
    return keys;
}

std::optional<GateMetric> parseGateMetric(const QString &text, QString *error)
{
    const QString key = text.section(QLatin1Char('.'), 0, 0).trimmed();
    const QString stat = text.contains(QLatin1Char('.')) ? text.section(QLatin1Char('.'), 1).trimmed() : QString();
    const MetricInfo *m = findMetric(key);
    if (!m || !gateable(*m)) {
        *error = QStringLiteral("unknown metric '%1'%2; valid: %3 (optionally .STAT, e.g. %4.p99)")
                     .arg(text, m ? QStringLiteral(" (it has no better direction)") : QString(),
                          gateMetricKeys().join(QStringLiteral(", ")), tag::ttft);
        return std::nullopt;
    }
    const QList<Stat> stats = metricStats(*m);
    const std::optional<Stat> named = stat.isEmpty() ? std::optional<Stat>(stats.contains(Stat::P50) ? Stat::P50 : stats.first())
                                                     : statFromName(stat);
    if (!named || !stats.contains(*named)) {
        QStringList valid;
        for (const Stat s : stats)
            valid.append(statName(s));
        *error = QStringLiteral("metric '%1' has no stat '%2'; valid: %3").arg(key, stat, valid.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    return GateMetric{m, *named};
}

QList<GateMetric> defaultGateMetrics()
{
    const auto metric = [](const QString &key, Stat stat) { return GateMetric{findMetric(key), stat}; };
    return {metric(tag::outputThroughput, Stat::Avg), metric(tag::ttft, Stat::P50), metric(tag::ttft, Stat::P99),
            metric(tag::itl, Stat::P50), metric(tag::latency, Stat::P99)};
}

int GateResult::regressions() const
{
    return int(std::count_if(comparisons.begin(), comparisons.end(), [](const GateComparison &c) { return c.regression(); }));
}

int GateResult::tested() const
{
    return int(std::count_if(comparisons.begin(), comparisons.end(), [](const GateComparison &c) { return c.test != GateTest::None; }));
}

GateResult cannotCompare(const QString &baseName, const QString &newName, const GateOptions &options, const QString &reason)
{
    GateResult r;
    r.verdict = GateVerdict::CannotCompare;
    r.reason = reason;
    r.baseName = baseName;
    r.newName = newName;
    r.options = options;
    return r;
}

GateResult compareForRegressions(const LoadedResults &base, const LoadedResults &candidate, const GateOptions &options)
{
    GateResult r;
    r.baseName = base.displayName;
    r.newName = candidate.displayName;
    r.options = options;
    const SweepResults &ra = base.results, &rb = candidate.results;

    // The same workload, or the numbers mean different things (servers may differ: they are
    // what is being compared).
    if (hasWorkload(ra.specFingerprint) && hasWorkload(rb.specFingerprint)) {
        const QStringList differences = workloadDifferences(ra.specFingerprint, rb.specFingerprint);
        if (!differences.isEmpty())
            return cannotCompare(r.baseName, r.newName, options,
                                 QStringLiteral("different workloads: ") + differences.join(QStringLiteral("; ")));
    } else {
        for (const LoadedResults *set : {&base, &candidate})
            if (!hasWorkload(set->results.specFingerprint))
                r.notes.append(QStringLiteral("workloads not checked: %1 carries no spec fingerprint (%2 results)")
                                   .arg(set->displayName, set->results.sourceTool));
    }
    // Servers that differ in version or flags: said, since a regression may be theirs.
    if (const QString servers = serverDifferenceSentence(ra, rb, r.baseName, r.newName); !servers.isEmpty())
        r.notes.append(servers);
    if (axisOf(ra) != axisOf(rb))
        return cannotCompare(r.baseName, r.newName, options,
                             QStringLiteral("%1 sweeps %2, %3 sweeps %4: a concurrency is not a request rate")
                                 .arg(r.baseName, axisTitle(axisOf(ra)), r.newName, axisTitle(axisOf(rb))));

    const QList<NamedResults> sets{{QString(), ra}, {QString(), rb}};
    struct Row {
        DifferenceRow row;
        int metric;
    };
    QList<Row> found;
    for (int m = 0; m < options.metrics.size(); ++m) {
        const GateMetric &metric = options.metrics[m];
        const QList<DifferenceRow> metricRows = compareSets(sets, metric.metric->key, metric.stat);
        if (metricRows.isEmpty())
            r.notes.append(QStringLiteral("%1: no point has a value on both sides").arg(metric.title()));
        for (const DifferenceRow &row : metricRows)
            found.append({row, m});
    }
    if (found.isEmpty())
        return cannotCompare(r.baseName, r.newName, options, nothingInCommon(r, ra, rb));
    // Series in BASE's order, then point, then the metrics in the order asked for.
    const QStringList order = ra.serverNames();
    std::stable_sort(found.begin(), found.end(), [&](const Row &x, const Row &y) {
        const int sx = order.indexOf(x.row.serverA), sy = order.indexOf(y.row.serverA);
        if (sx != sy)
            return sx < sy;
        if (x.row.point != y.row.point)
            return x.row.point < y.row.point;
        return x.metric < y.metric;
    });

    QList<DifferenceRow> rows;
    for (const Row &f : std::as_const(found)) {
        GateComparison c;
        c.series = seriesOf(f.row);
        c.axis = f.row.axis;
        c.point = f.row.point;
        c.metric = options.metrics[f.metric];
        c.base = f.row.a;
        c.candidate = f.row.b;
        c.deltaPct = f.row.deltaPct;
        c.p = c.adjustedP = kNaN;
        if (f.row.welch) {
            c.test = GateTest::Welch;
            c.p = f.row.welch->p;
        } else if (!requestValues(c.metric.metric->key)) {
            c.untested = notTestableText(c.base.n, c.candidate.n);
        }
        c.worse = worseThan(c, options.thresholdPct);
        r.comparisons.append(c);
        rows.append(f.row);
    }
    testRequestDistributions(r.comparisons, rows, base, candidate);

    // Holm over every test made, so many metrics at many points do not make noise a finding.
    std::vector<double> p;
    for (const GateComparison &c : std::as_const(r.comparisons))
        p.push_back(c.test == GateTest::None ? kNaN : c.p);
    const std::vector<double> adjusted = holmAdjusted(p);
    for (int i = 0; i < r.comparisons.size(); ++i) {
        GateComparison &c = r.comparisons[i];
        c.adjustedP = adjusted[std::size_t(i)];
        c.significant = c.test != GateTest::None && c.adjustedP < options.alpha;
    }
    r.verdict = r.regressions() > 0 ? GateVerdict::Regression : GateVerdict::Pass;

    // A point one side measured and the other did not is not compared: say so.
    QSet<QString> pairsSeen;
    for (const DifferenceRow &row : std::as_const(rows)) {
        if (pairsSeen.contains(seriesOf(row)))
            continue;
        pairsSeen.insert(seriesOf(row));
        const QSet<double> pa = measuredPoints(ra, row.serverA), pb = measuredPoints(rb, row.serverB);
        if (const QSet<double> only = QSet<double>(pa).subtract(pb); !only.isEmpty())
            r.notes.append(QStringLiteral("%1: %2 measured only in %3 (not compared)").arg(seriesOf(row), pointList(row.axis, only), r.baseName));
        if (const QSet<double> only = QSet<double>(pb).subtract(pa); !only.isEmpty())
            r.notes.append(QStringLiteral("%1: %2 measured only in %3 (not compared)").arg(seriesOf(row), pointList(row.axis, only), r.newName));
    }
    for (const QString &server : ra.serverNames())
        if (!std::any_of(rows.begin(), rows.end(), [&](const DifferenceRow &row) { return row.serverA == server; }))
            r.notes.append(QStringLiteral("%1: only in %2 (not compared)").arg(server, r.baseName));
    for (const QString &server : rb.serverNames())
        if (!std::any_of(rows.begin(), rows.end(), [&](const DifferenceRow &row) { return row.serverB == server; }))
            r.notes.append(QStringLiteral("%1: only in %2 (not compared)").arg(server, r.newName));
    return r;
}

QString gateTestName(GateTest test)
{
    switch (test) {
    case GateTest::Welch:
        return QStringLiteral("Welch");
    case GateTest::MannWhitney:
        return QStringLiteral("Mann–Whitney");
    case GateTest::None:
        break;
    }
    return QStringLiteral("–");
}

QString gateSignificanceText(const GateComparison &c)
{
    if (c.test == GateTest::None)
        return c.untested;
    return significanceVerdictText(c.significant, c.adjustedP);
}

QString gateVerdictText(const GateComparison &c)
{
    if (c.regression())
        return QStringLiteral("regression");
    if (c.worse)
        return c.test == GateTest::None ? QStringLiteral("worse, not testable") : QStringLiteral("worse, not significant");
    return QStringLiteral("ok");
}

QString gatePointText(const GateComparison &c)
{
    return c.axis == SweepAxis::Concurrency ? QStringLiteral("C=") + formatPoint(c.axis, c.point) : formatPoint(c.axis, c.point);
}

QString gateValueText(const GateComparison &c, double value)
{
    return std::isfinite(value) ? QString::number(value, 'f', c.metric.metric->decimals) : QStringLiteral("–");
}

QString gateFindingText(const GateComparison &c)
{
    const QString test = c.test == GateTest::None ? c.untested
                                                   : QStringLiteral("p %1, %2, Holm-adjusted").arg(pValueText(c.adjustedP), gateTestName(c.test));
    return QStringLiteral("%1, %2, %3: %4 → %5 (%6, %7)")
        .arg(c.series, gatePointText(c), c.metric.title(), gateValueText(c, c.base.mean), gateValueText(c, c.candidate.mean),
             deltaText(c.deltaPct), test);
}

QString gateSummaryText(const GateResult &r)
{
    if (r.verdict == GateVerdict::CannotCompare)
        return QStringLiteral("cannot compare: ") + r.reason;
    const int n = r.regressions();
    const QString head = n == 0 ? QStringLiteral("no regression") : QStringLiteral("%1 regression%2").arg(n).arg(n == 1 ? "" : "s");
    return QStringLiteral("%1 in %2 comparisons (worse than %3 % and significant at α = %4 after Holm's correction over %5 tests)")
        .arg(head)
        .arg(r.comparisons.size())
        .arg(QString::number(r.options.thresholdPct))
        .arg(QString::number(r.options.alpha))
        .arg(r.tested());
}

} // namespace sb
