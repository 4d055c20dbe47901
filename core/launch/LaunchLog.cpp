#include "launch/LaunchLog.h"
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMutexLocker>

namespace sb {

namespace {
constexpr qsizetype kRecentBytes = 16 * 1024;
}

bool LaunchLog::open(QString *error)
{
    QMutexLocker lock(&m_mutex);
    QDir().mkpath(QFileInfo(m_file.fileName()).absolutePath());
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *error = QStringLiteral("cannot write %1: %2").arg(m_file.fileName(), m_file.errorString());
        return false;
    }
    return true;
}

void LaunchLog::appendLocked(const QByteArray &data)
{
    m_recent.append(data);
    if (m_recent.size() > 2 * kRecentBytes)
        m_recent.remove(0, m_recent.size() - kRecentBytes);
    QByteArray rest = data;
    if (m_written < m_keep && m_tail.isEmpty()) { // still in the head: straight to disk
        const QByteArray head = rest.left(m_keep - m_written);
        if (m_file.isOpen() && m_file.write(head) != head.size())
            m_writeFailed = true;
        m_file.flush();
        m_written += head.size();
        rest.remove(0, head.size());
    }
    if (rest.isEmpty())
        return;
    m_tail.append(rest);
    if (m_tail.size() > 2 * m_keep) { // trimmed in steps, so appending stays linear
        const qint64 cut = m_tail.size() - m_keep;
        m_tail.remove(0, cut);
        m_dropped += cut;
    }
}

void LaunchLog::append(const QByteArray &data)
{
    QMutexLocker lock(&m_mutex);
    appendLocked(data);
}

void LaunchLog::note(const QString &line)
{
    QMutexLocker lock(&m_mutex);
    appendLocked(QStringLiteral("[sweepbench %1] %2\n").arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate), line).toUtf8());
}

bool LaunchLog::finish()
{
    QMutexLocker lock(&m_mutex);
    if (m_tail.size() > m_keep) {
        m_dropped += m_tail.size() - m_keep;
        m_tail.remove(0, m_tail.size() - m_keep);
    }
    QByteArray out;
    if (m_dropped > 0)
        out = QStringLiteral("\n[sweepbench: %1 bytes of output dropped here; this log keeps the first and the last %2 bytes]\n")
                  .arg(m_dropped).arg(m_keep).toUtf8();
    out += m_tail;
    m_droppedTotal += m_dropped;
    m_dropped = 0;
    m_tail.clear();
    if (m_file.isOpen() && !out.isEmpty()) {
        if (m_file.write(out) != out.size())
            m_writeFailed = true;
        m_written = std::max(m_written, m_keep); // what follows is held as a tail again
    }
    if (m_file.isOpen() && !m_file.flush())
        m_writeFailed = true;
    return !m_writeFailed;
}

namespace {
QStringList lastOf(const QByteArray &recent, int lines)
{
    QList<QByteArray> all = recent.trimmed().split('\n');
    if (all.size() > lines)
        all = all.mid(all.size() - lines);
    QStringList out;
    for (const QByteArray &l : std::as_const(all))
        out << QString::fromUtf8(l).trimmed().left(300);
    return out;
}
} // namespace

QString LaunchLog::lastLines(int lines) const
{
    QMutexLocker lock(&m_mutex);
    return lastOf(m_recent, lines).join(QStringLiteral(" | "));
}

QString LaunchLog::recentLines(int lines) const
{
    QMutexLocker lock(&m_mutex);
    return m_recent.trimmed().isEmpty() ? QString() : lastOf(m_recent, lines).join(QLatin1Char('\n'));
}

qint64 LaunchLog::droppedBytes() const
{
    QMutexLocker lock(&m_mutex);
    return m_droppedTotal + m_dropped;
}

} // namespace sb
