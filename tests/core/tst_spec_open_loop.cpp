// sweep.request_rate and its companions (docs/spec-reference.md "Open-loop sweeps"): loaded,
// validated with located errors, written back and read again unchanged.
#include "TestSupport.h"
#include "tst_spec_helpers.h"
#include <QTest>

using namespace sb;
using spectest::expectDiag;

namespace {
QByteArray withSweep(const char *sweep)
{
    return QByteArray("servers:\n  - name: a\n    url: http://localhost:8000\n    model: m\nsweep:\n") + sweep;
}
} // namespace

class TstSpecOpenLoop : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void loadsEveryKey()
    {
        const SpecLoadResult r = loadSpecText(withSweep("  request_rate: [2, 8.5, 32]\n  arrival: gamma\n  burstiness: 0.5\n"
                                                        "  seed: 7\n  max_concurrency: 64\n  rate_mean: exact\n"),
                                              QStringLiteral("s.yaml"));
        QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
        const OpenLoopSpec &o = r.spec->openLoop;
        QVERIFY(o.active());
        QCOMPARE(o.rates, (QList<double>{2, 8.5, 32}));
        SPEC_COMPARE_ENUM(o.arrival, Arrival::Gamma);
        QCOMPARE(o.burstiness, 0.5);
        QCOMPARE(o.seed, 7);
        QCOMPARE(o.maxConcurrency, 64);
        SPEC_COMPARE_ENUM(o.rateMean, RateMean::Exact);
        QVERIFY(r.spec->concurrency.isEmpty());
        QCOMPARE(r.spec->pointCount(), 3);
    }

    void defaults()
    {
        const SpecLoadResult r = loadSpecText(withSweep("  request_rate: [4]\n"), QStringLiteral("s.yaml"));
        QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
        SPEC_COMPARE_ENUM(r.spec->openLoop.arrival, Arrival::Poisson);
        QCOMPARE(r.spec->openLoop.burstiness, 1.0);
        QCOMPARE(r.spec->openLoop.seed, 0);
        QCOMPARE(r.spec->openLoop.maxConcurrency, 256);
        SPEC_COMPARE_ENUM(r.spec->openLoop.rateMean, RateMean::Sampled);
    }

    void located_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        // servers take lines 1-4, sweep: is line 5
        QTest::newRow("both axes") << withSweep("  concurrency: [1, 2]\n  request_rate: [2]\n") << "sweep.request_rate" << 7 << 3
                                   << "either concurrency (closed loop) or request_rate (open loop), not both";
        QTest::newRow("neither axis") << withSweep("  on_hook_failure: abort\n") << "sweep.concurrency" << 5 << 1
                                      << "or request_rate: a list of request rates";
        QTest::newRow("rate not a list") << withSweep("  request_rate: 8\n") << "sweep.request_rate" << 6 << 17
                                         << "expected a list of request rates in requests/s";
        QTest::newRow("rate zero") << withSweep("  request_rate: [2, 0]\n") << "sweep.request_rate[1]" << 6 << 21
                                   << "expected a number of requests per second > 0";
        QTest::newRow("rate text") << withSweep("  request_rate: [fast]\n") << "sweep.request_rate[0]" << 6 << 18
                                   << "expected a number of requests per second";
        QTest::newRow("rate duplicate") << withSweep("  request_rate: [2, 2]\n") << "sweep.request_rate[1]" << 6 << 21
                                        << "duplicate request rate 2 (also at index 0)";
        QTest::newRow("arrival unknown") << withSweep("  request_rate: [2]\n  arrival: bursty\n") << "sweep.arrival" << 7 << 12
                                         << "expected one of constant, poisson, gamma";
        QTest::newRow("trace without a dataset") << withSweep("  request_rate: [2]\n  arrival: trace\n") << "sweep.arrival" << 7 << 12
                                                 << "trace replays the timestamps of workload.dataset";
        QTest::newRow("burstiness without gamma") << withSweep("  request_rate: [2]\n  burstiness: 0.5\n") << "sweep.burstiness" << 7 << 15
                                                  << "only used with arrival: gamma";
        QTest::newRow("burstiness zero") << withSweep("  request_rate: [2]\n  arrival: gamma\n  burstiness: 0\n") << "sweep.burstiness" << 8 << 15
                                         << "expected a number from 0.01 to 100";
        QTest::newRow("rate_mean unknown") << withSweep("  request_rate: [2]\n  rate_mean: always\n") << "sweep.rate_mean" << 7 << 14
                                           << "expected one of sampled, exact";
        QTest::newRow("rate_mean with constant arrivals") << withSweep("  request_rate: [2]\n  arrival: constant\n  rate_mean: exact\n")
                                                          << "sweep.rate_mean" << 8 << 14 << "only used with arrival: poisson or gamma";
        QTest::newRow("rate_mean in a closed-loop sweep") << withSweep("  concurrency: [1]\n  rate_mean: exact\n") << "sweep.rate_mean" << 7 << 3
                                                          << "only allowed with request_rate";
        QTest::newRow("cap zero") << withSweep("  request_rate: [2]\n  max_concurrency: 0\n") << "sweep.max_concurrency" << 7 << 20
                                  << "expected an integer from 1 to";
        QTest::newRow("seed negative") << withSweep("  request_rate: [2]\n  seed: -1\n") << "sweep.seed" << 7 << 9 << "expected an integer ≥ 0";
        QTest::newRow("repeats zero") << withSweep("  concurrency: [1]\n  repeats: 0\n") << "sweep.repeats" << 7 << 12
                                      << "expected an integer from 1 to 100";
        QTest::newRow("slo search without slo") << withSweep("  concurrency: [1]\n  slo_search: {percentile: 99}\n") << "sweep.slo_search" << 7 << 3
                                                << "needs at least one SLO in workload.slo";
        QTest::newRow("slo search percentile") << withSweep("  concurrency: [1]\n  slo_search: {percentile: 98}\n") << "sweep.slo_search.percentile" << 7 << 28
                                               << "expected one of 50, 75, 90, 95, 99";
        QTest::newRow("open-loop key in a closed-loop sweep") << withSweep("  concurrency: [1]\n  arrival: poisson\n") << "sweep.arrival" << 7 << 3
                                                              << "only allowed with request_rate";
    }

    void located()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, keyPath);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, text);
        const SpecLoadResult r = loadSpecText(yaml, QStringLiteral("s.yaml"));
        QVERIFY(!r.ok());
        const QString problem = expectDiag(r, keyPath, line, column, text);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void writtenAndReadBack()
    {
        const SpecLoadResult r = loadSpecText(withSweep("  request_rate: [0.5, 16]\n  arrival: gamma\n  burstiness: 2\n  seed: 3\n  max_concurrency: 8\n  rate_mean: exact\n"),
                                              QStringLiteral("s.yaml"));
        QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
        const QByteArray text = saveSpecYaml(*r.spec, SecretPolicy::Strip);
        QVERIFY2(!text.contains("concurrency: ["), text.constData());
        const SpecLoadResult again = loadSpecText(text, QStringLiteral("again.yaml"));
        QVERIFY2(again.ok(), qPrintable(spectest::dump(again.diagnostics) + "\n" + QString::fromUtf8(text)));
        const OpenLoopSpec &o = again.spec->openLoop;
        QCOMPARE(o.rates, (QList<double>{0.5, 16}));
        SPEC_COMPARE_ENUM(o.arrival, Arrival::Gamma);
        QCOMPARE(o.burstiness, 2.0);
        QCOMPARE(o.seed, 3);
        QCOMPARE(o.maxConcurrency, 8);
        SPEC_COMPARE_ENUM(o.rateMean, RateMean::Exact);
        // Repeats and the SLO search are written back too.
        const SpecLoadResult more = loadSpecText(QByteArray("servers:\n  - name: a\n    url: http://localhost:8000\n    model: m\n"
                                                            "workload:\n  slo: {time_to_first_token: 200}\n"
                                                            "sweep:\n  concurrency: [1, 8]\n  slo_search: {percentile: 90, resolution: 2}\n"),
                                                 QStringLiteral("m.yaml"));
        QVERIFY2(more.ok(), qPrintable(spectest::dump(more.diagnostics)));
        QVERIFY(more.spec->sloSearch.enabled);
        const SpecLoadResult moreBack = loadSpecText(saveSpecYaml(*more.spec), QStringLiteral("m2.yaml"));
        QVERIFY2(moreBack.ok(), qPrintable(spectest::dump(moreBack.diagnostics)));
        QCOMPARE(moreBack.spec->sloSearch.percentile, 90);
        QCOMPARE(moreBack.spec->sloSearch.resolution, 2.0);
        SweepSpec repeated = *more.spec;
        repeated.sloSearch = SloSearchSpec();
        repeated.repeats = 3;
        QCOMPARE(loadSpecText(saveSpecYaml(repeated), QStringLiteral("r.yaml")).spec->repeats, 3);
        // A closed-loop spec writes none of the open-loop keys.
        const SpecLoadResult closed = loadSpecText(spectest::kMinimal, QStringLiteral("c.yaml"));
        const QByteArray closedText = saveSpecYaml(*closed.spec, SecretPolicy::Strip);
        QVERIFY(!closedText.contains("request_rate") && !closedText.contains("arrival"));
    }
};

QTEST_GUILESS_MAIN(TstSpecOpenLoop)
#include "tst_spec_open_loop.moc"
