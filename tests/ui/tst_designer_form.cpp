// Design tab: the servers list + the selected server's form (no inline
// table editing), red frames on invalid fields without layout jumps, the embedded mock's
// reasoning tokens, and a designer that fits a 1024x700 window without clipped buttons or
// sideways scrolling.
#include "TestSupport.h"
#include "designer/DesignTab.h"
#include "designer/FieldErrors.h"
#include "designer/FormScrollArea.h"
#include "designer/HookCheckModel.h"
#include "designer/HookEditor.h"
#include "designer/ServerEditor.h"
#include "designer/ServerTableModel.h"
#include "designer/WorkloadForm.h"
#include "spec/SpecIO.h"
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QListView>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QHeaderView>
#include <QTableView>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

using namespace sb;
using namespace sb::ui;

namespace {

SweepSpec twoServers()
{
    SweepSpec spec = DesignTab::newSpec();
    ServerSpec b;
    b.name = QStringLiteral("sglang-prod");
    b.urls = {QStringLiteral("http://127.0.0.1:30000")};
    b.model = QStringLiteral("Qwen/Qwen2.5-0.5B");
    b.flavor = Flavor::Sglang;
    b.endpoint = Endpoint::Completions;
    b.metrics.intervalS = 2;
    spec.servers << b;
    return spec;
}

// Where a widget is, in the tab's coordinates: what a user sees move.
QRect placeIn(QWidget *w, QWidget *top)
{
    return QRect(w->mapTo(top, QPoint(0, 0)), w->size());
}

void settle(QWidget *w)
{
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents();
        if (w->layout())
            w->layout()->activate();
    }
}

} // namespace

class TestDesignerForm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void selectingAServerFillsTheForm()
    {
        DesignTab tab;
        tab.setSpec(twoServers());
        QVERIFY(tab.serverView()->editTriggers() == QAbstractItemView::NoEditTriggers); // no inline editing
        ServerEditor *ed = tab.serverEditor();
        QCOMPARE(ed->nameEdit()->text(), QStringLiteral("mock-vllm"));
        tab.selectServer(1);
        QCOMPARE(ed->row(), 1);
        QCOMPARE(ed->nameEdit()->text(), QStringLiteral("sglang-prod"));
        QCOMPARE(ed->modelEdit()->text(), QStringLiteral("Qwen/Qwen2.5-0.5B"));
        QCOMPARE(ed->flavorBox()->currentText(), QStringLiteral("sglang"));
        QCOMPARE(ed->findChild<QComboBox *>(QStringLiteral("serverEndpoint"))->currentText(), QStringLiteral("completions"));
        QCOMPARE(ed->findChild<QLineEdit *>(QStringLiteral("serverUrl"))->text(), QStringLiteral("http://127.0.0.1:30000"));
        QCOMPARE(ed->findChild<QDoubleSpinBox *>(QStringLiteral("metricsInterval"))->value(), 2.0);
        // The list row says what the server is without opening it.
        const QModelIndex row = tab.serverModel()->index(1, ServerTableModel::Name);
        QCOMPARE(row.data().toString(), QStringLiteral("sglang-prod"));
        QCOMPARE(row.data(ServerTableModel::SummaryRole).toString(),
                 QStringLiteral("sglang · http://127.0.0.1:30000 · Qwen/Qwen2.5-0.5B"));
    }

    void editingTheFormUpdatesTheSpec()
    {
        DesignTab tab;
        tab.setSpec(twoServers());
        tab.show();
        tab.selectServer(1);
        ServerEditor *ed = tab.serverEditor();
        ed->nameEdit()->clear();
        QTest::keyClicks(ed->nameEdit(), QStringLiteral("sglang-b"));
        ed->modelEdit()->clear();
        QTest::keyClicks(ed->modelEdit(), QStringLiteral("other-model"));
        QComboBox *flavor = ed->flavorBox();
        flavor->setCurrentIndex(flavor->findText(QStringLiteral("trtllm")));
        Q_EMIT flavor->activated(flavor->currentIndex());
        auto *interval = ed->findChild<QDoubleSpinBox *>(QStringLiteral("metricsInterval"));
        interval->setValue(1.5);
        auto *metrics = ed->findChild<QGroupBox *>(QStringLiteral("metricsGroup"));
        QLineEdit *path = ed->findChild<QLineEdit *>(QStringLiteral("metricsPath"));
        QTest::keyClicks(path, QStringLiteral("/prom"));
        QVERIFY(metrics->isChecked());

        const ServerSpec s = tab.spec().servers.at(1);
        QCOMPARE(s.name, QStringLiteral("sglang-b"));
        QCOMPARE(s.model, QStringLiteral("other-model"));
        QVERIFY(s.flavor == Flavor::Trtllm);
        QCOMPARE(s.metrics.intervalS, 1.5);
        QCOMPARE(s.metrics.path, QStringLiteral("/prom"));
        QCOMPARE(tab.serverModel()->index(1, 0).data().toString(), QStringLiteral("sglang-b"));
        QVERIFY(tab.serverModel()->index(1, 0).data(ServerTableModel::SummaryRole).toString().startsWith(QStringLiteral("trtllm · ")));
        // ... and survives the YAML.
        const SpecLoadResult back = loadSpecText(saveSpecYaml(tab.spec(), SecretPolicy::Keep));
        QVERIFY(back.ok());
        QCOMPARE(back.spec->servers.at(1).name, QStringLiteral("sglang-b"));
        QCOMPARE(back.spec->servers.at(1).metrics.path, QStringLiteral("/prom"));
        // Typing in the name field keeps the caret: the form is not reloaded under the cursor.
        QCOMPARE(ed->nameEdit()->cursorPosition(), int(QStringLiteral("sglang-b").size()));
    }

    void addDuplicateRemove()
    {
        DesignTab tab;
        tab.setSpec(twoServers());
        tab.show();
        tab.addServer();
        QCOMPARE(tab.serverModel()->rowCount(), 3);
        QCOMPARE(tab.currentServer(), 2);
        QCOMPARE(tab.serverEditor()->row(), 2);
        QCOMPARE(tab.serverEditor()->nameEdit()->text(), QStringLiteral("server"));
        tab.selectServer(1);
        tab.duplicateServer();
        QCOMPARE(tab.serverModel()->rowCount(), 4);
        QCOMPARE(tab.currentServer(), 2);
        QCOMPARE(tab.serverEditor()->nameEdit()->text(), QStringLiteral("sglang-prod-2"));
        QCOMPARE(tab.spec().servers.at(2).model, QStringLiteral("Qwen/Qwen2.5-0.5B"));
        tab.removeServer();
        QCOMPARE(tab.serverModel()->rowCount(), 3);
        QStringList names;
        for (const ServerSpec &s : tab.spec().servers)
            names << s.name;
        QCOMPARE(names, (QStringList{QStringLiteral("mock-vllm"), QStringLiteral("sglang-prod"), QStringLiteral("server")}));
        QCOMPARE(tab.serverEditor()->nameEdit()->text(), tab.spec().servers.at(tab.currentServer()).name);
    }

    void invalidFieldGetsARedFrameAndNothingMoves()
    {
        DesignTab tab;
        tab.setSpec(twoServers());
        tab.resize(1400, 900);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.selectServer(1);
        settle(&tab);
        ServerEditor *ed = tab.serverEditor();
        auto *url = ed->findChild<QLineEdit *>(QStringLiteral("serverUrl"));
        auto *apiKey = ed->apiKeyEdit();
        auto *output = tab.findChild<QSpinBox *>(QStringLiteral("outputTokens"));
        auto *warmup = tab.findChild<QSpinBox *>(QStringLiteral("warmupRequests"));
        const QRect modelBefore = placeIn(ed->modelEdit(), &tab);
        const QRect urlBefore = placeIn(url, &tab);
        const QRect keyBefore = placeIn(apiKey, &tab);
        const QRect outputBefore = placeIn(output, &tab);
        const QRect warmupBefore = placeIn(warmup, &tab);
        QCOMPARE(ed->errors().state(QStringLiteral("model")), QString());

        // Two errors at once: a server without a model, a workload with a negative input length.
        ed->modelEdit()->clear();
        QTest::keyClicks(ed->modelEdit(), QStringLiteral(" "));
        tab.findChild<QSpinBox *>(QStringLiteral("inputTokens"))->setValue(-5);
        tab.validateNow();
        settle(&tab);
        QVERIFY(!tab.isValid());
        QCOMPARE(ed->errors().state(QStringLiteral("model")), QStringLiteral("error"));
        QCOMPARE(ed->modelEdit()->property("fieldState").toString(), QStringLiteral("error"));
        QVERIFY(!ed->errors().message(QStringLiteral("model")).isEmpty());
        QCOMPARE(tab.workloadForm()->errors().state(QStringLiteral("workload.input_tokens")), QStringLiteral("error"));
        // The frame is really drawn: the pixels around the field turn red.
        auto *frame = qobject_cast<FieldFrame *>(ed->modelEdit()->parentWidget());
        QVERIFY(frame);
        const QImage shot = frame->grab().toImage();
        const QColor edge = shot.pixelColor(shot.width() / 2, 1);
        QVERIFY2(edge.red() > 150 && edge.green() < 120, qPrintable(edge.name()));
        // Nothing moved: the fields beside and beneath keep their places.
        QCOMPARE(placeIn(ed->modelEdit(), &tab), modelBefore);
        QCOMPARE(placeIn(url, &tab), urlBefore);
        QCOMPARE(placeIn(apiKey, &tab), keyBefore);
        QCOMPARE(placeIn(output, &tab), outputBefore);
        QCOMPARE(placeIn(warmup, &tab), warmupBefore);

        // Fixed again: the frame goes, still nothing moves.
        QTest::keyClicks(ed->modelEdit(), QStringLiteral("m"));
        tab.findChild<QSpinBox *>(QStringLiteral("inputTokens"))->setValue(64);
        tab.validateNow();
        settle(&tab);
        QCOMPARE(ed->errors().state(QStringLiteral("model")), QString());
        QCOMPARE(placeIn(output, &tab), outputBefore);
        QVERIFY(tab.isValid());
    }

    // The status says the spec cannot run, and which field.
    void statusNamesTheFieldThatStopsTheRun()
    {
        DesignTab tab;
        tab.setSpec(twoServers());
        QVERIFY(tab.isValid());
        QVERIFY(!tab.problemsLabel()->text().contains(QStringLiteral("Cannot run")));
        tab.selectServer(1);
        tab.serverEditor()->modelEdit()->clear();
        QTest::keyClicks(tab.serverEditor()->modelEdit(), QStringLiteral(" "));
        tab.validateNow();
        const QString text = tab.problemsLabel()->text();
        QVERIFY2(text.startsWith(QStringLiteral("✗ Cannot run: 1 error(s). First: server “sglang-prod” › model")), qPrintable(text));
        QVERIFY(!tab.problemsLabel()->isHidden());
    }

    void unlabelledControlsHaveLabels()
    {
        DesignTab tab;
        tab.setSpec(twoServers());
        tab.show();
        tab.selectServer(0); // the embedded mock
        auto *mock = tab.serverEditor()->findChild<QComboBox *>(QStringLiteral("mockPersonality"));
        QVERIFY(mock->isVisible());
        // The label of a form row is the QLabel whose buddy is the row's field container.
        auto labelOf = [&](QWidget *field) -> QString {
            for (QLabel *l : tab.findChildren<QLabel *>())
                if (l->buddy() && (l->buddy() == field || l->buddy()->isAncestorOf(field)) && l->isVisible())
                    return l->text();
            return {};
        };
        QCOMPARE(labelOf(mock), QStringLiteral("Mock flavor"));
        auto *requests = tab.findChild<QSpinBox *>(QStringLiteral("requestsPerCell"));
        QCOMPARE(labelOf(requests), QStringLiteral("Requests per cell"));
        QCOMPARE(requests->suffix(), QStringLiteral(" requests"));
        auto *mode = tab.findChild<QComboBox *>(QStringLiteral("lengthMode"));
        mode->setCurrentIndex(1);
        Q_EMIT mode->activated(1);
        auto *duration = tab.findChild<QDoubleSpinBox *>(QStringLiteral("durationS"));
        QCOMPARE(labelOf(duration), QStringLiteral("Duration per cell"));
        QCOMPARE(duration->suffix(), QStringLiteral(" s"));
    }

    // The mock's reasoning tokens have a field beside its personality: it shows the loaded value,
    // an edit reaches the spec and survives the YAML, and it fits a 1024x700 window.
    void mockReasoningTokensRoundTrip()
    {
        SweepSpec spec = twoServers();
        spec.servers[0].mockReasoningTokens = 32;
        DesignTab tab;
        tab.setSpec(spec);
        tab.resize(1024 - 2 * 9, 700 - 130);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.selectServer(0); // the embedded mock
        settle(&tab);
        ServerEditor *ed = tab.serverEditor();
        QSpinBox *box = ed->reasoningTokensBox();
        QVERIFY(box);
        QCOMPARE(box->objectName(), QStringLiteral("mockReasoningTokens"));
        QVERIFY(box->isEnabled() && box->isVisible());
        QCOMPARE(box->value(), 32);
        QVERIFY(box->toolTip().contains(QStringLiteral("reasoning_content")));
        QVERIFY(!box->whatsThis().isEmpty()); // the spec reference documents the key
        // Beneath the personality, both whole within the pane, which fits the window.
        QVERIFY2(tab.minimumSizeHint().width() <= 1024 - 2 * 9, qPrintable(QString::number(tab.minimumSizeHint().width())));
        auto *personality = ed->findChild<QComboBox *>(QStringLiteral("mockPersonality"));
        QVERIFY(placeIn(box, &tab).top() > placeIn(personality, &tab).bottom());
        QCOMPARE(placeIn(box, &tab).left(), placeIn(personality, &tab).left());
        for (QWidget *w : std::initializer_list<QWidget *>{personality, box}) {
            QVERIFY2(w->width() >= w->minimumSizeHint().width(), qPrintable(w->objectName()));
            QVERIFY2(w->mapTo(&tab, QPoint(w->width(), 0)).x() <= tab.splitter()->widget(2)->mapTo(&tab, QPoint(0, 0)).x(),
                     qPrintable(w->objectName()));
        }
        box->setValue(64);
        QCOMPARE(tab.spec().servers.at(0).mockReasoningTokens, 64);
        const QByteArray yaml = saveSpecYaml(tab.spec(), SecretPolicy::Keep);
        QVERIFY2(yaml.contains("reasoning_tokens: 64"), yaml.constData());
        const SpecLoadResult back = loadSpecText(yaml);
        QVERIFY(back.ok());
        QCOMPARE(back.spec->servers.at(0).mockReasoningTokens, 64);
        QCOMPARE(back.spec->servers.at(0).mock, QStringLiteral("vllm"));
        DesignTab reopened;
        reopened.setSpec(*back.spec);
        reopened.selectServer(0);
        QCOMPARE(reopened.serverEditor()->reasoningTokensBox()->value(), 64);
        // 0 is off: the plain `mock: vllm` form again.
        box->setValue(0);
        QCOMPARE(box->text(), QStringLiteral("off"));
        QCOMPARE(tab.spec().servers.at(0).mockReasoningTokens, 0);
        QVERIFY(!saveSpecYaml(tab.spec(), SecretPolicy::Keep).contains("reasoning_tokens"));
        // A value past the bound is the validator's to report, beside the field.
        box->setValue(2000000);
        tab.validateNow();
        QVERIFY(!tab.isValid());
        QVERIFY2(ed->errors().message(QStringLiteral("mock.reasoning_tokens")).contains(QStringLiteral("0 to 1000000")),
                 qPrintable(ed->errors().message(QStringLiteral("mock.reasoning_tokens"))));
    }

    // Reasoning tokens are the embedded mock's: the field is disabled for a server reached by
    // URL, and turning a mock into one drops the value.
    void mockReasoningTokensOnlyForMocks()
    {
        SweepSpec spec = twoServers();
        spec.servers[0].mockReasoningTokens = 16;
        DesignTab tab;
        tab.setSpec(spec);
        tab.show();
        ServerEditor *ed = tab.serverEditor();
        QSpinBox *box = ed->reasoningTokensBox();
        tab.selectServer(1); // a URL
        QVERIFY(!box->isEnabled());
        tab.selectServer(0);
        QVERIFY(box->isEnabled());
        auto *target = ed->findChild<QComboBox *>(QStringLiteral("targetKind"));
        target->setCurrentIndex(0);
        Q_EMIT target->activated(0);
        QVERIFY(!box->isEnabled());
        QCOMPARE(tab.spec().servers.at(0).mockReasoningTokens, 0);
        QVERIFY(!saveSpecYaml(tab.spec(), SecretPolicy::Keep).contains("reasoning_tokens"));
        // ... and a URL server made a mock gets the field.
        tab.selectServer(1);
        QVERIFY(!box->isEnabled());
        target->setCurrentIndex(1);
        Q_EMIT target->activated(1);
        QVERIFY(box->isEnabled());
    }

    // With every hook off, Check used to say "nothing to check" and an
    // unreachable server looked fine. Now it is checked and fails, with advice in its column.
    void checkFailsAnUnreachableServerWithHooksOff()
    {
        const quint16 port = sbtest::freePort(); // nothing listens there
        QVERIFY(port);
        SweepSpec spec = DesignTab::newSpec();
        spec.servers[0].mock.clear();
        spec.servers[0].urls = {QStringLiteral("http://127.0.0.1:%1").arg(port)};
        QVERIFY(!spec.servers[0].reset.enabled && !spec.servers[0].profiler.enabled);
        DesignTab tab;
        tab.setSpec(spec);
        QSignalSpy finished(&tab, &DesignTab::hookCheckFinished);
        QSignalSpy status(&tab, &DesignTab::statusMessage);
        tab.checkHooks();
        QVERIFY(sbtest::waitForSignal(finished, 30000));
        HookCheckModel *model = tab.hookCheckModel();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->rowVerdict(0), QStringLiteral("failed"));
        QVERIFY(model->index(0, HookCheckModel::Reachable).data().toString().startsWith(QStringLiteral("error")));
        QCOMPARE(model->index(0, HookCheckModel::Reset).data().toString(), QStringLiteral("off"));
        QVERIFY2(model->index(0, HookCheckModel::Advice).data().toString().contains(QStringLiteral("is the server running there")),
                 qPrintable(model->index(0, HookCheckModel::Advice).data().toString()));
        QVERIFY(status.last().first().toString().contains(QStringLiteral("failed for mock-vllm")));
        // The advice is shown in full beneath the table, not in a clipped column or a tooltip.
        auto *advice = tab.findChild<QLabel *>(QStringLiteral("hookCheckAdvice"));
        QVERIFY(advice);
        QVERIFY2(advice->text().startsWith(QStringLiteral("mock-vllm: no answer from http://127.0.0.1:")), qPrintable(advice->text()));
        QVERIFY(!advice->isHidden());
    }

    // An embedded mock is checked like any server: it answers and lists its model, and the
    // Model column says so (it once said "not checked" while the status bar said it passed).
    void checkingAMockFillsEveryColumn()
    {
        DesignTab tab;
        SweepSpec spec = DesignTab::newSpec();
        spec.servers[0].reset.enabled = true;
        tab.setSpec(spec);
        QSignalSpy finished(&tab, &DesignTab::hookCheckFinished);
        tab.checkHooks();
        QVERIFY(sbtest::waitForSignal(finished, 30000));
        HookCheckModel *model = tab.hookCheckModel();
        QCOMPARE(model->rowVerdict(0), QStringLiteral("ok"));
        for (const int column : {int(HookCheckModel::Reachable), int(HookCheckModel::Model), int(HookCheckModel::Reset)}) {
            const QString text = model->index(0, column).data().toString();
            QVERIFY2(text.startsWith(QStringLiteral("ok")), qPrintable(QStringLiteral("column %1: %2").arg(column).arg(text)));
        }
        QVERIFY(tab.serversThatDidNotAnswer().isEmpty());
    }

    void fitsA1024By700Window()
    {
        DesignTab tab;
        SweepSpec spec = twoServers();
        spec.servers[1].reset.enabled = true;
        spec.servers[1].profiler.enabled = true;
        tab.setSpec(spec);
        // What the tab gets in a 1024x700 main window (tab bar, tool bar, menu and status bar off).
        tab.resize(1024 - 2 * 9, 700 - 130);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.selectServer(1);
        settle(&tab);
        QVERIFY2(tab.minimumSizeHint().width() <= 1024 - 2 * 9, qPrintable(QString::number(tab.minimumSizeHint().width())));
        // No sideways scrolling anywhere in the designer: one (vertical) scrollbar per form.
        QTableView *check = tab.hookCheckView(); // every check column visible, none cut off
        QVERIFY2(check->horizontalHeader()->length() <= check->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(check->horizontalHeader()->length()).arg(check->viewport()->width())));
        for (QAbstractScrollArea *area : tab.findChildren<QAbstractScrollArea *>())
            QVERIFY2(!area->horizontalScrollBar()->isVisible(), qPrintable(area->objectName()));
        // Each pane is at least as wide as it needs to be.
        for (FormScrollArea *area : tab.findChildren<FormScrollArea *>())
            QVERIFY2(area->width() >= area->minimumSizeHint().width(), qPrintable(area->objectName()));
        // "Fill preset" shows whole; spin boxes keep their arrows (at least their minimum width).
        bool sawFill = false;
        for (QToolButton *b : tab.findChildren<QToolButton *>()) {
            if (b->text() != QLatin1String("Fill preset"))
                continue;
            sawFill = true;
            QVERIFY2(b->width() >= b->sizeHint().width(), qPrintable(QStringLiteral("%1 < %2").arg(b->width()).arg(b->sizeHint().width())));
        }
        QVERIFY(sawFill);
        for (QAbstractSpinBox *box : tab.findChildren<QAbstractSpinBox *>())
            if (box->isVisible())
                QVERIFY2(box->width() >= box->minimumSizeHint().width(), qPrintable(box->objectName()));
        for (QLineEdit *edit : tab.serverEditor()->findChildren<QLineEdit *>())
            if (edit->isVisible()) // within its pane, not cut off at the right
                QVERIFY2(edit->mapTo(&tab, QPoint(edit->width(), 0)).x() <= tab.splitter()->widget(2)->mapTo(&tab, QPoint(0, 0)).x(),
                         qPrintable(edit->objectName()));
    }
};

QTEST_MAIN(TestDesignerForm)
#include "tst_designer_form.moc"
