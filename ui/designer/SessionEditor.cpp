#include "designer/SessionEditor.h"
#include "designer/FieldErrors.h"
#include "designer/LengthEditor.h"
#include <QCheckBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

namespace sb::ui {

SessionEditor::SessionEditor(QObject *parent)
    : QObject(parent)
    , m_enabled(new QCheckBox(tr("Multi-turn chat sessions")))
    , m_turns(new LengthEditor(QStringLiteral("sessionTurns")))
    , m_think(new LengthEditor(QStringLiteral("thinkTimeMs")))
    , m_followUp(new QSpinBox)
    , m_header(new QLineEdit)
{
    m_enabled->setObjectName(QStringLiteral("sessions"));
    m_enabled->setToolTip(tr("Each load slot runs chat sessions: every later turn carries the earlier ones and the server's own "
                             "answers, so a prefix cache can serve them (concurrency then counts sessions); with a dataset, "
                             "its conversations are the sessions"));
    m_think->setToolTip(tr("Wait after an answer before the next turn, in ms (0 = at once)"));
    m_followUp->setObjectName(QStringLiteral("followUpTokens"));
    m_followUp->setRange(0, kMaxLength);
    m_followUp->setSpecialValueText(tr("as input length"));
    m_followUp->setSuffix(tr(" tokens"));
    m_header->setObjectName(QStringLiteral("sessionHeader"));
    m_header->setPlaceholderText(tr("none (e.g. X-Session-ID for session-affine routers)"));
    connect(m_enabled, &QCheckBox::toggled, this, [this] {
        updateEnabled();
        if (!m_loading)
            Q_EMIT edited();
    });
    for (LengthEditor *e : {m_turns, m_think})
        connect(e, &LengthEditor::edited, this, &SessionEditor::edited);
    connect(m_followUp, &QSpinBox::valueChanged, this, [this] {
        if (!m_loading)
            Q_EMIT edited();
    });
    connect(m_header, &QLineEdit::textEdited, this, &SessionEditor::edited);
    setSessions(std::nullopt);
}

void SessionEditor::addRows(QFormLayout *form, FieldErrors &errors)
{
    form->addRow(QString(), errors.bind(QStringLiteral("workload.sessions"), m_enabled));
    form->addRow(tr("Turns"), errors.bind(QStringLiteral("workload.sessions.turns"), m_turns));
    form->addRow(tr("Think time (ms)"), errors.bind(QStringLiteral("workload.sessions.think_time_ms"), m_think));
    form->addRow(tr("Follow-up length"), errors.bind(QStringLiteral("workload.sessions.follow_up_tokens"), m_followUp));
    form->addRow(tr("Session header"), errors.bind(QStringLiteral("workload.sessions.session_header"), m_header));
}

void SessionEditor::setSessions(const std::optional<SessionSpec> &s)
{
    m_loading = true;
    const SessionSpec shown = s.value_or(SessionSpec{2, std::nullopt, 0, std::nullopt, QString(), 0});
    m_enabled->setChecked(s.has_value());
    m_turns->setLengths(shown.turns, shown.turnsDist);
    m_think->setLengths(shown.thinkTimeMs, shown.thinkDist);
    m_followUp->setValue(shown.followUpTokens);
    m_header->setText(shown.header);
    updateEnabled();
    m_loading = false;
}

void SessionEditor::applyTo(std::optional<SessionSpec> &s) const
{
    if (!m_enabled->isChecked()) {
        s.reset();
        return;
    }
    SessionSpec out;
    if (!m_fromDataset) {
        m_turns->applyTo(out.turns, out.turnsDist);
        out.followUpTokens = m_followUp->value();
    }
    m_think->applyTo(out.thinkTimeMs, out.thinkDist);
    out.header = m_header->text().trimmed();
    s = out;
}

QString SessionEditor::parseError() const
{
    return !m_turns->parseError().isEmpty() ? m_turns->parseError() : m_think->parseError();
}

void SessionEditor::setTurnsFromDataset(bool fromDataset)
{
    if (fromDataset == m_fromDataset)
        return;
    m_fromDataset = fromDataset;
    updateEnabled();
}

void SessionEditor::updateEnabled()
{
    const bool on = m_enabled->isChecked();
    for (QWidget *w : {static_cast<QWidget *>(m_think), static_cast<QWidget *>(m_header)})
        w->setEnabled(on);
    for (QWidget *w : {static_cast<QWidget *>(m_turns), static_cast<QWidget *>(m_followUp)}) {
        w->setEnabled(on && !m_fromDataset);
        w->setToolTip(m_fromDataset ? tr("The dataset's conversations give each session's turns and messages") : QString());
    }
    if (!m_fromDataset) { // the fields' own tooltips back
        m_turns->setToolTip(tr("Turns per session: a number, or a distribution drawn per session from the workload seed"));
        m_followUp->setToolTip(tr("The new message of turns 2, 3, …: a long first message with short follow-ups is the usual chat"));
    }
}

} // namespace sb::ui
