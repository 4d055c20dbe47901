#include "designer/ServerEditor.h"
#include "designer/HookEditor.h"
#include "designer/ServerTableModel.h"
#include "hooks/HookPresets.h"
#include <QAction>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sb::ui {

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
    return out;
}

ServerEditor::ServerEditor(QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel;
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    outer->addWidget(m_title);

    m_body = new QWidget;
    auto *layout = new QVBoxLayout(m_body);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *conn = new QGroupBox(tr("Connection"));
    auto *form = new QFormLayout(conn);
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
    m_targetStack = new QStackedWidget;
    m_targetStack->addWidget(m_url);
    m_targetStack->addWidget(m_mock);
    m_targetStack->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_apiKey = new QLineEdit;
    m_apiKey->setObjectName(QStringLiteral("apiKey"));
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setPlaceholderText(tr("stored in the spec file; never written to results"));
    QAction *reveal = m_apiKey->addAction(QIcon(), QLineEdit::TrailingPosition);
    reveal->setText(tr("Show"));
    reveal->setCheckable(true);
    reveal->setToolTip(tr("Show or hide the key"));
    connect(reveal, &QAction::toggled, this, [this](bool on) {
        m_apiKey->setEchoMode(on ? QLineEdit::Normal : QLineEdit::Password);
    });
    m_apiKeyEnv = new QLineEdit;
    m_apiKeyEnv->setObjectName(QStringLiteral("apiKeyEnv"));
    m_apiKeyEnv->setPlaceholderText(tr("or the name of an environment variable, e.g. OPENAI_API_KEY"));

    form->addRow(tr("Target"), m_targetKind);
    auto *targetBox = m_errors.bind(QStringLiteral("url"), m_targetStack);
    m_errors.bindLabel(QStringLiteral("mock"), targetBox->findChild<QLabel *>(), m_mock);
    form->addRow(QString(), targetBox);
    form->addRow(tr("API key"), m_errors.bind(QStringLiteral("api_key"), m_apiKey));
    form->addRow(tr("Key variable"), m_errors.bind(QStringLiteral("api_key_env"), m_apiKeyEnv));
    layout->addWidget(conn);

    m_gates = new QLabel;
    m_gates->setObjectName(QStringLiteral("gateWarnings"));
    m_gates->setWordWrap(true);
    m_gates->setTextFormat(Qt::RichText);
    m_gates->setVisible(false);
    layout->addWidget(m_gates);

    m_hooks = new HookEditor;
    layout->addWidget(m_hooks);
    layout->addStretch(1);

    auto *scroll = new QScrollArea;
    scroll->setWidget(m_body);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll, 1);

    connect(m_targetKind, &QComboBox::activated, this, [this](int i) {
        m_targetStack->setCurrentIndex(i);
        emitEdited();
    });
    connect(m_mock, &QComboBox::activated, this, [this] { emitEdited(); });
    for (auto *edit : {m_url, m_apiKey, m_apiKeyEnv})
        connect(edit, &QLineEdit::textEdited, this, [this] { emitEdited(); });
    connect(m_hooks, &HookEditor::edited, this, [this] { emitEdited(); });

    setServer(-1, {});
}

void ServerEditor::setServer(int row, const ServerSpec &s)
{
    m_loading = true;
    m_row = row;
    m_server = s;
    m_body->setEnabled(row >= 0);
    m_title->setText(row >= 0 ? tr("Server “%1”").arg(s.name) : tr("Select a server to edit its connection and hooks"));
    const bool mock = !s.mock.isEmpty();
    m_targetKind->setCurrentIndex(mock ? 1 : 0);
    m_targetStack->setCurrentIndex(mock ? 1 : 0);
    m_url->setText(urlsText(s.urls));
    if (mock) {
        const int i = m_mock->findText(s.mock);
        if (i < 0)
            m_mock->addItem(s.mock); // an unknown personality stays visible; validation flags it
        m_mock->setCurrentIndex(m_mock->findText(s.mock));
    }
    m_apiKey->setText(s.apiKey);
    m_apiKeyEnv->setText(s.apiKeyEnv);
    m_hooks->setServer(s);
    updateGateWarnings();
    m_loading = false;
}

ServerSpec ServerEditor::server() const
{
    ServerSpec s = m_server;
    if (m_targetKind->currentIndex() == 1) {
        s.mock = m_mock->currentText();
        s.urls.clear();
    } else {
        s.mock.clear();
        s.urls = urlsFromText(m_url->text());
    }
    s.apiKey = m_apiKey->text();
    s.apiKeyEnv = m_apiKeyEnv->text().trimmed();
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
        if (auto f = flavorFromString(m_server.mock))
            m_server.flavor = *f;
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
}

bool ServerEditor::hasLocalErrors() const
{
    return m_hooks->hasLocalErrors();
}

} // namespace sb::ui
