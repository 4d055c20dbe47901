// The designer with a workload beyond one length (issue 16 item 5): distributions and a dataset
// survive a round trip through the form untouched, a distribution's box is read-only and says
// what is drawn, and the estimate names the lengths and the calibration.
#include "TestSupport.h"
#include "designer/DesignTab.h"
#include "text/SweepEstimate.h"
#include "spec/SpecIO.h"
#include <QSpinBox>
#include <QTest>

using namespace sb;
using namespace sb::ui;

class TestDesignerWorkload : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void distributionsSurviveTheForm()
    {
        const SpecLoadResult loaded = loadSpecText("servers: [{name: a, mock: vllm}]\n"
                                                   "workload:\n"
                                                   "  input_tokens: {mean: 384, stddev: 160, min: 64, max: 1024}\n"
                                                   "  output_tokens: [16, {value: 64, weight: 3}]\n"
                                                   "  seed: 4\n"
                                                   "sweep: {concurrency: [1, 2]}\n");
        QVERIFY(loaded.ok());
        DesignTab tab;
        tab.setSpec(*loaded.spec);
        QCOMPARE(saveSpecYaml(tab.spec()), saveSpecYaml(*loaded.spec));
        auto *input = tab.findChild<QSpinBox *>(QStringLiteral("inputTokens"));
        auto *output = tab.findChild<QSpinBox *>(QStringLiteral("outputTokens"));
        QVERIFY(input && output);
        QVERIFY(!input->isEnabled() && !output->isEnabled());
        QCOMPARE(input->prefix(), QStringLiteral("mean "));
        QVERIFY(input->whatsThis().contains(QStringLiteral("normal mean 384")));
        const QString estimate = estimateText(tab.spec());
        QVERIFY2(estimate.contains(QStringLiteral("input: normal mean 384")) && estimate.contains(QStringLiteral("calibrated per model at 64, 544, 1024")),
                 qPrintable(estimate));

        // A fixed spec again: the boxes are editable and the edit is what is saved.
        const SpecLoadResult fixed = loadSpecText("servers: [{name: a, mock: vllm}]\nworkload: {input_tokens: 77}\nsweep: {concurrency: [1]}\n");
        tab.setSpec(*fixed.spec);
        QVERIFY(input->isEnabled());
        QVERIFY(input->prefix().isEmpty());
        input->setValue(99);
        QCOMPARE(tab.spec().workload.inputTokens, 99);
        QVERIFY(!tab.spec().workload.inputLengths);
    }

    void datasetSurvivesTheForm()
    {
        const SpecLoadResult loaded = loadSpecText("servers: [{name: a, mock: vllm}]\n"
                                                   "workload: {dataset: {format: mooncake, path: trace.jsonl, block_tokens: 16}}\n"
                                                   "sweep: {concurrency: [1]}\n");
        QVERIFY(loaded.ok());
        DesignTab tab;
        tab.setSpec(*loaded.spec);
        QCOMPARE(saveSpecYaml(tab.spec()), saveSpecYaml(*loaded.spec));
        QVERIFY(estimateText(tab.spec()).contains(QStringLiteral("prompts from the mooncake dataset trace.jsonl")));
    }
};

QTEST_MAIN(TestDesignerWorkload)
#include "tst_designer_workload.moc"
