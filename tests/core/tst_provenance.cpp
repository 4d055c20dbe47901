// Where a result set came from, for measured and imported sets alike: each peer's own record of
// its invocation (a command line, or the settings it kept) read from real output of the tool,
// credentials on another tool's command line redacted, the fields compared across sets so a
// comparison says what differs, and results.json keeping what an import recorded.
#include "TestSupport.h"
#include "import/ImportCommon.h"
#include "report/ResultsLoader.h"
#include "results/Provenance.h"
#include <QJsonDocument>
#include <QTest>

using namespace sb;

namespace {
QString fixture(const QString &rel) { return sbtest::sourcePath(QStringLiteral("tests/fixtures/") + rel); }

SweepResults load(const QString &rel)
{
    QString error;
    const auto loaded = loadResults(fixture(rel), &error);
    if (!loaded)
        qFatal("%s: %s", qPrintable(rel), qPrintable(error));
    return loaded->results;
}

QString field(const SweepResults &r, const char *key)
{
    for (const ProvenanceField &f : provenanceOf(r))
        if (f.key == QLatin1String(key))
            return f.value;
    return QStringLiteral("<no field %1>").arg(QLatin1String(key));
}
} // namespace

class TestProvenance : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // Each tool's own words for what it was asked to do, from its real output.
    void peersSayWhatTheyRan()
    {
        const SweepResults aiperf = load(QStringLiteral("aiperf-0.13.0/plain"));
        QCOMPARE(field(aiperf, "tool"), QStringLiteral("aiperf 0.13.0"));
        QVERIFY2(field(aiperf, "command").startsWith(QStringLiteral("aiperf profile --model 'mock-model'")), qPrintable(field(aiperf, "command")));

        const SweepResults genai = load(QStringLiteral("genai-bench-0.0.5"));
        QVERIFY2(field(genai, "command").contains(QStringLiteral("genai-bench")), qPrintable(field(genai, "command")));
        QVERIFY(field(genai, "tool").startsWith(QStringLiteral("genai-bench")));

        const SweepResults guidellm = load(QStringLiteral("guidellm-0.8.1/benchmarks.json"));
        QCOMPARE(field(guidellm, "tool"), QStringLiteral("guidellm 0.8.1"));
        QVERIFY2(field(guidellm, "command").startsWith(QStringLiteral("backend openai_http, target http://127.0.0.1:")), qPrintable(field(guidellm, "command")));
        QVERIFY2(field(guidellm, "host").startsWith(QStringLiteral("Linux-")), qPrintable(field(guidellm, "host")));

        const SweepResults vllm = load(QStringLiteral("vllm/sweep"));
        QVERIFY2(field(vllm, "command").startsWith(QStringLiteral("backend openai-chat, model mock-model, num_prompts 8")), qPrintable(field(vllm, "command")));

        const SweepResults sglang = load(QStringLiteral("sglang-0.5.23/bench_serving.jsonl"));
        QVERIFY2(field(sglang, "command").startsWith(QStringLiteral("backend vllm, dataset random-ids, random_input_len 32, random_output_len 12")),
                 qPrintable(field(sglang, "command")));

        // A measured set: our own version, the spec it ran, the host.
        const SweepResults ours = load(QStringLiteral("sweepbench-results-1"));
        QVERIFY2(field(ours, "tool").startsWith(QStringLiteral("sweepbench")), qPrintable(field(ours, "tool")));
        QVERIFY(!provenanceLine(ours).isEmpty());
    }

    // Another tool's command line may carry a key no spec of ours names: it is redacted by the
    // option or header that carries it, and options that merely mention tokens are kept.
    void credentialsOnACommandLineAreRedacted()
    {
        const QString cmd = importedCommand(QStringLiteral(
            "aiperf profile --api-key sk-live-123 --max-tokens 64 --hf-token='hf_abc' --output-tokens-mean 12 "
            "-H 'Authorization: Bearer sk-xyz' --header \"x-api-key: k-777\" --password hunter2 --url http://h:1"));
        for (const char *secret : {"sk-live-123", "hf_abc", "sk-xyz", "k-777", "hunter2"})
            QVERIFY2(!cmd.contains(QLatin1String(secret)), qPrintable(cmd));
        QVERIFY2(cmd.contains(QStringLiteral("--max-tokens 64")) && cmd.contains(QStringLiteral("--output-tokens-mean 12"))
                     && cmd.contains(QStringLiteral("--url http://h:1")) && cmd.contains(QStringLiteral("--api-key [redacted]")),
                 qPrintable(cmd));
        QCOMPARE(importedCommand(QString(5000, QLatin1Char('x'))).size(), 2000);
        QCOMPARE(importedSettings({{QStringLiteral("backend"), QStringLiteral("vllm")}, {QStringLiteral("tag"), QStringLiteral("None")},
                                   {QStringLiteral("model"), QStringLiteral("m")}}),
                 QStringLiteral("backend vllm, model m"));
    }

    // Compare's sentence: what differs between the sets, and nothing when they agree (the
    // times they ran always differ and are not listed).
    void differencesAreNamed()
    {
        const SweepResults aiperf = load(QStringLiteral("aiperf-0.13.0/plain"));
        const SweepResults ours = load(QStringLiteral("sweepbench-results-1"));
        const QStringList d = provenanceDifferences({&ours, &aiperf});
        QVERIFY2(d.value(0).startsWith(QStringLiteral("Tool: sweepbench")) && d.value(0).contains(QStringLiteral(" | aiperf 0.13.0")),
                 qPrintable(d.join('\n')));
        QVERIFY2(d.join('\n').contains(QStringLiteral("Command or settings: ")), qPrintable(d.join('\n')));
        SweepResults later = aiperf;
        later.startedAt = aiperf.startedAt.addDays(3);
        QVERIFY(provenanceDifferences({&aiperf, &later}).isEmpty());
        QVERIFY(provenanceDifferences({&aiperf}).isEmpty());
    }

    // results.json keeps an import's record of its command (sweepbench import writes one).
    void commandSurvivesResultsJson()
    {
        const SweepResults aiperf = load(QStringLiteral("aiperf-0.13.0/plain"));
        SweepResults back;
        QString error;
        QVERIFY2(sweepResultsFromJson(toJson(aiperf), &back, &error), qPrintable(error));
        QCOMPARE(back.sourceCommand, aiperf.sourceCommand);
        QVERIFY(!toJson(load(QStringLiteral("sweepbench-results-1"))).contains(QStringLiteral("source_command")));
    }
};

QTEST_GUILESS_MAIN(TestProvenance)
#include "tst_provenance.moc"
