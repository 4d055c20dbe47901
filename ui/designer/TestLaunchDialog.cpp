#include "designer/TestLaunchDialog.h"
#include "launch/LaunchTrial.h"
#include <QCloseEvent>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

namespace sb::ui {

namespace {
constexpr int kPollMs = 200;
constexpr int kLogLines = 400;
} // namespace

TestLaunchDialog::TestLaunchDialog(const ServerSpec &server, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("testLaunchDialog"));
    setWindowTitle(tr("Test launch: %1").arg(server.name));
    auto *layout = new QVBoxLayout(this);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("testLaunchStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("testLaunchLog"));
    m_log->setReadOnly(true);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("The server's output appears here as it starts."));
    m_button = new QPushButton(tr("Cancel"));
    m_button->setObjectName(QStringLiteral("testLaunchButton"));
    connect(m_button, &QPushButton::clicked, this, &TestLaunchDialog::reject);
    layout->addWidget(m_status);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_button, 0, Qt::AlignRight);
    resize(760, 420);

    const QString logDir = m_logDir.isValid() ? m_logDir.path() : QString();
    m_trial = std::make_unique<LaunchTrial>(server, logDir);
    m_status->setText(tr("Starting %1…").arg(server.name));
    m_timer = new QTimer(this);
    m_timer->setInterval(kPollMs);
    connect(m_timer, &QTimer::timeout, this, &TestLaunchDialog::poll);
    m_trial->start();
    m_timer->start();
}

TestLaunchDialog::~TestLaunchDialog() = default; // the trial's destructor stops the server

QString TestLaunchDialog::statusText() const { return m_status->text(); }
QString TestLaunchDialog::logText() const { return m_log->toPlainText(); }
bool TestLaunchDialog::trialFinished() const { return m_trial->finished(); }

void TestLaunchDialog::poll()
{
    const LaunchTrial::Snapshot s = m_trial->snapshot(kLogLines);
    if (s.log != m_log->toPlainText()) {
        QScrollBar *bar = m_log->verticalScrollBar();
        const bool atEnd = bar->value() == bar->maximum();
        m_log->setPlainText(s.log);
        if (atEnd) // follow the tail unless the user scrolled up to read
            bar->setValue(bar->maximum());
    }
    switch (s.state) {
    case LaunchTrial::State::Starting:
        m_status->setText(tr("Starting… %1 s, waiting for %2 to answer").arg(s.elapsedS, 0, 'f', 1).arg(s.url));
        break;
    case LaunchTrial::State::Ready:
        m_status->setText(tr("✓ %1").arg(s.message));
        break;
    case LaunchTrial::State::Failed:
        m_status->setText(tr("✗ %1").arg(s.message));
        break;
    case LaunchTrial::State::Cancelled:
        m_status->setText(s.message);
        break;
    }
    if (s.state != LaunchTrial::State::Starting && !m_trial->finished())
        m_status->setText(m_status->text() + tr(" — stopping the server…"));
    if (m_trial->finished()) {
        m_timer->stop();
        m_button->setText(tr("Close"));
        if (m_closing)
            deleteLater();
    }
}

void TestLaunchDialog::cancelAndClose()
{
    m_trial->cancel();
    if (m_trial->finished()) {
        QDialog::reject();
        return;
    }
    // The server is still being stopped: hide now, go once the trial says it is gone.
    m_closing = true;
    hide();
    setResult(QDialog::Rejected);
}

void TestLaunchDialog::reject()
{
    if (m_trial->finished())
        QDialog::reject();
    else
        cancelAndClose();
}

void TestLaunchDialog::closeEvent(QCloseEvent *event)
{
    if (m_trial->finished()) {
        QDialog::closeEvent(event);
        return;
    }
    event->ignore();
    cancelAndClose();
}

} // namespace sb::ui
