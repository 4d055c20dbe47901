// The workbench's own command-line options (--theme, --size, --tab, --chart, --compare with --screenshot): parsed
// with clear errors, and a screenshot of a result set on disk really has the asked size, tab
// and palette (the README's light/dark, 1600x1000 and 1024x700 pictures are made this way).
#include "GuiMain.h"
#include "commands/GuiCli.h"
#include "ResultsFixture.h"
#include "TestSupport.h"
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {
// Mean lightness (0-255) of the picture's pixels: the palette, not any one widget.
int meanLightness(const QImage &img)
{
    qint64 sum = 0, n = 0;
    for (int y = 0; y < img.height(); y += 7)
        for (int x = 0; x < img.width(); x += 7, ++n)
            sum += QColor(img.pixel(x, y)).lightness();
    return n ? int(sum / n) : 0;
}
} // namespace

class TestGuiOptions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void parsed()
    {
        GuiOptions o;
        QString error;
        QVERIFY(parseGuiOption(QStringLiteral("--theme"), QStringLiteral("dark"), &o, &error));
        QCOMPARE(o.theme, QStringLiteral("dark"));
        QVERIFY(parseGuiOption(QStringLiteral("--size"), QStringLiteral("1024x700"), &o, &error));
        QCOMPARE(o.size, QSize(1024, 700));
        QVERIFY(parseGuiOption(QStringLiteral("--tab"), QStringLiteral("design"), &o, &error));
        QCOMPARE(o.tab, QStringLiteral("design"));
        QVERIFY(parseGuiOption(QStringLiteral("--tab"), QStringLiteral("trace"), &o, &error)); // Results with the Trace tab
        QCOMPARE(o.tab, QStringLiteral("trace"));
        QVERIFY(!parseGuiOption(QStringLiteral("--theme"), QStringLiteral("blue"), &o, &error));
        QVERIFY2(error.contains(QStringLiteral("light or dark")), qPrintable(error));
        for (const char *bad : {"1024", "1024x", "x700", "10x10", "99999x700", "wide x tall"}) {
            QVERIFY2(!parseGuiOption(QStringLiteral("--size"), QLatin1String(bad), &o, &error), bad);
            QVERIFY2(error.contains(QStringLiteral("WIDTHxHEIGHT")), qPrintable(error));
        }
        QVERIFY(!parseGuiOption(QStringLiteral("--tab"), QStringLiteral("hooks"), &o, &error));
        QCOMPARE(o.size, QSize(1024, 700)); // a refused value changes nothing
        // The left chart of Results and Compare (the Pareto view for screenshots).
        for (const char *chart : {"latency", "pareto", "pareto-ttft", "pareto-energy", "pareto-cost"}) {
            QVERIFY(parseGuiOption(QStringLiteral("--chart"), QLatin1String(chart), &o, &error));
            QCOMPARE(o.chart, QLatin1String(chart));
        }
        QVERIFY(!parseGuiOption(QStringLiteral("--chart"), QStringLiteral("pie"), &o, &error));
        QVERIFY2(error.contains(QStringLiteral("latency, pareto, pareto-ttft, pareto-energy or pareto-cost")), qPrintable(error));
    }

    void screenshotOfAResultSet()
    {
        const QString binary = qEnvironmentVariable("SWEEPBENCH_BINARY");
        if (binary.isEmpty())
            QSKIP("SWEEPBENCH_BINARY not set");
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("results"));
        QVERIFY(sbtest::writeResultsFolder(folder, sbtest::makeSweepResults(), 10));
        const auto shoot = [&](const QStringList &extra, QImage *img) {
            const QString png = dir.filePath(QStringLiteral("shot.png"));
            QFile::remove(png);
            QProcess p;
            p.setProcessChannelMode(QProcess::MergedChannels);
            p.start(binary, QStringList{folder, QStringLiteral("--screenshot"), png} + extra);
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitCode() == 0, p.readAll().constData());
            QVERIFY(img->load(png));
        };
        QImage light, dark, design;
        shoot({QStringLiteral("--size"), QStringLiteral("1024x700")}, &light);
        QCOMPARE(light.size(), QSize(1024, 700));
        shoot({QStringLiteral("--size"), QStringLiteral("1024x700"), QStringLiteral("--theme"), QStringLiteral("dark")}, &dark);
        QCOMPARE(dark.size(), QSize(1024, 700));
        QVERIFY2(meanLightness(light) > meanLightness(dark) + 60,
                 qPrintable(QStringLiteral("light %1, dark %2").arg(meanLightness(light)).arg(meanLightness(dark))));
        shoot({QStringLiteral("--size"), QStringLiteral("1024x700"), QStringLiteral("--tab"), QStringLiteral("design")}, &design);
        QVERIFY(design != light); // another tab in front
        QImage pareto;
        shoot({QStringLiteral("--size"), QStringLiteral("1024x700"), QStringLiteral("--chart"), QStringLiteral("pareto")}, &pareto);
        QVERIFY(pareto != light); // another chart on the left
        // --compare fills the Compare tab: a picture of it without opening anything in Results.
        QImage emptyCompare, compare;
        shoot({QStringLiteral("--size"), QStringLiteral("1024x700"), QStringLiteral("--tab"), QStringLiteral("compare")}, &emptyCompare);
        QProcess p;
        const QString png = dir.filePath(QStringLiteral("compare.png"));
        p.start(binary, {QStringLiteral("--compare"), folder, QStringLiteral("--compare"), folder, QStringLiteral("--screenshot"), png,
                         QStringLiteral("--tab"), QStringLiteral("compare"), QStringLiteral("--size"), QStringLiteral("1024x700")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(compare.load(png));
        QVERIFY(compare != emptyCompare);

        QProcess bad;
        bad.start(binary, {folder, QStringLiteral("--size"), QStringLiteral("huge")});
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
    }
};

QTEST_MAIN(TestGuiOptions)
#include "tst_gui_options.moc"
