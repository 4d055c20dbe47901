#include "designer/DesignTab.h"
#include "spec/LaunchVariants.h"
#include "designer/FieldErrors.h"
#include "designer/FormScrollArea.h"
#include "designer/HookCheckModel.h"
#include "designer/HookEditor.h"
#include "designer/LaunchEditor.h"
#include "help/SpecHelp.h"
#include "designer/ServerEditor.h"
#include "designer/ServerListDelegate.h"
#include "designer/ServerTableModel.h"
#include "designer/SpecHistory.h"
#include "text/SweepEstimate.h"
#include "designer/WorkloadForm.h"
#include "engine/HookPreflight.h"
#include "report/DisplayText.h"
#include "spec/SpecIO.h"
#include "style/Theme.h"
#include <QHeaderView>
#include <algorithm>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QStyle>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sb::ui {

namespace {
// Gives every field bound in `errors` its key's text from the spec reference as "What's this?".
void describeFields(const FieldErrors &errors, SpecHelp::Scope scope)
{
    errors.forEachField([scope](const QString &key, QWidget *field) {
        if (field->whatsThis().isEmpty())
            field->setWhatsThis(SpecHelp::bundled().whatsThis(scope, key));
    });
}
} // namespace

DesignTab::DesignTab(QWidget *parent)
    : QWidget(parent)
{
    m_servers = new ServerTableModel(this);
    m_checkModel = new HookCheckModel(this);
    m_editor = new ServerEditor;
    m_form = new WorkloadForm;
    // Shift+F1 on a field shows the spec reference's text for its key.
    describeFields(m_form->errors(), SpecHelp::Scope::Spec);
    describeFields(m_editor->errors(), SpecHelp::Scope::Server);
    describeFields(m_editor->hookEditor()->errors(), SpecHelp::Scope::Server);
    describeFields(m_editor->launchEditor()->errors(), SpecHelp::Scope::Server);

    auto *formScroll = new FormScrollArea(m_form);
    formScroll->setObjectName(QStringLiteral("workloadScroll"));

    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("designSplitter"));
    m_splitter->addWidget(buildServersPane());
    m_splitter->addWidget(m_editor);
    m_splitter->addWidget(formScroll);
    // The two forms keep their minimum widths (FormScrollArea); the list takes what is left.
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setStretchFactor(2, 3);
    m_splitter->setSizes({360, 500, 520});
    m_splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_splitter);

    m_validateTimer = new QTimer(this);
    m_validateTimer->setSingleShot(true);
    m_validateTimer->setInterval(0); // coalesces a burst of edits into one validation pass
    connect(m_validateTimer, &QTimer::timeout, this, &DesignTab::validateNow);

    connect(m_servers, &ServerTableModel::serversEdited, this, [this] {
        // A table edit (name, flavor...) may change what the detail panel shows: refresh it.
        const int row = currentRow();
        if (!m_pushingEditorEdit && row >= 0 && row == m_editor->row())
            m_editor->setServer(row, m_servers->server(row));
        scheduleValidation();
    });
    connect(m_editor, &ServerEditor::edited, this, [this](int row, const ServerSpec &s) {
        m_pushingEditorEdit = true; // do not echo back into the editor being typed in
        m_servers->setServer(row, s);
        m_pushingEditorEdit = false;
    });
    connect(m_form, &WorkloadForm::edited, this, &DesignTab::scheduleValidation);
    connect(m_serverView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &DesignTab::onSelectionChanged);
    m_history = new SpecHistory([this](const SweepSpec &s) { restoreSpec(s); }, this);
    setSpec(newSpec());
}

DesignTab::~DesignTab() = default;

bool DesignTab::isCheckingHooks() const
{
    return !m_preflight.isNull();
}

QWidget *DesignTab::buildServersPane()
{
    auto *pane = new QWidget;
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);

    layout->addWidget(new QLabel(tr("<b>Servers</b>")));
    // The list's buttons sit beneath it, so the pane can be narrow (1024x700).
    auto *bar = new QHBoxLayout;
    auto tool = [&](const QString &icon, const QString &text, const QString &tip, void (DesignTab::*slot)()) {
        auto *b = new QToolButton;
        b->setIcon(themedIcon(icon));
        b->setText(text);
        b->setToolTip(tip);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setObjectName(icon + QStringLiteral("Server"));
        connect(b, &QToolButton::clicked, this, slot);
        bar->addWidget(b);
        return b;
    };
    tool(QStringLiteral("add"), tr("Add"), tr("Add a server"), &DesignTab::addServer);
    tool(QStringLiteral("duplicate"), tr("Duplicate"), tr("Duplicate the selected server"), &DesignTab::duplicateServer);
    tool(QStringLiteral("remove"), tr("Remove"), tr("Remove the selected server"), &DesignTab::removeServer);
    bar->addStretch(1);

    m_serverView = new QListView;
    m_serverView->setObjectName(QStringLiteral("serversList"));
    m_serverView->setModel(m_servers);
    m_serverView->setModelColumn(ServerTableModel::Name);
    m_serverView->setItemDelegate(new ServerListDelegate(m_serverView));
    m_serverView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_serverView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_serverView->setEditTriggers(QAbstractItemView::NoEditTriggers); // edited in the form beside it
    m_serverView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_serverView->setUniformItemSizes(true);
    m_serverView->setMinimumWidth(160);
    layout->addWidget(m_serverView, 3);
    layout->addLayout(bar);

    auto *checkBar = new QHBoxLayout;
    checkBar->addWidget(new QLabel(tr("<b>Hook check</b>")));
    checkBar->addStretch(1);
    m_checkButton = new QPushButton(themedIcon(QStringLiteral("check-hooks")), tr("Check hooks"));
    m_checkButton->setObjectName(QStringLiteral("checkHooksButton"));
    m_checkButton->setToolTip(tr("Call every enabled hook once on each server and show what answered"));
    connect(m_checkButton, &QPushButton::clicked, this, &DesignTab::checkHooks);
    checkBar->addWidget(m_checkButton);
    layout->addLayout(checkBar);

    m_checkView = new QTableView;
    m_checkView->setObjectName(QStringLiteral("hookCheckTable"));
    m_checkView->setModel(m_checkModel);
    m_checkView->verticalHeader()->hide();
    m_checkView->setSelectionMode(QAbstractItemView::NoSelection);
    m_checkView->setWordWrap(false);
    // Columns share the pane's width (texts elide; each cell's tooltip has the whole of it), so a
    // narrow window shows no second, horizontal scrollbar here either.
    m_checkView->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_checkView->horizontalHeader()->setMinimumSectionSize(24);
    m_checkView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The advice is what a failed check is for: it gets the pane's whole width beneath the
    // table (word-wrapped) instead of the last, narrowest column.
    m_checkView->setColumnHidden(HookCheckModel::Advice, true);
    layout->addWidget(m_checkView, 2);
    m_advice = new QLabel;
    m_advice->setObjectName(QStringLiteral("hookCheckAdvice"));
    m_advice->setWordWrap(true);
    m_advice->setTextFormat(Qt::PlainText);
    m_advice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_advice->setVisible(false);
    layout->addWidget(m_advice);
    auto showAdvice = [this] {
        QStringList lines;
        for (int r = 0; r < m_checkModel->rowCount(); ++r) {
            const QString hints = m_checkModel->index(r, HookCheckModel::Advice).data(Qt::ToolTipRole).toString();
            for (const QString &h : hints.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                lines << QStringLiteral("%1: %2").arg(m_checkModel->rows().at(r).server, h);
        }
        m_advice->setText(displaySafe(lines.join(QLatin1Char('\n')))); // server text: shown, not obeyed
        m_advice->setVisible(!lines.isEmpty());
    };
    connect(m_checkModel, &QAbstractItemModel::dataChanged, this, showAdvice);
    connect(m_checkModel, &QAbstractItemModel::modelReset, this, showAdvice);
    connect(m_checkModel, &QAbstractItemModel::rowsRemoved, this, showAdvice);

    m_estimate = new QLabel;
    m_estimate->setObjectName(QStringLiteral("estimate"));
    m_estimate->setWordWrap(true);
    layout->addWidget(m_estimate);
    m_problems = new QLabel;
    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    layout->addWidget(m_problems);
    return pane;
}

SweepSpec DesignTab::newSpec()
{
    SweepSpec spec;
    spec.name = QStringLiteral("my-sweep");
    ServerSpec s;
    s.name = QStringLiteral("mock-vllm");
    s.mock = QStringLiteral("vllm");
    s.flavor = Flavor::Vllm;
    s.model = QStringLiteral("demo-model");
    spec.servers << s;
    spec.workload.requestsPerCell = 100;
    spec.concurrency = {1, 2, 4, 8};
    return spec;
}

void DesignTab::setSpec(const SweepSpec &spec)
{
    m_base = spec;
    m_servers->setServers(spec.servers);
    m_form->setSpec(spec);
    m_checkModel->clear();
    if (!spec.servers.isEmpty())
        selectServer(0);
    onSelectionChanged();
    validateNow();
    m_history->reset(this->spec()); // a new document: nothing to undo
}

void DesignTab::restoreSpec(const SweepSpec &spec)
{
    const int row = currentRow();
    m_base = spec;
    m_servers->setServers(spec.servers);
    m_form->setSpec(spec);
    if (m_servers->rowCount() > 0)
        selectServer(std::clamp(row, 0, m_servers->rowCount() - 1));
    onSelectionChanged();
    validateNow();
}

SweepSpec DesignTab::spec() const
{
    SweepSpec s = m_base;
    s.servers = m_servers->servers();
    m_form->applyTo(s);
    return s;
}

void DesignTab::selectServer(int row)
{
    const QModelIndex i = m_servers->index(row, ServerTableModel::Name);
    m_serverView->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect);
}

int DesignTab::currentRow() const
{
    const QModelIndex i = m_serverView->selectionModel()->currentIndex();
    return i.isValid() ? i.row() : -1;
}

void DesignTab::onSelectionChanged()
{
    const int row = currentRow();
    m_editor->setServer(row, row >= 0 ? m_servers->server(row) : ServerSpec());
    m_editor->showDiagnostics(m_diagnostics);
}

void DesignTab::scheduleValidation()
{
    m_validateTimer->start();
    Q_EMIT specEdited();
}

void DesignTab::validateNow()
{
    m_validateTimer->stop();
    const SweepSpec s = spec();
    m_history->record(s);
    m_diagnostics = m_form->inFormTerms(validateSpec(s));
    showDiagnostics();
    m_estimate->setText(estimateText(s));
    const bool valid = !hasErrors(m_diagnostics) && !m_form->hasLocalErrors() && !m_editor->hasLocalErrors();
    if (valid != m_valid) {
        m_valid = valid;
        Q_EMIT validityChanged(valid);
    }
}

void DesignTab::showDiagnostics()
{
    // servers[N].<key> -> the table cell of that server; the rest -> the form beside the table.
    static const QRegularExpression serverKey(QStringLiteral("^servers\\[(\\d+)\\](?:\\.([a-z_]+))?"));
    static const QHash<QString, int> columnOf = {
        {QStringLiteral("name"), ServerTableModel::Name},         {QStringLiteral("url"), ServerTableModel::Target},
        {QStringLiteral("mock"), ServerTableModel::Target},       {QStringLiteral("model"), ServerTableModel::Model},
        {QStringLiteral("endpoint"), ServerTableModel::Endpoint}, {QStringLiteral("flavor"), ServerTableModel::Flavor},
        {QStringLiteral("api_key"), ServerTableModel::ApiKey},    {QStringLiteral("api_key_env"), ServerTableModel::ApiKey},
    };
    QHash<int, QHash<int, QString>> cellErrors;
    QList<SpecDiagnostic> rest;
    for (const SpecDiagnostic &d : std::as_const(m_diagnostics)) {
        const auto m = serverKey.match(d.keyPath);
        if (m.hasMatch() && !d.isError())
            continue; // server warnings show in the detail panel (amber), not as a red cell
        if (!m.hasMatch()) {
            rest << d;
            continue;
        }
        const int row = m.captured(1).toInt();
        const int column = columnOf.value(m.captured(2), ServerTableModel::Hooks);
        QString &text = cellErrors[row][column];
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + d.message;
    }
    m_servers->setRowErrors(cellErrors);
    m_editor->showDiagnostics(m_diagnostics);
    rest += m_form->localDiagnostics(); // a dataset that does not load: at its field, FILE:LINE
    const QList<SpecDiagnostic> unplaced = m_form->errors().show(rest);

    // A summary line, so errors of servers not selected are not missed, and that says plainly
    // that the spec cannot run and which field is first to fix.
    int errors = 0, warnings = 0;
    const SpecDiagnostic *firstError = nullptr;
    const QList<SpecDiagnostic> local = m_form->localDiagnostics();
    for (const QList<SpecDiagnostic> *list : {static_cast<const QList<SpecDiagnostic> *>(&m_diagnostics), &local})
        for (const SpecDiagnostic &d : *list) {
            (d.isError() ? errors : warnings)++;
            if (d.isError() && !firstError)
                firstError = &d;
        }
    if (m_editor->hasLocalErrors() || m_form->hasLocalErrors())
        errors = std::max(errors, 1);
    QStringList lines;
    if (firstError)
        lines << tr("✗ Cannot run: %1 error(s). First: %2 — %3")
                     .arg(errors)
                     .arg(displaySafe(fieldName(firstError->keyPath), DisplayLines::Single), displaySafe(firstError->message, DisplayLines::Single));
    else if (errors)
        lines << tr("✗ Cannot run: a field of the selected server or the sweep form is marked in red");
    else if (warnings)
        lines << tr("%1 warning(s); the sweep can run").arg(warnings);
    // Problems no field shows (e.g. a sweep-wide rule) are listed in full.
    for (const SpecDiagnostic &d : unplaced)
        if (!firstError || d.keyPath != firstError->keyPath || d.message != firstError->message)
            lines << (d.isError() ? QStringLiteral("✗ ") : QStringLiteral("⚠ ")) + (d.keyPath.isEmpty() ? QString() : d.keyPath + QStringLiteral(": ")) + d.message;
    m_problems->setText(lines.join(QLatin1Char('\n')));
    m_problems->setStyleSheet(QStringLiteral("color: %1;").arg((errors ? errorColor() : warningColor()).name()));
    m_problems->setVisible(!lines.isEmpty());
}

QString DesignTab::fieldName(const QString &keyPath) const
{
    // "servers[1].model" -> "server “sglang-b” › model": the name the list shows, not an index.
    static const QRegularExpression serverKey(QStringLiteral("^servers\\[(\\d+)\\]\\.?"));
    const auto m = serverKey.match(keyPath);
    const int row = m.hasMatch() ? m.captured(1).toInt() : -1;
    if (row < 0 || row >= m_servers->rowCount())
        return keyPath.isEmpty() ? tr("the spec") : keyPath;
    const QString rest = keyPath.mid(m.capturedLength());
    const QString server = tr("server “%1”").arg(m_servers->server(row).name);
    return rest.isEmpty() ? server : server + QStringLiteral(" › ") + rest;
}

void DesignTab::addServer()
{
    ServerSpec s;
    s.name = m_servers->uniqueName(QStringLiteral("server"));
    s.urls = {QStringLiteral("http://localhost:8000")};
    s.model = QStringLiteral("model");
    s.flavor = Flavor::Vllm;
    m_history->nameNextStep(tr("Add server"));
    const int row = m_servers->addServer(s);
    selectServer(row);
    // The new server's URL is what is most likely to need typing.
    m_editor->findChild<QLineEdit *>(QStringLiteral("serverUrl"))->setFocus();
    m_editor->findChild<QLineEdit *>(QStringLiteral("serverUrl"))->selectAll();
}

void DesignTab::duplicateServer()
{
    m_history->nameNextStep(tr("Duplicate server"));
    const int row = m_servers->duplicateServer(currentRow());
    if (row >= 0)
        selectServer(row);
}

void DesignTab::removeServer()
{
    const int row = currentRow();
    if (row < 0)
        return;
    const QString name = m_servers->server(row).name;
    m_history->nameNextStep(tr("Remove server “%1”").arg(name));
    m_servers->removeServer(row);
    QStringList remaining; // as the check names them: a launch variant's row is SERVER[VARIANT]
    for (const ServerSpec &s : withLaunchVariantsExpanded(spec()).servers)
        remaining.append(s.name);
    m_checkModel->keepOnly(remaining);
    if (m_servers->rowCount() > 0)
        selectServer(std::min(row, m_servers->rowCount() - 1));
    onSelectionChanged();
    validateNow(); // the step is recorded now, under its name
    Q_EMIT statusMessage(tr("Removed server “%1” (Edit › Undo, Ctrl+Z, brings it back)").arg(displaySafe(name, DisplayLines::Single)));
}

namespace {
// Where a server is reached: a check of it says nothing once this changes.
QString targetOf(const ServerSpec &server)
{
    return QStringList{server.urls.join(QLatin1Char(' ')), server.mock, server.launch.enabled ? server.launch.command.join(QLatin1Char(' ')) : QString()}
        .join(QLatin1Char('\n'));
}
} // namespace

QStringList DesignTab::serversThatDidNotAnswer() const
{
    QStringList out;
    const SweepSpec s = spec();
    for (const HookCheckModel::Row &row : m_checkModel->rows()) {
        const bool unreachable = std::any_of(row.checks.cbegin(), row.checks.cend(), [](const HookOutcome &o) {
            return o.hook == HookKind::Reachability && !o.ok;
        });
        if (!unreachable)
            continue;
        const auto server = std::find_if(s.servers.cbegin(), s.servers.cend(), [&](const ServerSpec &sv) { return sv.name == row.server; });
        if (server != s.servers.cend() && m_checkedTargets.value(row.server) == targetOf(*server))
            out << row.server;
    }
    return out;
}

void DesignTab::checkHooks()
{
    if (m_preflight)
        return;
    const SweepSpec s = spec();
    QList<HookCheckModel::Row> rows;
    for (const ServerSpec &server : s.servers)
        rows.append({server.name, server.reset.enabled, server.profiler.enabled, false, {}, {}, false, {}, {}, !telemetryFor(s, server).isEmpty()});
    m_checkModel->begin(rows);
    m_checkedTargets.clear();
    for (const ServerSpec &server : s.servers)
        m_checkedTargets.insert(server.name, targetOf(server));
    // Every server is checked, hooks or not: it must answer and serve its model.
    m_preflight = new HookPreflight(s, this);
    m_checkButton->setEnabled(false);
    m_checkButton->setText(tr("Checking…"));
    connect(m_preflight, &HookPreflight::serverReached, m_checkModel, &HookCheckModel::setServerReached);
    connect(m_preflight, &HookPreflight::serverChecked, m_checkModel, &HookCheckModel::setServerChecked);
    connect(m_preflight, &HookPreflight::finished, this, [this] {
        m_checkButton->setEnabled(true);
        m_checkButton->setText(tr("Check hooks"));
        QStringList failed, warned;
        for (int r = 0; r < m_checkModel->rowCount(); ++r) {
            const QString verdict = m_checkModel->rowVerdict(r);
            if (verdict == QLatin1String("failed"))
                failed << m_checkModel->rows().at(r).server;
            else if (verdict == QLatin1String("warning"))
                warned << m_checkModel->rows().at(r).server;
        }
        Q_EMIT statusMessage(!failed.isEmpty() ? tr("Check failed for %1 — see the advice under the check table").arg(displaySafe(failed.join(QStringLiteral(", ")), DisplayLines::Single))
                             : !warned.isEmpty() ? tr("Check passed with warnings for %1 — see the advice under the check table").arg(displaySafe(warned.join(QStringLiteral(", ")), DisplayLines::Single))
                                                 : tr("Check passed: every server answers, serves its model, and its hooks work"));
        m_preflight->deleteLater();
        m_preflight = nullptr;
        Q_EMIT hookCheckFinished();
    });
    m_preflight->start();
    Q_EMIT statusMessage(tr("Checking hooks…"));
}

} // namespace sb::ui
