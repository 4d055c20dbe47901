// The chart-bearing export: `sweepbench export` and File → Export report, rendered offscreen.
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "report/ExportCommand.h"
#include "report/ReportExporter.h"
#include "report/ResultsLoader.h"
#include <QApplication>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <quazip/quazip.h>
#include <quazip/quazipfile.h>

using namespace sb;
using namespace sb::ui;

namespace {
using sbtest::readZip;

QStringList matching(const QMap<QString, QByteArray> &files, const QString &pattern)
{
    QStringList out;
    const QRegularExpression re(pattern);
    for (auto it = files.cbegin(); it != files.cend(); ++it)
        if (re.match(it.key()).hasMatch())
            out.append(it.key());
    return out;
}
} // namespace

class TestExport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv(sbtest::kEnvKeyName.toLatin1().constData(), sbtest::kEnvKey.toUtf8());
    }
    void init() { sbtest::failOnQtWarnings(); }

    void exportWithCharts()
    {
        const QString folder = m_dir.filePath(QStringLiteral("results"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        const QString zip = m_dir.filePath(QStringLiteral("report.zip"));
        QString error;
        ExportOutcome outcome;
        QVERIFY2(exportReport(folder, zip, &error, &outcome), qPrintable(error));
        QVERIFY2(outcome.warnings.filter(QStringLiteral("chart")).isEmpty(), qPrintable(outcome.warnings.join(QLatin1Char('\n'))));
        const auto files = readZip(zip);
        const QStringList svgs = matching(files, QStringLiteral("^charts/[a-z0-9_]+\\.svg$"));
        const QStringList pngs = matching(files, QStringLiteral("^charts/[a-z0-9_]+\\.png$"));
        QVERIFY(!svgs.isEmpty());
        QCOMPARE(pngs.size(), svgs.size());
        for (const QString &s : svgs) {
            QVERIFY2(files.value(s).contains("<svg"), qPrintable(s));
            QVERIFY2(!files.value(s).contains(sbtest::kEvilServer.toUtf8()), "raw server name in an SVG"); // QSvgGenerator escapes text
        }
        for (const QString &p : pngs) {
            QImage img;
            QVERIFY2(img.loadFromData(files.value(p), "PNG"), qPrintable(p));
            QCOMPARE(img.size(), QSize(1000, 640));
        }
        const QString html = QString::fromUtf8(files.value(QStringLiteral("report.html")));
        for (const QString &s : svgs)
            QVERIFY2(html.contains(QStringLiteral("src=\"%1\"").arg(s)), qPrintable(s));
        QVERIFY(!html.contains(QRegularExpression(QStringLiteral("https?://"), QRegularExpression::CaseInsensitiveOption)));
        QVERIFY(html.contains(QStringLiteral("&lt;b&gt;alpha&lt;/b&gt; &amp; co")));
        for (const QString &name : {QStringLiteral("sweep.yaml"), QStringLiteral("results.json"), QStringLiteral("results.csv"),
                                    QStringLiteral("manifest.json"), QStringLiteral("cells/000-alpha-c1/records.jsonl")})
            QVERIFY2(files.contains(name), qPrintable(name));
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            QVERIFY2(!it.value().contains(sbtest::kApiKey.toUtf8()), qPrintable(it.key()));
            QVERIFY2(!it.value().contains(sbtest::kEnvKey.toUtf8()), qPrintable(it.key()));
        }
        const auto back = loadResults(zip, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->results.cells.size(), 4);
    }

    void exportCommand()
    {
        const QString folder = m_dir.filePath(QStringLiteral("cli"));
        QVERIFY(sbtest::writeSampleFolder(folder, true));
        const QString spec = m_dir.filePath(QStringLiteral("ran.yaml"));
        QVERIFY(sbtest::writeFile(spec, sbtest::sampleSpecYaml(true)));
        const QString zip = m_dir.filePath(QStringLiteral("cli.zip"));
        QCOMPARE(runExportCommand({folder, QStringLiteral("-o"), zip, QStringLiteral("--spec"), spec}), 0);
        const auto files = readZip(zip);
        QVERIFY(!matching(files, QStringLiteral("^charts/.*\\.svg$")).isEmpty());
        QVERIFY(!matching(files, QStringLiteral("^charts/.*\\.png$")).isEmpty());
        QVERIFY(!sbtest::readFile(zip).contains(sbtest::kApiKey.toUtf8()));
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            QVERIFY2(!it.value().contains(sbtest::kApiKey.toUtf8()), qPrintable(it.key()));

        QCOMPARE(runExportCommand({}), 2);
        QCOMPARE(runExportCommand({folder, QStringLiteral("-o"), folder + QStringLiteral("/inside.zip")}), 2);
        QCOMPARE(runExportCommand({m_dir.filePath(QStringLiteral("missing")), QStringLiteral("-o"), zip}), 2);
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/inside.zip")));
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
