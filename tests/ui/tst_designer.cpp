// Design tab: models under QAbstractItemModelTester, edits -> YAML round trip, validation
// messages beside their fields, Run gating, flavor gates.
#include "TestSupport.h"
#include "designer/ConcurrencyEditor.h"
#include "designer/DesignTab.h"
#include "designer/HookCheckModel.h"
#include "designer/HookEditor.h"
#include "designer/ServerEditor.h"
#include "designer/ServerTableModel.h"
#include "text/SweepEstimate.h"
#include "designer/WorkloadForm.h"
#include "spec/SpecIO.h"
#include <QJsonObject>
#include <QAbstractItemModelTester>
#include <cmath>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QPushButton>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

using namespace sb;
using namespace sb::ui;

namespace {

// A spec that sets every field away from its default, so a round trip that drops one shows.
SweepSpec everySetting()
{
    SweepSpec spec;
    spec.name = QStringLiteral("full-sweep");
    spec.description = QStringLiteral("every knob turned");
    ServerSpec a;
    a.name = QStringLiteral("vllm-a");
    a.urls = {QStringLiteral("http://10.0.0.5:8000")};
    a.model = QStringLiteral("meta-llama/Llama-3.1-8B-Instruct");
    a.endpoint = Endpoint::Completions;
    a.flavor = Flavor::Vllm;
    a.apiKey = QStringLiteral("sk-secret");
    a.reset = {true, QStringLiteral("/reset_prefix_cache?reset_running_requests=true"), 12.5, 45, ResetPlacement::Both};
    a.profiler.enabled = true;
    a.profiler.startPath = QStringLiteral("/start_profile");
    a.profiler.stopPath = QStringLiteral("/stop_profile");
    a.profiler.timeoutS = 20;
    a.profiler.stopTimeoutS = 900;
    a.profiler.traceDir = QStringLiteral("/tmp/traces");
    ServerSpec b;
    b.name = QStringLiteral("sglang-mock");
    b.mock = QStringLiteral("sglang");
    b.model = QStringLiteral("demo-model");
    b.flavor = Flavor::Sglang;
    b.apiKeyEnv = QStringLiteral("SGLANG_KEY");
    b.reset = {true, QString(), 30, 60, ResetPlacement::AfterWarmup};
    b.profiler.enabled = true;
    b.profiler.startBody = QJsonObject{{QStringLiteral("num_steps"), 5}, {QStringLiteral("activities"), QJsonArray{QStringLiteral("CPU")}}};
    spec.servers = {a, b};
    WorkloadSpec &w = spec.workload;
    w.streaming = false;
    w.inputTokens = 512;
    w.outputTokens = 64;
    w.ignoreEos = false;
    w.requestsPerCell = 0; // duration mode: the two exclude each other
    w.durationS = 30;
    w.warmupRequests = 8;
    w.requestTimeoutS = 120;
    w.prompts = PromptMode::SharedPrefix;
    w.sharedPrefixTokens = 256;
    w.slo.ttftMs = 200;
    w.slo.latencyMs = 5000;
    spec.concurrency = {1, 4, 16};
    spec.onHookFailure = HookFailurePolicy::Abort;
    return spec;
}

QByteArray yaml(const SweepSpec &s) { return saveSpecYaml(s, SecretPolicy::Keep); }

} // namespace

class TestDesigner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    void serverModelUnderTester()
    {
        ServerTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setServers(everySetting().servers);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, ServerTableModel::Target).data().toString(), QStringLiteral("mock:sglang"));
        QCOMPARE(model.index(0, ServerTableModel::ApiKey).data().toString(), QStringLiteral("••••••"));
        QCOMPARE(model.index(1, ServerTableModel::ApiKey).data().toString(), QStringLiteral("$SGLANG_KEY"));
        const int copy = model.duplicateServer(0);
        QCOMPARE(copy, 1);
        QCOMPARE(model.server(1).name, QStringLiteral("vllm-a-2"));
        QVERIFY(model.setData(model.index(1, ServerTableModel::Flavor), QStringLiteral("trtllm"), Qt::EditRole));
        QVERIFY(model.server(1).flavor == Flavor::Trtllm);
        QVERIFY(!model.setData(model.index(1, ServerTableModel::Flavor), QStringLiteral("nope"), Qt::EditRole));
        QVERIFY(model.setData(model.index(1, ServerTableModel::Target), QStringLiteral("mock:vllm"), Qt::EditRole));
        QCOMPARE(model.server(1).mock, QStringLiteral("vllm"));
        QVERIFY(model.server(1).urls.isEmpty());
        // Replicas of one server: several URLs typed in one cell, commas or spaces between.
        QVERIFY(model.setData(model.index(1, ServerTableModel::Target), QStringLiteral(" http://a:1, http://b:2  http://c:3,"), Qt::EditRole));
        QCOMPARE(model.server(1).urls, QStringList({"http://a:1", "http://b:2", "http://c:3"}));
        QVERIFY(model.server(1).mock.isEmpty());
        QCOMPARE(model.index(1, ServerTableModel::Target).data().toString(), QStringLiteral("http://a:1, http://b:2, http://c:3"));
        model.setRowErrors({{1, {{ServerTableModel::Name, QStringLiteral("duplicate name")}}}});
        QCOMPARE(model.index(1, ServerTableModel::Name).data(Qt::ToolTipRole).toString(), QStringLiteral("duplicate name"));
        model.removeServer(0);
        model.addServer(ServerSpec{});
        QCOMPARE(model.rowCount(), 3);
        model.setServers({});
        QCOMPARE(model.rowCount(), 0);
    }

    void hookCheckModelUnderTester()
    {
        HookCheckModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.begin({{QStringLiteral("a"), true, true, false, {}, {}}, {QStringLiteral("b"), false, false, false, {}, {}}});
        QCOMPARE(model.rowVerdict(0), QStringLiteral("pending"));
        QCOMPARE(model.rowVerdict(1), QStringLiteral("pending")); // hooks off, but it must still answer
        HookOutcome reset;
        reset.hook = HookKind::Reset;
        reset.verdict = HookVerdict::RouteMissing;
        reset.status = 404;
        reset.attempts = 1;
        HookOutcome start = reset;
        start.hook = HookKind::ProfilerStart;
        start.verdict = HookVerdict::Ok;
        start.ok = true;
        start.status = 200;
        model.setServerChecked(QStringLiteral("a"), {reset, start}, {QStringLiteral("restart with VLLM_SERVER_DEV_MODE=1")});
        QCOMPARE(model.rowVerdict(0), QStringLiteral("failed"));
        QVERIFY(model.index(0, HookCheckModel::Reset).data(Qt::DecorationRole).value<QIcon>().isNull() == false);
        QVERIFY(model.index(0, HookCheckModel::Advice).data().toString().contains(QLatin1String("DEV_MODE")));
        QVERIFY(model.index(0, HookCheckModel::Reset).data(Qt::ToolTipRole).toString().contains(QLatin1String("404")));
        model.keepOnly({QStringLiteral("b")}); // server a was removed from the design
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, HookCheckModel::Server).data().toString(), QStringLiteral("b"));
        model.clear();
    }

    void loadedSpecComesBackUnchanged()
    {
        DesignTab tab;
        const SweepSpec spec = everySetting();
        QVERIFY2(!hasErrors(validateSpec(spec)), qPrintable(validateSpec(spec).value(0).toString()));
        tab.setSpec(spec);
        QCOMPARE(yaml(tab.spec()), yaml(spec));
        // Visiting each server in the detail panel must not change it either.
        for (int row : {1, 0}) {
            tab.selectServer(row);
            QCOMPARE(tab.serverEditor()->row(), row);
        }
        QCOMPARE(yaml(tab.spec()), yaml(spec));
    }

    void exampleFilesRoundTrip_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("example") << QStringLiteral("resources/example-sweep.yaml");
        QTest::newRow("demo") << QStringLiteral("resources/demo.yaml");
    }

    void exampleFilesRoundTrip()
    {
        QFETCH(QString, file);
        const QString path = sbtest::sourcePath(file);
        if (!QFile::exists(path))
            QSKIP("example not written yet");
        const SpecLoadResult loaded = loadSpecFile(path);
        if (!loaded.ok())
            QSKIP("the file does not load (yet)");
        DesignTab tab;
        tab.setSpec(*loaded.spec);
        const SpecLoadResult back = loadSpecText(yaml(tab.spec()));
        QVERIFY(back.ok());
        QCOMPARE(yaml(*back.spec), yaml(*loaded.spec));
    }

    void editsReachTheYaml()
    {
        DesignTab tab;
        tab.setSpec(everySetting());
        tab.show();
        SweepSpec expected = everySetting();

        // Workload form.
        auto *input = tab.findChild<QSpinBox *>(QStringLiteral("inputTokens"));
        QVERIFY(input);
        input->setValue(1024);
        expected.workload.inputTokens = 1024;
        auto *conc = tab.workloadForm()->concurrencyEditor()->lineEdit();
        conc->clear();
        QTest::keyClicks(conc, QStringLiteral("2, 8 32"));
        expected.concurrency = {2, 8, 32};
        auto *ttft = tab.findChild<QDoubleSpinBox *>(QStringLiteral("sloTtft"));
        ttft->setValue(0); // "off"
        expected.workload.slo.ttftMs.reset();
        auto *policy = tab.findChild<QComboBox *>(QStringLiteral("onHookFailure"));
        policy->setCurrentIndex(policy->findData(int(HookFailurePolicy::Continue)));
        Q_EMIT policy->activated(policy->currentIndex());
        expected.onHookFailure = HookFailurePolicy::Continue;

        // Servers table.
        QVERIFY(tab.serverModel()->setData(tab.serverModel()->index(0, ServerTableModel::Name), QStringLiteral("vllm-prod"), Qt::EditRole));
        expected.servers[0].name = QStringLiteral("vllm-prod");

        // Detail panel of server 0: API key (masked), reset timeout, profiler body.
        tab.selectServer(0);
        QLineEdit *key = tab.serverEditor()->apiKeyEdit();
        QCOMPARE(key->echoMode(), QLineEdit::Password);
        key->clear();
        QTest::keyClicks(key, QStringLiteral("sk-new"));
        expected.servers[0].apiKey = QStringLiteral("sk-new");
        auto *url = tab.serverEditor()->findChild<QLineEdit *>(QStringLiteral("serverUrl"));
        QVERIFY(url);
        url->clear();
        QTest::keyClicks(url, QStringLiteral("http://gpu-1:8000, http://gpu-2:8000"));
        expected.servers[0].urls = {QStringLiteral("http://gpu-1:8000"), QStringLiteral("http://gpu-2:8000")};
        expected.concurrency = {2, 8, 32}; // two URLs: every point has at least one request per URL
        auto *resetTimeout = tab.serverEditor()->findChild<QDoubleSpinBox *>(QStringLiteral("resetTimeout"));
        resetTimeout->setValue(5);
        expected.servers[0].reset.timeoutS = 5;
        QPlainTextEdit *body = tab.serverEditor()->hookEditor()->startBodyEdit();
        body->setPlainText(QStringLiteral("{\"num_steps\": 3}"));
        expected.servers[0].profiler.startBody = QJsonObject{{QStringLiteral("num_steps"), 3}};

        // Duplicate the second server, then remove the original.
        tab.selectServer(1);
        tab.duplicateServer();
        tab.hookCheckModel()->begin({{tab.spec().servers[1].name, true, false, true, {}, {}}});
        tab.selectServer(1);
        tab.removeServer();
        QCOMPARE(tab.hookCheckModel()->rowCount(), 0); // its check row went with it
        expected.servers[1].name = QStringLiteral("sglang-mock-2");

        tab.validateNow();
        QVERIFY2(tab.isValid(), qPrintable(tab.diagnostics().value(0).toString()));
        const SpecLoadResult back = loadSpecText(yaml(tab.spec()));
        QVERIFY(back.ok());
        QCOMPARE(yaml(*back.spec), yaml(expected));
    }

    void invalidValueShowsErrorAndDisablesRun()
    {
        DesignTab tab;
        tab.setSpec(everySetting());
        QVERIFY(tab.isValid());
        QSignalSpy validity(&tab, &DesignTab::validityChanged);
        auto *output = tab.findChild<QSpinBox *>(QStringLiteral("outputTokens"));
        output->setValue(0);
        tab.validateNow();
        QVERIFY(!tab.isValid());
        QCOMPARE(validity.count(), 1);
        QCOMPARE(validity.first().first().toBool(), false);
        const QString shown = tab.workloadForm()->errors().message(QStringLiteral("workload.output_tokens"));
        QVERIFY2(!shown.isEmpty(), "the output-length error is not shown beside its field");
        output->setValue(32);
        tab.validateNow();
        QVERIFY(tab.isValid());
        QVERIFY(tab.workloadForm()->errors().message(QStringLiteral("workload.output_tokens")).isEmpty());
    }

    void serverErrorsGoToTheirCell()
    {
        DesignTab tab;
        SweepSpec spec = everySetting();
        spec.servers[1].name = spec.servers[0].name; // duplicate names
        tab.setSpec(spec);
        QVERIFY(!tab.isValid());
        bool marked = false;
        for (int c = 0; c < ServerTableModel::ColumnCount; ++c)
            marked |= tab.serverModel()->index(1, c).data(Qt::BackgroundRole).isValid();
        QVERIFY2(marked, "the duplicate server's row is not marked");
    }

    void badJsonBodyIsReportedAndBlocksRun()
    {
        DesignTab tab;
        tab.setSpec(everySetting());
        tab.show();
        tab.selectServer(1);
        HookEditor *hooks = tab.serverEditor()->hookEditor();
        hooks->startBodyEdit()->setPlainText(QStringLiteral("{\"num_steps\": }"));
        tab.validateNow();
        QVERIFY(hooks->hasLocalErrors());
        QVERIFY(hooks->startBodyErrorLabel()->isVisible());
        QVERIFY(hooks->startBodyErrorLabel()->text().contains(QLatin1String("line 1")));
        QVERIFY(!tab.isValid());
        hooks->startBodyEdit()->setPlainText(QStringLiteral("[1, 2]"));
        QVERIFY(hooks->startBodyErrorLabel()->text().contains(QLatin1String("object")));
        hooks->startBodyEdit()->setPlainText(QString());
        tab.validateNow();
        QVERIFY(tab.isValid());
    }

    void concurrencyEditor()
    {
        QList<int> levels;
        QString error;
        QVERIFY(ConcurrencyEditor::parse(QStringLiteral("1, 2,4 8;16"), &levels, &error));
        QCOMPARE(levels, (QList<int>{1, 2, 4, 8, 16}));
        QVERIFY(!ConcurrencyEditor::parse(QStringLiteral("1, two"), &levels, &error));
        QVERIFY(error.contains(QLatin1String("two")));
        QCOMPARE(ConcurrencyEditor::powersOfTwo(100), (QList<int>{1, 2, 4, 8, 16, 32, 64}));

        DesignTab tab;
        tab.setSpec(everySetting());
        tab.show();
        QLineEdit *edit = tab.workloadForm()->concurrencyEditor()->lineEdit();
        edit->clear();
        QTest::keyClicks(edit, QStringLiteral("1, x"));
        tab.validateNow();
        QVERIFY(!tab.isValid());
        auto *upTo = tab.findChild<QSpinBox *>(QStringLiteral("powersUpTo"));
        upTo->setValue(1024);
        QTest::mouseClick(tab.findChild<QPushButton *>(QStringLiteral("powersOfTwo")), Qt::LeftButton);
        tab.validateNow();
        QVERIFY(tab.isValid());
        QCOMPARE(tab.spec().concurrency.size(), 11);
        QCOMPARE(estimateSweep(tab.spec()).cells, 22);
    }

    void estimateUsesTheMocksTimingModel()
    {
        SweepSpec spec;
        spec.workload.inputTokens = 100;
        spec.workload.outputTokens = 10;
        spec.workload.requestsPerCell = 10;
        spec.workload.warmupRequests = 0;
        spec.concurrency = {1};
        ServerSpec real;
        real.name = QStringLiteral("real");
        real.urls = {QStringLiteral("http://h:1")};
        spec.servers = {real};
        // A real server: 10 requests × (50 ms + 10 tokens × 20 ms), plus 1 s of hooks.
        QCOMPARE(estimateSweep(spec).seconds, 3.5);
        QVERIFY(estimateText(spec).contains(QStringLiteral("50 tok/s")));
        QVERIFY2(estimateText(spec).startsWith(QStringLiteral("1 cell (1 server × 1 level)")), qPrintable(estimateText(spec)));
        // The vLLM mock: step 4 ms + 0.12 ms per running sequence; a 100-token prefill adds
        // 0.04 ms per token to its step; 10 decode steps.
        ServerSpec mock;
        mock.name = QStringLiteral("mock");
        mock.mock = QStringLiteral("vllm");
        spec.servers = {mock};
        QCOMPARE(std::round(estimateSweep(spec).seconds * 1e6) / 1e6, 1.0 + 10 * (4.12 + 4.0 + 10 * 4.12) / 1000);
        QVERIFY(estimateText(spec).contains(QStringLiteral("timing model")));
        // At C=256 the mock runs at most 128 at once (two waves).
        spec.concurrency = {256};
        spec.workload.requestsPerCell = 256;
        const double step = 4.0 + 0.12 * 128;
        QCOMPARE(std::round(estimateSweep(spec).seconds * 1e6) / 1e6, std::round((1.0 + 2 * (step + 0.04 * 100 * 128 + 10 * step) / 1000) * 1e6) / 1e6);
        // The demo (about a minute end to end) is estimated as such, not as 3 min.
        const SpecLoadResult demo = loadSpecFile(sbtest::sourcePath(QStringLiteral("resources/demo.yaml")));
        QVERIFY(demo.ok());
        const double demoS = estimateSweep(*demo.spec).seconds;
        qInfo("demo estimate %.1f s", demoS);
        QVERIFY2(demoS > 30 && demoS < 90, qPrintable(QString::number(demoS)));
    }

    void flavorGatesAndPresets()
    {
        ServerSpec s;
        s.urls = {QStringLiteral("http://h:1")};
        s.flavor = Flavor::Vllm;
        s.reset.enabled = true;
        QVERIFY(gateWarnings(s).join(QString()).contains(QLatin1String("VLLM_SERVER_DEV_MODE")));
        s.flavor = Flavor::Trtllm;
        QVERIFY(!gateWarnings(s).isEmpty());
        s.mock = QStringLiteral("trtllm");
        QVERIFY(gateWarnings(s).isEmpty()); // mocks open every route

        HookEditor editor;
        ServerSpec sg;
        sg.flavor = Flavor::Sglang;
        editor.setServer(sg);
        auto *path = editor.findChild<QLineEdit *>(QStringLiteral("resetPath"));
        QVERIFY(path->placeholderText().startsWith(QLatin1String("/flush_cache")));
        QVERIFY(path->text().isEmpty());

        // llama.cpp: the preset erases every slot; the gates name --slot-save-path and --cache-ram 0.
        ServerSpec ll;
        ll.urls = {QStringLiteral("http://h:1")};
        ll.flavor = Flavor::Llamacpp;
        ll.reset.enabled = true;
        ll.profiler.enabled = true;
        const QString gates = gateWarnings(ll).join(QLatin1Char(' '));
        QVERIFY2(gates.contains(QLatin1String("--slot-save-path")) && gates.contains(QLatin1String("--cache-ram 0"))
                     && gates.contains(QLatin1String("no profiler routes")),
                 qPrintable(gates));
        editor.setServer(ll);
        QVERIFY2(path->placeholderText().startsWith(QLatin1String("/slots")), qPrintable(path->placeholderText()));
        QVERIFY(path->placeholderText().contains(QLatin1String("every slot")));
        ServerEditor serverEditor;
        auto *mocks = serverEditor.findChild<QComboBox *>(QStringLiteral("mockPersonality"));
        QVERIFY(mocks && mocks->findText(QStringLiteral("llamacpp")) >= 0);

        // Profiled servers get the flavor's advice for small windows, as `hooks check` gives it.
        ServerSpec v;
        v.urls = {QStringLiteral("http://h:1")};
        v.flavor = Flavor::Vllm;
        v.profiler.enabled = true;
        QString all = gateWarnings(v).join(QLatin1Char(' '));
        for (const char *word : {"ignore_frontend", "torch_profiler_with_stack", "max_iterations"})
            QVERIFY2(all.contains(QLatin1String(word)), qPrintable(all));
        v.flavor = Flavor::Trtllm;
        QVERIFY(gateWarnings(v).join(QLatin1Char(' ')).contains(QLatin1String("num_steps")));
        v.profiler.startBody = QJsonObject{{QStringLiteral("num_steps"), 50}};
        QVERIFY(!gateWarnings(v).join(QLatin1Char(' ')).contains(QLatin1String("bounded TensorRT-LLM windows")));
        v.profiler.enabled = false;
        v.flavor = Flavor::Vllm;
        QVERIFY(!gateWarnings(v).join(QLatin1Char(' ')).contains(QLatin1String("max_iterations")));
    }
};

QTEST_MAIN(TestDesigner)
#include "tst_designer.moc"
