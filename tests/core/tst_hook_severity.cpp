// The hook vocabulary (results/HookVocabulary: kinds and verdicts as enums, named only at the
// JSON edge), the one severity judgement of an outcome (results/HookSeverity,
// docs/ARCHITECTURE.md §5) and report.html colouring its hook list by it.
#include "TestSupport.h"
#include "report/ReportHtml.h"
#include "results/HookSeverity.h"
#include <QJsonArray>
#include <QTest>

using namespace sb;

namespace {
HookOutcome outcome(const QString &hook, bool ok, int attempts, const QString &verdict)
{
    HookOutcome h;
    h.hook = *hookKindFromString(hook);
    h.ok = ok;
    h.attempts = attempts;
    h.verdict = hookVerdictFromString(verdict);
    h.method = QStringLiteral("POST");
    h.path = QStringLiteral("/x");
    return h;
}
} // namespace

class TestHookSeverity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void rules()
    {
        const QString reset = QStringLiteral("reset_kv_cache"), start = QStringLiteral("profiler_start"),
                      stop = QStringLiteral("profiler_stop");
        QCOMPARE(hookSeverity(outcome(reset, true, 1, QStringLiteral("ok"))), HookSeverity::Ok);
        QCOMPARE(hookSeverity(outcome(reset, true, 3, QStringLiteral("ok"))), HookSeverity::Retried);
        // A missing reset or start route fails the cell: it is a failure wherever it is shown.
        QCOMPARE(hookSeverity(outcome(reset, false, 1, QStringLiteral("route_missing"))), HookSeverity::Failed);
        QCOMPARE(hookSeverity(outcome(start, false, 1, QStringLiteral("route_missing"))), HookSeverity::Failed);
        QCOMPARE(hookSeverity(outcome(reset, false, 4, QStringLiteral("busy"))), HookSeverity::Failed);
        // A failed stop is a warning (§5), whatever the verdict.
        QCOMPARE(hookSeverity(outcome(stop, false, 1, QStringLiteral("route_missing"))), HookSeverity::Warning);
        QCOMPARE(hookSeverity(outcome(stop, false, 1, QStringLiteral("timeout"))), HookSeverity::Warning);
        // Outcomes written before verdicts existed read ok / error.
        QCOMPARE(hookVerdictText(outcome(stop, false, 1, QString())), QStringLiteral("error"));
        QCOMPARE(hookVerdictText(outcome(stop, true, 1, QString())), QStringLiteral("ok"));
    }

    void namesAtTheJsonEdgeOnly()
    {
        for (HookKind k : {HookKind::Reset, HookKind::ProfilerStart, HookKind::ProfilerStop})
            QCOMPARE(hookKindFromString(hookKindName(k)), std::optional(k));
        for (HookVerdict v : {HookVerdict::Ok, HookVerdict::Refused, HookVerdict::Busy, HookVerdict::RouteMissing,
                              HookVerdict::Timeout, HookVerdict::Error})
            QCOMPARE(hookVerdictFromString(hookVerdictName(v)), std::optional(v));
        // results.json round trip: what is written is read back as the same enums.
        HookOutcome h = outcome(QStringLiteral("profiler_stop"), false, 1, QStringLiteral("route_missing"));
        const QJsonObject json = toJson(h);
        QCOMPARE(json.value(QStringLiteral("hook")).toString(), QStringLiteral("profiler_stop"));
        QCOMPARE(json.value(QStringLiteral("verdict")).toString(), QStringLiteral("route_missing"));
        const std::optional<HookOutcome> back = hookOutcomeFromJson(json);
        QVERIFY(back);
        QCOMPARE(back->hook, HookKind::ProfilerStop);
        QCOMPARE(back->verdict, std::optional(HookVerdict::RouteMissing));
        // A verdict this build does not know reads as none (judged by `ok`); an unknown hook kind
        // is not guessed: the cell says it left one out.
        QJsonObject odd = json;
        odd.insert(QStringLiteral("verdict"), QStringLiteral("\u202Eko"));
        QCOMPARE(hookOutcomeFromJson(odd)->verdict, std::optional<HookVerdict>());
        QCOMPARE(hookVerdictText(*hookOutcomeFromJson(odd)), QStringLiteral("error"));
        odd.insert(QStringLiteral("hook"), QStringLiteral("metrics_scrape"));
        QVERIFY(!hookOutcomeFromJson(odd));
        CellResult cell;
        cell.hooks << h;
        QJsonObject cellJson = toJson(cell);
        QJsonArray hooks = cellJson.value(QStringLiteral("hooks")).toArray();
        hooks.append(odd);
        cellJson.insert(QStringLiteral("hooks"), hooks);
        const CellResult read = cellResultFromJson(cellJson);
        QCOMPARE(read.hooks.size(), 1);
        QVERIFY(read.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("metrics_scrape")));
    }

    // A reset's two proofs are enums too: written as words, read back as the same enums; a
    // word this build does not know reads as "not judged", never as a verdict.
    void resetProofsAreEnumsNamedOnlyInJson()
    {
        HookOutcome h = outcome(QStringLiteral("reset_kv_cache"), true, 200, QStringLiteral("ok"));
        QVERIFY(!toJson(h).contains(QStringLiteral("cache_proof")) && !toJson(h).contains(QStringLiteral("metrics_verdict")));
        for (CacheProof p : {CacheProof::Consistent, CacheProof::Contradicted})
            for (MetricsVerdict v : {MetricsVerdict::Confirmed, MetricsVerdict::NotConfirmed, MetricsVerdict::NoMetrics}) {
                h.cacheProof = p;
                h.metricsVerdict = v;
                const QJsonObject json = toJson(h);
                QCOMPARE(json.value(QStringLiteral("cache_proof")).toString(), cacheProofName(p));
                QCOMPARE(json.value(QStringLiteral("metrics_verdict")).toString(), metricsVerdictName(v));
                const std::optional<HookOutcome> back = hookOutcomeFromJson(json);
                QVERIFY(back);
                QCOMPARE(back->cacheProof, p);
                QCOMPARE(back->metricsVerdict, v);
            }
        QCOMPARE(metricsVerdictName(MetricsVerdict::NotConfirmed), QStringLiteral("not_confirmed"));
        QJsonObject odd = toJson(h);
        odd.insert(QStringLiteral("metrics_verdict"), QStringLiteral("CONFIRMED"));
        odd.insert(QStringLiteral("cache_proof"), QStringLiteral("proven"));
        QCOMPARE(hookOutcomeFromJson(odd)->metricsVerdict, MetricsVerdict::None);
        QCOMPARE(hookOutcomeFromJson(odd)->cacheProof, CacheProof::None);
    }

    void reportColoursBySeverity()
    {
        ReportHtmlInput in;
        CellResult c;
        c.status = CellStatus::Failed;
        c.hooks << outcome(QStringLiteral("reset_kv_cache"), false, 1, QStringLiteral("route_missing"))
                << outcome(QStringLiteral("profiler_stop"), false, 1, QStringLiteral("timeout"));
        in.results.cells << c;
        const QString html = QString::fromUtf8(reportHtml(in));
        QVERIFY2(html.contains(QStringLiteral("<span class=\"bad\">reset_kv_cache route_missing")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("<span class=\"warn\">profiler_stop timeout")), qPrintable(html));
    }
};

QTEST_GUILESS_MAIN(TestHookSeverity)
#include "tst_hook_severity.moc"
