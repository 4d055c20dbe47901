// The designer's workload.images row: a spec's images open in the form, survive a round trip
// through it and the YAML, are turned on and off there, and a bad size shows the validator's
// message at the row.
#include "TestSupport.h"
#include "designer/DesignTab.h"
#include "designer/FieldErrors.h"
#include "designer/ImagesEditor.h"
#include "designer/WorkloadForm.h"
#include "spec/SpecIO.h"
#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QTest>

using namespace sb;
using namespace sb::ui;

class TestDesignerImages : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void imagesSurviveTheForm()
    {
        const SpecLoadResult loaded = loadSpecText("servers: [{name: a, mock: vllm}]\n"
                                                   "workload:\n"
                                                   "  images: {count: 3, width: 320, height: 200, format: jpeg}\n"
                                                   "sweep: {concurrency: [1]}\n");
        QVERIFY(loaded.ok());
        DesignTab tab;
        tab.setSpec(*loaded.spec);
        QCOMPARE(saveSpecYaml(tab.spec()), saveSpecYaml(*loaded.spec));
        ImagesEditor *images = tab.workloadForm()->imagesEditor();
        QVERIFY(images->enabledBox()->isChecked());
        QCOMPARE(images->countBox()->value(), 3);
        QCOMPARE(images->widthBox()->value(), 320);
        QCOMPARE(images->heightBox()->value(), 200);
        QCOMPARE(images->formatBox()->currentText(), QStringLiteral("jpeg"));

        images->heightBox()->setValue(240);
        QCOMPARE(tab.spec().workload.images->height, 240);
        images->enabledBox()->setChecked(false);
        QVERIFY(!tab.spec().workload.images);
        QVERIFY(!images->countBox()->isEnabled());
        images->enabledBox()->setChecked(true);
        QCOMPARE(*tab.spec().workload.images, (ImageSpec{3, 320, 240, ImageFormat::Jpeg}));

        images->widthBox()->setValue(5);
        QTRY_VERIFY(!tab.isValid());
        QTRY_VERIFY2(tab.workloadForm()->errors().message(QStringLiteral("workload.images")).contains(QLatin1String("from 8 to 4096")),
                     qPrintable(tab.workloadForm()->errors().message(QStringLiteral("workload.images"))));
    }
};

QTEST_MAIN(TestDesignerImages)
#include "tst_designer_images.moc"
