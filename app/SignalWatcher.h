#pragma once
// Turns SIGINT/SIGTERM into a Qt signal on the main thread (self-pipe + QSocketNotifier), so a
// Ctrl+C cancels the sweep cleanly: in-flight requests aborted, profilers stopped, finished cells
// kept. A second Ctrl+C exits at once.
#include <QObject>

class QSocketNotifier;

namespace sb {

class SignalWatcher : public QObject
{
    Q_OBJECT
public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

Q_SIGNALS:
    void interrupted(int signal);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace sb
