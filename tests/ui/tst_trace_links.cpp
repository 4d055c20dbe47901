// Trace links in the results table and cell detail: the file name, not a
// truncated path; a marker for traces no longer on disk; Open / Copy path / Show in folder; a
// visible error when the desktop cannot open a file.
#include "ResultsFixture.h"
#include "TestSupport.h"
#include "results/CellDetail.h"
#include "results/ResultsTableModel.h"
#include "results/ResultsView.h"
#include "results/TraceActions.h"
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {
QAction *action(QMenu *menu, const QString &name)
{
    for (QAction *a : menu->actions())
        if (a->objectName() == name)
            return a;
    return nullptr;
}
} // namespace

class TestTraceLinks : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_there, m_gone;

private Q_SLOTS:
    void initTestCase()
    {
        m_there = m_dir.filePath(QStringLiteral("vllm-trace/rank-0.pt.trace.json.gz"));
        m_gone = m_dir.filePath(QStringLiteral("vllm-trace/rank-1.pt.trace.json.gz"));
        QVERIFY(QDir().mkpath(QFileInfo(m_there).path()));
        QFile f(m_there);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{}");
    }
    void init() { sbtest::failOnQtWarnings(); }

    void tableShowsFileNameAndMarksMissing()
    {
        SweepResults r = sbtest::makeSweepResults(1, {1, 4});
        r.cells[0].traces = {m_there};
        r.cells[1].traces = {m_gone};
        ResultsTableModel model;
        model.setResults(r);
        using M = ResultsTableModel;
        QCOMPARE(model.index(0, M::TracesColumn).data().toString(), QStringLiteral("rank-0.pt.trace.json.gz"));
        QCOMPARE(model.index(1, M::TracesColumn).data().toString(), QStringLiteral("⚠ rank-1.pt.trace.json.gz"));
        QCOMPARE(model.index(0, M::TracesColumn).data(Qt::ToolTipRole).toString(), m_there);
        QCOMPARE(model.index(1, M::TracesColumn).data(Qt::ToolTipRole).toString(), m_gone + QStringLiteral(" (no longer on disk)"));

        const QString detail = cellDetailHtml(r.cells[1], QString());
        QVERIFY(detail.contains(QStringLiteral("(no longer on disk)")));
        QVERIFY(!detail.contains(QStringLiteral("href=\"file:")));
    }

    void contextActions()
    {
        QWidget parent;
        QMenu menu;
        addFileActions(&menu, {m_there}, &parent);
        QAction *open = action(&menu, QStringLiteral("openFile"));
        QAction *copy = action(&menu, QStringLiteral("copyPath"));
        QAction *show = action(&menu, QStringLiteral("showInFolder"));
        QVERIFY(open && copy && show);
        QCOMPARE(open->text(), QStringLiteral("Open rank-0.pt.trace.json.gz"));
        QCOMPARE(show->text(), QStringLiteral("Show in folder"));
        QVERIFY(open->isEnabled() && show->isEnabled());
        QApplication::clipboard()->clear();
        copy->trigger();
        QCOMPARE(QApplication::clipboard()->text(), m_there);

        QMenu gone;
        addFileActions(&gone, {m_gone}, &parent);
        QVERIFY(!action(&gone, QStringLiteral("openFile"))->isEnabled());
        QVERIFY(action(&gone, QStringLiteral("openFile"))->text().contains(QStringLiteral("no longer on disk")));
        QVERIFY(action(&gone, QStringLiteral("copyPath"))->isEnabled()); // the path is still worth having

        QMenu several;
        addFileActions(&several, {m_there, m_gone}, &parent);
        QCOMPARE(several.actions().size(), 3); // a submenu per file + "Copy all paths"
        QCOMPARE(several.actions().at(1)->text(), QStringLiteral("⚠ rank-1.pt.trace.json.gz"));
    }

    // The offscreen platform has no desktop services: openUrl returns false, as it does on a
    // desktop without xdg-open. The user must see why instead of nothing happening.
    void failedOpenIsShown()
    {
        QWidget parent;
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("QPlatformServices::open")));
        QVERIFY(!openWithDesktop(m_there, &parent));
        auto *box = parent.findChild<QMessageBox *>(QStringLiteral("openFailure"));
        QVERIFY(box);
        QVERIFY(box->isVisible());
        QVERIFY(box->text().contains(m_there));
        QVERIFY(box->text().contains(QStringLiteral("xdg-open")));
        QVERIFY(!box->isModal() || box->windowModality() != Qt::ApplicationModal);
        box->close();
    }

    // A trace link clicked in the cell detail pane fails the same visible way.
    void detailLinkFailureIsShown()
    {
        ResultsView view;
        auto *detail = view.findChild<QTextBrowser *>(QStringLiteral("cellDetail"));
        QVERIFY(detail);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("QPlatformServices::open")));
        Q_EMIT detail->anchorClicked(QUrl::fromLocalFile(m_there));
        auto *box = view.findChild<QMessageBox *>(QStringLiteral("openFailure"));
        QVERIFY(box);
        QVERIFY(box->text().contains(m_there));
        box->close();
    }
};

QTEST_MAIN(TestTraceLinks)
#include "tst_trace_links.moc"
