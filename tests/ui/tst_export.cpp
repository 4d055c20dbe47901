// The chart-bearing export: `sweepbench export` and File → Export report, rendered offscreen.
#include "TestSupport.h"
#include "charts/ChartExport.h"
#include "../fixtures/ReportTestData.h"
#include "commands/ExportCli.h"
#include "report/ExportFlow.h"
#include "results/HookSeverity.h"
#include "style/Theme.h"
#include <QAbstractButton>
#include <QCheckBox>
#include <QFile>
#include <QJsonDocument>
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
            // Every text of a chart is a document's size, in a family every SVG reader knows.
            static const QRegularExpression text(QStringLiteral("<text [^>]*font-family=\"([^\"]*)\" font-size=\"([^\"]*)\""));
            int texts = 0;
            for (auto it = text.globalMatch(QString::fromUtf8(files.value(s))); it.hasNext(); ++texts) {
                const auto m = it.next();
                QCOMPARE(m.captured(1), QStringLiteral("sans-serif"));
                QVERIFY2(m.captured(2).toDouble() >= kDocumentChartMinPixelSize, qPrintable(s + QStringLiteral(": font-size ") + m.captured(2)));
            }
            QVERIFY2(texts >= 5, qPrintable(s)); // title, axis titles, ticks, legend
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

    // report.html draws hook outcomes with the app's one icon set (ui/icons/verdict-*.svg).
    void reportUsesTheIconSet()
    {
        const QString folder = m_dir.filePath(QStringLiteral("icons"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        const QString zip = m_dir.filePath(QStringLiteral("icons.zip"));
        QString error;
        QVERIFY2(exportReport(folder, zip, &error), qPrintable(error));
        const QString html = QString::fromUtf8(readZip(zip).value(QStringLiteral("report.html")));
        for (HookSeverity s : {HookSeverity::Ok, HookSeverity::Failed}) {
            QFile icon(QStringLiteral(":/ui/icons/%1.svg").arg(hookSeverityIconName(s)));
            QVERIFY(icon.open(QIODevice::ReadOnly));
            QVERIFY2(html.contains(QStringLiteral(".hk%1{background-image:url(\"data:image/svg+xml;base64,%2\")")
                                       .arg(int(s))
                                       .arg(QString::fromLatin1(icon.readAll().toBase64()))),
                     qPrintable(hookSeverityIconName(s)));
        }
        QVERIFY(html.contains(QStringLiteral("class=\"hk hk3 bad\"")));
    }

    void traceChoiceShowsCountAndSize()
    {
        TraceChoiceBox box(TraceTotals{3, 1, qint64(1536) * 1024});
        auto *check = box.findChild<QCheckBox *>(QStringLiteral("includeTraces"));
        QVERIFY(check);
        QCOMPARE(check->text(), QStringLiteral("Include the profiler traces in the zip (3 file(s), 1.5 MiB; 1 no longer on disk)"));
        QVERIFY(!check->isChecked()); // out unless asked for
        QVERIFY(!box.includeTraces());
        check->setChecked(true);
        QVERIFY(box.includeTraces());
        QVERIFY(traceChoiceText(TraceTotals{1, 0, kMaxBundledTraceBytes + 1}).contains(QStringLiteral("only the first 512.0 MiB fit")));
    }

    // The choice reaches the bundle: traces copied and linked; the success box offers to open the
    // folder or the report, which is unpacked with the files it shows.
    void tracesIncludedAndReportOpens()
    {
        const QString folder = m_dir.filePath(QStringLiteral("traced"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        SweepResults r = sbtest::sampleResults();
        for (CellResult &c : r.cells) {
            c.traces = {m_dir.filePath(QStringLiteral("server-traces/%1/rank-0.json").arg(c.index))};
            QVERIFY(sbtest::writeFile(c.traces.first(), "{\"traceEvents\": []}"));
        }
        QVERIFY(sbtest::writeFile(folder + QStringLiteral("/results.json"), QJsonDocument(toJson(r)).toJson()));
        const QString zip = m_dir.filePath(QStringLiteral("traced.zip"));
        QString error;
        ExportOutcome outcome;
        QVERIFY2(exportReport(folder, zip, &error, &outcome, {}, ExportChoices{true}), qPrintable(error));
        QVERIFY(outcome.files.contains(QStringLiteral("traces/003/rank-0.json")));

        ExportSuccessBox box(zip, outcome.warnings);
        QCOMPARE(box.openFolderButton()->text(), QStringLiteral("Open folder"));
        QCOMPARE(box.openReportButton()->text(), QStringLiteral("Open report"));
        QVERIFY(box.text().contains(QDir::toNativeSeparators(zip)));

        QString html;
        QVERIFY2(unpackReportForViewing(zip, m_dir.filePath(QStringLiteral("view")), &html, &error), qPrintable(error));
        const QString page = QString::fromUtf8(sbtest::readFile(html));
        QVERIFY(page.contains(QStringLiteral("href=\"traces/003/rank-0.json\"")));
        const QDir base = QFileInfo(html).dir();
        QVERIFY(base.exists(QStringLiteral("traces/003/rank-0.json")));
        QVERIFY(base.exists(QStringLiteral("charts/throughput_vs_ttft_p99.svg")));
        // exporting the same zip again replaces the viewing folder
        QVERIFY2(unpackReportForViewing(zip, m_dir.filePath(QStringLiteral("view")), &html, &error), qPrintable(error));
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
