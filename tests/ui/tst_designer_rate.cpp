// The designer knows both sweep axes: an open-loop spec opens on the rate editor and comes back
// unchanged; choosing "Request rate" and typing rates makes a valid open-loop spec (and no
// concurrency list); a bad rate blocks Run; the estimate counts rate cells.
#include "TestSupport.h"
#include "designer/DesignTab.h"
#include "designer/RateSweepEditor.h"
#include "text/SweepEstimate.h"
#include "designer/WorkloadForm.h"
#include "spec/SpecIO.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {
SweepSpec rateSpec()
{
    SweepSpec s;
    s.name = QStringLiteral("rates");
    ServerSpec server;
    server.name = QStringLiteral("mock-a");
    server.mock = QStringLiteral("vllm");
    server.model = QStringLiteral("m");
    server.flavor = Flavor::Vllm;
    s.servers = {server};
    s.openLoop.rates = {2, 8.5, 32};
    s.openLoop.arrival = Arrival::Gamma;
    s.openLoop.burstiness = 0.5;
    s.openLoop.seed = 7;
    s.openLoop.maxConcurrency = 64;
    s.openLoop.rateMean = RateMean::Exact;
    return s;
}
QByteArray yaml(const SweepSpec &s) { return saveSpecYaml(s); }
} // namespace

class TestDesignerRate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void rateSpecComesBackUnchanged()
    {
        DesignTab tab;
        const SweepSpec spec = rateSpec();
        QVERIFY(!hasErrors(validateSpec(spec)));
        tab.setSpec(spec);
        QCOMPARE(tab.workloadForm()->axisChoice()->currentIndex(), 1);
        QCOMPARE(yaml(tab.spec()), yaml(spec));
        QCOMPARE(tab.findChild<QLineEdit *>(QStringLiteral("requestRateList"))->text(), QStringLiteral("2, 8.5, 32"));
    }

    void switchingToRatesMakesAnOpenLoopSpec()
    {
        DesignTab tab;
        SweepSpec closed = rateSpec();
        closed.openLoop = OpenLoopSpec();
        closed.concurrency = {1, 2};
        tab.setSpec(closed);
        tab.show();
        QComboBox *axis = tab.workloadForm()->axisChoice();
        axis->setCurrentIndex(1);
        Q_EMIT axis->activated(1);
        auto *rates = tab.findChild<QLineEdit *>(QStringLiteral("requestRateList"));
        QVERIFY(rates && rates->isVisible());
        rates->clear();
        QTest::keyClicks(rates, QStringLiteral("4, 16 64"));
        tab.findChild<QSpinBox *>(QStringLiteral("maxConcurrency"))->setValue(32);
        tab.validateNow();
        QVERIFY(tab.isValid());
        const SweepSpec edited = tab.spec();
        QVERIFY(edited.concurrency.isEmpty());
        QCOMPARE(edited.openLoop.rates, (QList<double>{4, 16, 64}));
        QCOMPARE(edited.openLoop.maxConcurrency, 32);
        QCOMPARE(estimateSweep(edited).cells, 3);
        const SpecLoadResult back = loadSpecText(yaml(edited));
        QVERIFY(back.ok());
        QCOMPARE(back.spec->openLoop.rates, edited.openLoop.rates);

        // Burstiness is for gamma only.
        auto *burst = tab.findChild<QDoubleSpinBox *>(QStringLiteral("burstiness"));
        QVERIFY(!burst->isEnabled()); // poisson by default
        auto *arrival = tab.findChild<QComboBox *>(QStringLiteral("arrival"));
        arrival->setCurrentText(QStringLiteral("gamma"));
        Q_EMIT arrival->activated(arrival->currentIndex());
        QVERIFY(burst->isEnabled());

        // The exact-mean option: a checkbox for random arrivals, written as sweep.rate_mean.
        auto *exact = tab.findChild<QCheckBox *>(QStringLiteral("exactRateMean"));
        QVERIFY(exact && exact->isEnabled());
        exact->click();
        QVERIFY(yaml(tab.spec()).contains("rate_mean: exact"));
        QVERIFY(loadSpecText(yaml(tab.spec())).spec->openLoop.rateMean == RateMean::Exact);
        arrival->setCurrentText(QStringLiteral("constant"));
        Q_EMIT arrival->activated(arrival->currentIndex());
        QVERIFY(!exact->isEnabled());
        QVERIFY(tab.spec().openLoop.rateMean == RateMean::Sampled); // constant gaps are exact already
        tab.validateNow();
        QVERIFY(tab.isValid());

        // A rate that is not one blocks Run; back to concurrency keeps the old levels.
        rates->clear();
        QTest::keyClicks(rates, QStringLiteral("4, fast"));
        tab.validateNow();
        QVERIFY(!tab.isValid());
        axis->setCurrentIndex(0);
        Q_EMIT axis->activated(0);
        tab.validateNow();
        QVERIFY(tab.isValid());
        QCOMPARE(tab.spec().concurrency, (QList<int>{1, 2}));
        QVERIFY(!tab.spec().openLoop.active());
    }

    void parse()
    {
        QList<double> rates;
        QString error;
        QVERIFY(RateSweepEditor::parse(QStringLiteral("0.5, 2 8"), &rates, &error));
        QCOMPARE(rates, (QList<double>{0.5, 2, 8}));
        QVERIFY(!RateSweepEditor::parse(QStringLiteral("2, 0"), &rates, &error));
        QVERIFY(error.contains(QLatin1String("'0'")));
        QCOMPARE(RateSweepEditor::format({0.5, 32}), QStringLiteral("0.5, 32"));
    }
};

QTEST_MAIN(TestDesignerRate)
#include "tst_designer_rate.moc"
