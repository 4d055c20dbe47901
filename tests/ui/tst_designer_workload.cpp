// The designer with a workload beyond one length: each distribution kind and a
// dataset are edited in the form and survive a round trip through it and the YAML; the length
// histogram is the engine's own draws; a dataset's first record is the prompt preview and its
// errors show at the field with FILE:LINE; the estimate names the lengths and the calibration.
#include "TestSupport.h"
#include "designer/DatasetEditor.h"
#include "designer/DesignTab.h"
#include "designer/FieldErrors.h"
#include "designer/LengthEditor.h"
#include "designer/SweepRunsEditor.h"
#include "designer/WorkloadForm.h"
#include "designer/WorkloadPreview.h"
#include "text/SweepEstimate.h"
#include "spec/SpecIO.h"
#include "workload/WorkloadPlan.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

namespace {
void pick(QComboBox *box, int index)
{
    box->setCurrentIndex(index);
    Q_EMIT box->activated(index);
}
QByteArray yaml(const sb::SweepSpec &s) { return sb::saveSpecYaml(s, sb::SecretPolicy::Keep); }
} // namespace

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
        // The form shows each distribution in its own fields, editable.
        LengthEditor *input = tab.workloadForm()->inputEditor();
        LengthEditor *output = tab.workloadForm()->outputEditor();
        QCOMPARE(input->kind(), LengthEditor::Normal);
        QCOMPARE(tab.findChild<QDoubleSpinBox *>(QStringLiteral("inputTokensMean"))->value(), 384.0);
        QCOMPARE(tab.findChild<QSpinBox *>(QStringLiteral("inputTokensNormalMax"))->value(), 1024);
        QCOMPARE(output->kind(), LengthEditor::Choices);
        QCOMPARE(tab.findChild<QLineEdit *>(QStringLiteral("outputTokensChoices"))->text(), QStringLiteral("16, 64:3"));
        QCOMPARE(tab.findChild<QSpinBox *>(QStringLiteral("workloadSeed"))->value(), 4);
        const QString estimate = estimateText(tab.spec());
        QVERIFY2(estimate.contains(QStringLiteral("input: normal mean 384")) && estimate.contains(QStringLiteral("calibrated per model at 64, 544, 1024")),
                 qPrintable(estimate));

        // A fixed spec again: the boxes are editable and the edit is what is saved.
        const SpecLoadResult fixed = loadSpecText("servers: [{name: a, mock: vllm}]\nworkload: {input_tokens: 77}\nsweep: {concurrency: [1]}\n");
        tab.setSpec(*fixed.spec);
        QCOMPARE(input->kind(), LengthEditor::Fixed);
        input->fixedBox()->setValue(99);
        QCOMPARE(tab.spec().workload.inputTokens, 99);
        QVERIFY(!tab.spec().workload.inputLengths);
    }

    // Repeats, the error rate, the SLO search and prompt calibration are fields of the form: a
    // file's values show in them (an error rate finer than the box's two decimals is kept), edits
    // are what is saved, the validator's words appear beside them, and the summary counts runs
    // and search cells.
    void runsAndSearchAreFields()
    {
        const SpecLoadResult loaded = loadSpecText("servers: [{name: a, mock: vllm}, {name: b, mock: sglang}]\n"
                                                   "workload: {calibrate_prompts: false, slo: {time_to_first_token: 200}}\n"
                                                   "sweep: {concurrency: [1, 4, 16], repeats: 3, max_error_rate: 0.00005}\n");
        QVERIFY(loaded.ok());
        DesignTab tab;
        tab.setSpec(*loaded.spec);
        QCOMPARE(QString::fromUtf8(saveSpecYaml(tab.spec())).split('\n'), QString::fromUtf8(saveSpecYaml(*loaded.spec)).split('\n'));
        SweepRunsEditor *runs = tab.workloadForm()->runsEditor();
        QCOMPARE(runs->repeatsBox()->value(), 3);
        QCOMPARE(tab.spec().maxErrorRate, 0.00005);
        QVERIFY(!tab.findChild<QCheckBox *>(QStringLiteral("calibratePrompts"))->isChecked());
        QVERIFY2(estimateText(tab.spec()).startsWith(QStringLiteral("18 cells (2 servers × 3 levels × 3 runs)")), qPrintable(estimateText(tab.spec())));

        runs->errorRateBox()->setValue(5);
        QCOMPARE(tab.spec().maxErrorRate, 0.05);
        tab.findChild<QCheckBox *>(QStringLiteral("calibratePrompts"))->setChecked(true);
        QVERIFY(tab.spec().workload.calibratePrompts);
        // The search runs each point once: with repeats it is refused, beside its switch.
        QVERIFY(!runs->percentileChoice()->isEnabled());
        runs->searchBox()->setChecked(true);
        QVERIFY(runs->percentileChoice()->isEnabled());
        tab.validateNow();
        QVERIFY(!tab.isValid());
        QVERIFY2(tab.workloadForm()->errors().message(QStringLiteral("sweep.slo_search")).contains(QStringLiteral("repeats")),
                 qPrintable(tab.workloadForm()->errors().message(QStringLiteral("sweep.slo_search"))));
        runs->repeatsBox()->setValue(1);
        pick(runs->percentileChoice(), runs->percentileChoice()->findData(90));
        runs->resolutionBox()->setValue(2);
        tab.validateNow();
        QVERIFY(tab.isValid());
        const SweepSpec edited = tab.spec();
        QCOMPARE(edited.repeats, 1);
        QVERIFY(edited.sloSearch.enabled);
        QCOMPARE(edited.sloSearch.percentile, 90);
        QCOMPARE(edited.sloSearch.resolution, 2.0);
        // 4..16 halved to within 2: 12 -> 6 -> 3 -> 2, three cells per server at most.
        QVERIFY2(estimateText(edited).startsWith(QStringLiteral("6 cells (2 servers × 3 levels) + up to 6 SLO search cells")),
                 qPrintable(estimateText(edited)));
        const QByteArray saved = yaml(edited);
        QVERIFY2(saved.contains("slo_search: {percentile: 90, resolution: 2}") || saved.contains("percentile: 90"), saved.constData());
        QCOMPARE(saveSpecYaml(*loadSpecText(saved).spec), saved);

        // A resolution below one level is the validator's to name, beside the field.
        runs->resolutionBox()->setValue(0.5);
        tab.validateNow();
        QVERIFY(!tab.workloadForm()->errors().message(QStringLiteral("sweep.slo_search.resolution")).isEmpty());
    }

    // Switching to request rates and entering none: the field asks for rates, not for the
    // concurrency levels the spec then lacks, and so does the status line.
    void emptyRatesAskForRates()
    {
        DesignTab tab;
        tab.setSpec(*loadSpecText("servers: [{name: a, mock: vllm}]\nsweep: {concurrency: [1]}\n").spec);
        pick(tab.findChild<QComboBox *>(QStringLiteral("sweepAxis")), 1);
        tab.validateNow();
        QVERIFY(!tab.isValid());
        const QString shown = tab.workloadForm()->errors().message(QStringLiteral("sweep")); // the Points row
        QVERIFY2(shown.contains(QStringLiteral("request rate")) && !shown.contains(QStringLiteral("concurrency")), qPrintable(shown));
        QVERIFY2(!tab.problemsLabel()->text().contains(QStringLiteral("concurrency")), qPrintable(tab.problemsLabel()->text()));
        // Back to concurrency with its level: valid again.
        pick(tab.findChild<QComboBox *>(QStringLiteral("sweepAxis")), 0);
        tab.validateNow();
        QVERIFY(tab.isValid());
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

    // Each kind, picked and filled in through the form's widgets, comes back from the YAML as set.
    void everyDistributionKindRoundTrips_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected"); // the YAML line the form must produce
        QTest::newRow("fixed") << int(LengthEditor::Fixed) << QStringLiteral("input_tokens: 300");
        QTest::newRow("uniform") << int(LengthEditor::Uniform) << QStringLiteral("input_tokens: {min: 100, max: 500}");
        QTest::newRow("normal") << int(LengthEditor::Normal) << QStringLiteral("input_tokens: {mean: 256, stddev: 64, min: 32, max: 600}");
        QTest::newRow("choices") << int(LengthEditor::Choices) << QStringLiteral("input_tokens: [16, {value: 64, weight: 3}, 256]");
    }
    void everyDistributionKindRoundTrips()
    {
        QFETCH(int, kind);
        QFETCH(QString, expected);
        DesignTab tab;
        tab.setSpec(DesignTab::newSpec());
        LengthEditor *input = tab.workloadForm()->inputEditor();
        pick(input->kindBox(), kind);
        auto spin = [&](const char *name, double v) {
            if (auto *b = tab.findChild<QSpinBox *>(QLatin1String(name)))
                b->setValue(int(v));
            else
                tab.findChild<QDoubleSpinBox *>(QLatin1String(name))->setValue(v);
        };
        switch (LengthEditor::Kind(kind)) {
        case LengthEditor::Fixed: spin("inputTokens", 300); break;
        case LengthEditor::Uniform: spin("inputTokensMin", 100); spin("inputTokensMax", 500); break;
        case LengthEditor::Normal:
            spin("inputTokensMean", 256); spin("inputTokensStddev", 64); spin("inputTokensNormalMin", 32); spin("inputTokensNormalMax", 600);
            break;
        case LengthEditor::Choices: {
            auto *text = tab.findChild<QLineEdit *>(QStringLiteral("inputTokensChoices"));
            text->clear();
            QTest::keyClicks(text, QStringLiteral("16, 64:3, 256"));
            break;
        }
        }
        tab.findChild<QSpinBox *>(QStringLiteral("workloadSeed"))->setValue(7);
        tab.validateNow();
        QVERIFY2(tab.isValid(), qPrintable(tab.diagnostics().value(0).toString()));
        const QByteArray written = yaml(tab.spec());
        QVERIFY2(written.contains(expected.toUtf8()), written.constData());
        const SpecLoadResult back = loadSpecText(written);
        QVERIFY(back.ok());
        QCOMPARE(yaml(*back.spec), written);
        // ... and the form shows what was loaded, unchanged.
        DesignTab again;
        again.setSpec(*back.spec);
        QCOMPARE(yaml(again.spec()), written);
        QCOMPARE(again.workloadForm()->inputEditor()->kind(), LengthEditor::Kind(kind));
    }

    void badChoicesAreALocalError()
    {
        DesignTab tab;
        tab.setSpec(DesignTab::newSpec());
        pick(tab.workloadForm()->inputEditor()->kindBox(), LengthEditor::Choices);
        auto *text = tab.findChild<QLineEdit *>(QStringLiteral("inputTokensChoices"));
        text->clear();
        QTest::keyClicks(text, QStringLiteral("16, abc"));
        tab.validateNow();
        QVERIFY(!tab.isValid());
        QVERIFY(tab.workloadForm()->errors().message(QStringLiteral("workload.input_tokens")).contains(QStringLiteral("abc")));
        QCOMPARE(tab.workloadForm()->errors().state(QStringLiteral("workload.input_tokens")), QStringLiteral("error"));
    }

    // The histogram is the engine's own draws (workload/WorkloadPlan) for the seed.
    void histogramIsTheEnginesSampler()
    {
        const SpecLoadResult loaded = loadSpecText("servers: [{name: a, mock: vllm}]\n"
                                                   "workload:\n"
                                                   "  input_tokens: {mean: 384, stddev: 160, min: 64, max: 1024}\n"
                                                   "  output_tokens: {min: 10, max: 30}\n"
                                                   "  seed: 11\n"
                                                   "sweep: {concurrency: [1]}\n");
        QVERIFY(loaded.ok());
        DesignTab tab;
        tab.setSpec(*loaded.spec);
        tab.workloadForm()->updatePreview();
        const LengthHistogram shown = tab.workloadForm()->inputHistogram()->histogram();
        int sum = 0;
        for (int c : shown.counts)
            sum += c;
        QCOMPARE(sum, shown.samples);
        QCOMPARE(shown.samples, 1000);
        // The engine's plan for the same workload, drawn here independently.
        const WorkloadPlan plan(loaded.spec->workload, FillerMap());
        QList<int> engine;
        for (int t = 0; t < 1000; ++t)
            engine << plan.at(t, false).inputTokens;
        QCOMPARE(plannedLengths(loaded.spec->workload, true, 1000), engine);
        const LengthHistogram expected = histogramOf(engine, 24);
        QCOMPARE(shown.counts, expected.counts);
        QCOMPARE(shown.lo, expected.lo);
        QCOMPARE(shown.hi, expected.hi);
        QVERIFY(shown.lo >= 64 && shown.hi <= 1024);
        // Another seed, another sequence: the preview follows the seed box.
        tab.findChild<QSpinBox *>(QStringLiteral("workloadSeed"))->setValue(12);
        tab.workloadForm()->updatePreview();
        QVERIFY(tab.workloadForm()->inputHistogram()->histogram().counts != shown.counts);
        const LengthHistogram out = tab.workloadForm()->outputHistogram()->histogram();
        QCOMPARE(out.samples, 1000);
        QVERIFY(out.lo >= 10 && out.hi <= 30);
        // The prompt preview is the first request's text.
        QVERIFY(!tab.workloadForm()->promptPreview()->toPlainText().isEmpty());
    }

    void datasetFromTheFormPreviewsItsFirstRecord()
    {
        QTemporaryDir dir;
        const QString specFile = dir.filePath(QStringLiteral("s.yaml"));
        QVERIFY(QFile::copy(sbtest::sourcePath(QStringLiteral("resources/datasets/prompts.jsonl")), dir.filePath(QStringLiteral("p.jsonl"))));
        SweepSpec spec = DesignTab::newSpec();
        spec.sourcePath = specFile;
        DesignTab tab;
        tab.setSpec(spec);
        DatasetEditor *ds = tab.workloadForm()->datasetEditor();
        QSignalSpy loaded(ds, &DatasetEditor::loadFinished);
        pick(ds->sourceBox(), 1);
        pick(ds->formatBox(), ds->formatBox()->findText(QStringLiteral("jsonl")));
        QTest::keyClicks(ds->pathEdit(), QStringLiteral("p.jsonl"));
        Q_EMIT ds->pathEdit()->editingFinished();
        QTRY_VERIFY(ds->loaded() != nullptr); // read off the UI thread: waits for its signal
        tab.workloadForm()->updatePreview();
        QVERIFY2(tab.workloadForm()->promptPreview()->toPlainText().contains(QStringLiteral("prefix cache makes the second request")),
                 qPrintable(tab.workloadForm()->promptPreview()->toPlainText()));
        // Output lengths come from the records (output_tokens 48 first).
        QVERIFY(tab.workloadForm()->outputHistogram()->histogram().samples > 0);
        QVERIFY(plannedLengths(tab.spec().workload, false, 1, ds->loaded()).value(0) == 48);
        tab.validateNow();
        QVERIFY2(tab.isValid(), qPrintable(tab.diagnostics().value(0).toString()));
        const QByteArray written = yaml(tab.spec());
        QVERIFY2(written.contains("dataset: {format: jsonl, path: p.jsonl}") || written.contains("path: p.jsonl"), written.constData());
        const SpecLoadResult back = loadSpecText(written);
        QVERIFY(back.ok());
        QCOMPARE(yaml(*back.spec), written);
    }

    void aBrokenDatasetShowsFileAndLineAtTheField()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("bad.jsonl")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.write("{\"text\": \"fine\"}\n{\"text\": oops}\n") > 0);
        f.close();
        SweepSpec spec = DesignTab::newSpec();
        spec.sourcePath = dir.filePath(QStringLiteral("s.yaml"));
        spec.workload.dataset = DatasetSpec{DatasetFormat::Jsonl, QStringLiteral("bad.jsonl"), 512};
        DesignTab tab;
        tab.setSpec(spec);
        DatasetEditor *ds = tab.workloadForm()->datasetEditor();
        QTRY_VERIFY(!ds->isLoading());
        tab.validateNow();
        QVERIFY(!tab.isValid());
        const QString shown = tab.workloadForm()->errors().message(QStringLiteral("workload.dataset"));
        QVERIFY2(shown.contains(QStringLiteral("bad.jsonl:2")), qPrintable(shown));
        QCOMPARE(tab.workloadForm()->errors().state(QStringLiteral("workload.dataset")), QStringLiteral("error"));
        QCOMPARE(yaml(tab.spec()), yaml(spec)); // nothing lost: the spec still says what was loaded
    }
};

QTEST_MAIN(TestDesignerWorkload)
#include "tst_designer_workload.moc"
