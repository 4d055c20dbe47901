#pragma once
// The Run tab's log pane: the engine's log, and beside it one tab per server the sweep launches
// itself (`launch:`), following OUT/servers/NAME.log as the server writes it. The files are read
// on a timer, the last kTailBytes of each, only while a run goes: a server that logs every request
// costs one small read a second, never a growing document. Past launch.log_keep_mib the file
// holds only the head until the server stops (launch/LaunchLog.h), so until then the tab shows
// where that head ended.
#include <QStringList>
#include <QTabWidget>

class QPlainTextEdit;
class QTimer;

namespace sb::ui {

class ServerLogPane : public QTabWidget
{
    Q_OBJECT
public:
    // `engineLog` becomes the first tab.
    explicit ServerLogPane(QPlainTextEdit *engineLog, QWidget *parent = nullptr);

    // A run starts: one tab per launched server, reading OUTDIR/servers/NAME.log.
    void follow(const QString &outDir, const QStringList &serverNames);
    void stop();     // the run ended: one last read, then the timer stops
    void refresh();  // reads every file now (the timer's work)
    QPlainTextEdit *serverLog(const QString &name) const;

    static constexpr qint64 kTailBytes = 64 * 1024;

private:
    struct Followed {
        QString name;
        QString path;
        QPlainTextEdit *view = nullptr;
        qint64 lastSize = -1;
    };
    QList<Followed> m_followed;
    QTimer *m_timer = nullptr;
};

// The last `maxBytes` of a file, starting at a line boundary; empty when it cannot be read.
QString readLogTail(const QString &path, qint64 maxBytes, qint64 *size = nullptr);

} // namespace sb::ui
