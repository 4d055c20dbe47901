// Help and undo in a real main window: F1 opens the bundled docs at the document for the current
// tab, links between documents and to their sections work offline, every image a bundled
// document shows is bundled; every field of the designer answers "What's this?" with the spec
// reference's own text for its key; every designer edit can be undone and redone, a removed
// server included.
#include "TestSupport.h"
#include "designer/DesignTab.h"
#include "designer/FieldErrors.h"
#include "designer/HookEditor.h"
#include "designer/LaunchEditor.h"
#include "designer/ServerEditor.h"
#include "designer/ServerTableModel.h"
#include "designer/SpecHistory.h"
#include "designer/SweepRunsEditor.h"
#include "designer/WorkloadForm.h"
#include "help/HelpBrowser.h"
#include "help/SpecHelp.h"
#include "mainwindow/MainWindow.h"
#include "results/ResultsView.h"
#include <QAction>
#include <QFile>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QUndoStack>

using namespace sb;
using namespace sb::ui;

class TestHelp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // The reference's tables, read as the designer reads them: meaning, type and default per key,
    // markdown turned into text (links to their words, escaped bars kept).
    void referenceTablesAreTheHelp()
    {
        const SpecHelp &help = SpecHelp::bundled();
        QVERIFY2(help.size() > 80, qPrintable(QString::number(help.size())));
        const QString input = help.whatsThis(SpecHelp::Scope::Spec, QStringLiteral("workload.input_tokens"));
        QVERIFY2(input.contains(QStringLiteral("Prompt length in tokens")) && input.contains(QStringLiteral("<code>128</code>")), qPrintable(input));
        QVERIFY(!help.whatsThis(SpecHelp::Scope::Server, QStringLiteral("reset_kv_cache.max_retry_seconds")).isEmpty());
        QVERIFY(!help.whatsThis(SpecHelp::Scope::Spec, QStringLiteral("sweep.repeats")).isEmpty());
        QVERIFY(!help.whatsThis(SpecHelp::Scope::Spec, QStringLiteral("on_hook_failure")).isEmpty()); // bound without its sweep.
        QVERIFY(help.whatsThis(SpecHelp::Scope::Spec, QStringLiteral("workload.no_such_key")).isEmpty());
        QVERIFY(help.whatsThis(SpecHelp::Scope::Spec, QStringLiteral("model")).isEmpty()); // a server key, not the spec's

        const SpecHelp own = SpecHelp::fromMarkdown(QStringLiteral(
            "## `workload`\n\n| key | type | default | meaning | example |\n|---|---|---|---|---|\n"
            "| `prompts` | `a` \\| `b` | `a` | See [the guide](x.md#y) and **this** <b>. | `prompts: b` |\n\n"
            "## `server_info`\n\n| key | type | default | meaning | example |\n|---|---|---|---|---|\n| `pid` | int | - | not a spec key | - |\n"));
        QCOMPARE(own.size(), 1);
        const QString prompts = own.whatsThis(SpecHelp::Scope::Spec, QStringLiteral("workload.prompts"));
        QVERIFY2(prompts.contains(QStringLiteral("<code>a</code> | <code>b</code>")), qPrintable(prompts));
        QVERIFY2(prompts.contains(QStringLiteral("See the guide and this &lt;b&gt;.")), qPrintable(prompts));
    }

    // Every field the designer binds to a key has that key's text as its What's this: a field
    // without one is a key the reference does not document.
    void everyDesignerFieldIsDocumented()
    {
        DesignTab tab;
        QStringList missing;
        int described = 0;
        const auto collect = [&](const FieldErrors &errors, const QString &where) {
            errors.forEachField([&](const QString &key, QWidget *field) {
                if (field->whatsThis().isEmpty())
                    missing << where + key;
                else
                    ++described;
            });
        };
        collect(tab.workloadForm()->errors(), QString());
        collect(tab.serverEditor()->errors(), QStringLiteral("servers[]."));
        collect(tab.serverEditor()->hookEditor()->errors(), QStringLiteral("servers[]."));
        collect(tab.serverEditor()->launchEditor()->errors(), QStringLiteral("servers[]."));
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("no reference text for: ") + missing.join(QStringLiteral(", "))));
        QVERIFY(described > 40);
        QVERIFY(tab.workloadForm()->runsEditor()->repeatsBox()->whatsThis().contains(QStringLiteral("repeats")));
    }

    // F1 on the Design tab opens the spec reference; on Results the user guide. Links to other
    // documents and to sections open in place, from the bundle.
    void userGuideOpensAtTheTabsDocument()
    {
        MainWindow w;
        w.tabs()->setCurrentWidget(w.designTab());
        QAction *guide = w.action(QStringLiteral("actionUserGuide"));
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        guide->trigger();
        HelpBrowser *help = w.helpBrowser();
        QVERIFY(help && help->isVisible());
        QCOMPARE(help->currentPath(), QStringLiteral("docs/spec-reference.md"));
        QCOMPARE(help->windowTitle(), QStringLiteral("SweepBench help — Spec reference"));
        QVERIFY(help->view()->document()->toPlainText().contains(QStringLiteral("Sweep spec reference")));

        Q_EMIT help->view()->anchorClicked(QUrl(QStringLiteral("server-metrics.md")));
        QCOMPARE(help->currentPath(), QStringLiteral("docs/server-metrics.md"));
        help->showDocument(QStringLiteral("docs/spec-reference.md"), QStringLiteral("control-hooks"));
        QVERIFY(help->view()->textCursor().block().text().contains(QStringLiteral("Control hooks")));
        QVERIFY(!help->view()->scrollToHeading(QStringLiteral("no-such-section")));

        w.tabs()->setCurrentWidget(w.resultsView());
        guide->trigger();
        QCOMPARE(help->currentPath(), QStringLiteral("README.md"));
        QVERIFY(w.action(QStringLiteral("actionWhatsThis")));
    }

    // Each document of the guide is bundled, and so is every picture it shows: nothing in Help
    // needs the network or the source tree.
    void everyDocumentAndImageIsBundled()
    {
        static const QRegularExpression image(QStringLiteral("!\\[[^\\]]*\\]\\(([^)\\s]+)\\)"));
        for (const HelpBrowser::Document &d : HelpBrowser::documents()) {
            QFile f(QStringLiteral(":/docs/") + d.path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(d.path));
            const QString text = QString::fromUtf8(f.readAll());
            QVERIFY(text.size() > 1000);
            const QString dir = d.path.contains(QLatin1Char('/')) ? d.path.section(QLatin1Char('/'), 0, -2) + QLatin1Char('/') : QString();
            for (auto it = image.globalMatch(text); it.hasNext();) {
                const QString src = it.next().captured(1);
                if (src.startsWith(QLatin1String("http")))
                    continue;
                const QUrl resolved = QUrl(QStringLiteral("qrc:/docs/") + dir).resolved(QUrl(src));
                QVERIFY2(QFile::exists(QLatin1Char(':') + resolved.path()), qPrintable(d.path + QStringLiteral(" shows ") + src));
            }
        }
        HelpBrowser browser;
        browser.showDocument(QStringLiteral("README.md"));
        const QVariant shot = browser.view()->loadResource(QTextDocument::ImageResource,
                                                           QUrl(QStringLiteral("qrc:/docs/docs/screenshots/results-light-1600x1000.png")));
        QVERIFY(shot.value<QImage>().width() <= 860 && !shot.value<QImage>().isNull()); // scaled to the page
    }

    // A removed server, a changed field: each is a step to undo and redo; typing in one field is
    // one step; opening a document starts a new history.
    void designerEditsUndoAndRedo()
    {
        MainWindow w;
        DesignTab *tab = w.designTab();
        QUndoStack *stack = tab->history()->stack();
        QCOMPARE(stack->count(), 0);
        tab->duplicateServer();
        tab->validateNow();
        QCOMPARE(tab->serverModel()->rowCount(), 2);
        const QString second = tab->serverModel()->server(1).name;
        tab->selectServer(1);
        tab->removeServer();
        QCOMPARE(tab->serverModel()->rowCount(), 1);
        QCOMPARE(stack->undoText(), QStringLiteral("Remove server “%1”").arg(second));
        QAction *undo = w.action(QStringLiteral("actionUndo"));
        QVERIFY(undo && undo->isEnabled());
        QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
        undo->trigger();
        QCOMPARE(tab->serverModel()->rowCount(), 2);
        QCOMPARE(tab->serverModel()->server(1).name, second);
        w.action(QStringLiteral("actionRedo"))->trigger();
        QCOMPARE(tab->serverModel()->rowCount(), 1);
        undo->trigger();
        QCOMPARE(tab->serverModel()->rowCount(), 2);

        // A field: typed in several times quickly, one step back to where it was.
        QSpinBox *repeats = tab->workloadForm()->runsEditor()->repeatsBox();
        const int at = stack->index();
        repeats->setValue(2);
        tab->validateNow();
        repeats->setValue(3);
        tab->validateNow();
        QCOMPARE(stack->index(), at + 1);
        QCOMPARE(tab->spec().repeats, 3);
        undo->trigger();
        QCOMPARE(tab->spec().repeats, 1);
        QCOMPARE(repeats->value(), 1);
        QCOMPARE(tab->serverModel()->rowCount(), 2); // only that step
        // Nothing undone re-records itself: the redo step is still there.
        tab->validateNow();
        QVERIFY(stack->canRedo());

        // A new document starts a new history.
        tab->setSpec(DesignTab::newSpec());
        QCOMPARE(stack->count(), 0);
    }
};

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
