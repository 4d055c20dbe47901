#pragma once
// "Test launch": starts the server of the form once (launch/LaunchTrial), shows its log live until
// it is ready or fails, then stops it. The start runs on the trial's own thread; this window polls
// it on a timer, so nothing here waits for the server. Closing the window cancels a trial still
// starting; the window then lives on hidden until the server is stopped.
#include "spec/SweepSpec.h"
#include <QDialog>
#include <QTemporaryDir>
#include <memory>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace sb {
class LaunchTrial;
}

namespace sb::ui {

class TestLaunchDialog : public QDialog
{
    Q_OBJECT
public:
    explicit TestLaunchDialog(const ServerSpec &server, QWidget *parent = nullptr);
    ~TestLaunchDialog() override;

    QString statusText() const;
    QString logText() const;
    bool trialFinished() const;

protected:
    void closeEvent(QCloseEvent *event) override;
    void reject() override;

private:
    void poll();
    void cancelAndClose();

    QTemporaryDir m_logDir;
    std::unique_ptr<LaunchTrial> m_trial;
    QLabel *m_status = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QPushButton *m_button = nullptr;
    QTimer *m_timer = nullptr;
    bool m_closing = false;
};

} // namespace sb::ui
