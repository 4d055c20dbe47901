// Statistics over repeats (metrics/RepeatStats.h, results/PointSummary.h): Student t quantiles
// against the printed table, the 95 % CI of known samples, a CI that narrows as runs are added,
// Welch's test on a worked example, and the per-point summary and comparison of a result set.
#include "TestSupport.h"
#include "results/RepeatStats.h"
#include "report/RepeatSummary.h"
#include "results/PointSummary.h"
#include <QTest>
#include <cmath>

using namespace sb;

namespace {
CellResult cell(int index, const QString &server, int c, int repeat, double ttftP99)
{
    CellResult r;
    r.index = index;
    r.server = server;
    r.concurrency = c;
    r.repeat = repeat;
    r.status = CellStatus::Completed;
    MetricStats s;
    s.unit = QStringLiteral("ms");
    s.count = 10;
    s.avg = s.p50 = s.p90 = ttftP99 / 2;
    s.p99 = ttftP99;
    r.metrics.insert(QStringLiteral("time_to_first_token"), s);
    return r;
}
} // namespace

class TstRepeatStats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void studentQuantilesMatchTheTable_data()
    {
        QTest::addColumn<double>("df");
        QTest::addColumn<double>("t975");
        // Two-sided 95 % critical values of Student's t, as printed in every statistics table.
        QTest::newRow("1") << 1.0 << 12.706;
        QTest::newRow("2") << 2.0 << 4.303;
        QTest::newRow("4") << 4.0 << 2.776;
        QTest::newRow("10") << 10.0 << 2.228;
        QTest::newRow("30") << 30.0 << 2.042;
        QTest::newRow("1000") << 1000.0 << 1.962;
    }

    void studentQuantilesMatchTheTable()
    {
        QFETCH(double, df);
        QFETCH(double, t975);
        QVERIFY2(std::abs(studentT975(df) - t975) < 0.0006, qPrintable(QString::number(studentT975(df), 'f', 5)));
        QVERIFY(std::abs(studentTCdf(t975, df) - 0.975) < 1e-4);
        QCOMPARE(studentTCdf(0, df), 0.5);
        QVERIFY(std::abs(studentTCdf(-t975, df) - 0.025) < 1e-4);
    }

    void confidenceIntervalOfAKnownSample()
    {
        const MeanCi ci = meanCi95({1, 2, 3, 4, 5});
        QCOMPARE(ci.n, 5);
        QCOMPARE(ci.mean, 3.0);
        QVERIFY(std::abs(ci.sd - std::sqrt(2.5)) < 1e-12);
        QVERIFY(std::abs(ci.halfWidth - 2.7764 * std::sqrt(2.5) / std::sqrt(5.0)) < 1e-3);
        QVERIFY(std::isnan(meanCi95({7}).halfWidth)); // one run: no interval
        QCOMPARE(meanCi95({7}).mean, 7.0);
    }

    void intervalNarrowsWithMoreRuns()
    {
        // A fixed, noisy series (period 13): the spread per run stays, so the interval must
        // narrow as 1/sqrt(N) (and the t quantile falls) as runs are added.
        std::vector<double> runs;
        for (int i = 0; i < 40; ++i)
            runs.push_back(100 + double((i * 7919) % 13) - 6);
        double previous = std::numeric_limits<double>::infinity();
        for (int n : {3, 5, 10, 20, 40}) {
            const MeanCi ci = meanCi95(std::vector<double>(runs.begin(), runs.begin() + n));
            QVERIFY2(ci.halfWidth < previous, qPrintable(QStringLiteral("N=%1: ±%2 after ±%3").arg(n).arg(ci.halfWidth).arg(previous)));
            previous = ci.halfWidth;
        }
    }

    void welchWorkedExample()
    {
        // Means 3 and 8, each variance of the mean 0.5: t = -5, Welch df = 8, two-sided p = 0.00105.
        const WelchResult w = welchTest({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
        QVERIFY(std::abs(w.t + 5) < 1e-12);
        QVERIFY(std::abs(w.df - 8) < 1e-12);
        QVERIFY2(w.p > 0.00100 && w.p < 0.00110, qPrintable(QString::number(w.p)));
        QVERIFY(w.significant());
        const WelchResult same = welchTest({1, 2, 3}, {1, 2, 3});
        QCOMPARE(same.p, 1.0);
        QVERIFY(!same.significant());
        QCOMPARE(welchTest({4, 4}, {5, 5}).p, 0.0); // no noise at all: any difference is real
        QVERIFY(std::isnan(welchTest({1}, {1, 2}).p)); // one run: nothing to test
        // Overlapping noisy samples: not significant.
        QVERIFY(!welchTest({10, 12, 11, 13}, {11, 12, 10, 13}).significant());
    }

    void pointsOfAResultSet()
    {
        SweepResults r;
        int i = 0;
        for (double v : {60.0, 61.0, 62.0})
            r.cells.append(cell(i++, QStringLiteral("a"), 8, int(r.cells.size()) % 3, v));
        for (double v : {80.0, 82.0, 81.0})
            r.cells.append(cell(i++, QStringLiteral("b"), 8, (int(r.cells.size()) - 3) % 3, v));
        CellResult failed = cell(i++, QStringLiteral("b"), 8, 3, 500);
        failed.status = CellStatus::Failed; // not a run: no measurements
        r.cells.append(failed);
        r.cells.append(cell(i++, QStringLiteral("a"), 16, 0, 90)); // one run only
        const QList<PointSummary> points = summarizePoints(r);
        QCOMPARE(points.size(), 3);
        QVERIFY(hasRepeats(points));
        QCOMPARE(points[0].runs(), 3);
        QCOMPARE(points[1].runs(), 3);
        QCOMPARE(points[2].runs(), 1);
        const MeanCi a = points[0].stats.value(QStringLiteral("time_to_first_token.p99"));
        QCOMPARE(a.mean, 61.0);
        QVERIFY(std::abs(a.halfWidth - 4.3027 * 1.0 / std::sqrt(3.0)) < 1e-3);
        const QList<PointComparison> pairs = comparePoints(points, QStringLiteral("time_to_first_token.p99"));
        QCOMPARE(pairs.size(), 1); // C=16 has one server and one run
        QVERIFY(pairs[0].welch.significant());
        const QJsonArray json = pointsJson(points);
        QCOMPARE(json[0].toObject().value("concurrency").toDouble(), 8.0);
        QCOMPARE(json[0].toObject().value("runs").toInt(), 3);
        const QJsonObject p99 = json[0].toObject().value("metrics").toObject().value("time_to_first_token").toObject().value("p99").toObject();
        QCOMPARE(p99.value("mean").toDouble(), 61.0);
        QVERIFY(p99.value("ci95_low").toDouble() < 61 && p99.value("ci95_high").toDouble() > 61);
        // results.json carries the points only when something repeated.
        QVERIFY(toJson(r).contains("points"));
        SweepResults single;
        single.cells.append(cell(0, QStringLiteral("a"), 8, 0, 60));
        QVERIFY(!toJson(single).contains("points"));
        // The summary text names the difference.
        const QString text = formatRepeatSummary(r);
        QVERIFY2(text.contains(QStringLiteral("8: a 61.00 ms vs b 81.00 ms: differ significantly")), qPrintable(text));
        QVERIFY(formatRepeatSummary(single).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstRepeatStats)
#include "tst_repeat_stats.moc"
