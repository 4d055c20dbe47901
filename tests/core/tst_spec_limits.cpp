// Bounds of the spec reader (docs/spec-reference.md, "Limits"): alias bombs, nesting, start_body
// depth and timeouts above a day are refused with a located error, never grown or overflowed.
#include "TestSupport.h"
#include "report/SecretScrub.h"
#include "spec/SpecRules.h"
#include "spec/YamlBounds.h"
#include "tst_spec_helpers.h"
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <limits>

using namespace sb;
using spectest::expectDiag;

namespace {
const QByteArray kServer = "servers:\n  - name: a\n    url: http://localhost:8000\n    model: m\n";
const QByteArray kSweep = "sweep:\n  concurrency: [1, 2]\n";

// The classic "billion laughs": each level lists the previous one ten times, nine levels deep
// (10^9 nodes once expanded) in well under 1 KB, inside start_body where it is walked into JSON.
QByteArray aliasBomb()
{
    QByteArray y = kServer + "    server_profiler:\n      start_body:\n        l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i <= 9; ++i) {
        y += "        l" + QByteArray::number(i) + ": &l" + QByteArray::number(i) + " [";
        for (int k = 0; k < 10; ++k)
            y += (k ? ", *l" : "*l") + QByteArray::number(i - 1);
        y += "]\n";
    }
    return y + kSweep;
}

QByteArray nested(int levels, const QByteArray &open, const QByteArray &close)
{
    QByteArray v;
    for (int i = 0; i < levels; ++i)
        v += open;
    v += "1";
    for (int i = 0; i < levels; ++i)
        v += close;
    return v;
}
} // namespace

class TstSpecLimits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void aliasBombFailsFast()
    {
        const QByteArray y = aliasBomb();
        QVERIFY(y.size() < 1024);
        const auto exceeded = yaml::checkYamlBounds(y);
        QVERIFY(exceeded);
        QVERIFY2(exceeded->message.contains(QStringLiteral("expands to more than 100000 nodes")), qPrintable(exceeded->message));
        // The loader stops there: one error, at the alias that crossed the bound, and no spec.
        const SpecLoadResult r = loadSpecText(y, QStringLiteral("bomb.yaml"));
        QVERIFY(!r.spec && !r.draft);
        QCOMPARE(r.diagnostics.size(), 1);
        QVERIFY(r.diagnostics[0].line >= 7); // in the l2..l9 lines, not "somewhere"
        QVERIFY(r.diagnostics[0].toString().startsWith(QStringLiteral("bomb.yaml:")));
        // Export's secret scan walks specs too: it must not expand the bomb either.
        QVERIFY(secretsInSpec(y).isEmpty());
        QVERIFY(!stripSpecYaml(y).warnings.isEmpty());
    }

    void aliasesAreCountedToo()
    {
        // Cheap aliases (to a scalar) stay under the node bound but not under the alias bound.
        QByteArray y = kServer + "    server_profiler:\n      start_body:\n        a: &a x\n        b: [";
        for (int i = 0; i <= yaml::kMaxAliases; ++i)
            y += (i ? ", *a" : "*a");
        y += "]\n" + kSweep;
        const SpecLoadResult r = loadSpecText(y, QStringLiteral("s.yaml"));
        QVERIFY(!r.spec);
        QVERIFY2(spectest::dump(r.diagnostics).contains(QStringLiteral("more than 1000 aliases")), qPrintable(spectest::dump(r.diagnostics)));
    }

    void modestAliasesStillLoad()
    {
        // Anchors are legitimate YAML: a spec sharing one header block stays valid.
        const QByteArray y = "servers:\n  - name: a\n    url: http://localhost:8000\n    model: m\n    headers: &h {X-Team: bench}\n"
                             "  - name: b\n    url: http://localhost:8001\n    model: m\n    headers: *h\n" + kSweep;
        const SpecLoadResult r = loadSpecText(y, QStringLiteral("s.yaml"));
        QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
        QCOMPARE(r.spec->servers[1].headers.value(0).second, QStringLiteral("bench"));
    }

    void deepYamlNestingIsRefused()
    {
        const QByteArray y = kServer + "    server_profiler:\n      start_body: {a: " + nested(200, "[", "]") + "}\n" + kSweep;
        const SpecLoadResult r = loadSpecText(y, QStringLiteral("s.yaml"));
        QVERIFY(!r.spec);
        QVERIFY2(spectest::dump(r.diagnostics).contains(QStringLiteral("nesting deeper than 64 levels")), qPrintable(spectest::dump(r.diagnostics)));
    }

    void startBodyDepthIsBounded()
    {
        // 40 levels: within the YAML bound, beyond the JSON body bound.
        const QByteArray y = kServer + "    server_profiler:\n      start_body: {a: " + nested(40, "[", "]") + "}\n" + kSweep;
        const SpecLoadResult r = loadSpecText(y, QStringLiteral("s.yaml"));
        QVERIFY(!r.spec);
        QVERIFY2(spectest::dump(r.diagnostics).contains(QStringLiteral("nested deeper than 32 levels")), qPrintable(spectest::dump(r.diagnostics)));
        QVERIFY(spectest::dump(r.diagnostics).contains(QStringLiteral("servers[0].server_profiler.start_body.a")));

        // A spec built in memory (the designer parses JSON text) meets the same rule in the validator.
        const SpecLoadResult ok = loadSpecText(spectest::kMinimal, QStringLiteral("s.yaml"));
        QVERIFY(ok.spec);
        SweepSpec spec = *ok.spec;
        QJsonValue v(1);
        for (int i = 0; i < spec::kMaxJsonDepth + 1; ++i)
            v = QJsonArray{v};
        spec.servers[0].profiler.enabled = true;
        spec.servers[0].profiler.startBody = QJsonObject{{QStringLiteral("a"), v}};
        const auto diags = validateSpec(spec);
        QVERIFY2(spectest::dump(diags).contains(QStringLiteral("servers[0].server_profiler.start_body")), qPrintable(spectest::dump(diags)));
        spec.servers[0].profiler.startBody = QJsonObject{{QStringLiteral("a"), QJsonArray{1, QJsonObject{{QStringLiteral("b"), 2}}}}};
        QVERIFY2(!hasErrors(validateSpec(spec)), qPrintable(spectest::dump(validateSpec(spec))));
    }

    void timeoutsAboveADay_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("request_timeout_s") << QByteArray(kServer + "workload:\n  request_timeout_s: 2200000\n" + kSweep)
                                           << "workload.request_timeout_s" << 6 << 22;
        QTest::newRow("duration_s") << QByteArray(kServer + "workload:\n  duration_s: 86401\n" + kSweep) << "workload.duration_s" << 6 << 15;
        QTest::newRow("reset timeout_seconds") << QByteArray(kServer + "    reset_kv_cache: {timeout_seconds: 1e9}\n" + kSweep)
                                               << "servers[0].reset_kv_cache.timeout_seconds" << 5 << 39;
        QTest::newRow("max_retry_seconds") << QByteArray(kServer + "    reset_kv_cache: {max_retry_seconds: 100000}\n" + kSweep)
                                           << "servers[0].reset_kv_cache.max_retry_seconds" << 5 << 41;
        QTest::newRow("profiler timeout_seconds") << QByteArray(kServer + "    server_profiler: {timeout_seconds: 99999}\n" + kSweep)
                                                  << "servers[0].server_profiler.timeout_seconds" << 5 << 40;
        QTest::newRow("stop_timeout_seconds") << QByteArray(kServer + "    server_profiler: {stop_timeout_seconds: 3000000}\n" + kSweep)
                                              << "servers[0].server_profiler.stop_timeout_seconds" << 5 << 45;
    }
    void timeoutsAboveADay()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, keyPath);
        QFETCH(int, line);
        QFETCH(int, column);
        const SpecLoadResult r = loadSpecText(yaml, QStringLiteral("s.yaml"));
        QVERIFY(!r.spec);
        const QString problem = expectDiag(r, keyPath, line, column, QStringLiteral("expected a number of seconds from 0 to 86400 (a day), got"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void aDayIsAccepted()
    {
        const QByteArray y = kServer + "    reset_kv_cache: {timeout_seconds: 86400, max_retry_seconds: 0}\n"
                           + "    server_profiler: {stop_timeout_seconds: 86400}\n"
                           + "workload:\n  request_timeout_s: 86400\n  duration_s: 86400\n" + kSweep;
        const SpecLoadResult r = loadSpecText(y, QStringLiteral("s.yaml"));
        QVERIFY2(r.ok(), qPrintable(spectest::dump(r.diagnostics)));
    }

    void strayCommaEndsTheBoundsPass()
    {
        // yaml-cpp's parser can report empty documents forever on this input; the pass stops.
        QVERIFY(!yaml::checkYamlBounds(","));
        QVERIFY(!yaml::checkYamlBounds("a: 1\n,\n"));
    }

    void timerIntervalsFitAnInt()
    {
        // Whatever reaches a timer (a spec built in code, an old results file) becomes a valid interval.
        QCOMPARE(spec::timerMs(0.25), 250);
        QCOMPARE(spec::timerMs(86400), 86400000);
        QCOMPARE(spec::timerMs(3e6), 86400000);
        QCOMPARE(spec::timerMs(1e300), 86400000);
        QCOMPARE(spec::timerMs(-5), 0);
        QCOMPARE(spec::timerMs(std::numeric_limits<double>::quiet_NaN()), 0);
        QCOMPARE(spec::timerMs(std::numeric_limits<double>::infinity()), 86400000);
    }
};

QTEST_GUILESS_MAIN(TstSpecLimits)
#include "tst_spec_limits.moc"
