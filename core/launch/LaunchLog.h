#pragma once
// OUT/servers/NAME.log: what a launched server wrote to stdout and stderr, bounded. The first
// `keepBytes` go to the file as they arrive; after that only the last `keepBytes` are held in
// memory and written behind a line that says how much was dropped in between when the log is
// finished (on stop, and when the sweep ends). A server that prints without pause (a debug log
// level, a crash loop) therefore costs at most twice keepBytes of disk and keepBytes of memory.
// Thread-safe: a reader thread appends while the engine thread asks for the last lines.
#include <QByteArray>
#include <QFile>
#include <QMutex>
#include <QString>
#include <algorithm>

namespace sb {

class LaunchLog
{
public:
    LaunchLog(const QString &path, qint64 keepBytes) : m_file(path), m_keep(std::max<qint64>(keepBytes, 1)) {}
    bool open(QString *error); // creates the folder; truncates an old log
    void append(const QByteArray &data);
    void note(const QString &line); // a line of SweepBench's own ("[sweepbench] started pid 123")
    // Writes the held tail behind the head with the "dropped" line; later output is appended
    // (and bounded) again. Returns false when the file could not be written.
    bool finish();
    // The last `lines` lines (each cut to 300 characters), for error messages.
    QString lastLines(int lines) const;
    // The same lines as they were written, one per line, for a window that shows the log.
    QString recentLines(int lines) const;
    qint64 droppedBytes() const;
    QString path() const { return m_file.fileName(); }

private:
    void appendLocked(const QByteArray &data);
    mutable QMutex m_mutex;
    QFile m_file;
    qint64 m_keep;
    qint64 m_written = 0;   // bytes in the file (the head, and earlier finished tails)
    QByteArray m_tail;      // held past the head, at most 2 * m_keep before trimming
    qint64 m_dropped = 0;   // dropped since the last finish()
    qint64 m_droppedTotal = 0;
    QByteArray m_recent;    // the last few KiB, whatever went where, for lastLines()
    bool m_writeFailed = false;
};

} // namespace sb
