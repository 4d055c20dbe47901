// `sweepbench export` when it cannot know a key: results produced with api_key_env whose variable
// is unset at export time are refused (exit 2) unless the key is named another way
// (--secret-env NAME) or the check is waived (--no-secret-check).
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "compare/CompareView.h"
#include "commands/ExportCli.h"
#include <QJsonDocument>
#include <QApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::ui;

class TestExportSecrets : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void refusesWithoutTheKey()
    {
        // The sample folder was "run" with api_key_env and holds the key in an error sample.
        const QString folder = m_dir.filePath(QStringLiteral("results"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        const QString zip = m_dir.filePath(QStringLiteral("report.zip"));
        qunsetenv(sbtest::kEnvKeyName.toLatin1().constData());
        QCOMPARE(runExportCommand({folder, QStringLiteral("-o"), zip}), 2);
        QVERIFY(!QFile::exists(zip));

        // A variable that is not set either: refused too, never silently weaker.
        QCOMPARE(runExportCommand({folder, QStringLiteral("-o"), zip, QStringLiteral("--secret-env"), QStringLiteral("SB_TST_NOT_SET_ANYWHERE")}), 2);
        QVERIFY(!QFile::exists(zip));

        // The key under another name: exported, and scanned for.
        qputenv("SB_TST_KEY_NOW_HERE", sbtest::kEnvKey.toUtf8());
        QCOMPARE(runExportCommand({folder, QStringLiteral("-o"), zip, QStringLiteral("--secret-env"), QStringLiteral("SB_TST_KEY_NOW_HERE")}), 0);
        const QMap<QString, QByteArray> files = sbtest::readZip(zip);
        QVERIFY(files.contains(QStringLiteral("results.json")));
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            QVERIFY2(!it.value().contains(sbtest::kEnvKey.toUtf8()), qPrintable(it.key()));
        QFile::remove(zip);

        // Waived on request.
        QCOMPARE(runExportCommand({folder, QStringLiteral("-o"), zip, QStringLiteral("--no-secret-check")}), 0);
        QVERIFY(QFile::exists(zip));
    }

    // Compare's exported page: a key the set's spec names never reaches it, even when a server
    // echoed it into a cell's reason (which the page's summary shows).
    void comparisonPageHasNoSecrets()
    {
        qputenv(sbtest::kEnvKeyName.toLatin1().constData(), sbtest::kEnvKey.toUtf8());
        const QString folder = m_dir.filePath(QStringLiteral("leaky"));
        QVERIFY(sbtest::writeSampleFolder(folder, /*keyInSpec=*/true));
        SweepResults r = sbtest::sampleResults();
        r.cells[1].status = CellStatus::Degraded;
        r.cells[1].reason = QStringLiteral("server said: bad key ") + sbtest::kApiKey;
        r.cells[2].warnings << QStringLiteral("echoed ") + sbtest::kEnvKey;
        QVERIFY(sbtest::writeFile(folder + QStringLiteral("/results.json"), QJsonDocument(toJson(r)).toJson()));
        CompareView view;
        QString error;
        QVERIFY2(view.addResultSet(folder, &error), qPrintable(error));
        const QString page = m_dir.filePath(QStringLiteral("compare.html"));
        QVERIFY2(view.exportComparison(page, &error), qPrintable(error));
        const QByteArray html = sbtest::readFile(page);
        QVERIFY(!html.contains(sbtest::kApiKey.toUtf8()));
        QVERIFY(!html.contains(sbtest::kEnvKey.toUtf8()));
        QVERIFY(html.contains("server said: bad key [redacted]"));
    }
};

QTEST_MAIN(TestExportSecrets)
#include "tst_export_secrets.moc"
