// Report bundle (core part: everything but the chart rendering), summary table, secret scrubbing.
#include "TestSupport.h"
#include "../fixtures/ReportTestData.h"
#include "report/BundleWriter.h"
#include "report/CsvField.h"
#include "report/ResultsCsv.h"
#include "report/ResultsLoader.h"
#include "report/SecretScrub.h"
#include "commands/SummaryCli.h"
#include "report/SummaryCommand.h"
#include <sys/stat.h>
#include <QCryptographicHash>
#include <QDirIterator>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <quazip/quazip.h>
#include <quazip/quazipfile.h>

using namespace sb;

namespace {
using sbtest::readZip;

// Every file under dir with its content, for "the export did not touch the results folder".
QMap<QString, QByteArray> snapshot(const QString &dir)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        out.insert(QDir(dir).relativeFilePath(f), sbtest::readFile(f));
    }
    return out;
}

bool anyContains(const QMap<QString, QByteArray> &files, const QString &needle, QString *where)
{
    for (auto it = files.cbegin(); it != files.cend(); ++it)
        if (it.value().contains(needle.toUtf8()) || it.key().contains(needle)) {
            *where = it.key();
            return true;
        }
    return false;
}
} // namespace

class TestReport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv(sbtest::kEnvKeyName.toLatin1().constData(), sbtest::kEnvKey.toUtf8());
    }
    void init() { sbtest::failOnQtWarnings(); }

    void bundleFromTheLoadedSet()
    {
        // The GUI loads a set once, charts it and bundles that same set: the bundle is written
        // from the caller's LoadedResults, not from a second load of the folder.
        const QString folder = m_dir.filePath(QStringLiteral("res-loaded"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        QString error;
        std::optional<LoadedResults> loaded = loadResults(folder, &error);
        QVERIFY2(loaded, qPrintable(error));
        QVERIFY(QFile::remove(folder + QStringLiteral("/results.json"))); // a second load would fail now
        loaded->results.sweepName = QStringLiteral("as-loaded");
        const QString zip = m_dir.filePath(QStringLiteral("out-loaded/loaded.zip"));
        BundleReport report;
        QVERIFY2(writeBundle(*loaded, zip, BundleOptions(), &report, &error), qPrintable(error));
        const auto files = readZip(zip);
        QVERIFY(files.value(QStringLiteral("report.html")).contains("as-loaded"));
        QCOMPARE(files.value(QStringLiteral("results.csv")), resultsCsv(loaded->results));
        // The path form still loads for itself, and says so when it cannot.
        QVERIFY(!writeBundle(folder, zip, BundleOptions(), nullptr, &error));
    }

    void bundleHoldsEveryFile()
    {
        const QString folder = m_dir.filePath(QStringLiteral("res1"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        BundleOptions options;
        options.chartFiles = {{QStringLiteral("charts/a.svg"), "<svg/>"}, {QStringLiteral("charts/a.png"), "\x89PNG"}};
        options.charts = {{QStringLiteral("A <chart>"), QStringLiteral("charts/a.svg"), QStringLiteral("charts/a.png")}};
        const QString zip = m_dir.filePath(QStringLiteral("out/report1.zip"));
        BundleReport report;
        QString error;
        const mode_t oldMask = ::umask(022);
        const bool written = writeBundle(folder, zip, options, &report, &error);
        ::umask(oldMask);
        QVERIFY2(written, qPrintable(error));
        // The zip is for sharing: it follows the umask (0644 here), like any file the user saves.
        QCOMPARE(QFileInfo(zip).permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::ReadGroup | QFile::ReadOther);
        const auto files = readZip(zip);
        for (const QString &name : {QStringLiteral("sweep.yaml"), QStringLiteral("results.json"), QStringLiteral("results.csv"),
                                    QStringLiteral("report.html"), QStringLiteral("manifest.json"), QStringLiteral("charts/a.svg"),
                                    QStringLiteral("charts/a.png")})
            QVERIFY2(files.contains(name), qPrintable(name));
        const SweepResults r = sbtest::sampleResults();
        for (const CellResult &c : r.cells) {
            QVERIFY2(files.contains(c.recordsPath), qPrintable(c.recordsPath));
            QCOMPARE(files.value(c.recordsPath).count('\n'), 8);
        }
        QCOMPARE(report.files.size(), files.size());
        // No leftovers of the atomic write.
        QCOMPARE(QDir(m_dir.filePath(QStringLiteral("out"))).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("report1.zip")});

        // manifest: every other file with its sha256 and size, plus tool/Qt versions.
        const QJsonObject manifest = QJsonDocument::fromJson(files.value(QStringLiteral("manifest.json"))).object();
        QCOMPARE(manifest.value(QStringLiteral("tool")).toObject().value(QStringLiteral("version")).toString(), QStringLiteral(SWEEPBENCH_VERSION));
        QCOMPARE(manifest.value(QStringLiteral("qt_version")).toString(), QString::fromLatin1(qVersion()));
        QVERIFY(!manifest.value(QStringLiteral("created_at")).toString().isEmpty());
        QVERIFY(!manifest.value(QStringLiteral("host")).toObject().value(QStringLiteral("hostname")).toString().isEmpty());
        const QJsonArray list = manifest.value(QStringLiteral("files")).toArray();
        QCOMPARE(list.size(), files.size() - 1);
        for (const QJsonValue &v : list) {
            const QJsonObject f = v.toObject();
            const QByteArray data = files.value(f.value(QStringLiteral("path")).toString());
            QCOMPARE(f.value(QStringLiteral("sha256")).toString(), QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex()));
            QCOMPARE(f.value(QStringLiteral("size")).toInteger(), qint64(data.size()));
        }

        // results.json round-trips.
        SweepResults back;
        QVERIFY(sweepResultsFromJson(QJsonDocument::fromJson(files.value(QStringLiteral("results.json"))).object(), &back, &error));
        QCOMPARE(back.cells.size(), 4);

        // results.csv: header + a row per cell; the awkward name quoted as one field.
        const QList<QByteArray> lines = files.value(QStringLiteral("results.csv")).split('\n');
        QCOMPARE(lines.size(), 6); // header, 4 rows, trailing empty
        QVERIFY(lines[0].startsWith("cell,server,origin,concurrency,status"));
        QVERIFY(lines[0].contains("ttft_p99_ms") && lines[0].contains("itl_p50_ms") && lines[0].contains("request_latency_p90_ms"));
        QVERIFY(lines[0].contains("output_token_throughput_tok_s") && lines[0].contains("goodput_req_s") && lines[0].contains("hook_verdicts"));
        QVERIFY(lines[1].startsWith("0,<b>alpha</b> & co,"));
        QVERIFY(lines[3].contains("reset_kv_cache=ok profiler_start=route_missing"));
    }

    void csvQuotingAndFormulas()
    {
        SweepResults r = sbtest::sampleResults();
        r.cells[0].server = QStringLiteral("a,\"b\"");
        r.cells[1].server = QStringLiteral("=HYPERLINK(1)");
        const QList<QByteArray> lines = resultsCsv(r).split('\n');
        QVERIFY(lines[1].startsWith("0,\"a,\"\"b\"\"\","));
        QVERIFY(lines[2].startsWith("1,'=HYPERLINK(1),"));
        QVERIFY(lines[1].endsWith("\r"));
    }

    // The one escaper behind results.csv and the clipboard copies.
    void csvFieldGuardsFormulasButNotNumbers()
    {
        QCOMPARE(csvField(QStringLiteral("vllm-a")), QStringLiteral("vllm-a"));
        QCOMPARE(csvField(QStringLiteral("=1+2")), QStringLiteral("'=1+2"));
        QCOMPARE(csvField(QStringLiteral("+cmd")), QStringLiteral("'+cmd"));
        QCOMPARE(csvField(QStringLiteral("-2+3")), QStringLiteral("'-2+3"));
        QCOMPARE(csvField(QStringLiteral("@SUM(A1)")), QStringLiteral("'@SUM(A1)"));
        QCOMPARE(csvField(QStringLiteral("\tx")), QStringLiteral("'\tx"));
        QCOMPARE(csvField(QStringLiteral("\rx")), QStringLiteral("\"'\rx\""));
        QCOMPARE(csvField(QStringLiteral("=A1,\"B\"")), QStringLiteral("\"'=A1,\"\"B\"\"\""));
        QCOMPARE(csvField(QStringLiteral("a\nb")), QStringLiteral("\"a\nb\""));
        // numbers stay numbers when pasted
        for (const char *n : {"-1", "-0.5", "-2.5e-07", "-.5", "12", "1e+20"})
            QCOMPARE(csvField(QString::fromLatin1(n)), QString::fromLatin1(n));
        QCOMPARE(csvField(QString()), QString());
    }

    void htmlEscapesAndLoadsNothing()
    {
        const QString folder = m_dir.filePath(QStringLiteral("res2"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        const QString zip = m_dir.filePath(QStringLiteral("report2.zip"));
        BundleOptions options;
        options.chartFiles = {{QStringLiteral("charts/t.svg"), "<svg/>"}};
        options.charts = {{QStringLiteral("T"), QStringLiteral("charts/t.svg"), QString()}};
        QString error;
        QVERIFY2(writeBundle(folder, zip, options, nullptr, &error), qPrintable(error));
        const QString html = QString::fromUtf8(readZip(zip).value(QStringLiteral("report.html")));
        QVERIFY(html.contains(QStringLiteral("&lt;b&gt;alpha&lt;/b&gt; &amp; co")));
        QVERIFY(!html.contains(QStringLiteral("<b>alpha")));
        QVERIFY(!html.contains(QStringLiteral("<script>")));
        QVERIFY(html.contains(QStringLiteral("&lt;i&gt;Not Found&lt;/i&gt;")));
        QVERIFY2(!html.contains(QRegularExpression(QStringLiteral("https?://"), QRegularExpression::CaseInsensitiveOption)),
                 "report.html names an http(s) URL");
        QVERIFY(!html.contains(QStringLiteral("<script")) && !html.contains(QStringLiteral("<link")) && !html.contains(QStringLiteral("@import")));
        QVERIFY(html.contains(QStringLiteral("Content-Security-Policy")));
        // Charts and records by relative path; traces not bundled by file name only, never as a
        // path into the author's machine (tst_report_page covers bundled traces).
        QVERIFY(html.contains(QStringLiteral("<img src=\"charts/t.svg\"")));
        QVERIFY(html.contains(QStringLiteral("href=\"cells/000-alpha-c1/records.jsonl\"")));
        QVERIFY(html.contains(QStringLiteral(">trace-c1.json<")));
        QVERIFY(!html.contains(QStringLiteral("/var/traces")));
        QVERIFY(html.contains(QStringLiteral("reset_kv_cache")) && html.contains(QStringLiteral("route_missing")));
        QVERIFY(html.contains(QStringLiteral("bench-01"))); // run metadata
    }

    void secretsNeverLeave_data()
    {
        QTest::addColumn<bool>("keyInSpec");
        QTest::newRow("engine stripped the spec") << false;
        QTest::newRow("raw api_key left in sweep.yaml") << true;
    }
    void secretsNeverLeave()
    {
        QFETCH(bool, keyInSpec);
        const QString folder = m_dir.filePath(keyInSpec ? QStringLiteral("leaky") : QStringLiteral("clean"));
        QVERIFY(sbtest::writeSampleFolder(folder, keyInSpec));
        const auto before = snapshot(folder);
        const QString zip = m_dir.filePath(keyInSpec ? QStringLiteral("leaky.zip") : QStringLiteral("clean.zip"));
        // The spec the user ran (with its key) is passed as well, as `export --spec` does.
        BundleOptions options;
        options.extraSpecs = {sbtest::sampleSpecYaml(true)};
        BundleReport report;
        QString error;
        QVERIFY2(writeBundle(folder, zip, options, &report, &error), qPrintable(error));
        QCOMPARE(snapshot(folder), before); // the results folder is never written to
        const auto files = readZip(zip);
        QString where;
        QVERIFY2(!anyContains(files, sbtest::kApiKey, &where), qPrintable(where));
        QVERIFY2(!anyContains(files, sbtest::kEnvKey, &where), qPrintable(where));
        QVERIFY(!sbtest::readFile(zip).contains(sbtest::kApiKey.toUtf8()));
        QVERIFY(report.redactions >= 1); // the echoed env key in an error sample
        const QByteArray yaml = files.value(QStringLiteral("sweep.yaml"));
        QVERIFY(!yaml.contains("api_key:"));
        QVERIFY(yaml.contains("api_key_env")); // names are fine
        QVERIFY(yaml.contains("alpha"));
    }

    void stripSpecUsesTheSpecWriter()
    {
        // A valid spec goes through loadSpecText + saveSpecYaml(Strip), not the fallback.
        const StrippedSpec s = stripSpecYaml(sbtest::sampleSpecYaml(true));
        QVERIFY2(s.warnings.isEmpty(), qPrintable(s.warnings.join(QLatin1Char('\n'))));
        QVERIFY(s.secrets.contains(sbtest::kApiKey));
        QVERIFY(s.secrets.contains(sbtest::kEnvKey)); // resolved from api_key_env
        QVERIFY(!s.yaml.contains(sbtest::kApiKey.toUtf8()));
    }

    void stripSpecFallsBackStructurally()
    {
        // Not a valid spec (unknown key), still YAML: the api_key goes, the rest stays.
        const QByteArray yaml = "name: x\nbogus_key: 1\nservers:\n  - name: a\n    url: http://h:1\n    api_key: \"sk-abcdefgh-123\"\n";
        const StrippedSpec s = stripSpecYaml(yaml);
        QVERIFY(s.secrets.contains(QStringLiteral("sk-abcdefgh-123")));
        QVERIFY(!s.yaml.contains("sk-abcdefgh-123"));
        QVERIFY(s.yaml.contains("bogus_key") || !s.warnings.isEmpty());
        // Credential headers count as secrets too.
        const QStringList h = secretsInSpec("servers:\n  - name: a\n    headers:\n      Authorization: Bearer tok-1234567\n");
        QVERIFY(h.contains(QStringLiteral("tok-1234567")));
        QByteArray text = "x \"tok-1234567\" y Bearer tok-1234567";
        QCOMPARE(redactSecrets(&text, h), 2);
        QVERIFY(!containsSecret(text, h));
    }

    void summaryReadsTheZipBack()
    {
        const QString folder = m_dir.filePath(QStringLiteral("res3"));
        QVERIFY(sbtest::writeSampleFolder(folder));
        const QString zip = m_dir.filePath(QStringLiteral("report3.zip"));
        QString error;
        QVERIFY2(writeBundle(folder, zip, BundleOptions(), nullptr, &error), qPrintable(error));
        const auto loaded = loadResults(zip, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.cells.size(), 4);
        QVERIFY(!loaded->specYaml.isEmpty());
        const QString table = formatSummaryTable(loaded->results);
        const QStringList lines = table.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2 + 4);
        QVERIFY(lines[0].startsWith(QStringLiteral("server")) && lines[0].contains(QStringLiteral("TTFT p99 ms")));
        QVERIFY(lines[2].startsWith(sbtest::kEvilServer));
        QVERIFY(lines[5].contains(QStringLiteral("route_missing")));
        // Columns line up: "C" values end in the same column as the header's "C".
        const qsizetype cEnd = lines[0].indexOf(QStringLiteral(" C ")) + 2;
        for (int i = 2; i < lines.size(); ++i)
            QVERIFY2(lines[i].at(cEnd - 1).isDigit() && lines[i].at(cEnd) == QLatin1Char(' '), qPrintable(lines[i]));
        QVERIFY(lines[2].contains(QStringLiteral("10.00"))); // TTFT p50 of cell 0
        QCOMPARE(runSummaryCommand({zip}), 0);
        QCOMPARE(runSummaryCommand({sbtest::sourcePath(QStringLiteral("tests/fixtures/aiperf/sweep"))}), 0);
        QCOMPARE(runSummaryCommand({m_dir.filePath(QStringLiteral("missing"))}), 2);
        QCOMPARE(runSummaryCommand({}), 2);
    }

    void importedResultsExportToo()
    {
        // An AIPerf folder exports as a bundle whose results.json is ours, with source_tool kept.
        const QString zip = m_dir.filePath(QStringLiteral("aiperf.zip"));
        QString error;
        QVERIFY2(writeBundle(sbtest::sourcePath(QStringLiteral("tests/fixtures/aiperf/sweep")), zip, BundleOptions(), nullptr, &error), qPrintable(error));
        const auto loaded = loadResults(zip, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->results.sourceTool, QStringLiteral("aiperf"));
        QCOMPARE(loaded->results.cells.size(), 3);
    }

    void failedExportKeepsTheOldZip()
    {
        const QString zip = m_dir.filePath(QStringLiteral("keep.zip"));
        QVERIFY(sbtest::writeFile(zip, "old"));
        QString error;
        QVERIFY(!writeBundle(m_dir.filePath(QStringLiteral("nope")), zip, BundleOptions(), nullptr, &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(sbtest::readFile(zip), QByteArray("old"));
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
