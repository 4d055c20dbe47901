#include "designer/ServerEditor.h"
#include "designer/FormScrollArea.h"
#include "designer/HookEditor.h"
#include "designer/LaunchEditor.h"
#include "designer/ServerTableModel.h"
#include "designer/TestLaunchDialog.h"
#include "hooks/HookPresets.h"
#include "spec/SpecRules.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

namespace sb::ui {

namespace {
// A launched server's URL is optional: it defaults to its loopback port.
QString urlPlaceholder(bool launched)
{
    return launched ? QObject::tr("http://127.0.0.1:{port} (the launched server)") : QStringLiteral("http://localhost:8000");
}
} // namespace

QStringList gateWarnings(const ServerSpec &s)
{
    QStringList out;
    const HookKind reset = HookKind::Reset;
    const HookKind start = HookKind::ProfilerStart;
    // Embedded mocks open every route; the gates concern real servers.
    if (!s.mock.isEmpty())
        return out;
    switch (s.flavor) {
    case Flavor::Vllm:
        if (s.reset.enabled)
            out << routeMissingHint(Flavor::Vllm, reset);
        if (s.profiler.enabled)
            out << routeMissingHint(Flavor::Vllm, start);
        if (s.profiler.enabled && s.profiler.startBody)
            out << QObject::tr("vLLM's /start_profile takes no body; traces go to the server's configured profiler folder");
        break;
    case Flavor::Trtllm:
        if (s.reset.enabled)
            out << routeMissingHint(Flavor::Trtllm, reset);
        if (s.profiler.enabled)
            out << QObject::tr("trtllm-serve has profiler routes only in builds with PR #13872; a second start while a window is active answers 409");
        break;
    case Flavor::Llamacpp:
        if (s.reset.enabled && isSlotEraseReset(s))
            out << QObject::tr("llama-server: the preset lists the slots (GET /slots) and erases each one; erasing needs "
                               "--slot-save-path (else 501)")
                << llamacppPromptCacheHint();
        if (s.profiler.enabled)
            out << routeMissingHint(Flavor::Llamacpp, start);
        break;
    case Flavor::Sglang:
        if (s.reset.enabled)
            out << QObject::tr("SGLang flushes only when idle: the preset waits up to half the reset timeout, then a 400 is retried within the budget");
        break;
    case Flavor::Openai:
        if (s.reset.enabled || s.profiler.enabled)
            out << QObject::tr("Generic OpenAI servers usually have no control routes; run Check hooks before the sweep");
        break;
    }
    // How to keep each profiler window small (the same words as `hooks check`); a start body that
    // already bounds the window by steps needs no such advice.
    const bool bounded = s.profiler.startBody && s.profiler.startBody->contains(QLatin1String("num_steps"));
    if (s.profiler.enabled && !bounded)
        if (const QString hint = profilerWindowHint(s.flavor); !hint.isEmpty())
            out << hint;
    return out;
}

ServerEditor::ServerEditor(QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("serverTitle"));
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    // A long server name must not widen the pane: the title elides via its tooltip-bearing text.
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    outer->addWidget(m_title);

    m_body = new QWidget;
    auto *layout = new QVBoxLayout(m_body);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildIdentity());
    layout->addWidget(buildConnection());
    m_launch = new LaunchEditor;
    layout->addWidget(m_launch);
    layout->addWidget(buildMetrics());

    m_gates = new QLabel;
    m_gates->setObjectName(QStringLiteral("gateWarnings"));
    m_gates->setWordWrap(true);
    m_gates->setTextFormat(Qt::RichText);
    m_gates->setVisible(false);
    layout->addWidget(m_gates);

    m_hooks = new HookEditor;
    layout->addWidget(m_hooks);
    layout->addStretch(1);

    // One scrollbar only: the form reflows to the pane's width, never scrolls sideways.
    auto *scroll = new FormScrollArea(m_body);
    scroll->setObjectName(QStringLiteral("serverFormScroll"));
    outer->addWidget(scroll, 1);

    for (auto *edit : {m_name, m_model, m_url, m_apiKey, m_apiKeyEnv, m_metricsPath})
        connect(edit, &QLineEdit::textEdited, this, [this] { emitEdited(); });
    for (auto *box : {m_flavor, m_endpoint, m_mock})
        connect(box, &QComboBox::activated, this, [this] { emitEdited(); });
    connect(m_reasoningTokens, &QSpinBox::valueChanged, this, [this] { emitEdited(); });
    connect(m_targetKind, &QComboBox::activated, this, [this](int i) {
        // Switching to a mock keeps the flavor chosen: the mock of that flavor, where there is one.
        if (i == 1)
            if (const int same = m_mock->findText(m_flavor->currentText()); same >= 0)
                m_mock->setCurrentIndex(same);
        showTargetRow(i == 1);
        emitEdited();
    });
    connect(m_metrics, &QGroupBox::toggled, this, [this] { emitEdited(); });
    connect(m_metricsInterval, &QDoubleSpinBox::valueChanged, this, [this] { emitEdited(); });
    connect(m_hooks, &HookEditor::edited, this, [this] { emitEdited(); });
    connect(m_launch, &LaunchEditor::edited, this, [this] { emitEdited(); });
    connect(m_launch, &LaunchEditor::testLaunchRequested, this, &ServerEditor::openTestLaunch);

    setServer(-1, {});
}

QWidget *ServerEditor::buildIdentity()
{
    auto *group = new QGroupBox(tr("Server"));
    auto *form = new QFormLayout(group);
    form->setVerticalSpacing(2); // each field's reserved message line is most of the spacing
    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("serverName"));
    m_name->setToolTip(tr("A unique name: it labels this server's results, charts and traces"));
    m_model = new QLineEdit;
    m_model->setObjectName(QStringLiteral("serverModel"));
    m_model->setPlaceholderText(tr("the model name the server serves"));
    m_model->setToolTip(tr("Sent as \"model\" in every request; Check hooks verifies the server lists it"));
    m_flavor = new QComboBox;
    m_flavor->setObjectName(QStringLiteral("serverFlavor"));
    m_flavor->addItems(flavorNames());
    m_flavor->setToolTip(tr("Which server software this is: picks the hook presets and the metrics names"));
    m_endpoint = new QComboBox;
    m_endpoint->setObjectName(QStringLiteral("serverEndpoint"));
    m_endpoint->addItems({toString(Endpoint::Chat), toString(Endpoint::Completions)});
    m_endpoint->setToolTip(tr("chat = /v1/chat/completions (the chat template applies); completions = /v1/completions"));
    form->addRow(tr("Name"), m_errors.bind(QStringLiteral("name"), m_name));
    form->addRow(tr("Model"), m_errors.bind(QStringLiteral("model"), m_model));
    form->addRow(tr("Flavor"), m_errors.bind(QStringLiteral("flavor"), m_flavor));
    form->addRow(tr("Endpoint"), m_errors.bind(QStringLiteral("endpoint"), m_endpoint));
    return group;
}

QWidget *ServerEditor::buildConnection()
{
    auto *conn = new QGroupBox(tr("Connection"));
    m_connForm = new QFormLayout(conn);
    m_connForm->setVerticalSpacing(2);
    m_targetKind = new QComboBox;
    m_targetKind->setObjectName(QStringLiteral("targetKind"));
    m_targetKind->addItems({tr("Server URL"), tr("Embedded mock server")});
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("serverUrl"));
    m_url->setPlaceholderText(QStringLiteral("http://localhost:8000"));
    m_url->setToolTip(tr("The server's base URL. Several replicas of one server: list their URLs separated by commas; "
                         "the in-flight requests are spread evenly and hooks go to each origin."));
    m_mock = new QComboBox;
    m_mock->setObjectName(QStringLiteral("mockPersonality"));
    m_mock->addItems(mockPersonalityNames());
    m_mock->setToolTip(tr("The engine starts an in-process mock that behaves like this server, hooks included"));
    m_reasoningTokens = new QSpinBox;
    m_reasoningTokens->setObjectName(QStringLiteral("mockReasoningTokens"));
    // Wider than the bound, so a value above it is the validator's to report, not the box's to
    // clamp; never negative, which the spec cannot say.
    m_reasoningTokens->setRange(0, 10 * spec::kMaxMockReasoningTokens);
    m_reasoningTokens->setSpecialValueText(tr("off"));
    m_reasoningTokens->setSuffix(tr(" tokens"));
    m_reasoningTokens->setAccelerated(true);
    m_reasoningTokens->setToolTip(tr("Makes the mock a reasoning model: the first N output tokens of each chat answer are streamed as "
                                     "reasoning_content (counted in usage's reasoning_tokens), so its cells store the time to the first "
                                     "answer token (TTFO) after the first token. 0 = off"));
    m_reasoningTokens->setAccessibleName(tr("Mock reasoning tokens"));
    m_apiKey = new QLineEdit;
    m_apiKey->setObjectName(QStringLiteral("apiKey"));
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setPlaceholderText(tr("kept in the spec file only"));
    m_apiKey->setToolTip(tr("Sent as a bearer token; stored in the spec file, never written to results, exports or logs"));
    QAction *reveal = m_apiKey->addAction(QIcon(), QLineEdit::TrailingPosition);
    reveal->setText(tr("Show"));
    reveal->setCheckable(true);
    reveal->setToolTip(tr("Show or hide the key"));
    connect(reveal, &QAction::toggled, this, [this](bool on) {
        m_apiKey->setEchoMode(on ? QLineEdit::Normal : QLineEdit::Password);
    });
    m_apiKeyEnv = new QLineEdit;
    m_apiKeyEnv->setObjectName(QStringLiteral("apiKeyEnv"));
    m_apiKeyEnv->setPlaceholderText(QStringLiteral("OPENAI_API_KEY"));
    m_apiKeyEnv->setToolTip(tr("Or the name of an environment variable holding the key (read when the sweep runs)"));

    m_connForm->addRow(tr("Target"), FieldErrors::pad(m_targetKind));
    m_urlRow = m_errors.bind(QStringLiteral("url"), m_url);
    m_mockRow = m_errors.bind(QStringLiteral("mock"), m_mock);
    // The mock's reasoning tokens on the row beneath its personality (both are the `mock:` key):
    // beside it, the pair would widen the pane past a 1024-wide window.
    m_reasoningRow = m_errors.bind(QStringLiteral("mock.reasoning_tokens"), m_reasoningTokens);
    m_connForm->addRow(tr("URL"), m_urlRow);
    m_connForm->addRow(tr("Mock flavor"), m_mockRow);
    m_connForm->addRow(tr("Reasoning"), m_reasoningRow);
    m_connForm->addRow(tr("API key"), m_errors.bind(QStringLiteral("api_key"), m_apiKey));
    m_connForm->addRow(tr("Key variable"), m_errors.bind(QStringLiteral("api_key_env"), m_apiKeyEnv));
    return conn;
}

QWidget *ServerEditor::buildMetrics()
{
    m_metrics = new QGroupBox(tr("Scrape server metrics"));
    m_metrics->setObjectName(QStringLiteral("metricsGroup"));
    m_metrics->setCheckable(true);
    m_metrics->setToolTip(tr("The server's Prometheus endpoint (trtllm-serve: its JSON /metrics), read over the control client"));
    auto *form = new QFormLayout(m_metrics);
    form->setVerticalSpacing(2);
    m_metricsPath = new QLineEdit;
    m_metricsPath->setObjectName(QStringLiteral("metricsPath"));
    m_metricsPath->setPlaceholderText(QStringLiteral("/metrics"));
    m_metricsInterval = new QDoubleSpinBox;
    m_metricsInterval->setObjectName(QStringLiteral("metricsInterval"));
    m_metricsInterval->setRange(-1e7, 1e7); // the validator reports out-of-range values (WorkloadForm.cpp)
    m_metricsInterval->setDecimals(2);
    m_metricsInterval->setSingleStep(0.1);
    m_metricsInterval->setSuffix(QStringLiteral(" s"));
    m_metricsInterval->setToolTip(tr("Seconds between two scrapes, 0.05 to 60"));
    form->addRow(tr("Path"), m_errors.bind(QStringLiteral("metrics.path"), m_metricsPath));
    form->addRow(tr("Interval"), m_errors.bind(QStringLiteral("metrics.interval_s"), m_metricsInterval));
    auto *general = FieldErrors::messageLine();
    form->addRow(general);
    m_errors.bindLabel(QStringLiteral("metrics"), general);
    return m_metrics;
}

void ServerEditor::showTargetRow(bool mock)
{
    m_connForm->setRowVisible(m_urlRow, !mock);
    m_connForm->setRowVisible(m_mockRow, mock);
    m_connForm->setRowVisible(m_reasoningRow, mock);
    m_reasoningTokens->setEnabled(mock); // an option of the embedded mock, nothing a real server has
    m_launch->setEnabled(!mock); // an embedded mock needs no process
}

void ServerEditor::openTestLaunch()
{
    auto *dialog = new TestLaunchDialog(server(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void ServerEditor::setServer(int row, const ServerSpec &s)
{
    m_loading = true;
    m_row = row;
    m_server = s;
    m_body->setEnabled(row >= 0);
    m_title->setText(row >= 0 ? tr("Server “%1”").arg(s.name) : tr("Select a server to edit it"));
    m_title->setToolTip(m_title->text());
    if (m_name->text() != s.name) // keep the cursor while the name is typed
        m_name->setText(s.name);
    if (m_model->text() != s.model)
        m_model->setText(s.model);
    m_flavor->setCurrentIndex(m_flavor->findText(toString(s.flavor)));
    m_endpoint->setCurrentIndex(m_endpoint->findText(toString(s.endpoint)));
    const bool mock = !s.mock.isEmpty();
    m_targetKind->setCurrentIndex(mock ? 1 : 0);
    showTargetRow(mock);
    if (m_url->text() != urlsText(s.urls))
        m_url->setText(urlsText(s.urls));
    if (mock) {
        const int i = m_mock->findText(s.mock);
        if (i < 0)
            m_mock->addItem(s.mock); // an unknown personality stays visible; validation flags it
        m_mock->setCurrentIndex(m_mock->findText(s.mock));
    }
    m_reasoningTokens->setValue(s.mockReasoningTokens);
    if (m_apiKey->text() != s.apiKey)
        m_apiKey->setText(s.apiKey);
    if (m_apiKeyEnv->text() != s.apiKeyEnv)
        m_apiKeyEnv->setText(s.apiKeyEnv);
    m_launch->setLaunch(s.launch);
    m_launch->setServerName(s.name);
    m_url->setPlaceholderText(urlPlaceholder(s.launch.enabled));
    m_metrics->setChecked(s.metrics.enabled);
    if (m_metricsPath->text() != s.metrics.path)
        m_metricsPath->setText(s.metrics.path);
    m_metricsInterval->setValue(s.metrics.intervalS);
    m_hooks->setServer(s);
    updateGateWarnings();
    m_loading = false;
}

ServerSpec ServerEditor::server() const
{
    ServerSpec s = m_server;
    s.name = m_name->text().trimmed();
    s.model = m_model->text().trimmed();
    if (const auto f = flavorFromString(m_flavor->currentText()))
        s.flavor = *f;
    if (const auto e = endpointFromString(m_endpoint->currentText()))
        s.endpoint = *e;
    if (m_targetKind->currentIndex() == 1) {
        s.mock = m_mock->currentText();
        s.mockReasoningTokens = m_reasoningTokens->value();
        s.urls.clear();
    } else {
        s.mock.clear();
        s.mockReasoningTokens = 0; // a mock's own option goes with it
        s.urls = urlsFromText(m_url->text());
    }
    s.apiKey = m_apiKey->text();
    s.apiKeyEnv = m_apiKeyEnv->text().trimmed();
    s.metrics.enabled = m_metrics->isChecked();
    s.metrics.path = m_metricsPath->text().trimmed();
    s.metrics.intervalS = m_metricsInterval->value();
    m_launch->applyTo(s.launch);
    m_hooks->applyTo(s);
    return s;
}

void ServerEditor::emitEdited()
{
    if (m_loading || m_row < 0)
        return;
    const QString oldMock = m_server.mock;
    m_server = server();
    // Picking a mock personality sets the matching flavor, so the hook presets fit the mock.
    if (!m_server.mock.isEmpty() && m_server.mock != oldMock)
        if (auto f = flavorFromString(m_server.mock)) {
            m_server.flavor = *f;
            m_flavor->setCurrentIndex(m_flavor->findText(toString(*f)));
        }
    m_title->setText(tr("Server “%1”").arg(m_server.name));
    m_launch->setServerName(m_server.name);
    m_title->setToolTip(m_title->text());
    m_url->setPlaceholderText(urlPlaceholder(m_server.launch.enabled));
    m_hooks->refreshPresets(m_server);
    updateGateWarnings();
    Q_EMIT edited(m_row, m_server);
}

void ServerEditor::updateGateWarnings()
{
    const QStringList warnings = gateWarnings(server());
    QString html;
    for (const QString &w : warnings)
        html += QStringLiteral("<p style='margin:2px'><span style='color:#c08000'>⚠</span> %1</p>").arg(w.toHtmlEscaped());
    m_gates->setText(html);
    m_gates->setVisible(!warnings.isEmpty());
}

void ServerEditor::showDiagnostics(const QList<SpecDiagnostic> &diags)
{
    const QString prefix = QStringLiteral("servers[%1]").arg(m_row);
    QList<SpecDiagnostic> mine;
    if (m_row >= 0)
        for (const auto &d : diags)
            if (keyUnder(d.keyPath, prefix))
                mine << d;
    m_errors.show(mine, prefix);
    m_hooks->errors().show(mine, prefix);
    m_launch->showDiagnostics(mine, prefix);
}

bool ServerEditor::hasLocalErrors() const
{
    return m_hooks->hasLocalErrors() || m_launch->hasLocalErrors();
}

} // namespace sb::ui
