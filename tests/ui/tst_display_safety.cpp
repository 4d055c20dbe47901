// The GUI shows server-provided text (cell reasons, hook messages, the run log) with control and
// bidi characters made visible: a U+202E in a message cannot reverse what the user reads, an ANSI
// or NUL byte cannot hide the rest.
#include "TestSupport.h"
#include "designer/HookCheckModel.h"
#include "text/HookOutcomeText.h"
#include "results/CellDetail.h"
#include "results/HookSummary.h"
#include "results/SweepAxis.h"
#include "results/ResultsTableModel.h"
#include "run/HookLogModel.h"
#include <QApplication>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {
const QString kHostile = QString::fromUtf8("refused \u202Eko\u202C \x1b[2J\u2066x\u2069");

bool hasUnsafe(const QString &s)
{
    for (const QChar ch : s)
        if (ch != QLatin1Char('\n') && ch != QLatin1Char('\t')
            && (ch.category() == QChar::Other_Control || ch.category() == QChar::Other_Format))
            return true;
    return false;
}

CellResult hostileCell()
{
    CellResult c;
    c.server = QString::fromUtf8("srv\u202E1");
    c.concurrency = 4;
    c.status = CellStatus::Failed;
    c.reason = kHostile;
    HookOutcome h;
    h.hook = HookKind::Reset;
    h.method = QStringLiteral("POST");
    h.path = QStringLiteral("/reset");
    h.verdict = HookVerdict::Refused;
    h.status = 200;
    h.attempts = 1;
    h.message = kHostile;
    c.hooks.append(h);
    c.errors.insert(QStringLiteral("http_401"), 1);
    c.errorSamples.insert(QStringLiteral("http_401"), kHostile);
    c.warnings.append(kHostile);
    return c;
}
} // namespace

class TestDisplaySafety : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void resultsTableToolTips()
    {
        ResultsTableModel model;
        SweepResults r;
        r.cells.append(hostileCell());
        model.setResults(r);
        for (int col : {int(ResultsTableModel::ServerColumn), int(ResultsTableModel::StatusColumn), int(ResultsTableModel::ResetColumn)}) {
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
                const QString text = model.index(0, col).data(role).toString();
                QVERIFY2(!hasUnsafe(text), qPrintable(QStringLiteral("column %1 role %2").arg(col).arg(role)));
            }
        }
        const QString tip = model.index(0, ResultsTableModel::StatusColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("\\u202eko\\u202c \\x1b[2J")), qPrintable(tip));
        QVERIFY(model.index(0, ResultsTableModel::ServerColumn).data().toString().contains(QStringLiteral("srv\\u202e1")));
    }

    void hookToolTipsAndRunLog()
    {
        const CellResult c = hostileCell();
        QVERIFY(!hasUnsafe(ui::hookOutcomeToolTip(c.hooks[0])));
        QVERIFY(ui::hookOutcomeToolTip(c.hooks[0]).contains(QStringLiteral("\\u202eko")));
        QVERIFY(!hasUnsafe(describeHookOutcome(c.hooks[0])));
        ui::HookLogModel log;
        log.append({ui::HookLogModel::Entry{0, c.server, pointLabel(c), c.hooks[0]}});
        for (int col = 0; col < ui::HookLogModel::ColumnCount; ++col)
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)})
                QVERIFY2(!hasUnsafe(log.index(0, col).data(role).toString()), qPrintable(QString::number(col)));
    }

    void cellDetailPane()
    {
        const QString html = cellDetailHtml(hostileCell(), QString());
        QVERIFY(!hasUnsafe(html));
        QVERIFY(html.contains(QStringLiteral("\\u202eko")));
    }
};

QTEST_MAIN(TestDisplaySafety)
#include "tst_display_safety.moc"
