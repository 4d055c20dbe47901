// Server-provided text shown in a terminal or a widget: control and bidi characters are made
// visible instead of acting (an ANSI escape cannot recolour the terminal, U+202E cannot flip a
// verdict), ordinary text of any script is left alone.
#include "TestSupport.h"
#include "report/DisplayText.h"
#include "report/SummaryCommand.h"
#include <QTest>

using namespace sb;

class TestDisplayText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void escapes_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("keep");
        QTest::addColumn<QString>("single");
        QTest::newRow("plain") << QStringLiteral("HTTP 200: ok") << QStringLiteral("HTTP 200: ok") << QStringLiteral("HTTP 200: ok");
        QTest::newRow("ansi") << QStringLiteral("\x1b[31mred\x1b[0m") << QStringLiteral("\\x1b[31mred\\x1b[0m") << QStringLiteral("\\x1b[31mred\\x1b[0m");
        QTest::newRow("newline, tab") << QStringLiteral("a\nb\tc") << QStringLiteral("a\nb\tc") << QStringLiteral("a b c");
        QTest::newRow("carriage return") << QStringLiteral("ok\rfailed") << QStringLiteral("ok\\x0dfailed")
                                         << QStringLiteral("ok failed");
        QTest::newRow("nul, bell, del") << QString::fromUtf8("a\0b\x07\x7f", 5) << QStringLiteral("a\\x00b\\x07\\x7f") << QStringLiteral("a\\x00b\\x07\\x7f");
        QTest::newRow("C1 CSI") << QString(QChar(0x9b)) + QStringLiteral("2J") << QStringLiteral("\\x9b2J") << QStringLiteral("\\x9b2J");
        QTest::newRow("RLO") << QString::fromUtf8("verdict: \u202Ekooc") << QStringLiteral("verdict: \\u202ekooc") << QStringLiteral("verdict: \\u202ekooc");
        QTest::newRow("isolates, marks") << QString::fromUtf8("\u2066a\u2069\u200e\u200f\u061c") << QStringLiteral("\\u2066a\\u2069\\u200e\\u200f\\u061c")
                                         << QStringLiteral("\\u2066a\\u2069\\u200e\\u200f\\u061c");
        QTest::newRow("zero width, bom") << QString::fromUtf8("a\u200bb\ufeff") << QStringLiteral("a\\u200bb\\ufeff") << QStringLiteral("a\\u200bb\\ufeff");
        QTest::newRow("line separator") << QString::fromUtf8("a\u2028b") << QStringLiteral("a\\u2028b") << QStringLiteral("a\\u2028b");
        QTest::newRow("lone surrogate") << QString(QChar(0xd800)) + QStringLiteral("x") << QStringLiteral("\\ud800x") << QStringLiteral("\\ud800x");
        QTest::newRow("scripts and emoji stay") << QString::fromUtf8("Grüße ∑ 東京 مرحبا 🚀") << QString::fromUtf8("Grüße ∑ 東京 مرحبا 🚀")
                                                << QString::fromUtf8("Grüße ∑ 東京 مرحبا 🚀");
    }
    void escapes()
    {
        QFETCH(QString, in);
        QFETCH(QString, keep);
        QFETCH(QString, single);
        QCOMPARE(displaySafe(in), keep);
        QCOMPARE(displaySafe(in, DisplayLines::Single), single);
    }

    void summaryTableShowsControlsEscaped()
    {
        SweepResults r;
        CellResult c;
        c.server = QString::fromUtf8("evil\x1b]0;pwned\x07\u202Egnp.exe");
        c.concurrency = 1;
        c.status = CellStatus::Completed;
        HookOutcome h;
        h.hook = HookKind::Reset;
        h.verdict = HookVerdict::Refused; // a verdict is one of six names now: no text from the file
        c.hooks.append(h);
        r.cells.append(c);
        const QString table = formatSummaryTable(r);
        QVERIFY2(table.contains(QStringLiteral("evil\\x1b]0;pwned\\x07\\u202egnp.exe")), qPrintable(table));
        QVERIFY(table.contains(QStringLiteral("reset_kv_cache=refused")));
        for (const QChar ch : table)
            QVERIFY2(ch == QLatin1Char('\n') || !(ch.category() == QChar::Other_Control || ch.category() == QChar::Other_Format),
                     qPrintable(QString::number(ch.unicode(), 16)));
    }
};

QTEST_GUILESS_MAIN(TestDisplayText)
#include "tst_display_text.moc"
