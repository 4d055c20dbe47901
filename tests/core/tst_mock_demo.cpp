// resources/demo.yaml: three mock servers, one per personality, hooks on, a short sweep.
#include "TestSupport.h"
#include "spec/SpecIO.h"
#include <QTest>

class TestMockDemo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void demoSpecLoads()
    {
        const sb::SpecLoadResult r = sb::loadSpecFile(sbtest::sourcePath(QStringLiteral("resources/demo.yaml")));
        for (const sb::SpecDiagnostic &d : r.diagnostics)
            qInfo("%s", qPrintable(d.toString()));
        QVERIFY(r.ok());
        const sb::SweepSpec &s = *r.spec;
        QCOMPARE(s.servers.size(), 3);
        QStringList mocks;
        for (const sb::ServerSpec &srv : s.servers) {
            mocks << srv.mock;
            QVERIFY(srv.urls.isEmpty());
            QVERIFY(srv.profiler.enabled);
            QVERIFY(!srv.profiler.traceDir.isEmpty());
            QVERIFY(!srv.profiler.traceDir.startsWith(QLatin1Char('/'))); // under the results folder
        }
        QCOMPARE(mocks, (QStringList{"vllm", "sglang", "trtllm"}));
        QVERIFY(s.servers[0].reset.enabled && s.servers[1].reset.enabled);
        QVERIFY(!s.servers[2].reset.enabled); // stock trtllm-serve has no reset route
        QVERIFY(s.concurrency.size() >= 3);
        QVERIFY(s.workload.requestsPerCell > 0);
    }
};

QTEST_MAIN(TestMockDemo)
#include "tst_mock_demo.moc"
